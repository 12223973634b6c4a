import Foundation
import Testing

/// An external program a test needs. Locally, a test whose component is missing is skipped
/// with a message naming the program and how to install it; when the `CI` environment
/// variable is set, the test runs anyway and a missing component is a failure (CI installs
/// every component, so none may be skipped there).
///
/// Usage: `@Test(.requires(.tshark)) func … { let tshark = try RequiredComponent.tshark.locate() … }`
struct RequiredComponent: Sendable {
    var executable: String
    var installHint: String

    static let tshark = RequiredComponent(executable: "tshark", installHint: "apt-get install tshark")
    /// Ships with tshark (Debian package wireshark-common).
    static let editcap = RequiredComponent(executable: "editcap", installHint: "apt-get install tshark")

    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    /// The executable's full path, searched on PATH.
    var path: String? {
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in searchPath.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(executable)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    var missingMessage: String {
        "\(executable) is not on PATH; install it with `\(installHint)`"
    }

    /// The executable's path; throws (failing the test) when it is missing, which only happens
    /// when the test was not skipped: on CI, or when the component vanished meanwhile.
    func locate() throws -> String {
        if let path { return path }
        throw MissingComponent(message: "\(missingMessage) (CI is set, so a missing component is a failure)")
    }

    struct MissingComponent: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

extension Trait where Self == ConditionTrait {
    /// Skips the test when `component` is missing, unless `CI` is set (then the test runs and
    /// ``RequiredComponent/locate()`` fails it).
    static func requires(_ component: RequiredComponent) -> Self {
        .enabled(if: RequiredComponent.isCI || component.path != nil,
                 Comment(rawValue: component.missingMessage))
    }
}

/// Runs a program to completion and returns its exit status and output. Stderr goes to a
/// temporary file, so neither stream can fill a pipe and block the program.
func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("blueproof-stderr-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errorFile) }
    let errorHandle = try FileHandle(forWritingTo: errorFile)
    defer { try? errorHandle.close() }

    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = errorHandle
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let errData = (try? Data(contentsOf: errorFile)) ?? Data()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}
