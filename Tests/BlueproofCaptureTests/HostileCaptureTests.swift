@testable import BlueproofCapture
import Foundation
import Testing

/// Files built to break the reader: extreme timestamps, absurd lengths, things that are not
/// files. Each must end in a record or a ``CaptureError``, never a trap.
@Suite("CaptureReader: hostile input")
struct HostileCaptureTests {
    @Test("pcapng with ts_high 0xffffffff reads without trapping; the stamp is clamped")
    func pcapngTimestampOverflow() throws {
        var builder = PcapngBuilder(linkType: 201)
        builder.add(timestampHigh: 0xFFFF_FFFF, timestampLow: 0xFFFF_FFFF, data: [0, 0, 0, 0] + SamplePackets.reset.h4Bytes)
        builder.add(timestampHigh: 0, timestampLow: 1_000_000, data: [0, 0, 0, 1] + SamplePackets.resetComplete.h4Bytes)
        let file = try readCapture(builder.bytes)
        #expect(file.format == .pcapng)
        #expect(file.truncated == nil)
        #expect(file.records.map(\.packet) == [SamplePackets.reset, SamplePackets.resetComplete])
        #expect(file.records.map(\.timestampMicros) == [.max, 1_000_000])
        #expect(file.records.map(\.isTimestampInRange) == [false, true])
    }

    @Test("btsnoop stamps at both ends of 64 bits read without trapping", arguments: [
        (UInt64.max, Int64.max),  // past Int64 µs: clamped
        (0, -0x00DC_DDB3_0F2F_8000),  // btsnoop's year 0
        (1 << 63, 0x7F23_224C_F0D0_8000),
    ] as [(UInt64, Int64)])
    func btsnoopTimestampExtremes(stamp: UInt64, unixMicros: Int64) throws {
        var bytes = BtsnoopBuilder(datalink: 1002).bytes
        for word in [UInt32(4), 4, 0, 0, UInt32(stamp >> 32), UInt32(truncatingIfNeeded: stamp)] {
            withUnsafeBytes(of: word.bigEndian) { bytes += $0 }
        }
        bytes += SamplePackets.reset.h4Bytes
        let file = try readCapture(bytes)
        #expect(file.records.map(\.packet) == [SamplePackets.reset])
        #expect(file.records.first?.timestampMicros == unixMicros)
    }

    @Test("a btsnoop record declaring 4 GiB is a typed error naming the limit, not an allocation")
    func btsnoopHugeRecord() throws {
        var builder = BtsnoopBuilder(datalink: 1002)
        builder.add(flags: 0, unixMicros: 1_700_000_000_000_000, data: SamplePackets.reset.h4Bytes)
        var bytes = builder.bytes
        for word in [UInt32.max, UInt32.max, 0, 0, 0, 0] as [UInt32] {
            withUnsafeBytes(of: word.bigEndian) { bytes += $0 }
        }
        bytes += [0x01, 0x03, 0x0C, 0x00]
        let file = try readCapture(bytes)
        #expect(file.records.map(\.packet) == [SamplePackets.reset])
        #expect(file.truncated == .recordTooLong(path: file.path, record: 2, byteOffset: 16 + 24 + 4,
                                                 length: Int(UInt32.max), limit: CaptureReader.maximumRecordLength))
        #expect(file.truncated?.description.contains("262144") == true)
    }

    @Test("a pcap record declaring more than libpcap's bound is refused with the length and the limit, not allocated")
    func pcapHugeRecord() throws {
        var builder = PcapBuilder(linkType: 201)
        builder.add(unixMicros: 1_000_000, data: [0, 0, 0, 0] + SamplePackets.reset.h4Bytes)
        var bytes = builder.bytes
        for word in [2, 0, 300_000, 300_000] as [UInt32] {
            withUnsafeBytes(of: word.littleEndian) { bytes += $0 }
        }
        bytes += [0, 0, 0, 0, 0x01, 0x03, 0x0C, 0x00]
        let file = try readCapture(bytes)
        #expect(file.records.map(\.packet) == [SamplePackets.reset])
        #expect(file.truncated == .recordTooLong(path: file.path, record: 2, byteOffset: 24 + 16 + 8,
                                                 length: 300_000, limit: CaptureReader.maximumRecordLength))
        #expect(file.truncated?.description.contains("300000") == true)
    }

    // MARK: not files

    @Test("a directory given as a capture says it is a directory")
    func directory() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try expectCannotOpen(folder.url.path, reason: "is a directory")
    }

    @Test("a symbolic link loop says so")
    func symlinkLoop() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let loop = folder.path("loop")
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        try expectCannotOpen(loop, reason: "too many levels of symbolic links")
    }

    @Test("a missing file says there is no such file")
    func missing() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try expectCannotOpen(folder.path("absent.pcap"), reason: "no such file")
    }

    @Test("open failures are named from errno", arguments: [
        (EACCES, "permission denied"), (EISDIR, "is a directory"), (ELOOP, "too many levels of symbolic links"),
        (ENOENT, "no such file"), (ENOTDIR, "a component of the path is not a directory"),
    ])
    func openReasons(code: Int32, reason: String) {
        #expect(CaptureError.openReason(errno: code) == reason)
    }

    // MARK: helpers

    private func expectCannotOpen(_ path: String, reason: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(sourceLocation: sourceLocation) {
            _ = try CaptureReader.read(path: path)
        } throws: { error in
            error as? CaptureError == .cannotOpen(path: path, reason: reason)
        }
    }

}
