import BlueproofControl
import BlueproofConformance
import BlueproofRadio
import Foundation

extension FuzzTargets {
    /// Text a user or a client hands blueproof: control-protocol lines, profiles, scenarios.
    static let text: [FuzzTarget] = [
        FuzzTarget("control-line", "bytes from a control-protocol client, read in pieces of the first byte's size: lines, requests, their fields") { bytes in
            ControlInput.read(Array(bytes.dropFirst()), piece: Int(bytes.first ?? 1))
        },
        FuzzTarget("profile-yaml", "a conformance profile file: safe YAML, keys, types and value ranges") { bytes in
            _ = try? Profile.load(path: scratchFile("profile-yaml", bytes), schema: nil)
        },
        FuzzTarget("scenario-yaml", "a radio scenario file: safe YAML, steps, faults and value ranges") { bytes in
            _ = try? RadioScenario.load(path: scratchFile("scenario-yaml", bytes))
        },
    ]

    /// One file per target and process, rewritten for every input, for readers that take paths.
    static func scratchFile(_ name: String, _ bytes: [UInt8]) -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("bp-fuzz-\(ProcessInfo.processInfo.processIdentifier)-\(name)").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }
}
