import BlueproofBackend
import Foundation
import BlueproofTestSupport
import Testing

/// The locators read the environment, which a test must not change inside a process whose
/// other tests read it concurrently. So the test binary re-runs itself: the parent starts
/// `<this binary> --testing-library swift-testing --filter ComponentLocatorTests/locatorChildSide`
/// with the overrides set and `BLUEPROOF_LOCATOR_CHILD`; the child prints one `LOCATOR name: …`
/// line per locator. Elsewhere `locatorChildSide` is skipped.
@Suite("ComponentLocator")
struct ComponentLocatorTests {
    static let childKey = "BLUEPROOF_LOCATOR_CHILD"

    @Test("child side of the locator tests", .childSide(of: ComponentLocatorTests.childKey))
    func locatorChildSide() {
        let locators: [(String, () throws(BackendError) -> String)] = [
            ("btvirt", ComponentLocator.btvirt), ("preload", ComponentLocator.preloadLibrary),
            ("rootcanal", ComponentLocator.rootcanal),
        ]
        var text = ""
        for (name, locate) in locators {
            do throws(BackendError) {
                text += "LOCATOR \(name): returned \(try locate())\n"
            } catch {
                text += "LOCATOR \(name): threw \(error.description.replacingOccurrences(of: "\n", with: " "))\n"
            }
        }
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Runs the child side with `environment` added and returns its `LOCATOR` lines by name.
    func locateInChild(_ environment: [String: String]) async throws -> [String: String] {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let log = try temporaryLog("locator.log")
        defer { removeLogFolder(log) }
        let child = try ChildProcess(
            executable: executable,
            arguments: ["--testing-library", "swift-testing", "--filter", "ComponentLocatorTests/locatorChildSide"],
            environment: environment.merging([Self.childKey: "1"]) { new, _ in new },
            logPath: log, ignoreSIGPIPE: false)
        let exit = await child.exit(within: .seconds(60))
        if exit == nil { await child.terminate() }
        try #require(exit == .exited(0), "child: \(child.logTail(lines: 30))")
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        var lines: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("LOCATOR ") {
            let body = line.dropFirst("LOCATOR ".count)
            guard let colon = body.firstIndex(of: ":") else { continue }
            lines[String(body[..<colon])] = String(body[body.index(after: colon)...].dropFirst())
        }
        return lines
    }

    @Test("btvirt is found on this machine, or its error names the Debian package")
    func btvirtHere() {
        do {
            let path = try ComponentLocator.btvirt()
            #expect(FileManager.default.isExecutableFile(atPath: path), "\(path)")
        } catch {
            #expect(error.description.contains("apt-get install bluez-test-tools"), "\(error)")
        }
    }

    @Test("the preload library is found beside the test binary after swift build",
          .enabled(if: ProcessInfo.processInfo.environment["BLUEPROOF_PRELOAD"] == nil))
    func preloadHere() throws {
        let path = try ComponentLocator.preloadLibrary()
        #expect(path.hasSuffix("/libBlueproofPreload.so"))
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test("overrides that name an existing file are used as they are",
          .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/exe"), "needs /proc/self/exe (Linux)"))
    func overridesUsed() async throws {
        let lines = try await locateInChild([
            "BLUEPROOF_BTVIRT": "/bin/true", "BLUEPROOF_PRELOAD": "/bin/sh", "BLUEPROOF_ROOTCANAL": "/bin/false",
        ])
        #expect(lines == ["btvirt": "returned /bin/true", "preload": "returned /bin/sh", "rootcanal": "returned /bin/false"])
    }

    /// Known bug: ComponentLocator.swift:20, :26 and :37 return BLUEPROOF_BTVIRT,
    /// BLUEPROOF_PRELOAD and BLUEPROOF_ROOTCANAL without checking that they name a file, so a
    /// wrong override surfaces later as a spawn failure (or, for the preload library, as a
    /// loader warning in the controller's log) instead of "missing; install it with: …".
    @Test("an override naming no file is reported as a missing component with its install command",
          .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/exe"), "needs /proc/self/exe (Linux)"))
    func overrideNamingNothing() async throws {
        let lines = try await locateInChild([
            "BLUEPROOF_BTVIRT": "/nonexistent/btvirt", "BLUEPROOF_PRELOAD": "/nonexistent/libBlueproofPreload.so",
            "BLUEPROOF_ROOTCANAL": "/nonexistent/rootcanal",
        ])
        try #require(lines.count == 3, "child lines: \(lines)")
        #expect(lines["btvirt"]?.hasPrefix("threw") == true && lines["btvirt"]?.contains("apt-get install bluez-test-tools") == true,
                "btvirt: \(lines["btvirt"] ?? "-")")
        #expect(lines["preload"]?.hasPrefix("threw") == true && lines["preload"]?.contains("swift build") == true,
                "preload: \(lines["preload"] ?? "-")")
        #expect(lines["rootcanal"]?.hasPrefix("threw") == true && lines["rootcanal"]?.contains("rootcanal==1.10.0") == true,
                "rootcanal: \(lines["rootcanal"] ?? "-")")
    }
}
