import BlueproofTransmitter
import Foundation
import Testing

/// Two processes updating one session directory lose no change: the `flock` in `update`
/// excludes across processes, not only within one.
///
/// The parent starts `<this test binary> --filter SessionProcessTests/childCounter` with
/// `BLUEPROOF_SESSION_COUNT_CHILD` naming the store directory; the child makes
/// `updatesPerProcess` increments, saying `started` after the first, and exits; from that line on
/// the parent makes as many of its own. Anywhere
/// else `childCounter` is disabled and reported as skipped. Needs `/proc/self/exe` (Linux).
@Suite("Session shared between processes")
struct SessionProcessTests {
    static let environmentKey = "BLUEPROOF_SESSION_COUNT_CHILD"
    static let updatesPerProcess = 150

    @Test("child side of the two-process update test",
          .enabled(if: ProcessInfo.processInfo.environment[SessionProcessTests.environmentKey] != nil,
                   "runs only inside the process its parent test starts (\(SessionProcessTests.environmentKey))"))
    func childCounter() throws {
        let directory = try #require(ProcessInfo.processInfo.environment[Self.environmentKey])
        let store = SessionStore(directory: URL(fileURLWithPath: directory, isDirectory: true))
        for step in 0..<Self.updatesPerProcess {
            _ = try store.update {
                $0.secureConnectionExpirationLimit += 1
                $0.secureConnections[.random()] = Date()
            }
            // swift-testing reports on stderr, so stdout carries only this line.
            if step == 0 { FileHandle.standardOutput.write(Data("started\n".utf8)) }
        }
    }

    @Test("updates from two processes on one directory all land",
          .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/exe"), "needs /proc/self/exe (Linux)"),
          .timeLimit(.minutes(5)))
    func twoProcesses() throws {
        let folder = try SessionTestFolder()
        defer { folder.cleanUp() }
        let store = folder.store()
        let initial = try store.loadOrCreate()

        let child = Process()
        child.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        child.arguments = ["--testing-library", "swift-testing", "--filter", "SessionProcessTests/childCounter"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.environmentKey] = store.directory.path
        child.environment = environment
        let announcements = Pipe()
        child.standardOutput = announcements
        child.standardError = FileHandle.nullDevice
        try child.run()
        // Start once the child is updating, so the two processes' updates interleave.
        let first = announcements.fileHandleForReading.readData(ofLength: "started\n".utf8.count)
        try #require(first == Data("started\n".utf8), "the child did not start updating")
        for _ in 0..<Self.updatesPerProcess {
            _ = try store.update {
                $0.secureConnectionExpirationLimit += 1
                $0.secureConnections[.random()] = Date()
            }
        }
        child.waitUntilExit()
        #expect(child.terminationReason == .exit)
        #expect(child.terminationStatus == 0)

        let final = try #require(try store.load())
        #expect(final.identity == initial.identity)
        #expect(final.secureConnectionExpirationLimit == initial.secureConnectionExpirationLimit + 2 * Self.updatesPerProcess)
        #expect(final.secureConnections.count == 2 * Self.updatesPerProcess)
    }
}
