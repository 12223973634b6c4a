import BlueproofCapture
import BlueproofWire
import Foundation

/// A fresh folder under the system temporary folder, removed by `cleanUp()`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("blueproof-capture-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let file = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    func cleanUp() { try? FileManager.default.removeItem(at: url) }
}

/// Writes `records` to a new capture at `path` through `PcapWriter`, closes it, returns `path`.
@discardableResult
func writeCapture(_ records: [CaptureRecord], to path: String) throws -> String {
    let writer = try PcapWriter(path: path)
    for record in records { writer.record(record) }
    writer.close()
    return path
}

/// `bytes` read back as a capture, through a temporary file.
func readCapture(_ bytes: [UInt8]) throws -> CaptureFile {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    return try CaptureReader.read(path: try folder.write(bytes, to: "capture"))
}

/// `bytes` opened as a capture stream; the stream holds the open descriptor, so removing the
/// file does not end it.
func openCapture(_ bytes: [UInt8]) throws -> CaptureStream {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    return try CaptureReader.open(path: try folder.write(bytes, to: "capture"))
}

func fileBytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// Realistic HCI packets (Core Vol 4, Part E).
enum SamplePackets {
    /// HCI_Reset (OGF 0x03, OCF 0x0003), no parameters (§7.3.2).
    static let reset = H4Packet(type: .command, payload: [0x03, 0x0C, 0x00])
    /// Command Complete for HCI_Reset: 1 credit, opcode 0x0C03, status success (§7.7.14).
    static let resetComplete = H4Packet(type: .event, payload: [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])
    /// LE Advertising Report (§7.7.65.2): one ADV_IND from a random address, flags + name, RSSI -60.
    static let advertisingReport = H4Packet(type: .event, payload: [
        0x3E, 0x15, 0x02, 0x01, 0x00, 0x01, 0x11, 0x22, 0x33, 0x44, 0x55, 0xC6,
        0x09, 0x02, 0x01, 0x06, 0x05, 0x09, 0x62, 0x6C, 0x75, 0x65, 0xC4,
    ])
    /// ACL on handle 0x0040, first automatically flushable fragment, carrying an L2CAP frame
    /// on the ATT channel (CID 0x0004) with ATT_EXCHANGE_MTU_REQ, Client Rx MTU 247.
    static let attMTURequest = H4Packet(type: .acl, payload: [
        0x40, 0x20, 0x07, 0x00, 0x03, 0x00, 0x04, 0x00, 0x02, 0xF7, 0x00,
    ])

    /// An ACL packet of `size` payload bytes (4-byte ACL header included) on handle 0x0040,
    /// holding a well-formed L2CAP frame on CID 0x0040 with a recognisable byte pattern.
    static func largeACL(size: Int = 1000, seed: UInt8 = 0) -> H4Packet {
        let aclLength = size - 4
        let l2capLength = aclLength - 4
        var payload: [UInt8] = [0x40, 0x20, UInt8(aclLength & 0xFF), UInt8(aclLength >> 8),
                                UInt8(l2capLength & 0xFF), UInt8(l2capLength >> 8), 0x40, 0x00]
        payload += (0..<l2capLength).map { UInt8(truncatingIfNeeded: $0 &+ Int(seed)) }
        return H4Packet(type: .acl, payload: payload)
    }

    /// A vendor-specific command (opcode 0xFC00) whose four parameter bytes carry `number`,
    /// so records can be told apart after reading.
    static func numbered(_ number: Int) -> H4Packet {
        H4Packet(type: .command, payload: [0x00, 0xFC, 0x04] + withUnsafeBytes(of: UInt32(number).littleEndian, Array.init))
    }

    static func number(of packet: H4Packet) -> Int? {
        guard packet.type == .command, packet.payload.count == 7, Array(packet.payload[0...2]) == [0x00, 0xFC, 0x04] else {
            return nil
        }
        return packet.payload[3...6].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}

/// Builds btsnoop files the way BlueZ's `src/shared/btsnoop.c` writes them: 16-byte header,
/// then per record original length, included length, flags, drops, timestamp (big-endian),
/// the timestamp being `(unix seconds - 946684800) * 10^6 + µs + 0x00E03AB44A676000`.
struct BtsnoopBuilder {
    private(set) var bytes: [UInt8]
    /// Byte offset where each record starts.
    private(set) var recordOffsets: [Int] = []

    init(datalink: UInt32, version: UInt32 = 1) {
        bytes = Array("btsnoop".utf8) + [0]
        Self.append32(version, to: &bytes)
        Self.append32(datalink, to: &bytes)
    }

    mutating func add(flags: UInt32, unixMicros: Int64, data: [UInt8], drops: UInt32 = 0) {
        recordOffsets.append(bytes.count)
        let seconds = unixMicros / 1_000_000, micros = unixMicros % 1_000_000
        let stamp = UInt64((seconds - 946_684_800) * 1_000_000 + micros) &+ 0x00E0_3AB4_4A67_6000
        Self.append32(UInt32(data.count), to: &bytes)
        Self.append32(UInt32(data.count), to: &bytes)
        Self.append32(flags, to: &bytes)
        Self.append32(drops, to: &bytes)
        Self.append32(UInt32(stamp >> 32), to: &bytes)
        Self.append32(UInt32(truncatingIfNeeded: stamp), to: &bytes)
        bytes += data
    }

    /// A BlueZ monitor (2001) record: flags hold the controller index and the opcode.
    mutating func addMonitor(index: UInt16, opcode: UInt16, unixMicros: Int64, data: [UInt8]) {
        add(flags: UInt32(index) << 16 | UInt32(opcode), unixMicros: unixMicros, data: data)
    }

    private static func append32(_ value: UInt32, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes += $0 }
    }
}

/// Builds classic little-endian pcap files by hand, for link types PcapWriter does not write.
struct PcapBuilder {
    private(set) var bytes: [UInt8] = []

    init(linkType: UInt32, snapLength: UInt32 = 65_535) {
        for value in [0xA1B2_C3D4, 0x0004_0002, 0, 0, snapLength, linkType] as [UInt32] {
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }
    }

    mutating func add(unixMicros: Int64, data: [UInt8]) {
        let fields: [UInt32] = [UInt32(unixMicros / 1_000_000), UInt32(unixMicros % 1_000_000),
                                UInt32(data.count), UInt32(data.count)]
        for value in fields { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        bytes += data
    }
}

/// Builds little-endian pcapng files by hand (pcapng spec, draft-ietf-opsawg-pcapng): a Section
/// Header Block, one Interface Description Block (µs resolution, no options), then Enhanced
/// Packet Blocks whose 64-bit timestamp is given as its two 32-bit words.
struct PcapngBuilder {
    /// The file so far; tests append hand-made (broken) blocks to it.
    var bytes: [UInt8] = []

    init(linkType: UInt16, snapLength: UInt32 = 65_535) {
        block(type: 0x0A0D_0D0A, body: Self.words([0x1A2B_3C4D, 0x0000_0001, 0xFFFF_FFFF, 0xFFFF_FFFF]))
        block(type: 1, body: Self.words([UInt32(linkType), snapLength]))
    }

    mutating func add(interface: UInt32 = 0, timestampHigh: UInt32, timestampLow: UInt32, data: [UInt8]) {
        block(type: 6, body: Self.words([interface, timestampHigh, timestampLow, UInt32(data.count), UInt32(data.count)])
            + Self.padded(data))
    }

    /// Another Interface Description Block; `resolution` is its if_tsresol byte, when given.
    mutating func addInterface(linkType: UInt16, resolution: UInt8? = nil) {
        let options = resolution.map { Self.words([0x0001_0009]) + Self.padded([$0]) + Self.words([0]) } ?? []
        block(type: 1, body: Self.words([UInt32(linkType), 65_535]) + options)
    }

    /// A block of another type (name resolution, statistics, ...), which holds no frame.
    mutating func addOther(type: UInt32, body: [UInt8]) {
        block(type: type, body: Self.padded(body))
    }

    /// A Simple Packet Block: interface 0, no time.
    mutating func addSimple(data: [UInt8]) {
        block(type: 3, body: Self.words([UInt32(data.count)]) + Self.padded(data))
    }

    private static func padded(_ data: [UInt8]) -> [UInt8] {
        data + [UInt8](repeating: 0, count: (4 - data.count % 4) % 4)
    }

    mutating func block(type: UInt32, body: [UInt8]) {
        let length = UInt32(12 + body.count)
        bytes += Self.words([type, length]) + body + Self.words([length])
    }

    private static func words(_ values: [UInt32]) -> [UInt8] {
        values.flatMap { value in withUnsafeBytes(of: value.littleEndian, Array.init) }
    }
}
