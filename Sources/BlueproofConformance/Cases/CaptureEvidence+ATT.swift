import BlueproofCapture
import BlueproofHost
import BlueproofWire

/// One ATT PDU in a capture, rebuilt from its ACL fragments (Core Vol 3, Part A §3.1;
/// Vol 3, Part F §3.3): the frame of its last fragment, the way it went, its connection.
struct CapturedATTPDU: Sendable {
    var frame: Int
    var direction: CaptureDirection
    var connection: UInt16
    var pdu: ATTPDU
}

extension CaptureEvidence {
    /// Every ATT PDU of the capture in order, both directions; fragments that do not
    /// recombine and PDUs that do not decode are left out.
    var attPDUs: [CapturedATTPDU] { attScan.pdus }

    /// Frames ending an ATT PDU (L2CAP CID 4) that does not decode (Core Vol 3, Part F §3.4).
    var undecodedATTFrames: [Int] { attScan.undecoded }

    private var attScan: (pdus: [CapturedATTPDU], undecoded: [Int]) {
        var recombiners: [CaptureDirection: L2CAPRecombiner] = [.sent: L2CAPRecombiner(), .received: L2CAPRecombiner()]
        var found: [CapturedATTPDU] = []
        var undecoded: [Int] = []
        for (index, record) in records.enumerated() where record.packet.type == .acl {
            guard let packet = try? HCIACLPacket(payload: record.packet.payload),
                  let bytes = try? recombiners[record.direction, default: L2CAPRecombiner()].receive(packet),
                  let frame = try? L2CAPBasicFrame(bytes: bytes), frame.channelID == .att else { continue }
            guard let pdu = try? ATTPDU(bytes: frame.payload) else {
                undecoded.append(index + 1)
                continue
            }
            found.append(CapturedATTPDU(frame: index + 1, direction: record.direction,
                                        connection: packet.handle & 0x0FFF, pdu: pdu))
        }
        return (found, undecoded)
    }
}
