import BlueproofCapture
import BlueproofConformance
import BlueproofWire
import Foundation

/// Paths of the repository's conformance files, from this file's place in it.
enum Fixtures {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static var defaultProfilePath: String { "\(root)/Conformance/profiles/bridgefy-ios.yaml" }
    static var defaultProfileText: String { (try? String(contentsOfFile: defaultProfilePath, encoding: .utf8)) ?? "" }

    static func defaultProfile() throws -> Profile { try Profile.loadDefault(path: defaultProfilePath) }
    static func catalogue() throws -> Catalogue { try Catalogue.load(path: "\(root)/Conformance/catalogue.yaml") }

    /// The `blueproof` executable `swift build` puts beside the test binary (BFT/KEY/BV-02
    /// starts `blueproof dut --no-radio` as a second process); nil where it is missing.
    static let blueproofExecutable: URL? = {
        guard let test = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        let path = URL(fileURLWithPath: test).deletingLastPathComponent().appendingPathComponent("blueproof")
        return FileManager.default.isExecutableFile(atPath: path.path) ? path : nil
    }()

    /// A fresh folder under the temporary folder.
    static func folder(_ label: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bp-conf-\(label)-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A run of `cases` against the repository's catalogue with `testGroup` (YAML) added to it,
    /// its reports, captures and work under `folder`.
    static func runConfiguration(cases: [any ConformanceCase], testGroup: String, in folder: String,
                                 dut: String? = nil) throws -> RunConfiguration {
        let catalogueText = try String(contentsOfFile: "\(root)/Conformance/catalogue.yaml", encoding: .utf8)
        return RunConfiguration(
            profile: try defaultProfile(), catalogue: try Catalogue(yaml: catalogueText + testGroup),
            registry: CaseRegistry(cases), reportsRoot: "\(folder)/Reports",
            capturesRoot: "\(folder)/Captures", workDirectory: "\(folder)/work", dut: dut)
    }

    /// Writes `text` to a file in `folder` and returns its path.
    static func write(_ text: String, named name: String, in folder: String) throws -> String {
        let path = "\(folder)/\(name)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

/// Captures built in memory: the packets a sender of the transfer sample shows at its HCI
/// boundary, right or deliberately wrong.
struct SenderCapture {
    var records: [CaptureRecord] = []
    var nextFrame: Int { records.count + 1 }

    mutating func add(_ packet: H4Packet, _ direction: CaptureDirection) {
        records.append(CaptureRecord(timestampMicros: Int64(records.count) * 1000, direction: direction, packet: packet))
    }

    mutating func buffers(length: UInt16, count: UInt8) {
        add(HCICommandCompleteEvent(numHCICommandPackets: 1, command: HCILEReadBufferSize.self,
                                    returnParameters: .init(leACLDataPacketLength: length, totalNumLEACLDataPackets: count)).packet.packet,
            .received)
    }

    mutating func connect(_ handle: UInt16) {
        add(HCILEConnectionCompleteEvent(
            status: .success, connectionHandle: handle, role: .peripheral, peerAddressType: LEAddressType(rawValue: 0),
            peerAddress: BDAddress(littleEndian: [1, 2, 3, 4, 5, 6]), connectionInterval: LEConnectionInterval(rawValue: 24),
            peripheralLatency: 0, supervisionTimeout: LESupervisionTimeout(rawValue: 72), centralClockAccuracy: .ppm500).packet.packet,
            .received)
    }

    mutating func completed(_ handle: UInt16, _ count: UInt16) {
        add(HCINumberOfCompletedPacketsEvent(handles: [.init(connectionHandle: handle, numCompletedPackets: count)]).packet.packet,
            .received)
    }

    mutating func att(_ handle: UInt16, _ pdu: [UInt8], _ direction: CaptureDirection = .sent) {
        let length = UInt16(pdu.count)
        add(HCIACLPacket(handle: handle, packetBoundary: .firstNonFlushable,
                         data: [UInt8(length & 0xFF), UInt8(length >> 8), 0x04, 0x00] + pdu).packet, direction)
    }

    mutating func subscribe(_ handle: UInt16) { att(handle, [0x12, 0x11, 0x00, 0x01, 0x00], .received) }
    mutating func notify(_ handle: UInt16, _ value: [UInt8]) { att(handle, [0x1B, 0x10, 0x00] + value) }
    /// A notification of `attribute` the node received (a central's view).
    mutating func receiveNotification(_ handle: UInt16, attribute: UInt16 = 0x0010, _ value: [UInt8]) {
        att(handle, [0x1B, UInt8(attribute & 0xFF), UInt8(attribute >> 8)] + value, .received)
    }
    /// A Write Command to `attribute` the node sent.
    mutating func writeCommand(_ handle: UInt16, attribute: UInt16 = 0x0010, _ value: [UInt8]) {
        att(handle, [0x52, UInt8(attribute & 0xFF), UInt8(attribute >> 8)] + value)
    }

    /// A whole sample transfer at the default ATT_MTU 23 (chunks of 20): `chunks` values of
    /// `chunkSize` bytes then EOM unless `withEOM` is false; credits returned after each packet
    /// unless `respectCredits` is false.
    static func transfer(chunkSize: Int = 20, chunks: Int = 3, withEOM: Bool = true, subscribeFirst: Bool = true,
                         respectCredits: Bool = true) -> SenderCapture {
        var capture = SenderCapture()
        capture.buffers(length: 27, count: 1)
        capture.connect(0x40)
        if subscribeFirst { capture.subscribe(0x40) }
        var values = (0..<chunks).map { Array(repeating: UInt8($0), count: chunkSize) }
        if withEOM { values.append(Array("EOM".utf8)) }
        for value in values {
            capture.notify(0x40, value)
            if respectCredits { capture.completed(0x40, 1) }
        }
        if !subscribeFirst { capture.subscribe(0x40) }
        return capture
    }
}
