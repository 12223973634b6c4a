import BlueproofBackend
import Foundation
import Testing

/// A real component an integration test needs. Locally, a test whose component is missing is
/// skipped with a message naming the component and how to install it; when the `CI`
/// environment variable is set the test runs anyway and the missing component fails it (CI
/// installs every component, so nothing is skipped there).
///
/// Usage: `@Test(.requires(.btvirt, .preload)) func … { try Component.require(.btvirt, .preload) … }`
struct Component: Sendable {
    var name: String
    /// The component's path, or why it is missing (naming the install command).
    var locate: @Sendable () -> Result<String, MissingComponent>

    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    static let btvirt = Component(name: "btvirt") {
        located { try ComponentLocator.btvirt() }
    }
    static let rootcanal = Component(name: "rootcanal") {
        located { try ComponentLocator.rootcanal() }
    }
    static let preload = Component(name: "libBlueproofPreload.so") {
        located { try ComponentLocator.preloadLibrary() }
    }
    static let tshark = Component(name: "tshark") {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let found = (path.split(separator: ":").map(String.init) + ["/usr/bin"])
            .map { "\($0)/tshark" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        return found.map { .success($0) }
            ?? .failure(MissingComponent(message: "tshark is not on PATH; install it with: apt-get install tshark"))
    }

    /// The locator's answer; its error already names the install command.
    private static func located(_ locate: () throws -> String) -> Result<String, MissingComponent> {
        Result { try locate() }.mapError { MissingComponent(message: "\($0)") }
    }

    /// The `blueproof` executable, built beside the test binary by `swift build`.
    static let cli = Component(name: "blueproof") {
        let folder = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "")
            .deletingLastPathComponent()
        let path = folder.appendingPathComponent("blueproof").path
        return FileManager.default.isExecutableFile(atPath: path)
            ? .success(path)
            : .failure(MissingComponent(message: "\(path) is missing; build it with: swift build"))
    }

    var missingMessage: String? {
        if case let .failure(missing) = locate() { missing.message } else { nil }
    }

    /// Throws (failing the test) when one of `components` is missing: only reached when the
    /// test was not skipped, i.e. on CI or when the component vanished since discovery.
    @discardableResult
    static func require(_ components: Component...) throws -> [String] {
        try components.map { component in
            switch component.locate() {
            case let .success(path): return path
            case let .failure(missing):
                throw MissingComponent(message: missing.message
                    + (isCI ? " (CI is set: a missing component is a failure)" : ""))
            }
        }
    }
}

struct MissingComponent: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

extension Trait where Self == ConditionTrait {
    /// Skips the test when one of `components` is missing, unless `CI` is set (then the test
    /// runs and ``Component/require(_:)`` fails it with the same message).
    static func requires(_ components: Component...) -> Self {
        let missing = components.compactMap(\.missingMessage)
        return .enabled(if: Component.isCI || missing.isEmpty,
                        Comment(rawValue: "missing: " + missing.joined(separator: "; ")))
    }
}
