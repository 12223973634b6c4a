import Foundation
import Testing

/// A real component a test needs: a program, a library, a virtual controller.
///
/// Locally, a test whose component is missing is skipped with a message naming it and the
/// command that installs it. When the `CI` environment variable is set the test runs anyway and
/// the missing component fails it: CI installs every component, so nothing is skipped there.
///
/// Usage: `@Test(.requires(.tshark)) func … { let tshark = try RequiredComponent.tshark.require() … }`
public struct RequiredComponent: Sendable {
    public var name: String
    /// The component's path, or why it is missing (naming the install command).
    public var locate: @Sendable () -> Result<String, MissingComponent>

    public init(name: String, locate: @escaping @Sendable () -> Result<String, MissingComponent>) {
        self.name = name
        self.locate = locate
    }

    /// A program found on PATH.
    public static func onPath(_ executable: String, install: String) -> RequiredComponent {
        RequiredComponent(name: executable) {
            let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
            let found = searchPath.split(separator: ":").map { "\($0)/\(executable)" }
                .first { FileManager.default.isExecutableFile(atPath: $0) }
            return found.map { .success($0) }
                ?? .failure(MissingComponent(message: "\(executable) is not on PATH; install it with: \(install)"))
        }
    }

    public static let tshark = onPath("tshark", install: "apt-get install tshark")
    /// Ships with tshark (Debian package wireshark-common).
    public static let editcap = onPath("editcap", install: "apt-get install tshark")
    /// Ships with tshark (Debian package wireshark-common).
    public static let mergecap = onPath("mergecap", install: "apt-get install tshark")

    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    public var missingMessage: String? {
        if case let .failure(missing) = locate() { missing.message } else { nil }
    }

    /// The component's path; throws (failing the test) when it is missing, which only happens
    /// when the test was not skipped: on CI, or when the component vanished meanwhile.
    public func require() throws -> String {
        switch locate() {
        case let .success(path): return path
        case let .failure(missing):
            throw MissingComponent(message: missing.message + (Self.isCI ? " (CI is set: a missing component is a failure)" : ""))
        }
    }

    /// The paths of every component, in order; throws for the first one missing.
    @discardableResult
    public static func require(_ components: RequiredComponent...) throws -> [String] {
        try components.map { try $0.require() }
    }
}

public struct MissingComponent: Error, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

extension Trait where Self == ConditionTrait {
    /// Skips the test when one of `components` is missing, unless `CI` is set (then the test
    /// runs and ``RequiredComponent/require()`` fails it with the same message).
    public static func requires(_ components: RequiredComponent...) -> Self {
        let missing = components.compactMap(\.missingMessage)
        return .enabled(if: RequiredComponent.isCI || missing.isEmpty,
                        Comment(rawValue: "missing: " + missing.joined(separator: "; ")))
    }
}

extension Trait where Self == ConditionTrait {
    /// For the child side of a test that re-runs the test binary: enabled only when the parent
    /// sets `variable`, so on its own the child side is reported skipped, never passed.
    public static func childSide(of variable: String) -> Self {
        .enabled(if: ProcessInfo.processInfo.environment[variable] != nil,
                 "runs only inside the process its parent test starts (\(variable))")
    }
}
