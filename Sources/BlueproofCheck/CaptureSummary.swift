import BlueproofCapture
import BlueproofWire

/// One connection of a capture, as `inspect --summary` prints it.
public struct ConnectionSummary: Hashable, Sendable, Encodable {
    public var handle: UInt16
    /// The frame of its connection complete; nil when the capture joined it mid-way.
    public var connectedFrame: Int?
    public var peerAddress: String?
    /// Our role on the link ("central", "peripheral").
    public var role: String?
    /// The ATT_MTU an exchange settled on; nil when none was seen.
    public var attMTU: Int?
    public var aclSent = 0
    public var aclReceived = 0
    /// ACL data bytes (after the 4-byte ACL header) each way.
    public var bytesSent = 0
    public var bytesReceived = 0
    /// Microseconds since the Unix epoch of its first and last packet.
    public var firstMicros: Int64
    public var lastMicros: Int64
    /// Most ACL packets sent and not yet completed on this handle at once (the credits it used).
    public var mostInFlight = 0
    /// ATT Error Responses, SMP Pairing Failed and L2CAP Command Rejects on the link.
    public var attErrors = 0
    public var smpFailures = 0
    public var signalRejects = 0
    public var disconnectedFrame: Int?
    public var disconnectionReason: String?

    /// ACL data bytes per second, both ways, from its first packet to its last; nil for a
    /// connection of one instant.
    public var bytesPerSecond: Double? {
        let span = lastMicros - firstMicros
        return span > 0 ? Double(bytesSent + bytesReceived) * 1e6 / Double(span) : nil
    }

    enum CodingKeys: String, CodingKey {
        case handle, connectedFrame, peerAddress, role, attMTU, aclSent, aclReceived, bytesSent, bytesReceived,
             firstMicros, lastMicros, mostInFlight, attErrors, smpFailures, signalRejects, disconnectedFrame,
             disconnectionReason, bytesPerSecond
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(handle, forKey: .handle)
        try container.encodeIfPresent(connectedFrame, forKey: .connectedFrame)
        try container.encodeIfPresent(peerAddress, forKey: .peerAddress)
        try container.encodeIfPresent(role, forKey: .role)
        try container.encodeIfPresent(attMTU, forKey: .attMTU)
        try container.encode(aclSent, forKey: .aclSent)
        try container.encode(aclReceived, forKey: .aclReceived)
        try container.encode(bytesSent, forKey: .bytesSent)
        try container.encode(bytesReceived, forKey: .bytesReceived)
        try container.encode(firstMicros, forKey: .firstMicros)
        try container.encode(lastMicros, forKey: .lastMicros)
        try container.encode(mostInFlight, forKey: .mostInFlight)
        try container.encode(attErrors, forKey: .attErrors)
        try container.encode(smpFailures, forKey: .smpFailures)
        try container.encode(signalRejects, forKey: .signalRejects)
        try container.encodeIfPresent(disconnectedFrame, forKey: .disconnectedFrame)
        try container.encodeIfPresent(disconnectionReason, forKey: .disconnectionReason)
        try container.encodeIfPresent(bytesPerSecond, forKey: .bytesPerSecond)
    }
}

/// The per-connection summary of a capture (`inspect --summary`), sans I/O: feed every record
/// with its frame number, then read ``connections``. Bounded: at most ``maximumConnections``
/// connections are followed, further ones counted in ``untracked``.
public struct CaptureSummary: Sendable {
    static let maximumConnections = 1024

    /// Connections by handle; a handle used again after a disconnection starts a new one.
    public private(set) var connections: [ConnectionSummary] = []
    /// The controller's LE (or shared) ACL buffers, when the capture read them: length, count.
    public private(set) var buffers: (length: Int, count: Int)?
    /// Commands answered with a status other than success (Command Status or Complete).
    public private(set) var commandErrors = 0
    /// Connections past ``maximumConnections``.
    public private(set) var untracked = 0

    private var current: [UInt16: Int] = [:]
    private var inFlight: [UInt16: Int] = [:]
    private var mtuRequests: [UInt32: Int] = [:]
    private var classifier = PacketClassifier()

    public init() {}

    public mutating func consume(_ record: CaptureRecord, frame: Int) {
        let context = classifier.classify(record)
        switch record.packet.type {
        case .event:
            guard let event = try? HCIEvent(payload: record.packet.payload) else { return }
            handle(event, record: record, frame: frame)
        case .acl:
            guard let handle = context.handle, let index = connection(handle, record: record) else { return }
            let bytes = max(0, record.packet.payload.count - 4)
            if record.direction == .sent {
                connections[index].aclSent += 1
                connections[index].bytesSent += bytes
                inFlight[handle, default: 0] += 1
                connections[index].mostInFlight = max(connections[index].mostInFlight, inFlight[handle] ?? 0)
            } else {
                connections[index].aclReceived += 1
                connections[index].bytesReceived += bytes
            }
            acl(record, context: context, index: index)
        default:
            return
        }
    }

    /// Errors and the MTU exchange in the first fragment of an ATT, SMP or signalling frame.
    private mutating func acl(_ record: CaptureRecord, context: PacketContext, index: Int) {
        let payload = record.packet.payload
        guard payload.count >= 9, (payload[1] >> 4) & 0x3 != 0x1 else { return }
        let code = payload[8]
        if context.layers.contains(.att) {
            let way = UInt32(connections[index].handle) << 1 | (record.direction == .sent ? 0 : 1)
            switch code {
            case 0x01: connections[index].attErrors += 1
            case 0x02 where payload.count >= 11: mtuRequests[way] = Int(payload[9]) | Int(payload[10]) << 8
            case 0x03 where payload.count >= 11:
                let requested = mtuRequests.removeValue(forKey: way ^ 1) ?? 23
                connections[index].attMTU = max(23, min(requested, Int(payload[9]) | Int(payload[10]) << 8))
            default: break
            }
        } else if context.layers.contains(.smp), code == 0x05 {
            connections[index].smpFailures += 1
        } else if context.layers.contains(.signal), code == 0x01 {
            connections[index].signalRejects += 1
        }
    }

    private mutating func handle(_ event: HCIEvent, record: CaptureRecord, frame: Int) {
        switch event {
        case let .commandComplete(complete):
            if let status = complete.returnParameters.first, status != 0 { commandErrors += 1 }
            readBuffers(complete)
        case let .commandStatus(status):
            if status.status != .success { commandErrors += 1 }
        case let .numberOfCompletedPackets(completed):
            for entry in completed.handles {
                let handle = entry.connectionHandle & 0x0FFF
                inFlight[handle] = max(0, (inFlight[handle] ?? 0) - Int(entry.numCompletedPackets))
            }
        case let .disconnectionComplete(disconnection) where disconnection.status == .success:
            let handle = disconnection.connectionHandle & 0x0FFF
            if let index = connection(handle, record: record) {
                connections[index].disconnectedFrame = frame
                connections[index].disconnectionReason = disconnection.reason.description
            }
            current[handle] = nil
            inFlight[handle] = nil
        case let .le(.connectionComplete(complete)) where complete.status == .success:
            connected(complete.connectionHandle, peer: complete.peerAddress.description, role: complete.role, record: record, frame: frame)
        case let .le(.enhancedConnectionComplete(complete)) where complete.status == .success:
            connected(complete.connectionHandle, peer: complete.peerAddress.description, role: complete.role, record: record, frame: frame)
        case let .le(.enhancedConnectionCompleteV2(complete)) where complete.base.status == .success:
            connected(complete.base.connectionHandle, peer: complete.base.peerAddress.description, role: complete.base.role,
                      record: record, frame: frame)
        default:
            return
        }
    }

    private mutating func connected(_ rawHandle: UInt16, peer: String, role: HCIConnectionRole, record: CaptureRecord, frame: Int) {
        let handle = rawHandle & 0x0FFF
        current[handle] = nil  // a new connection on this handle
        guard let index = connection(handle, record: record) else { return }
        connections[index].connectedFrame = frame
        connections[index].peerAddress = peer
        connections[index].role = role == .central ? "central" : role == .peripheral ? "peripheral" : role.description
    }

    /// The connection on `handle` now, begun at `record` when none is; nil past the bound.
    private mutating func connection(_ handle: UInt16, record: CaptureRecord) -> Int? {
        if let index = current[handle] {
            connections[index].lastMicros = max(connections[index].lastMicros, record.timestampMicros)
            return index
        }
        guard connections.count < Self.maximumConnections else {
            untracked += 1
            return nil
        }
        connections.append(ConnectionSummary(handle: handle, firstMicros: record.timestampMicros, lastMicros: record.timestampMicros))
        current[handle] = connections.count - 1
        return connections.count - 1
    }

    /// LE buffers win over the shared ones; LE buffers of 0 mean shared (Vol 4, Part E §7.8.2).
    private mutating func readBuffers(_ complete: HCICommandCompleteEvent) {
        guard let read = BufferSizeAnswer(complete), read.length > 0, read.count > 0 else { return }
        if !read.shared || buffers == nil { buffers = (read.length, read.count) }
    }
}
