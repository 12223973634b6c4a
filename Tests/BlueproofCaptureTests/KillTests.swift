import BlueproofCapture
import BlueproofWire
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A run killed with SIGKILL must leave a capture readable up to its last packet.
///
/// The test binary re-runs itself as the writing process: the parent starts
/// `<this test binary> --testing-library swift-testing --filter KillTests/childWriter` with
/// `BLUEPROOF_KILL_CHILD_CAPTURE` naming the capture file; in that child, `childWriter` writes
/// numbered packets through `PcapWriter` until it is killed. Elsewhere `childWriter` returns at
/// once. Needs `/proc/self/exe` (Linux); the in-process variant in PcapWriterTests covers the
/// same ground everywhere by copying the bytes of a never-closed writer.
@Suite("SIGKILL")
struct KillTests {
    static let environmentKey = "BLUEPROOF_KILL_CHILD_CAPTURE"
    static let t0: Int64 = 1_718_000_000_000_000

    static func packet(_ number: Int) -> H4Packet {
        number.isMultiple(of: 5) ? SamplePackets.largeACL(size: 1000, seed: UInt8(number % 256))
                                 : SamplePackets.numbered(number)
    }

    @Test("child side of the SIGKILL test (does nothing unless started by it)")
    func childWriter() throws {
        guard let path = ProcessInfo.processInfo.environment[Self.environmentKey] else { return }
        let writer = try PcapWriter(path: path)
        // Bounded, in case the parent died without killing us.
        for number in 0..<200_000 {
            writer.record(CaptureRecord(timestampMicros: Self.t0 + Int64(number),
                                        direction: number.isMultiple(of: 2) ? .sent : .received,
                                        packet: Self.packet(number)))
            usleep(200)
        }
        Issue.record("the child writer was not killed")
    }

    @Test("a writer process killed with SIGKILL leaves a capture readable up to its last packet",
          .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/exe"), "needs /proc/self/exe (Linux)"))
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
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()

        // Let it write a few hundred packets, then kill it mid-run.
        let deadline = Date().addingTimeInterval(60)
        var seen = 0
        while seen < 300, Date() < deadline, child.isRunning {
            usleep(20_000)
            seen = (try? CaptureReader.read(path: path).records.count) ?? 0
        }
        let wasRunning = child.isRunning
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        try #require(wasRunning, "the child writer ended on its own (status \(child.terminationStatus))")
        try #require(seen >= 300, "the child wrote only \(seen) packets in 60 s")
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
        guard let tshark = RequiredComponent.tshark.path else {
            if RequiredComponent.isCI { _ = try RequiredComponent.tshark.locate() }
            Issue.record("not checked with tshark: \(RequiredComponent.tshark.missingMessage)", severity: .warning)
            return
        }
        #expect(try tsharkFields(tshark, path, ["frame.number"]).count == file.records.count)
        #expect(try malformedFrames(tshark, path) == [])
    }
}
