import BlueproofHost
import BlueproofWire
import Testing

/// The server against ``KnownDatabase``, request and response as byte vectors.
@Suite struct GATTServerTests {
    static let service128 = "61a907add1172fa1c44bf573f4390ae2"
    static let characteristic128 = "d413ebfaf67257877e4605db7e0f5908"

    /// Feeds a request (hex) and returns the one response (hex) and the other actions.
    static func exchange(
        _ server: inout GATTServer, _ request: String, connection: UInt16 = 0x0040, mtu: Int = 23
    ) -> (response: String?, others: [GATTServer.Action]) {
        let actions = server.handle(pdu(request), from: connection, mtu: mtu)
        var response: String?
        var others: [GATTServer.Action] = []
        for action in actions {
            if case let .respond(answer) = action {
                #expect(response == nil, "two responses to \(request)")
                response = hex(answer.bytes)
            } else {
                others.append(action)
            }
        }
        return (response, others)
    }

    static func respond(_ request: String, mtu: Int = 23) -> String? {
        var server = KnownDatabase.server()
        return exchange(&server, request, mtu: mtu).response
    }

    @Test("request → response", arguments: [
        // Read By Group Type: 16-bit services first, then the 128-bit one, then nothing left.
        ("10 0100 ffff 0028", "11 06 0100 0500 0018 0600 0900 0118 0a00 1000 0d18"),
        ("10 1100 ffff 0028", "11 14 1100 1600 \(service128)"),
        ("10 1700 ffff 0028", "01 10 1700 0a"),
        ("10 0100 ffff 0128", "01 10 0100 0a"),
        ("10 0000 ffff 0028", "01 10 0000 01"),
        ("10 0500 0400 0028", "01 10 0500 01"),
        ("10 0100 ffff 0328", "01 10 0100 10"),
        // Find By Type Value: a primary service by UUID, in either size.
        ("06 0100 ffff 0028 0d18", "07 0a00 1000"),
        ("06 0100 ffff 0028 fb349b5f80000080001000000d180000", "07 0a00 1000"),
        ("06 0100 ffff 0028 \(service128)", "07 1100 1600"),
        ("06 0b00 ffff 0028 0d18", "01 06 0b00 0a"),
        ("06 0100 ffff 0028 0f18", "01 06 0100 0a"),
        ("06 0000 ffff 0028 0d18", "01 06 0000 01"),
        // A non-grouping attribute ends its own group.
        ("06 0100 ffff 002a 626c756570726f6f66", "07 0300 0300"),
        // Read By Type of «Characteristic»: pairs of one length, as many as 23 octets hold.
        ("08 0100 ffff 0328", "09 07 0200 020300002a 0400 020500012a 0700 200800052a"),
        ("08 0800 ffff 0328", "09 07 0b00 120c00372a 0e00 0a0f00392a"),
        ("08 0f00 ffff 0328", "09 15 1200 2c1300\(characteristic128)"),
        ("08 1300 ffff 0328", "09 07 1500 021600192a"),
        ("08 1600 ffff 0328", "01 08 1600 0a"),
        ("08 0000 ffff 0328", "01 08 0000 01"),
        ("08 0200 0100 0328", "01 08 0200 01"),
        // Read By Type of a characteristic value by UUID; unreadable values are refused.
        ("08 0100 ffff 392a", "09 03 0f00 01"),
        ("08 0100 ffff 052a", "01 08 0800 02"),
        ("08 0100 ffff \(characteristic128)", "01 08 1300 02"),
        // Long values are cut to ATT_MTU - 4.
        ("08 0100 ffff 192a", "09 15 1600 000102030405060708090a0b0c0d0e0f101112"),
        // Find Information: one UUID size per response, as many pairs as fit.
        ("04 0100 ffff", "05 01 0100 0028 0200 0328 0300 002a 0400 0328 0500 012a"),
        ("04 1200 1400", "05 01 1200 0328"),
        ("04 1300 1400", "05 02 1300 \(characteristic128)"),
        ("04 0d00 0d00", "05 01 0d00 0229"),
        ("04 1700 ffff", "01 04 1700 0a"),
        ("04 0000 0100", "01 04 0000 01"),
        ("04 0300 0200", "01 04 0300 01"),
        // Read.
        ("0a 0300", "0b 626c756570726f6f66"),
        ("0a 0c00", "0b 0048"),
        ("0a 0d00", "0b 0000"),
        ("0a 1000", "0b 72617465"),
        ("0a 1600", "0b 000102030405060708090a0b0c0d0e0f101112131415"),
        ("0a 1300", "01 0a 1300 02"),
        ("0a 0800", "01 0a 0800 02"),
        ("0a 0000", "01 0a 0000 01"),
        ("0a 1700", "01 0a 1700 01"),
        // Read Blob: offsets up to the end, Invalid Offset past it, Attribute Not Long for short values.
        ("0c 1600 0000", "0d 000102030405060708090a0b0c0d0e0f101112131415"),
        ("0c 1600 1600", "0d 161718191a1b1c1d1e1f2021222324252627"),
        ("0c 1600 2800", "0d"),
        ("0c 1600 2900", "01 0c 1600 07"),
        ("0c 0300 0000", "01 0c 0300 0b"),
        ("0c 0300 0a00", "01 0c 0300 07"),
        ("0c 1300 0000", "01 0c 1300 02"),
        ("0c 1700 0000", "01 0c 1700 01"),
        // Writes that fail.
        ("12 0300 41", "01 12 0300 03"),
        ("12 0000 41", "01 12 0000 01"),
        ("12 1700 41", "01 12 1700 01"),
        ("12 0d00 01", "01 12 0d00 0d"),
        ("12 0d00 010000", "01 12 0d00 0d"),
        // Requests this server does not support, known or not.
        ("0e 0300 0500", "01 0e 0000 06"),
        ("16 0f00 0000 01", "01 16 0000 06"),
        ("18 01", "01 18 0000 06"),
        ("3f", "01 3f 0000 06"),
    ])
    func requestAndResponse(request: String, response: String) {
        #expect(Self.respond(request) == hex(attBytes(response)), "\(request)")
    }

    @Test func largerMTUsHoldMore() {
        #expect(Self.respond("0a 1600", mtu: 100) == hex(KnownDatabase.longValue) .withOpcode("0b"))
        #expect(Self.respond("0c 1600 0000", mtu: 41) == "01 0c 1600 0b".compact)
        #expect(Self.respond("10 0100 ffff 0028", mtu: 100) == "11 06 0100 0500 0018 0600 0900 0118 0a00 1000 0d18".compact)
        #expect(Self.respond("04 0100 ffff", mtu: 30)
            == "05 01 0100 0028 0200 0328 0300 002a 0400 0328 0500 012a 0600 0028 0700 0328".compact)
        #expect(Self.respond("08 0100 ffff 192a", mtu: 100) == ("09 2a 1600" + hex(KnownDatabase.longValue)).compact)
        // MTUs below 23 count as 23.
        #expect(Self.respond("0a 1600", mtu: 5) == "0b 000102030405060708090a0b0c0d0e0f101112131415".compact)
    }

    @Test func writeRequestStoresTheValue() {
        var server = KnownDatabase.server()
        let (response, others) = Self.exchange(&server, "12 0f00 05")
        #expect(response == "13")
        #expect(others == [.written(handle: 0x0F, uuid: BluetoothUUID(uuid16: 0x2A39), value: [5], withResponse: true)])
        #expect(Self.exchange(&server, "0a 0f00").response == "0b05")
        // Other connections see the same value.
        #expect(Self.exchange(&server, "0a 0f00", connection: 0x41).response == "0b05")
    }

    @Test func writeCommandIsNeverAnswered() {
        var server = KnownDatabase.server()
        let value = attBytes("aabb")
        let result1 = server.handle(pdu("52 1300 aabb"), from: 0x40, mtu: 23)
        #expect(result1
            == [.written(handle: 0x13, uuid: KnownDatabase.characteristicUUID, value: value, withResponse: false)])
        #expect(server.database.attribute(0x13)?.value == value)
        // Refused commands get no answer; the caller alone learns why.
        let result2 = server.handle(pdu("52 0300 aabb"), from: 0x40, mtu: 23)
        #expect(result2 == [.writeRefused(handle: 0x03, length: 2, withResponse: false, error: .writeNotPermitted)])
        let result3 = server.handle(pdu("52 0000 aabb"), from: 0x40, mtu: 23)
        #expect(result3 == [.writeRefused(handle: 0x00, length: 2, withResponse: false, error: .invalidHandle)])
        let result4 = server.handle(pdu("52 0d00 01"), from: 0x40, mtu: 23)
        #expect(result4 == [.writeRefused(handle: 0x0D, length: 1, withResponse: false, error: .invalidAttributeValueLength)])
        // Unknown commands and PDUs that are not requests are ignored.
        let result5 = server.handle(pdu("7f 01"), from: 0x40, mtu: 23)
        #expect(result5.isEmpty)
        let result6 = server.handle(pdu("d2 1300 00 000102030405060708090a0b"), from: 0x40, mtu: 23)
        #expect(result6.isEmpty)
        let result7 = server.handle(pdu("1e"), from: 0x40, mtu: 23)
        #expect(result7.isEmpty)
        let result8 = server.handle(pdu("0b 00"), from: 0x40, mtu: 23)
        #expect(result8.isEmpty)
    }

    @Test func configurationIsPerConnection() {
        var server = KnownDatabase.server()
        let (response, others) = Self.exchange(&server, "12 0d00 0100", connection: 0x40)
        #expect(response == "13")
        #expect(others == [.subscriptionChanged(connection: 0x40, characteristic: 0x0C, notify: true, indicate: false)])
        #expect(server.configuration(of: 0x0C, for: 0x40) == .notification)
        #expect(server.configuration(of: 0x0C, for: 0x41) == [])
        #expect(Self.exchange(&server, "0a 0d00", connection: 0x40).response == "0b0100")
        #expect(Self.exchange(&server, "0a 0d00", connection: 0x41).response == "0b0000")
        #expect(Self.exchange(&server, "08 0c00 0d00 0229", connection: 0x40).response == "0904 0d00 0100".compact)
        // Writing the same value again changes nothing.
        let again = Self.exchange(&server, "12 0d00 0100", connection: 0x40)
        #expect(again.others.isEmpty)
        // Bits the characteristic does not allow are kept but not reported as subscribed.
        #expect(Self.exchange(&server, "12 0d00 0300", connection: 0x40).others
            == [.subscriptionChanged(connection: 0x40, characteristic: 0x0C, notify: true, indicate: false)])
        #expect(Self.exchange(&server, "12 0d00 0000", connection: 0x40).others
            == [.subscriptionChanged(connection: 0x40, characteristic: 0x0C, notify: false, indicate: false)])
        // The database value itself is untouched.
        #expect(server.database.attribute(0x0D)?.value == [0, 0])
    }

    @Test func notificationsGoOnlyToSubscribers() throws {
        var server = KnownDatabase.server()
        let value = (0..<30).map { UInt8($0) }
        #expect(try server.notifications(for: 0x0C, value: value, mtu: 23).isEmpty)
        _ = server.handle(pdu("12 0d00 0100"), from: 0x42, mtu: 23)
        _ = server.handle(pdu("12 0d00 0100"), from: 0x40, mtu: 50)
        _ = server.handle(pdu("12 0d00 0200"), from: 0x41, mtu: 23)
        let sent = try server.notifications(for: 0x0C, value: value, mtu: { $0 == 0x41 ? 23 : 50 })
        #expect(sent == [
            GATTServer.Outbound(connection: 0x40, pdu: .handleValueNotification(attributeHandle: 0x0C, attributeValue: value)),
            GATTServer.Outbound(connection: 0x42, pdu: .handleValueNotification(attributeHandle: 0x0C, attributeValue: value)),
        ])
        // 0x2A37 does not indicate.
        #expect(try server.indications(for: 0x0C, value: value, mtu: 50).isEmpty)
        server.disconnected(0x40)
        #expect(try server.notifications(for: 0x0C, value: value, mtu: 50).map(\.connection) == [0x42])
        // A handle that is no characteristic value sends nothing.
        #expect(try server.notifications(for: 0x0D, value: value, mtu: 23).isEmpty)
    }

    /// The issue-12 finding: a value one byte over ATT_MTU - 3 used to be cut to fit, silently.
    @Test("a notification or indication value longer than ATT_MTU - 3 is refused, naming the limit, never cut")
    func oversizeValuesRefused() throws {
        var server = KnownDatabase.server()
        _ = server.handle(pdu("12 0d00 0100"), from: 0x40, mtu: 23)
        _ = server.handle(pdu("12 1400 0200"), from: 0x40, mtu: 23)
        #expect(try server.notifications(for: 0x0C, value: Array(repeating: 7, count: 20), mtu: 23).count == 1)
        #expect(throws: GATTValueTooLong(length: 21, maximum: 20, connection: 0x40)) {
            try server.notifications(for: 0x0C, value: Array(repeating: 7, count: 21), mtu: 23)
        }
        #expect(throws: GATTValueTooLong(length: 21, maximum: 20, connection: 0x40)) {
            try server.indications(for: 0x13, value: Array(repeating: 7, count: 21), mtu: 23)
        }
        // At ATT_MTU 517 the attribute value limit (512) is the bound, not 514.
        #expect(throws: GATTValueTooLong(length: 513, maximum: 512, connection: 0x40)) {
            try server.notifications(for: 0x0C, value: Array(repeating: 7, count: 513), mtu: 517)
        }
    }

    /// The transfer sample's characteristic offers notify + write without response only: a Write
    /// Request to its value is Write Not Permitted (Core Vol 3, Part F §3.4.1.1, error 0x03;
    /// Vol 3, Part G §3.3.1.1), while a Write Command is taken.
    @Test("a Write Request to a write-without-response-only characteristic is refused with Write Not Permitted")
    func writeRequestOnWriteCommandOnlyCharacteristic() throws {
        let database = try GATTDatabase(services: [GATTServiceDefinition(uuid: KnownDatabase.serviceUUID, characteristics: [
            GATTCharacteristicDefinition(uuid: KnownDatabase.characteristicUUID, properties: [.notify, .writeWithoutResponse],
                                         permissions: [.readable, .writable]),
        ])])
        var server = GATTServer(database: database)
        let value = try #require(database.characteristic(uuid: KnownDatabase.characteristicUUID)?.valueHandle)
        #expect(value == 0x000C)
        #expect(Self.exchange(&server, "12 0c00 0102").response == "01120c0003")
        #expect(server.database.attribute(value)?.value == [])
        #expect(Self.exchange(&server, "52 0c00 0102").others
            == [.written(handle: value, uuid: KnownDatabase.characteristicUUID, value: [1, 2], withResponse: false)])
        // And the other way round: a Write Command to a Write-only characteristic is dropped
        // (unanswered; the caller is told).
        var known = KnownDatabase.server()
        #expect(Self.exchange(&known, "52 0f00 05").others
            == [.writeRefused(handle: 0x0F, length: 1, withResponse: false, error: .writeNotPermitted)])
        #expect(Self.exchange(&known, "12 0f00 05").response == "13")
    }

    /// An attribute value holds at most 512 octets (Core Vol 3, Part F §3.2.9): a longer Write
    /// Request is answered with Invalid Attribute Value Length (0x0D); a longer Write Command
    /// cannot be answered (§3.4.5.3). Either way the value stays and the caller is told, so a
    /// peripheral can say what happened (issue 14: Bumble writes back 514 bytes at ATT_MTU 517).
    @Test("a write over 512 octets: Write Request answered 0x0D, Write Command unanswered; both reported")
    func writeOverTheAttributeMaximum() {
        var server = KnownDatabase.server()
        let long = Array(repeating: UInt8(0x5A), count: 514)
        let command = server.handle(.writeCommand(attributeHandle: 0x13, attributeValue: long), from: 0x40, mtu: 517)
        #expect(command == [.writeRefused(handle: 0x13, length: 514, withResponse: false, error: .invalidAttributeValueLength)])
        let request = server.handle(.writeRequest(attributeHandle: 0x13, attributeValue: long), from: 0x40, mtu: 517)
        #expect(request == [
            .respond(.errorResponse(requestOpcodeInError: .writeRequest, attributeHandleInError: 0x13,
                                    errorCode: .invalidAttributeValueLength)),
            .writeRefused(handle: 0x13, length: 514, withResponse: true, error: .invalidAttributeValueLength),
        ])
        #expect(server.database.attribute(0x13)?.value.count != 514)
        // 512 octets are taken.
        let fits = Array(long.prefix(512))
        #expect(server.handle(.writeCommand(attributeHandle: 0x13, attributeValue: fits), from: 0x40, mtu: 517)
            == [.written(handle: 0x13, uuid: KnownDatabase.characteristicUUID, value: fits, withResponse: false)])
    }

    @Test func indicationsGoOnlyToSubscribers() throws {
        var server = KnownDatabase.server()
        #expect(Self.exchange(&server, "12 1400 0200", connection: 0x41).others
            == [.subscriptionChanged(connection: 0x41, characteristic: 0x13, notify: false, indicate: true)])
        #expect(Self.exchange(&server, "12 0900 0200", connection: 0x40).others
            == [.subscriptionChanged(connection: 0x40, characteristic: 0x08, notify: false, indicate: true)])
        #expect(try server.indications(for: 0x13, value: [1, 2], mtu: 23)
            == [GATTServer.Outbound(connection: 0x41, pdu: pdu("1d 1300 0102"))])
        #expect(try server.indications(for: GATTDatabase.serviceChangedHandle, value: attBytes("0100ffff"), mtu: 23)
            == [GATTServer.Outbound(connection: 0x40, pdu: pdu("1d 0800 0100ffff"))])
        #expect(try server.notifications(for: 0x13, value: [1, 2], mtu: 23).isEmpty)
    }

    @Test func applicationSetsValues() {
        var server = KnownDatabase.server()
        let set = server.setValue([0x00, 0x50], of: 0x0C)
        let missing = server.setValue([0x00], of: 0x99)
        #expect(set)
        #expect(!missing)
        #expect(Self.exchange(&server, "0a 0c00").response == "0b0050")
    }

    @Test func exchangeMTUIsAnsweredForCallersWithoutABearer() {
        #expect(Self.respond("02 0502", mtu: 247) == "03f700")
    }
}

extension String {
    /// Hex text without spaces, as `hex(_:)` prints it.
    var compact: String { filter { !$0.isWhitespace } }
    func withOpcode(_ opcode: String) -> String { opcode + self }
}
