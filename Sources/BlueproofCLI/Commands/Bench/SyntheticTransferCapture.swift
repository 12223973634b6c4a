import BlueproofCapture
import BlueproofWire

/// A synthetic pcap of a long transfer as the sender's host/controller boundary records it,
/// for `blueproof bench capture`: Reset, LE Read Buffer Size (251 x 8), LE Connection Complete
/// on handle 0x0040, ATT_MTU 67 exchanged, notifications enabled, then 64-byte notification
/// chunks (EOM after every 100), a Number Of Completed Packets for each, and a Read RSSI command
/// with its Command Complete every 25 chunks; Disconnection Complete last. Every check passes
/// on it.
enum SyntheticTransferCapture {
    static let handle: UInt16 = 0x0040
    static let mtu: UInt16 = 67
    static let chunksPerMessage = 100
    static let rssiEvery = 25

    /// Writes about `bytes` bytes to `path`; returns the packets written.
    static func write(to path: String, bytes target: Int) throws(CaptureError) -> Int {
        let writer = try PcapWriter(path: path, flushesEveryRecord: false)
        var time: Int64 = 1_700_000_000_000_000
        var written = 24  // the pcap file header
        var packets = 0
        func add(_ packet: H4Packet, _ direction: CaptureDirection) {
            writer.record(CaptureRecord(timestampMicros: time, direction: direction, packet: packet))
            time += 150
            written += 16 + 4 + 1 + packet.payload.count  // record header, direction word, indicator
            packets += 1
        }
        func att(_ pdu: [UInt8], _ direction: CaptureDirection) {
            let l2cap = [UInt8(pdu.count & 0xFF), UInt8(pdu.count >> 8), 0x04, 0x00] + pdu
            add(HCIACLPacket(handle: handle, packetBoundary: .firstNonFlushable, data: l2cap).packet, direction)
        }

        add(HCIReset().packet, .sent)
        add(HCICommandCompleteEvent(numHCICommandPackets: 1, commandOpcode: .reset, returnParameters: [0]).packet.packet, .received)
        add(HCILEReadBufferSize().packet, .sent)
        add(HCICommandCompleteEvent(numHCICommandPackets: 1, command: HCILEReadBufferSize.self,
                                    returnParameters: .init(leACLDataPacketLength: 251, totalNumLEACLDataPackets: 8)).packet.packet,
            .received)
        add(HCILEConnectionCompleteEvent(
            status: .success, connectionHandle: handle, role: .peripheral, peerAddressType: LEAddressType(rawValue: 0),
            peerAddress: BDAddress(littleEndian: [1, 2, 3, 4, 5, 6]), connectionInterval: LEConnectionInterval(rawValue: 24),
            peripheralLatency: 0, supervisionTimeout: LESupervisionTimeout(rawValue: 72), centralClockAccuracy: .ppm500
        ).packet.packet, .received)
        att([0x02, UInt8(mtu & 0xFF), UInt8(mtu >> 8)], .received)  // Exchange MTU Request
        att([0x03, UInt8(mtu & 0xFF), UInt8(mtu >> 8)], .sent)      // Exchange MTU Response
        att([0x12, 0x11, 0x00, 0x01, 0x00], .received)              // CCCD 0x0011: notifications on
        att([0x13], .sent)                                          // Write Response

        let completed = HCINumberOfCompletedPacketsEvent(handles: [.init(connectionHandle: handle, numCompletedPackets: 1)])
            .packet.packet
        let chunk = Int(mtu) - 3
        var sent = 0
        while written < target {
            sent += 1
            let value = sent.isMultiple(of: chunksPerMessage + 1) ? Array("EOM".utf8)
                : [UInt8](repeating: UInt8(truncatingIfNeeded: sent), count: chunk)
            att([0x1B, 0x10, 0x00] + value, .sent)  // Handle Value Notification of 0x0010
            add(completed, .received)
            if sent.isMultiple(of: rssiEvery) {
                add(HCIReadRSSI(handle: handle).packet, .sent)
                add(HCICommandCompleteEvent(numHCICommandPackets: 1, command: HCIReadRSSI.self,
                                            returnParameters: .init(handle: handle, rssi: -60)).packet.packet, .received)
            }
        }
        att([0x1B, 0x10, 0x00] + Array("EOM".utf8), .sent)
        add(completed, .received)
        add(HCIDisconnectionCompleteEvent(status: .success, connectionHandle: handle, reason: HCIStatus(rawValue: 0x13))
            .packet.packet, .received)
        writer.close()
        if let error = writer.writeError { throw error }
        return packets
    }
}
