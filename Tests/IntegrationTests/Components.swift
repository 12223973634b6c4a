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
        checked(Result { try ComponentLocator.btvirt() }, install: "apt-get install bluez-test-tools")
    }
    static let rootcanal = Component(name: "rootcanal") {
        checked(Result { try ComponentLocator.rootcanal() },
                install: "python3 -m venv .venv && .venv/bin/pip install rootcanal==1.10.0")
    }
    static let preload = Component(name: "libBlueproofPreload.so") {
        checked(Result { try ComponentLocator.preloadLibrary() }, install: "swift build")
    }
    static let tshark = Component(name: "tshark") {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let found = (path.split(separator: ":").map(String.init) + ["/usr/bin"])
            .map { "\($0)/tshark" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        return found.map { .success($0) }
            ?? .failure(MissingComponent(message: "tshark is not on PATH; install it with: apt-get install tshark"))
    }

    /// The locator's answer, checked: the locators return an environment override as it is,
    /// so a path that names no file is reported here as missing.
    private static func checked(_ located: Result<String, any Error>, install: String) -> Result<String, MissingComponent> {
        switch located {
        case let .success(path) where FileManager.default.fileExists(atPath: path):
            .success(path)
        case let .success(path):
            .failure(MissingComponent(message: "\(path) does not exist; install it with: \(install)"))
        case let .failure(error):
            .failure(MissingComponent(message: "\(error)"))
        }
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
