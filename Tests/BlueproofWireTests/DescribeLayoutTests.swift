import Testing
@testable import BlueproofWire

private func command(_ text: String) -> HCIPacketDescription {
    H4Packet(type: .command, payload: hexBytes(text)).describe()
}

private func event(_ text: String) -> HCIPacketDescription {
    H4Packet(type: .event, payload: hexBytes(text)).describe()
}

/// The commands and events issue 16 found printed as "Unknown" in real captures, each named
/// and decoded with its parameters (Core Vol 4, Part E §7). The bytes are as controllers
/// and hosts send them (BlueZ's and Android's start-up sequences and link set-up).
@Suite("describe: commands and events from layouts")
struct DescribeLayoutTests {
    @Test func leCommandsOfTheIssue() {
        #expect(command("162002 4000").line == "LE Read Remote Used Features handle=64")
        #expect(command("182000").line == "LE Rand")
        #expect(command("0f2000").line == "LE Read Accept List Size")
        #expect(command("102000").line == "LE Clear Accept List")
        #expect(command("112007 01 c6a5b4332211").line == "LE Add Device To Accept List address_type=random address=11:22:33:B4:A5:C6")
        #expect(command("1c2000").line == "LE Read Supported States")
        #expect(command("20200e 4000 1800 2800 0000 2a00 0000 0000").line
            == "LE Remote Connection Parameter Request Reply handle=64 interval_min=0x0018 interval_max=0x0028 "
            + "latency=0 supervision_timeout=0x002a min_ce_length=0x0000 max_ce_length=0x0000")
        #expect(command("232000").line == "LE Read Suggested Default Data Length")
        #expect(command("272027 00 060504030201 " + String(repeating: "11", count: 16) + String(repeating: "22", count: 16)).line
            == "LE Add Device To Resolving List address_type=public address=01:02:03:04:05:06 peer_irk="
            + String(repeating: "11", count: 16) + " local_irk=" + String(repeating: "22", count: 16))
        #expect(command("282007 00 060504030201").name == "LE Remove Device From Resolving List")
        #expect(command("292000").line == "LE Clear Resolving List")
        #expect(command("2a2000").line == "LE Read Resolving List Size")
        #expect(command("2b2007 01 060504030201").name == "LE Read Peer Resolvable Address")
        #expect(command("2c2007 01 060504030201").name == "LE Read Local Resolvable Address")
        #expect(command("2d2001 01").line == "LE Set Address Resolution Enable enable=true")
        #expect(command("2e2002 8403").line == "LE Set Resolvable Private Address Timeout timeout_s=900")
        #expect(command("2f2000").line == "LE Read Maximum Data Length")
        #expect(command("4e2008 00 060504030201 01").line
            == "LE Set Privacy Mode address_type=public address=01:02:03:04:05:06 privacy_mode=0x01")
        #expect(command("072000").line == "LE Read Advertising Channel TX Power")
    }

    @Test func controllerCommandsOfTheIssue() {
        #expect(command("6d0c02 01 00").line == "Write LE Host Supported le_supported=true simultaneous=0x00")
        #expect(command("041001 01").line == "Read Local Extended Features page=1")
    }

    @Test func returnParametersFromLayouts() {
        #expect(event("0e0c 01 1820 00 efcdab8967452301").line
            == "Command Complete ncmd=1 opcode=0x08|0x0018 command=LE Rand status=Success (0x00) random=0x0123456789abcdef")
        #expect(event("0e0e 01 0410 00 01 02 ffffffff00000000").line
            == "Command Complete ncmd=1 opcode=0x04|0x0004 command=Read Local Extended Features status=Success (0x00) "
            + "page=1 max_page=2 features=0x00000000ffffffff")
        #expect(event("0e0c 01 2f20 00 fb00 4808 fb00 4808").line
            == "Command Complete ncmd=1 opcode=0x08|0x002f command=LE Read Maximum Data Length status=Success (0x00) "
            + "max_tx_octets=251 max_tx_time=2120 max_rx_octets=251 max_rx_time=2120")
        // A refusal carries the status alone and is not malformed.
        #expect(event("0e04 01 1820 0c").line
            == "Command Complete ncmd=1 opcode=0x08|0x0018 command=LE Rand status=Command Disallowed (0x0c)")
        // Octets past the layout are shown, not dropped.
        #expect(event("0e06 01 2a20 00 10 ee").line.hasSuffix("size=16 extra=ee"))
        // A command answered by Command Status is named there.
        #expect(event("0f04 00 01 1620").line.hasSuffix("command=LE Read Remote Used Features"))
    }

    @Test func eventsOfTheIssue() {
        #expect(event("0804 00 4000 01").line == "Encryption Change status=Success (0x00) handle=64 encryption=0x01")
        #expect(event("3003 00 4000").line == "Encryption Key Refresh Complete status=Success (0x00) handle=64")
        #expect(event("0c08 00 4000 0c 0f00 1a02").line
            == "Read Remote Version Complete status=Success (0x00) handle=64 version=0x0c company=0x000f subversion=0x021a")
        #expect(event("3e0b 06 4000 0600 0c00 0000 f401").line
            == "LE Remote Connection Parameter Request handle=64 interval_min=0x0006 interval_max=0x000c latency=0 "
            + "supervision_timeout=0x01f4")
        #expect(event("3e0d 05 4000 0000000000000000 0000").name == "LE Long Term Key Request")
        #expect(event("3e06 0c 00 4000 02 02").line == "LE PHY Update Complete status=Success (0x00) handle=64 "
            + "tx_phy=LE 2M (0x02) rx_phy=LE 2M (0x02)")
    }

    @Test func classicConnectionComplete() {
        #expect(event("030b 00 0b00 7c9a1c21a0c8 01 00").line
            == "Connect Complete status=Success (0x00) handle=11 address=C8:A0:21:1C:9A:7C link_type=ACL (0x01) encryption=0x00")
        let packet = HCIEventPacket(code: 0x03, parameters: hexBytes("00 0b00 7c9a1c21a0c8 01 00"))
        #expect((try? HCIEvent(packet)) == .connectionComplete(.init(
            status: .success, connectionHandle: 11, address: address("C8:A0:21:1C:9A:7C"), linkType: .acl)))
    }

    @Test func vendorCommandsAndEventsAreNamed() {
        #expect(command("01fc02 abcd").line == "Vendor opcode=0x3f|0x0001 parameters=abcd")
        #expect(event("ff02 abcd").line == "Vendor data=abcd")
    }

    @Test func shortParametersAreMalformedAndKeepTheName() throws {
        let short = command("162001 40")
        #expect(short.name == "LE Read Remote Used Features")
        let error = try #require(short.malformed)
        #expect(error.offset == 3)
        #expect(event("0802 00 40").malformed != nil)
        #expect(event("0802 00 40").name == "Encryption Change")
    }

    /// No layout duplicates a typed codec, so one opcode never has two descriptions.
    @Test func layoutsAndCodecsAreDisjoint() {
        #expect(Set(HCICommandLayout.all.keys).isDisjoint(with: HCICommandCatalogue.knownOpcodes))
        for code in HCIEventLayout.events.keys { #expect(!HCIEvent.name(ofCode: code).hasPrefix("Unknown")) }
    }

    /// Random parameters for every layout never trap, and either decode or say why not.
    @Test("random bytes through every layout", arguments: [3, 17] as [UInt64])
    func fuzz(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        func randomBytes(_ upTo: Int) -> [UInt8] {
            (0..<Int.random(in: 0...upTo, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
        for opcode in HCICommandLayout.all.keys {
            for _ in 0..<20 {
                let packet = HCICommandPacket(opcode: opcode, parameters: randomBytes(80))
                #expect(!HCICommandCatalogue.describe(packet).name.isEmpty)
                _ = HCICommandCatalogue.describeReturn(of: opcode, randomBytes(80))
            }
        }
        for code in HCIEventLayout.events.keys {
            for _ in 0..<20 {
                let parameters = randomBytes(255)
                let description = H4Packet(type: .event, payload: [code, UInt8(parameters.count)] + parameters).describe()
                #expect(description.name == HCIEventLayout.events[code]?.name)
            }
        }
        for subevent in HCIEventLayout.leSubevents.keys {
            for _ in 0..<20 {
                let parameters = [subevent] + randomBytes(80)
                let description = H4Packet(type: .event, payload: [0x3E, UInt8(parameters.count)] + parameters).describe()
                #expect(description.name == HCIEventLayout.leSubevents[subevent]?.name)
            }
        }
    }
}
