import BlueproofFuzzing
import Glibc

/// The target BLUEPROOF_FUZZ_TARGET names; without one, or with an unknown one, the process
/// lists the targets and exits 2 before the first input.
let selectedTarget: FuzzTarget = {
    let name = getenv("BLUEPROOF_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    if let target = FuzzTargets.named(name) { return target }
    let names = FuzzTargets.all.map(\.name).joined(separator: ", ")
    let message = Array("blueproof-fuzz: set BLUEPROOF_FUZZ_TARGET to one of: \(names)\n".utf8)
    _ = message.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(2)
}()

/// libFuzzer's main calls this once before the first input.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutableRawPointer?, _ argv: UnsafeMutableRawPointer?) -> CInt {
    _ = selectedTarget
    return 0
}

/// libFuzzer's main calls this with every input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    selectedTarget.run(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
