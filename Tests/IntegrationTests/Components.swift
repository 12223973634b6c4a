import BlueproofBackend
import BlueproofTestSupport
import Foundation

/// The project's own components, found as the product finds them (``ComponentLocator``),
/// whose errors already name the install command.
extension RequiredComponent {
    static let btvirt = located("btvirt") { try ComponentLocator.btvirt() }
    static let rootcanal = located("rootcanal") { try ComponentLocator.rootcanal() }
    static let preload = located("libBlueproofPreload.so") { try ComponentLocator.preloadLibrary() }
    /// Headless Chromium, to check report.html as a browser shows it (scripts/setup installs it).
    static let chromium = onPath("chromium", install: "apt-get install chromium")

    /// The `blueproof` executable, built beside the test binary by `swift build`.
    static let cli = RequiredComponent(name: "blueproof") {
        let folder = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "")
            .deletingLastPathComponent()
        let path = folder.appendingPathComponent("blueproof").path
        return FileManager.default.isExecutableFile(atPath: path)
            ? .success(path)
            : .failure(MissingComponent(message: "\(path) is missing; build it with: swift build"))
    }

    private static func located(_ name: String, _ locate: @escaping @Sendable () throws -> String) -> RequiredComponent {
        RequiredComponent(name: name) { Result { try locate() }.mapError { MissingComponent(message: "\($0)") } }
    }
}
