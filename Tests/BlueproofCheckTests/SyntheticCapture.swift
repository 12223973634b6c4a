import BlueproofCapture
import BlueproofWire

/// A capture built in memory, one record per call, for the analyser's tests.
struct SyntheticCapture {
    var records: [CaptureRecord] = []

    /// The frame number the next record will have.
    var nextFrame: Int { records.count + 1 }

    mutating func add(_ packet: H4Packet, _ direction: CaptureDirection) {
        records.append(CaptureRecord(timestampMicros: Int64(records.count) * 1000, direction: direction, packet: packet))
    }

    mutating func leBuffers(length: UInt16, count: UInt8) {
        let event = HCICommandCompleteEvent(
            numHCICommandPackets: 1, command: HCILEReadBufferSize.self,
            returnParameters: .init(leACLDataPacketLength: length, totalNumLEACLDataPackets: count))
        add(event.packet.packet, .received)
    }

    mutating func connect(_ handle: UInt16, role: HCIConnectionRole = .peripheral) {
        let event = HCILEConnectionCompleteEvent(
            status: .success, connectionHandle: handle, role: role, peerAddressType: LEAddressType(rawValue: 0),
            peerAddress: BDAddress(littleEndian: [1, 2, 3, 4, 5, 6]), connectionInterval: LEConnectionInterval(rawValue: 24),
            peripheralLatency: 0, supervisionTimeout: LESupervisionTimeout(rawValue: 72),
            centralClockAccuracy: .ppm500)
        add(event.packet.packet, .received)
    }

    mutating func disconnect(_ handle: UInt16) {
        let event = HCIDisconnectionCompleteEvent(status: .success, connectionHandle: handle,
                                                  reason: HCIStatus(rawValue: 0x13))
        add(event.packet.packet, .received)
    }

    mutating func completed(_ handle: UInt16, _ count: UInt16) {
        let event = HCINumberOfCompletedPacketsEvent(handles: [.init(connectionHandle: handle, numCompletedPackets: count)])
        add(event.packet.packet, .received)
    }

    /// One ATT PDU on `handle` in one ACL packet (no fragmentation).
    mutating func att(_ handle: UInt16, _ pdu: [UInt8], _ direction: CaptureDirection = .sent) {
        let length = UInt16(pdu.count)
        let l2cap = [UInt8(length & 0xFF), UInt8(length >> 8), 0x04, 0x00] + pdu
        add(HCIACLPacket(handle: handle, packetBoundary: .firstNonFlushable, data: l2cap).packet, direction)
    }

    mutating func notify(_ handle: UInt16, attribute: UInt16 = 0x0010, _ value: [UInt8]) {
        att(handle, [0x1B, UInt8(attribute & 0xFF), UInt8(attribute >> 8)] + value)
    }

    /// The peer enables notifications: a Write Request of 01 00 to `cccd`, received.
    mutating func subscribe(_ handle: UInt16, cccd: UInt16 = 0x0011) {
        att(handle, [0x12, UInt8(cccd & 0xFF), UInt8(cccd >> 8), 0x01, 0x00], .received)
    }

    /// Exchange MTU: request received from the peer, response sent.
    mutating func exchangeMTU(_ handle: UInt16, request: UInt16, response: UInt16) {
        att(handle, [0x02, UInt8(request & 0xFF), UInt8(request >> 8)], .received)
        att(handle, [0x03, UInt8(response & 0xFF), UInt8(response >> 8)], .sent)
    }
}
