import BlueproofWire

/// Controller-to-host recombination of L2CAP PDUs from ACL data fragments, per connection
/// handle, sans I/O.
///
/// A PDU starts with a fragment whose Packet_Boundary flag is `firstNonFlushable` (0b00) or
/// `firstFlushable` (0b10) and goes on with `continuing` (0b01) fragments (Core Vol 4, Part E
/// §5.4.2). Controllers send 0b10 to the host on LE (btvirt and Rootcanal among them); both
/// start flags are taken. The PDU is complete when it holds its 4-octet basic header plus the
/// length the header declares (Vol 3, Part A §3.1); the header itself may be split across
/// fragments.
///
/// Errors never leave a handle stuck: the offending data is dropped, and the next start
/// fragment on the handle begins a fresh PDU. See ``L2CAPRecombinationError`` for what each
/// error dropped or kept.
public struct L2CAPRecombiner: Sendable {
    /// Octets of the basic header: length (2) and channel ID (2).
    static let headerSize = 4

    private enum Partial: Sendable {
        /// A PDU started and not finished; its octets so far.
        case assembling([UInt8])
        /// A PDU refused for its declared size: its continuing fragments are dropped quietly
        /// until `remaining` octets have passed or another PDU starts.
        case discarding(remaining: Int)
    }

    /// Largest PDU accepted, basic header included.
    public let maximumPDU: Int
    private var partials: [UInt16: Partial] = [:]

    /// A recombiner that refuses PDUs larger than `maximumPDU` octets, header included (the
    /// default lets through every length the 16-bit header field can declare).
    public init(maximumPDU: Int = 65535 + 4) {
        self.maximumPDU = maximumPDU
    }

    /// Takes one ACL data packet from the controller. Returns a complete L2CAP PDU, header
    /// included, when `packet` completes one, nil while a PDU is incomplete.
    ///
    /// When a start fragment interrupts an incomplete PDU, the error is thrown after the new
    /// start has been taken in; if the new start is a whole PDU by itself, the error carries it
    /// (``L2CAPRecombinationError/completedPDU``) and the caller should still deliver it.
    public mutating func receive(_ packet: HCIACLPacket) throws(L2CAPRecombinationError) -> [UInt8]? {
        let handle = packet.handle & 0x0FFF
        let boundary = packet.packetBoundary
        if boundary.startsPDU {
            // A PDU being discarded ends quietly at the next start.
            guard case let .assembling(dropped)? = partials.removeValue(forKey: handle) else {
                return try append(packet.data, to: [], handle: handle)
            }
            let newStart: L2CAPRecombinationError.NewStart
            do throws(L2CAPRecombinationError) {
                newStart = try append(packet.data, to: [], handle: handle).map { .complete($0) } ?? .incomplete
            } catch {
                newStart = .refused(error)
            }
            let expected = dropped.count >= 2 ? Self.declaredSize(dropped) : nil
            throw .startWhileIncomplete(handle: handle, receivedBytes: dropped.count,
                                        expectedBytes: expected, newStart: newStart)
        }
        guard boundary == .continuing else {
            throw .unsupportedPacketBoundary(handle: handle, packetBoundary: boundary)
        }
        switch partials.removeValue(forKey: handle) {
        case let .assembling(bytes)?:
            return try append(packet.data, to: bytes, handle: handle)
        case let .discarding(remaining)?:
            if packet.data.count < remaining {
                partials[handle] = .discarding(remaining: remaining - packet.data.count)
            }
            return nil
        case nil:
            throw .continuationWithoutStart(handle: handle, length: packet.data.count)
        }
    }

    /// Forgets `handle`, and any PDU in progress on it (Disconnection Complete).
    public mutating func close(handle: UInt16) {
        partials.removeValue(forKey: handle & 0x0FFF)
    }

    /// Adds `data` to the PDU begun with `bytes`, whose state has been removed: stores the new
    /// state and returns the PDU when complete. On error, the handle is left idle or discarding.
    private mutating func append(_ data: [UInt8], to bytes: [UInt8], handle: UInt16) throws(L2CAPRecombinationError) -> [UInt8]? {
        var bytes = bytes
        bytes.append(contentsOf: data)
        guard bytes.count >= 2 else {
            partials[handle] = .assembling(bytes)
            return nil
        }
        let declared = Self.declaredSize(bytes)
        if declared > maximumPDU {
            if bytes.count < declared { partials[handle] = .discarding(remaining: declared - bytes.count) }
            throw .exceedsMaximum(handle: handle, declaredBytes: declared, maximumBytes: maximumPDU)
        }
        if bytes.count > declared {
            throw .longerThanDeclared(handle: handle, declaredBytes: declared, receivedBytes: bytes.count)
        }
        if bytes.count == declared { return bytes }
        partials[handle] = .assembling(bytes)
        return nil
    }

    /// The whole PDU size the basic header declares: 4 plus its length field. Needs 2 octets.
    private static func declaredSize(_ bytes: [UInt8]) -> Int {
        headerSize + (Int(bytes[0]) | Int(bytes[1]) << 8)
    }
}
