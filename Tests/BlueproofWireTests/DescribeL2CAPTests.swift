import Testing
@testable import BlueproofWire

private func acl(_ text: String) -> HCIPacketDescription {
    H4Packet(type: .acl, payload: hexBytes(text)).describe()
}

private func value(_ description: HCIPacketDescription, _ name: String) -> String? {
    description.fields.first { $0.name == name }?.value
}

/// ACL packets carrying a whole L2CAP frame show the signalling command, SMP command or ATT
/// PDU inside (Core Vol 3, Parts A, H, F), after the ACL and L2CAP header fields.
@Suite("describe: L2CAP signalling, SMP and ATT")
struct DescribeL2CAPTests {
    @Test func leSignalling() {
        // A peripheral asks for a 7.5–15 ms interval and a 5 s supervision timeout.
        let update = acl("4000 1000 0c00 0500 12 01 0800 0600 0c00 0000 f401")
        #expect(update.malformed == nil)
        #expect(update.line.hasSuffix("cid=0x0005 layer=l2cap pdu=Connection Parameter Update Request id=1 "
            + "interval_min=0x0006 interval_max=0x000c latency=0 supervision_timeout=0x01f4"))
        let credits = acl("4000 0c00 0800 0500 16 02 0400 4000 0a00")
        #expect(value(credits, "pdu") == "Flow Control Credit Indication")
        #expect(value(credits, "credits") == "10")
        // LE allows one command per frame (§4).
        #expect(acl("4000 1000 0c00 0500 13 01 0200 0000 13 02 0200 0000").malformed != nil)
    }

    @Test func brEdrSignallingMayHoldSeveralCommands() {
        let two = acl("0b00 1200 0e00 0100 02 03 0400 0100 4000 0a 04 0200 0200")
        #expect(two.malformed == nil)
        #expect(value(two, "pdu") == "Connection Request, Information Request")
        #expect(value(two, "psm[0]") == "0x0001")
        #expect(value(two, "info_type[1]") == "0x0002")
    }

    @Test func smp() {
        let request = acl("4000 0b00 0700 0600 01 03 00 0d 10 07 07")
        #expect(request.line.hasSuffix("layer=smp pdu=Pairing Request io_capability=0x03 oob_data=0x00 auth_req=0x0d "
            + "max_key_size=16 initiator_keys=0x07 responder_keys=0x07"))
        let failed = acl("4000 0600 0200 0600 05 05")
        #expect(value(failed, "pdu") == "Pairing Failed")
        #expect(value(failed, "reason") == SMPPairingFailedReason(rawValue: 0x05).description)
    }

    @Test func att() {
        #expect(acl("4000 0700 0300 0400 02 f700").line.hasSuffix("layer=att pdu=Exchange MTU Request client_rx_mtu=247"))
        let group = acl("4000 0b00 0700 0400 10 0100 ffff 0028")
        #expect(value(group, "pdu") == "Read By Group Type Request")
        #expect(value(group, "type") == "2800")
        let error = acl("4000 0900 0500 0400 01 10 0800 0a")
        #expect(value(error, "request") == ATTOpcode(rawValue: 0x10).description)
        #expect(value(error, "error") == ATTErrorCode(rawValue: 0x0A).description)
        // The attribute handle never hides the connection handle.
        let notification = acl("4000 0900 0500 0400 1b 2a00 0102")
        #expect(value(notification, "handle") == "64")
        #expect(value(notification, "attribute") == "0x002a")
        #expect(value(notification, "value") == "0102")
        // A bad UUID length is malformed, not guessed.
        #expect(acl("4000 0a00 0600 0400 10 0100 ffff 28").malformed != nil)
    }

    @Test func fragmentsAndDynamicChannelsShowTheHeaderOnly() {
        // The first fragment of a longer frame: no upper layer yet.
        #expect(value(acl("4000 0700 0900 0400 1b 2a00"), "layer") == nil)
        #expect(value(acl("4000 0600 0200 4000 abcd"), "layer") == nil)
    }

    /// Random frames on every decoded channel never trap.
    @Test("random L2CAP payloads", arguments: [11, 12] as [UInt64])
    func fuzz(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        for _ in 0..<3000 {
            let cid = [0x0001, 0x0004, 0x0005, 0x0006, 0x0007].randomElement(using: &generator) ?? 4
            let payload = (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let l2cap = [UInt8(payload.count), 0, UInt8(cid), 0] + payload
            let packet = HCIACLPacket(handle: 0x40, packetBoundary: .firstNonFlushable, data: l2cap).packet
            let description = packet.describe()
            #expect(description.name == "ACL Data")
            #expect(value(description, "layer") != nil)
        }
    }
}
