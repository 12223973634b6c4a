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
        let install = "scripts/setup, or: python3 -m venv .venv && .venv/bin/pip install rootcanal==1.10.0"
        if let path = try override("BLUEPROOF_ROOTCANAL", "Rootcanal", install: install) { return path }
        if let (_, binary) = inVenv("rootcanal/bin/linux-x86_64/rootcanal"), FileManager.default.isExecutableFile(atPath: binary) {
            return binary
        }
        throw .componentMissing(component: "Rootcanal 1.10.0 (looked for .venv beside the project)", install: install)
    }

    /// Bumble's benchmark, as ``bumbleBench()`` finds it.
    public struct BumbleBench: Hashable, Sendable {
        /// The venv's python, with Bumble installed.
        public var python: String
        /// `scripts/bumble-bench-gatt.py`: `bumble-bench` with its GATT sender fixed.
        public var script: String
    }

    /// The python of a project venv with Bumble (`BLUEPROOF_VENV`, else a `.venv` found as for
    /// Rootcanal), and the project's `scripts/bumble-bench-gatt.py` (`BLUEPROOF_BUMBLE_BENCH`,
    /// else found from the executable's folder or the working folder upwards: the repository
    /// root holds `scripts/`).
    public static func bumbleBench() throws(BackendError) -> BumbleBench {
        let scriptName = "scripts/bumble-bench-gatt.py"
        let scriptInstall = "git checkout -- \(scriptName) (it ships with blueproof), or set BLUEPROOF_BUMBLE_BENCH"
        var script = try override("BLUEPROOF_BUMBLE_BENCH", "bumble-bench-gatt.py", install: scriptInstall)
        if script == nil {
            script = ancestors().map { $0.appendingPathComponent(scriptName).path }
                .first { FileManager.default.fileExists(atPath: $0) }
        }
        guard let script else {
            throw .componentMissing(component: "\(scriptName) (looked upwards from \(executableDirectory.path) and the working folder)",
                                    install: scriptInstall)
        }
        guard let (venv, _) = inVenv("bumble/apps/bench.py"),
              FileManager.default.isExecutableFile(atPath: venv.appendingPathComponent("bin/python").path) else {
            throw .componentMissing(component: "Bumble (bumble-bench) in a .venv beside the project",
                                    install: "scripts/setup, or: python3 -m venv .venv && .venv/bin/pip install bumble==0.0.236")
        }
        return BumbleBench(python: venv.appendingPathComponent("bin/python").path, script: script)
    }

    /// The executable's folder and the working folder, each with five of its parents.
    static func ancestors() -> [URL] {
        var folders: [URL] = []
        for start in [executableDirectory, URL(fileURLWithPath: FileManager.default.currentDirectoryPath)] {
            var folder = start
            for _ in 0..<6 {
                folders.append(folder)
                folder.deleteLastPathComponent()
            }
        }
        return folders
    }

    /// The first project venv (`BLUEPROOF_VENV`, else `.venv` in one of ``ancestors()``) whose
    /// site-packages hold `file`, and that file's path.
    static func inVenv(_ file: String) -> (venv: URL, path: String)? {
        var venvs: [URL] = []
        if let venv = ProcessInfo.processInfo.environment["BLUEPROOF_VENV"] { venvs.append(URL(fileURLWithPath: venv)) }
        venvs += ancestors().map { $0.appendingPathComponent(".venv") }
        for venv in venvs {
            let lib = venv.appendingPathComponent("lib")
            guard let pythons = try? FileManager.default.contentsOfDirectory(atPath: lib.path) else { continue }
            for python in pythons.sorted() where python.hasPrefix("python3") {
                let path = lib.appendingPathComponent("\(python)/site-packages/\(file)").path
                if FileManager.default.fileExists(atPath: path) { return (venv, path) }
            }
        }
        return nil
    }
}
