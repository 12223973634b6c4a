import BlueproofCapture
import BlueproofWire
import Foundation
import BlueproofTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A run killed with SIGKILL must leave a capture readable up to its last packet.
///
/// The test binary re-runs itself as the writing process: the parent starts
/// `<this test binary> --testing-library swift-testing --filter KillTests/childWriter` with
/// `BLUEPROOF_KILL_CHILD_CAPTURE` naming the capture file; in that child, `childWriter` writes
/// numbered packets through `PcapWriter`, says on stdout when the first ``readyAfter`` are
/// flushed, and goes on writing until it is killed. Anywhere else `childWriter` is disabled, so
/// a plain run reports it as skipped rather than as a test that passed. Needs `/proc/self/exe`
/// (Linux); the in-process variant in PcapWriterTests covers the same ground everywhere by
/// copying the bytes of a never-closed writer.
@Suite("SIGKILL")
struct KillTests {
    static let environmentKey = "BLUEPROOF_KILL_CHILD_CAPTURE"
    static let t0: Int64 = 1_718_000_000_000_000
    /// The child announces `flushed <n>` on stdout after this many packets.
    static let readyAfter = 300

    static func packet(_ number: Int) -> H4Packet {
        number.isMultiple(of: 5) ? SamplePackets.largeACL(size: 1000, seed: UInt8(number % 256))
                                 : SamplePackets.numbered(number)
    }

    @Test("child side of the SIGKILL test", .childSide(of: KillTests.environmentKey))
    func childWriter() throws {
        let path = try #require(ProcessInfo.processInfo.environment[Self.environmentKey])
        let writer = try PcapWriter(path: path)
        // Bounded, in case the parent died without killing us.
        for number in 0..<200_000 {
            writer.record(CaptureRecord(timestampMicros: Self.t0 + Int64(number),
                                        direction: number.isMultiple(of: 2) ? .sent : .received,
                                        packet: Self.packet(number)))
            if number + 1 == Self.readyAfter {
                // swift-testing reports on stderr, so stdout carries only this line.
                FileHandle.standardOutput.write(Data("flushed \(Self.readyAfter)\n".utf8))
            }
            // The pace of a run (about 40 s in all), so the kill lands mid-run; it waits for nothing.
            usleep(200)
        }
        Issue.record("the child writer was not killed")
    }

    @Test("a writer process killed with SIGKILL leaves a capture readable up to its last packet",
          .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/exe"), "needs /proc/self/exe (Linux)"),
          .timeLimit(.minutes(5)))
    func killedWriter() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.path("killed/run.pcap")
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")

        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = ["--testing-library", "swift-testing", "--filter", "KillTests/childWriter"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.environmentKey] = path
        child.environment = environment
        let announcements = Pipe()
        child.standardOutput = announcements
        child.standardError = FileHandle.nullDevice
        try child.run()

        // Wait for the child to say it flushed `readyAfter` packets (end of file: it exited
        // first), then kill it mid-run.
        let line = Self.firstLine(of: announcements.fileHandleForReading)
        let seen = line.hasPrefix("flushed ") ? Int(line.dropFirst("flushed ".count)) ?? 0 : 0
        let wasRunning = child.isRunning
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        try #require(wasRunning, "the child writer ended on its own (status \(child.terminationStatus))")
        try #require(seen >= Self.readyAfter, "the child never announced its packets (it said \"\(line)\")")
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(child.terminationStatus == SIGKILL)

        let file = try CaptureReader.read(path: path)
        #expect(file.truncated == nil)
        #expect(file.records.count >= seen)
        for (number, record) in file.records.enumerated() {
            #expect(record.packet == Self.packet(number), "record \(number)")
            #expect(record.timestampMicros == Self.t0 + Int64(number))
        }

        // Wireshark decodes every frame of what the killed run left.
        guard case let .success(tshark) = RequiredComponent.tshark.locate() else {
            if RequiredComponent.isCI { _ = try RequiredComponent.tshark.require() }
            Issue.record("not checked with tshark: \(RequiredComponent.tshark.missingMessage ?? "")", severity: .warning)
            return
        }
        #expect(try frameNumbers(tshark, path).count == file.records.count)
        #expect(try malformedFrames(tshark, path) == [])
    }

    /// The first line `handle` delivers, without its newline; what came before end of file
    /// when no newline did.
    private static func firstLine(of handle: FileHandle) -> String {
        var data = Data()
        while !data.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData  // blocks until bytes or end of file arrive
            if chunk.isEmpty { break }
            data += chunk
        }
        return String(decoding: data.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    }
}
