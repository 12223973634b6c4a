import BlueproofCapture
import Foundation
import Testing

/// ``CaptureReader/open(path:)``: records one at a time, in order, across read chunks.
@Suite("CaptureStream")
struct CaptureStreamTests {
    static let t0: Int64 = 1_700_000_000_000_000

    /// Records of mixed sizes (7 to 1000 bytes of payload), numbered or patterned so each can
    /// be told apart; about 0.65 MB in all, so btsnoop records cross ten 64 KiB read chunks.
    static let records: [CaptureRecord] = (0..<3000).map { index in
        let packet = index.isMultiple(of: 3) ? SamplePackets.largeACL(size: 200 + index % 801, seed: UInt8(index % 256))
            : SamplePackets.numbered(index)
        return CaptureRecord(timestampMicros: t0 + Int64(index) * 137, direction: index.isMultiple(of: 2) ? .sent : .received,
                             packet: packet)
    }

    @Test("a btsnoop of 0.65 MB streams every record, in order, across read chunks")
    func btsnoopInOrder() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        var builder = BtsnoopBuilder(datalink: 1002)
        for record in Self.records {
            builder.add(flags: record.direction == .received ? 1 : 0, unixMicros: record.timestampMicros, data: record.packet.h4Bytes)
        }
        #expect(builder.bytes.count > 10 * 64 * 1024)
        let stream = try CaptureReader.open(path: try folder.write(builder.bytes, to: "big.btsnoop"))
        try expectInOrder(stream)
    }

    @Test("a pcap written by PcapWriter streams every record, in order")
    func pcapInOrder() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let stream = try CaptureReader.open(path: try writeCapture(Self.records, to: folder.path("big.pcap")))
        #expect(stream.format == .pcap && stream.linkType == 201)
        try expectInOrder(stream)
    }

    @Test("a btsnoop cut anywhere streams the records before the cut, then says where", arguments: [1, 23, 24, 25, 600])
    func btsnoopCut(cut: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        var builder = BtsnoopBuilder(datalink: 1002)
        for record in Self.records.prefix(500) {
            builder.add(flags: record.direction == .received ? 1 : 0, unixMicros: record.timestampMicros, data: record.packet.h4Bytes)
        }
        // Cut inside the last record (its data, or its header for cuts past its data).
        let bytes = Array(builder.bytes.dropLast(min(cut, builder.bytes.count - builder.recordOffsets[499] - 1)))
        let stream = try CaptureReader.open(path: try folder.write(bytes, to: "cut.btsnoop"))
        var seen = 0
        for record in stream {
            #expect(record == Self.records[seen])
            seen += 1
        }
        #expect(seen == 499)
        guard case let .truncated(_, record, byteOffset, _)? = stream.truncated else {
            Issue.record("expected a truncation, got \(String(describing: stream.truncated))")
            return
        }
        #expect(record == 500 && byteOffset == builder.recordOffsets[499])
    }

    @Test("the whole-file read is the stream collected")
    func readIsStream() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try writeCapture(Self.records, to: folder.path("all.pcap"))
        let file = try CaptureReader.read(path: path)
        #expect(file.records == Array(try CaptureReader.open(path: path)))
        #expect(file.records == Self.records)
    }

    private func expectInOrder(_ stream: CaptureStream, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var seen = 0
        for record in stream {
            guard seen < Self.records.count else { break }
            #expect(record == Self.records[seen], "record \(seen + 1)", sourceLocation: sourceLocation)
            seen += 1
            #expect(stream.packetCount == seen, sourceLocation: sourceLocation)
        }
        #expect(seen == Self.records.count, sourceLocation: sourceLocation)
        #expect(stream.truncated == nil && stream.skipped == 0, sourceLocation: sourceLocation)
        #expect(stream.next() == nil, "a finished stream stays finished", sourceLocation: sourceLocation)
    }
}
