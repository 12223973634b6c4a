import BlueproofBackend
import BlueproofTransport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A log file in a fresh temporary folder.
func temporaryLog(_ name: String) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bp-backend-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent(name).path
}

func removeLogFolder(_ log: String) {
    try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: log).deletingLastPathComponent().path)
}

@Suite("ChildProcess")
struct ChildProcessTests {
    @Test("an exit status is reported as it is")
    func exitStatus() async throws {
        let log = try temporaryLog("exit.log")
        defer { removeLogFolder(log) }
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "exit 3"], environment: [:],
                                     logPath: log, ignoreSIGPIPE: false)
        #expect(child.program == "sh")
        #expect(await child.exit(within: .seconds(10)) == .exited(3))
        #expect(child.exitStatus == .exited(3))
        #expect(!ChildProcessRegistry.shared.live.contains(child.pid))
    }

    @Test("a missing executable is a spawn error at once, not a dead child")
    func missingExecutable() throws {
        let log = try temporaryLog("missing.log")
        defer { removeLogFolder(log) }
        #expect {
            _ = try ChildProcess(executable: "/nonexistent/blueproof-no-such-program", arguments: [],
                                 environment: [:], logPath: log, ignoreSIGPIPE: false)
        } throws: { error in
            guard case let .spawnFailed(program, reason)? = error as? BackendError else { return false }
            return program == "blueproof-no-such-program" && reason == errnoText(ENOENT)
        }
    }

    @Test("a log that cannot be created is a spawn error naming the log")
    func unwritableLog() {
        #expect {
            _ = try ChildProcess(executable: "/bin/true", arguments: [], environment: [:],
                                 logPath: "/nonexistent-folder/child.log", ignoreSIGPIPE: false)
        } throws: { error in
            guard case let .spawnFailed(_, reason)? = error as? BackendError else { return false }
            return reason.contains("/nonexistent-folder/child.log")
        }
    }

    @Test("terminate() ends a long-running child with SIGTERM and unlists it")
    func terminate() async throws {
        let log = try temporaryLog("sleep.log")
        defer { removeLogFolder(log) }
        let child = try ChildProcess(executable: "/bin/sleep", arguments: ["100"], environment: [:],
                                     logPath: log, ignoreSIGPIPE: false)
        #expect(ChildProcessRegistry.shared.live.contains(child.pid))
        #expect(child.exitStatus == nil)
        let exit = await child.terminate()
        #expect(exit == .signalled(SIGTERM))
        #expect(child.exitStatus == .signalled(SIGTERM))
        #expect(!ChildProcessRegistry.shared.live.contains(child.pid))
        #expect(await child.terminate() == .signalled(SIGTERM), "terminate is idempotent")
    }

    @Test("the child gets the added environment, writes to its log, and leads its own process group")
    func environmentLogAndGroup() async throws {
        let log = try temporaryLog("env.log")
        defer { removeLogFolder(log) }
        let child = try ChildProcess(
            executable: "/bin/sh",
            arguments: ["-c", #"echo "value=$BLUEPROOF_TEST_VALUE"; echo "pgrp=$(cut -d' ' -f5 /proc/$$/stat)"; echo oops >&2"#],
            environment: ["BLUEPROOF_TEST_VALUE": "42 x"], logPath: log, ignoreSIGPIPE: false)
        #expect(await child.exit(within: .seconds(10)) == .exited(0))
        #expect(child.logTail() == "value=42 x\npgrp=\(child.pid)\noops")
        #expect(child.logTail(lines: 1) == "oops")
    }

    @Test("SIGPIPE is ignored in the child only when asked", arguments: [true, false])
    func sigpipe(_ ignore: Bool) async throws {
        let log = try temporaryLog("sigpipe.log")
        defer { removeLogFolder(log) }
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "grep SigIgn /proc/self/status"],
                                     environment: [:], logPath: log, ignoreSIGPIPE: ignore)
        #expect(await child.exit(within: .seconds(10)) == .exited(0))
        let text = child.logTail()
        let mask = try #require(UInt64(text.split(separator: "\t").last ?? "", radix: 16), "\(text)")
        #expect((mask & (1 << (UInt64(SIGPIPE) - 1)) != 0) == ignore, "SigIgn \(text)")
    }
}
