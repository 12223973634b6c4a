import BlueproofCapture
import BlueproofWire
import Foundation
import Testing

@Suite("PcapWriter")
struct PcapWriterTests {
    static let start: Int64 = 1_718_000_000_123_456

    static let sampleRecords: [CaptureRecord] = [
        CaptureRecord(timestampMicros: start, direction: .sent, packet: SamplePackets.reset),
        CaptureRecord(timestampMicros: start + 1_250, direction: .received, packet: SamplePackets.resetComplete),
        CaptureRecord(timestampMicros: start + 999_999, direction: .received, packet: SamplePackets.advertisingReport),
        CaptureRecord(timestampMicros: start + 1_000_000, direction: .sent, packet: SamplePackets.attMTURequest),
        CaptureRecord(timestampMicros: start + 2_000_001, direction: .received, packet: SamplePackets.largeACL(size: 1000)),
        CaptureRecord(timestampMicros: start + 2_000_002, direction: .sent, packet: SamplePackets.largeACL(size: 1000, seed: 7)),
    ]

    @Test("written records read back identical: timestamps, directions, packets incl. a 1000-byte ACL")
    func roundTrip() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.path("nested/deeper/run.pcap")  // parent folders are created
        let writer = try PcapWriter(path: path)
        for record in Self.sampleRecords { writer.record(record) }
        #expect(writer.packetCount == Self.sampleRecords.count)
        writer.close()

        let file = try CaptureReader.read(path: path)
        #expect(file.format == .pcap)
        #expect(file.linkType == 201)
        #expect(file.directionSource == .recorded)
        #expect(file.truncated == nil)
        #expect(file.skipped == 0)
        #expect(file.records == Self.sampleRecords)
        #expect(file.records.last?.packet.payload.count == 1000)
    }

    @Test("each record is the big-endian direction word, the H4 indicator, then the packet")
    func recordLayout() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        // The first record is sent, the second received.
        let path = try writeCapture(Array(Self.sampleRecords[0...1]), to: folder.path("layout.pcap"))

        let bytes = try fileBytes(path)
        // File header: native-order magic, link type 201 at offset 20.
        #expect(bytes.count == 24 + (16 + 4 + 4) + (16 + 4 + 7))
        let linkType = Array(bytes[20..<24])
        #expect(linkType == [201, 0, 0, 0] || linkType == [0, 0, 0, 201])
        // First record data: 00 00 00 00 | 01 | 03 0c 00
        #expect(Array(bytes[40..<48]) == [0, 0, 0, 0, 0x01, 0x03, 0x0C, 0x00])
        // Second record data: 00 00 00 01 | 04 | 0e 04 01 03 0c 00
        #expect(Array(bytes[64..<75]) == [0, 0, 0, 1, 0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])
    }

    @Test("close is idempotent and records after close are ignored")
    func closeTwice() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.path("closed.pcap")
        let writer = try PcapWriter(path: path)
        writer.record(Self.sampleRecords[0])
        writer.close()
        #expect(writer.isClosed)
        writer.close()
        writer.record(Self.sampleRecords[1])
        #expect(writer.packetCount == 1)
        #expect(writer.writeError == nil)
        #expect(try CaptureReader.read(path: path).records == [Self.sampleRecords[0]])
    }

    @Test("a file with only its header reads as an empty capture")
    func emptyCapture() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try writeCapture([], to: folder.path("empty.pcap"))
        let file = try CaptureReader.read(path: path)
        #expect(file.records.isEmpty)
        #expect(file.truncated == nil)
    }

    @Test("a path that cannot be created throws cannotCreate naming the path")
    func cannotCreate() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let blocker = try folder.write([1, 2, 3], to: "plain-file")
        let path = blocker + "/sub/run.pcap"  // a parent is a regular file
        #expect {
            _ = try PcapWriter(path: path)
        } throws: { error in
            guard case let .cannotCreate(errorPath, _) = error as? CaptureError else { return false }
            return errorPath == path && "\(error)".contains(path)
        }
    }

    @Test("records from many concurrent tasks are all written, none torn")
    func concurrentRecording() async throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.path("concurrent.pcap")
        let writer = try PcapWriter(path: path)
        let tasks = 8, perTask = 250
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for index in 0..<perTask {
                        let number = task * perTask + index
                        writer.record(CaptureRecord(timestampMicros: Self.start + Int64(number),
                                                    direction: number.isMultiple(of: 2) ? .sent : .received,
                                                    packet: SamplePackets.numbered(number)))
                    }
                }
            }
        }
        // And from plain threads, the way transports' reader threads call it.
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<100 {
                writer.record(CaptureRecord(timestampMicros: Self.start, direction: .received,
                                            packet: SamplePackets.numbered(10_000 + thread * 100 + index)))
            }
        }
        #expect(writer.packetCount == tasks * perTask + 400)
        writer.close()

        let file = try CaptureReader.read(path: path)
        #expect(file.truncated == nil)
        let numbers = file.records.compactMap { SamplePackets.number(of: $0.packet) }
        #expect(numbers.count == tasks * perTask + 400)
        #expect(Set(numbers) == Set(0..<tasks * perTask).union(10_000..<10_400))
        for record in file.records {
            guard let number = SamplePackets.number(of: record.packet), number < 10_000 else { continue }
            #expect(record.timestampMicros == Self.start + Int64(number))
            #expect(record.direction == (number.isMultiple(of: 2) ? .sent : .received))
        }
    }

    @Test("a file cut after its header keeps every complete record and reports the cut")
    func truncatedPcap() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let bytes = try fileBytes(try writeCapture(Self.sampleRecords, to: folder.path("full.pcap")))

        // Where each record ends: 24-byte file header, then 16-byte header + 4 + 1 + payload.
        var ends: [Int] = []
        var end = 24
        for record in Self.sampleRecords {
            end += 16 + 4 + 1 + record.packet.payload.count
            ends.append(end)
        }
        #expect(ends.last == bytes.count)

        // Around every record start: inside the 16-byte record header, inside the direction
        // word, right after the indicator, in the middle of the data; plus the last bytes.
        var sizes = Set<Int>()
        for start in [24] + ends.dropLast() {
            for delta in [0, 1, 8, 15, 16, 18, 20, 21, 22, 40, 500] { sizes.insert(start + delta) }
        }
        for cut in 1...3 { sizes.insert(bytes.count - cut) }
        for size in sizes.sorted() where size < bytes.count {
            let cut = bytes.count - size
            let copy = try folder.write(Array(bytes.prefix(size)), to: "cut-\(cut).pcap")
            let file = try CaptureReader.read(path: copy)
            let complete = ends.filter { $0 <= size }.count
            #expect(file.records == Array(Self.sampleRecords.prefix(complete)), "cut \(cut)")
            if size == 24 || ends.contains(size) {
                #expect(file.truncated == nil, "cut \(cut) falls on a record boundary")
            } else {
                let recordStart = complete == 0 ? 24 : ends[complete - 1]
                #expect(file.truncated == .truncated(path: copy, record: complete + 1, byteOffset: recordStart,
                                                     reason: Self.reason(file.truncated)), "cut \(cut)")
            }
            try FileManager.default.removeItem(atPath: copy)
        }
    }

    static func reason(_ error: CaptureError?) -> String {
        if case let .truncated(_, _, _, reason) = error { return reason }
        return "<not truncated>"
    }

    @Test("a killed writer's file (never closed) reads back every flushed packet")
    func unclosedWriterFile() throws {
        // What a SIGKILLed process leaves: the bytes on disk while the writer is still open.
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.path("open.pcap")
        let writer = try PcapWriter(path: path)
        let count = 200
        for number in 0..<count {
            writer.record(CaptureRecord(timestampMicros: Self.start + Int64(number), direction: .sent,
                                        packet: number.isMultiple(of: 10) ? SamplePackets.largeACL(seed: UInt8(number % 256))
                                                                         : SamplePackets.numbered(number)))
        }
        let snapshot = try folder.write(try fileBytes(path), to: "snapshot.pcap")
        let file = try CaptureReader.read(path: snapshot)
        #expect(file.truncated == nil)
        #expect(file.records.count == count)
        withExtendedLifetime(writer) {}
    }
}
