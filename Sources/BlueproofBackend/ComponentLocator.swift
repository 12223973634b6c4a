import Foundation

/// Finds the programs and libraries the backends run, and says how to install a missing one.
public enum ComponentLocator {
    /// The folder holding the running executable (the build folder in development and tests).
    static var executableDirectory: URL {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: exe).deletingLastPathComponent()
    }

    /// A program on PATH or in the usual system folders.
    static func program(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/sbin", "/usr/local/bin"]
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The path an environment variable names, checked: a wrong override is a missing component.
    static func override(_ variable: String, _ component: String, install: String) throws(BackendError) -> String? {
        guard let path = ProcessInfo.processInfo.environment[variable] else { return nil }
        guard FileManager.default.fileExists(atPath: path) else {
            throw .componentMissing(component: "\(component) (\(variable) names \(path), which does not exist)", install: install)
        }
        return path
    }

    public static func btvirt() throws(BackendError) -> String {
        let install = "apt-get install bluez-test-tools"
        if let path = try override("BLUEPROOF_BTVIRT", "btvirt", install: install) ?? program("btvirt") { return path }
        throw .componentMissing(component: "btvirt (BlueZ emulator)", install: install)
    }

    /// The preload library built with the tool (`libBlueproofPreload.so`, next to the executable).
    public static func preloadLibrary() throws(BackendError) -> String {
        if let path = try override("BLUEPROOF_PRELOAD", "libBlueproofPreload.so",
                                   install: "swift build (builds every product, the preload library with it)") {
            return path
        }
        let beside = executableDirectory.appendingPathComponent("libBlueproofPreload.so").path
        if FileManager.default.fileExists(atPath: beside) { return beside }
        throw .componentMissing(component: "libBlueproofPreload.so (expected beside \(executableDirectory.path))",
                                install: "swift build (builds every product, the preload library with it)")
    }

    /// The Rootcanal binary from a project virtual environment (`.venv`), found from the
    /// executable's folder or the working folder upwards, or named by `BLUEPROOF_ROOTCANAL`.
    public static func rootcanal() throws(BackendError) -> String {
        let env = ProcessInfo.processInfo.environment
        let install = "scripts/setup, or: python3 -m venv .venv && .venv/bin/pip install rootcanal==1.10.0"
        if let path = try override("BLUEPROOF_ROOTCANAL", "Rootcanal", install: install) { return path }
        var venvs: [URL] = []
        if let venv = env["BLUEPROOF_VENV"] { venvs.append(URL(fileURLWithPath: venv)) }
        for start in [executableDirectory, URL(fileURLWithPath: FileManager.default.currentDirectoryPath)] {
            var folder = start
            for _ in 0..<6 {
                venvs.append(folder.appendingPathComponent(".venv"))
                folder.deleteLastPathComponent()
            }
        }
        for venv in venvs {
            let lib = venv.appendingPathComponent("lib")
            guard let pythons = try? FileManager.default.contentsOfDirectory(atPath: lib.path) else { continue }
            for python in pythons.sorted() where python.hasPrefix("python3") {
                let binary = lib.appendingPathComponent("\(python)/site-packages/rootcanal/bin/linux-x86_64/rootcanal").path
                if FileManager.default.isExecutableFile(atPath: binary) { return binary }
            }
        }
        throw .componentMissing(component: "Rootcanal 1.10.0 (looked for .venv beside the project)", install: install)
    }
}
