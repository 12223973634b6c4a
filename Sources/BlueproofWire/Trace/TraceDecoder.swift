/// A capture's packets described in order, with what a single packet cannot tell: L2CAP
/// frames rebuilt from their ACL fragments (Core Vol 3, Part A §7.2) and, per connection, the
/// ATT state the capture itself reveals (ATT_MTU from the exchange, the services,
/// characteristics and descriptors its discovery returned, long values read in parts joined).
/// Sans I/O: feed packets in capture order with ``describe(_:sent:)``.
///
/// Bounded whatever the input: at most ``maximumConnections`` connections and
/// ``maximumAttributes`` named attributes per connection are followed, a frame being rebuilt
/// never exceeds the length its first fragment declared (at most 65,535 octets), a joined
/// value at most ``maximumJoinedValue`` octets (the longest attribute value, Vol 3, Part F
/// §3.2.9).
public struct TraceDecoder: Sendable {
    public static let maximumConnections = 64
    public static let maximumAttributes = 4096
    public static let maximumJoinedValue = 512

    /// One direction of one connection.
    struct Way: Hashable, Sendable {
        var handle: UInt16
        var sent: Bool
    }

    /// A frame being rebuilt: the octets so far and the length the L2CAP header declared.
    struct PartialFrame: Sendable {
        var bytes: [UInt8]
        var expected: Int
        var fragments: Int
    }

    var partial: [Way: PartialFrame] = [:]
    var connections: [UInt16: ATTConnectionState] = [:]
    /// The application protocol to decode on its characteristic, copied fresh per connection.
    let application: (any ATTValueDescriber)?

    /// `application`: a protocol carried in one characteristic's values (the transmitter's
    /// frames), decoded on every connection whose discovery finds that characteristic.
    public init(application: (any ATTValueDescriber)? = nil) {
        self.application = application
    }

    /// Describes `packet`; `sent` is true for host to controller.
    public mutating func describe(_ packet: H4Packet, sent: Bool) -> HCIPacketDescription {
        var description = packet.describe()
        switch packet.type {
        case .event:
            observe(event: packet)
        case .acl:
            guard let acl = try? HCIACLPacket(payload: packet.payload) else { break }
            let way = Way(handle: acl.handle & 0x0FFF, sent: sent)
            if let frame = rebuild(acl, way: way, description: &description) {
                annotate(frame: frame, way: way, description: &description)
            }
        default:
            break
        }
        return description
    }

    /// Learns what an event whose description is known already (a caller's cache: an HCI
    /// command or event is described by its bytes alone) tells the decoder: a successful
    /// Disconnection Complete ends its connection's state (Core Vol 4, Part E §7.7.5).
    public mutating func observe(event packet: H4Packet) {
        guard packet.type == .event, packet.payload.first == HCIDisconnectionCompleteEvent.code,
              case let .disconnectionComplete(event)? = try? HCIEvent(payload: packet.payload), event.status == .success else { return }
        forget(event.connectionHandle & 0x0FFF)
    }

    /// The whole frame this fragment completes, or nil. A frame rebuilt from several fragments
    /// is described here, as the packet alone could not be.
    private mutating func rebuild(_ acl: HCIACLPacket, way: Way, description: inout HCIPacketDescription) -> [UInt8]? {
        if acl.packetBoundary.startsPDU {
            partial[way] = nil
            guard acl.data.count >= 4 else { return nil }
            let expected = 4 + Int(UInt16(acl.data[0]) | UInt16(acl.data[1]) << 8)
            if acl.data.count >= expected { return acl.data.count == expected ? acl.data : nil }
            guard partial.count < Self.maximumConnections * 2 else { return nil }
            partial[way] = PartialFrame(bytes: acl.data, expected: expected, fragments: 1)
            description.fields.append(.init("fragment", "1 (\(acl.data.count) of \(expected) octets)"))
            return nil
        }
        guard var frame = partial.removeValue(forKey: way) else { return nil }
        guard frame.bytes.count + acl.data.count <= frame.expected else {
            description.fields.append(.init("fragment", "overruns the frame's \(frame.expected) octets; frame dropped"))
            return nil
        }
        frame.bytes += acl.data
        frame.fragments += 1
        guard frame.bytes.count == frame.expected else {
            description.fields.append(.init("fragment", "\(frame.fragments) (\(frame.bytes.count) of \(frame.expected) octets)"))
            partial[way] = frame
            return nil
        }
        description.fields.append(.init("reassembled", "\(frame.fragments) fragments, \(frame.expected - 4) octets"))
        let cid = UInt16(frame.bytes[2]) | UInt16(frame.bytes[3]) << 8
        description.fields.append(.init("cid", "0x\(hex(cid))"))
        if let upper = L2CAPFrameDescription.describe(cid: cid, payload: Array(frame.bytes.dropFirst(4))) {
            description.fields += upper.fields
            description.malformed = description.malformed ?? upper.malformed
        }
        return frame.bytes
    }

    /// Adds what the connection's ATT state says about an ATT PDU, and learns from it.
    private mutating func annotate(frame: [UInt8], way: Way, description: inout HCIPacketDescription) {
        guard frame.count > 4, frame[2] == 0x04, frame[3] == 0x00,
              let pdu = try? ATTPDU(bytes: Array(frame.dropFirst(4))) else { return }
        guard connections[way.handle] != nil || connections.count < Self.maximumConnections else { return }
        let fresh = application?.fresh()
        description.fields += connections[way.handle, default: ATTConnectionState(application: fresh)].learn(pdu, sent: way.sent)
    }

    private mutating func forget(_ handle: UInt16) {
        connections[handle] = nil
        partial[Way(handle: handle, sent: true)] = nil
        partial[Way(handle: handle, sent: false)] = nil
    }
}
