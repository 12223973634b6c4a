@testable import BlueproofCapture
import Testing

/// The classic pcap record layer parsed in Swift (``PcapSource``): every byte order and time
/// unit pcap defines, the modified record header, and each way a file can be wrong.
@Suite("PcapSource")
struct PcapSourceTests {
    /// A pcap file of link type 201 with the given magic (as read big-endian), written in that
    /// magic's byte order; `fraction` in the file's time unit; `extra` octets after each record
    /// header (8 for the modified format).
    static func file(magic: UInt32, version: (UInt16, UInt16) = (2, 4), snapLength: UInt32 = 65_535,
                     records: [(seconds: Int32, fraction: Int32, data: [UInt8])], extra: Int = 0) -> [UInt8] {
        let bigEndian = PcapSource.kind(magic)?.bigEndian ?? true
        var bytes: [UInt8] = []
        func put32(_ value: UInt32) { withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian) { bytes += $0 } }
        func put16(_ value: UInt16) { withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian) { bytes += $0 } }
        withUnsafeBytes(of: magic.bigEndian) { bytes += $0 }
        put16(version.0)
        put16(version.1)
        for value in [0, 0, snapLength, 201] as [UInt32] { put32(value) }
        for record in records {
            for value in [UInt32(bitPattern: record.seconds), UInt32(bitPattern: record.fraction),
                          UInt32(record.data.count), UInt32(record.data.count)] { put32(value) }
            bytes += [UInt8](repeating: 0xEE, count: extra)
            bytes += record.data
        }
        return bytes
    }

    static let reset = [0, 0, 0, 0] + SamplePackets.reset.h4Bytes
    static let resetComplete = [0, 0, 0, 1] + SamplePackets.resetComplete.h4Bytes

    @Test("both byte orders, microsecond and nanosecond times and the modified header read the same packets and times",
          arguments: [
              (0xD4C3_B2A1, false, 0), (0xA1B2_C3D4, false, 0),  // µs, little- and big-endian
              (0x4D3C_B2A1, true, 0), (0xA1B2_3C4D, true, 0),    // ns
              (0x34CD_B2A1, false, 8), (0xA1B2_CD34, false, 8),  // modified (Kuznetzov)
          ] as [(UInt32, Bool, Int)])
    func formats(magic: UInt32, nanoseconds: Bool, extra: Int) throws {
        let scale: Int32 = nanoseconds ? 1000 : 1
        let capture = try readCapture(Self.file(magic: magic, records: [
            (1_700_000_000, 250_000 * scale, Self.reset), (-2, 7 * scale, Self.resetComplete),
        ], extra: extra))
        #expect(capture.format == .pcap && capture.linkType == 201 && capture.truncated == nil)
        #expect(capture.records.map(\.packet) == [SamplePackets.reset, SamplePackets.resetComplete])
        #expect(capture.records.map(\.direction) == [.sent, .received])
        // Seconds are signed 32-bit, as libpcap reads them.
        #expect(capture.records.map(\.timestampMicros) == [1_700_000_000_250_000, -1_999_993])
    }

    @Test("a record cut in its header or its data ends the stream with the record and where it starts", arguments: [1, 10, 17, 20])
    func truncatedRecord(cut: Int) throws {
        let bytes = Self.file(magic: 0xD4C3_B2A1, records: [(1, 0, Self.reset), (2, 0, Self.resetComplete)])
        let capture = try readCapture(Array(bytes.dropLast(cut)))
        #expect(capture.records.map(\.packet) == [SamplePackets.reset])
        guard case let .truncated(_, record, byteOffset, reason)? = capture.truncated else {
            Issue.record("expected a truncation, got \(String(describing: capture.truncated))")
            return
        }
        #expect(record == 2 && byteOffset == 24 + 16 + Self.reset.count)
        #expect(reason.contains(cut > 11 ? "record header needs 16 bytes" : "record holds 11 bytes"))
    }

    @Test("a record longer than the snap length keeps its first snap-length bytes, and the next record reads")
    func overSnapLength() throws {
        let capture = try readCapture(Self.file(magic: 0xD4C3_B2A1, snapLength: UInt32(Self.reset.count), records: [
            (1, 0, Self.reset + [0xAA, 0xBB]), (2, 0, Self.reset),
        ]))
        #expect(capture.truncated == nil)
        #expect(capture.records.map(\.packet) == [SamplePackets.reset, SamplePackets.reset])
    }

    @Test("a snap length of 0 or over the record bound reads records up to the bound", arguments: [0, 0xFFFF_FFFF] as [UInt32])
    func noSnapLength(snapLength: UInt32) throws {
        let capture = try readCapture(Self.file(magic: 0xA1B2_C3D4, snapLength: snapLength, records: [(1, 0, Self.reset)]))
        #expect(capture.truncated == nil && capture.records.map(\.packet) == [SamplePackets.reset])
    }

    @Test("a bad magic is not a capture; a version other than 2 is unsupported; a cut file header is truncated")
    func badHeaders() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let cases: [(String, [UInt8], @Sendable (CaptureError) -> Bool)] = [
            ("magic", Self.file(magic: 0xD4C3_B2A2, records: []), { if case .notACapture = $0 { true } else { false } }),
            ("version", Self.file(magic: 0xA1B2_C3D4, version: (1, 0), records: []), {
                if case let .unsupported(_, reason) = $0 { reason.contains("version 1.0") } else { false }
            }),
            ("header", Array(Self.file(magic: 0xA1B2_C3D4, records: []).prefix(23)), {
                if case let .truncated(_, 0, 0, reason) = $0 { reason.contains("23") } else { false }
            }),
        ]
        for (name, bytes, check) in cases {
            let path = try folder.write(bytes, to: name)
            #expect(Comment(rawValue: name)) {
                _ = try CaptureReader.open(path: path)
            } throws: { error in
                (error as? CaptureError).map(check) ?? false
            }
        }
    }
}
