import BlueproofTransmitter
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A process killed with SIGKILL while it writes the session leaves the old or the new
/// session, never a broken one.
///
/// The test binary re-runs itself as the writer: the parent starts `<this test binary>
/// --testing-library swift-testing --filter SessionKillTests/childWriter` with
/// `BLUEPROOF_SESSION_KILL_CHILD` naming the store directory. The child loops on `update`, each
/// one adding 1 to `secureConnectionExpirationLimit` (the counter) and rewriting a secure
/// connection, and prints `wrote <counter>` after each. The parent kills it after a random
/// number of announced writes, so the kill lands at a random point of a later write. Anywhere
/// else `childWriter` is disabled and reported as skipped. Needs `/proc/self/exe` (Linux).
@Suite("Session SIGKILL")
struct SessionKillTests {
    static let environmentKey = "BLUEPROOF_SESSION_KILL_CHILD"
    static let rounds = 10
    static let knownKeyCount = 300

    @Test("child side of the session SIGKILL test",
          .enabled(if: ProcessInfo.processInfo.environment[SessionKillTests.environmentKey] != nil,
                   "runs only inside the process its parent test starts (\(SessionKillTests.environmentKey))"))
    func childWriter() throws {
        let directory = try #require(ProcessInfo.processInfo.environment[Self.environmentKey])
        let store = SessionStore(directory: URL(fileURLWithPath: directory, isDirectory: true))
        let peers = (0..<8).map { _ in UserID.random() }
        // Bounded, in case the parent died without killing us.
        for step in 0..<20_000 {
            let record = try store.update {
                // A session of some size (about 140 kB), so a write is not a single small block.
                if $0.knownKeys.count < Self.knownKeyCount {
                    for _ in 0..<Self.knownKeyCount { $0.knownKeys[.random()] = $0.identity.publicKeys }
                }
                $0.secureConnectionExpirationLimit += 1
                $0.secureConnections[peers[step % peers.count]] = Date()
            }
            // swift-testing reports on stderr, so stdout carries only these lines.
            FileHandle.standardOutput.write(Data("wrote \(record.secureConnectionExpirationLimit)\n".utf8))
        }
        Issue.record("the child writer was not killed")
    }

    @Test("a session writer killed with SIGKILL at random moments leaves a loadable old or new session",
          .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/exe"), "needs /proc/self/exe (Linux)"),
          .timeLimit(.minutes(5)))
    func killedWriter() throws {
        let folder = try SessionTestFolder()
        defer { folder.cleanUp() }
        let store = folder.store()
        let initial = try store.loadOrCreate()
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var lastCounter = initial.secureConnectionExpirationLimit

        for round in 0..<Self.rounds {
            let child = Process()
            child.executableURL = URL(fileURLWithPath: executable)
            child.arguments = ["--testing-library", "swift-testing", "--filter", "SessionKillTests/childWriter"]
            var environment = ProcessInfo.processInfo.environment
            environment[Self.environmentKey] = store.directory.path
            child.environment = environment
            let announcements = Pipe()
            child.standardOutput = announcements
            child.standardError = FileHandle.nullDevice
            try child.run()

            let target = Int.random(in: 1...40)
            let lines = LineReader(announcements.fileHandleForReading)
            var announced: Int?
            for _ in 0..<target {
                guard let line = lines.next(), line.hasPrefix("wrote "), let value = Int(line.dropFirst(6)) else { break }
                announced = value
            }
            let wasRunning = child.isRunning
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            try #require(wasRunning, "round \(round): the child ended on its own (status \(child.terminationStatus))")
            let written = try #require(announced, "round \(round): the child announced no write")
            #expect(child.terminationReason == .uncaughtSignal)

            let record = try #require(try store.load(), "round \(round): no session after the kill")
            #expect(record.identity == initial.identity, "round \(round)")
            // At least what the child announced; more if it finished further writes before the signal.
            #expect(record.secureConnectionExpirationLimit >= written, "round \(round)")
            #expect(record.secureConnectionExpirationLimit > lastCounter, "round \(round)")
            lastCounter = record.secureConnectionExpirationLimit
        }
        // The store is still writable after the kills: a killed holder's lock was released.
        let after = try store.update { $0.secureConnectionExpirationLimit += 1 }
        #expect(after.secureConnectionExpirationLimit == lastCounter + 1)
        // A write under the lock clears the temporary files the killed writers left.
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory.path).sorted()
        #expect(names == ["session.json", "session.lock"])
    }
}

/// Reads lines from a pipe, blocking until each arrives; nil at end of file.
private final class LineReader {
    private let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle) { self.handle = handle }

    func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer = Data(buffer[(newline + 1)...])
                return line
            }
            let chunk = handle.availableData  // blocks until bytes or end of file arrive
            if chunk.isEmpty { return nil }
            buffer += chunk
        }
    }
}
