import BlueproofCapture
import BlueproofCheck
import BlueproofWire

/// Frames of interest in one node's capture, for findings that point at packets (frame
/// numbers are 1-based, as Wireshark counts them).
struct CaptureEvidence: Sendable {
    let path: String
    let records: [CaptureRecord]

    init(path: String) throws {
        self.path = path
        records = try CaptureReader.read(path: path).records
    }

    init(path: String, records: [CaptureRecord]) {
        self.path = path
        self.records = records
    }

    /// LE Create Connection and LE Extended Create Connection commands the host sent.
    var createConnectionFrames: [Int] {
        frames { record in
            guard record.direction == .sent, record.packet.type == .command,
                  let command = try? HCICommandPacket(payload: record.packet.payload) else { return false }
            return command.opcode == .leCreateConnection || command.opcode == .leExtendedCreateConnection
        }
    }

    /// The RSSI of every advertising report the host was given (legacy and extended; nil for
    /// "not available"), with its frame: what a central heard, as its capture shows.
    var advertisingRSSIs: [(frame: Int, rssi: Int?)] { advertisingReports.map { ($0.frame, $0.rssi) } }

    /// Every advertising report the host was given (legacy and extended), with its frame, the
    /// advertiser, its RSSI (nil: not available) and its advertising data.
    var advertisingReports: [(frame: Int, address: BDAddress, rssi: Int?, data: [UInt8])] {
        records.enumerated().flatMap { index, record -> [(frame: Int, address: BDAddress, rssi: Int?, data: [UInt8])] in
            guard record.direction == .received, record.packet.type == .event,
                  let event = try? HCIEvent(payload: record.packet.payload) else { return [] }
            switch event {
            case let .le(.advertisingReport(reports)):
                return reports.reports.map { (index + 1, $0.address, $0.rssi.map(Int.init), $0.data) }
            case let .le(.extendedAdvertisingReport(reports)):
                return reports.reports.map { (index + 1, $0.address, $0.rssi.map(Int.init), $0.data) }
            default: return []
            }
        }
    }

    /// The commands of `opcodes` the host sent, with their frames and parameters.
    func commands(_ opcodes: Set<HCIOpcode>) -> [(frame: Int, parameters: [UInt8])] {
        records.enumerated().compactMap { index, record in
            guard record.direction == .sent, record.packet.type == .command,
                  let command = try? HCICommandPacket(payload: record.packet.payload), opcodes.contains(command.opcode) else { return nil }
            return (index + 1, command.parameters)
        }
    }

    /// HCI Disconnect commands the host sent (Core Vol 4, Part E §7.1.6).
    var disconnectFrames: [Int] {
        frames { record in
            guard record.direction == .sent, record.packet.type == .command,
                  let command = try? HCICommandPacket(payload: record.packet.payload) else { return false }
            return command.opcode == .disconnect
        }
    }

    /// HCI Disconnection Complete events the host was given (Core Vol 4, Part E §7.7.5): the
    /// link ended, by either side.
    var disconnectionCompleteFrames: [Int] {
        frames { record in
            guard record.direction == .received, record.packet.type == .event,
                  case .disconnectionComplete? = try? HCIEvent(payload: record.packet.payload) else { return false }
            return true
        }
    }

    /// ACL packets the host sent that start an ATT Handle Value Notification (L2CAP CID 4,
    /// opcode 0x1B).
    var notificationFrames: [Int] { attFrames(sent: 0x1B) }

    /// ACL packets the host sent that start an ATT PDU with `opcode` (L2CAP CID 4): 0x52
    /// Write Command, 0x12 Write Request.
    func attFrames(sent opcode: UInt8) -> [Int] {
        frames { record in
            guard record.direction == .sent, record.packet.type == .acl,
                  let acl = try? HCIACLPacket(payload: record.packet.payload), acl.packetBoundary.startsPDU
                    || acl.packetBoundary == .complete, acl.data.count >= 5 else { return false }
            return acl.data[2] == 0x04 && acl.data[3] == 0x00 && acl.data[4] == opcode
        }
    }

    /// The capture-level check `id` of BlueproofCheck on this capture.
    func check(_ id: String) -> CaptureCheck? {
        allChecks.first { $0.id == id }
    }

    /// Every capture-level check of BlueproofCheck on this capture.
    var allChecks: [CaptureCheck] { CaptureAnalyser.check(records) }

    private func frames(_ match: (CaptureRecord) -> Bool) -> [Int] {
        records.enumerated().filter { match($0.element) }.map { $0.offset + 1 }
    }
}

extension Finding {
    /// A finding from a BlueproofCheck result on `capture`.
    init(_ check: CaptureCheck, capture: String) {
        self.init("\(check.id) \(check.verdict.rawValue): \(check.reason)", capture: capture, frames: check.frames)
    }
}
