import BlueproofHost
import BlueproofWire
import Synchronization
import Testing

/// Plays the server side with a ``GATTServer``: every PDU goes through its bytes both ways.
final class LoopbackRequester: ATTRequester, Sendable {
    private struct State {
        var server: GATTServer
        var log: [String] = []
        var actions: [GATTServer.Action] = []
    }

    private let state: Mutex<State>
    let connection: UInt16 = 0x0040
    let fixedMTU: Int

    init(server: GATTServer = KnownDatabase.server(), mtu: Int = 23) {
        state = Mutex(State(server: server))
        fixedMTU = mtu
    }

    var mtu: Int { get async { fixedMTU } }
    var log: [String] { state.withLock { $0.log } }
    var serverActions: [GATTServer.Action] { state.withLock { $0.actions } }
    var server: GATTServer { state.withLock { $0.server } }

    func request(_ pdu: ATTPDU) async throws -> ATTPDU {
        let decoded = try ATTPDU(bytes: pdu.bytes)
        return try state.withLock { state in
            state.log.append(hex(pdu.bytes))
            var response: ATTPDU?
            for action in state.server.handle(decoded, from: connection, mtu: fixedMTU) {
                if case let .respond(answer) = action { response = answer } else { state.actions.append(action) }
            }
            guard let response else { throw GATTError.notFound("no response") }
            return try ATTPDU(bytes: response.bytes)
        }
    }

    func command(_ pdu: ATTPDU) async throws {
        let decoded = try ATTPDU(bytes: pdu.bytes)
        state.withLock { state in
            state.log.append(hex(pdu.bytes))
            state.actions += state.server.handle(decoded, from: connection, mtu: fixedMTU)
        }
    }
}

/// Answers a fixed script of (request, response) hex vectors and records anything else.
final class ScriptedRequester: ATTRequester, Sendable {
    private let steps: Mutex<[(String, String)]>
    let fixedMTU: Int

    init(mtu: Int = 23, _ steps: [(String, String)]) {
        self.steps = Mutex(steps.map { (hex(attBytes($0.0)), $0.1) })
        fixedMTU = mtu
    }

    var mtu: Int { get async { fixedMTU } }
    var remaining: Int { steps.withLock { $0.count } }

    func request(_ pdu: ATTPDU) async throws -> ATTPDU {
        let sent = hex(pdu.bytes)
        let step = steps.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        guard let (expected, response) = step else { throw GATTError.notFound("script ended before \(sent)") }
        #expect(sent == expected)
        return try ATTPDU(bytes: attBytes(response))
    }

    func command(_ pdu: ATTPDU) async throws {
        _ = try await request(pdu)
    }
}

@Suite struct GATTClientTests {
    static let heartRate = GATTRemoteService(uuid: BluetoothUUID(uuid16: 0x180D), startHandle: 0x0A, endHandle: 0x10)

    @Test func discoversAllPrimaryServices() async throws {
        let requester = LoopbackRequester()
        let services = try await GATTClient(requester: requester).discoverPrimaryServices()
        #expect(services == [
            GATTRemoteService(uuid: .genericAccessService, startHandle: 1, endHandle: 5),
            GATTRemoteService(uuid: .genericAttributeService, startHandle: 6, endHandle: 9),
            Self.heartRate,
            GATTRemoteService(uuid: KnownDatabase.serviceUUID, startHandle: 0x11, endHandle: 0x16),
        ])
        #expect(requester.log == ["100100ffff0028", "101100ffff0028", "101700ffff0028"])
    }

    @Test func discoversAPrimaryServiceByUUID() async throws {
        let client = GATTClient(requester: LoopbackRequester())
        #expect(try await client.discoverPrimaryService(uuid: BluetoothUUID(uuid16: 0x180D)) == [Self.heartRate])
        #expect(try await client.discoverPrimaryService(uuid: KnownDatabase.serviceUUID)
            == [GATTRemoteService(uuid: KnownDatabase.serviceUUID, startHandle: 0x11, endHandle: 0x16)])
        #expect(try await client.discoverPrimaryService(uuid: BluetoothUUID(uuid16: 0x180F)) == [])
    }

    @Test func discoversCharacteristicsAndDescriptors() async throws {
        let client = GATTClient(requester: LoopbackRequester())
        let characteristics = try await client.discoverCharacteristics(of: Self.heartRate)
        #expect(characteristics == [
            GATTRemoteCharacteristic(uuid: BluetoothUUID(uuid16: 0x2A37), properties: [.read, .notify],
                                     declarationHandle: 0x0B, valueHandle: 0x0C, endHandle: 0x0D),
            GATTRemoteCharacteristic(uuid: BluetoothUUID(uuid16: 0x2A39), properties: [.read, .write],
                                     declarationHandle: 0x0E, valueHandle: 0x0F, endHandle: 0x10),
        ])
        #expect(try await client.discoverDescriptors(of: characteristics[0])
            == [GATTRemoteDescriptor(uuid: .clientCharacteristicConfiguration, handle: 0x0D)])
        #expect(try await client.discoverDescriptors(of: characteristics[1])
            == [GATTRemoteDescriptor(uuid: BluetoothUUID(uuid16: 0x2901), handle: 0x10)])

        let other = GATTRemoteService(uuid: KnownDatabase.serviceUUID, startHandle: 0x11, endHandle: 0x16)
        let more = try await client.discoverCharacteristics(of: other)
        #expect(more.map(\.uuid) == [KnownDatabase.characteristicUUID, BluetoothUUID(uuid16: 0x2A19)])
        #expect(more.map(\.endHandle) == [0x14, 0x16])
        #expect(try await client.discoverDescriptors(of: more[1]) == [])
    }

    @Test func readsLongValuesWithReadBlob() async throws {
        let requester = LoopbackRequester()
        let client = GATTClient(requester: requester)
        #expect(try await client.read(handle: 0x16) == KnownDatabase.longValue)
        #expect(requester.log == ["0a1600", "0c16001600"])
        #expect(try await client.read(handle: 0x03) == Array("blueproof".utf8))
    }

    @Test func aValueOfExactlyMTUMinusOneEndsAtAttributeNotLong() async throws {
        var server = KnownDatabase.server()
        server.setValue(Array(repeating: 7, count: 22), of: 0x0F)
        let requester = LoopbackRequester(server: server)
        #expect(try await GATTClient(requester: requester).read(handle: 0x0F) == Array(repeating: 7, count: 22))
        #expect(requester.log == ["0a0f00", "0c0f001600"])
    }

    @Test func readErrorsThrow() async {
        let client = GATTClient(requester: LoopbackRequester())
        await #expect(throws: GATTError.att(.readNotPermitted, handle: 0x13)) { try await client.read(handle: 0x13) }
        await #expect(throws: GATTError.att(.invalidHandle, handle: 0x99)) { try await client.read(handle: 0x99) }
    }

    @Test func writes() async throws {
        let requester = LoopbackRequester()
        let client = GATTClient(requester: requester)
        try await client.write(handle: 0x0F, value: [9])
        #expect(try await client.read(handle: 0x0F) == [9])
        await #expect(throws: GATTError.att(.writeNotPermitted, handle: 0x03)) {
            try await client.write(handle: 0x03, value: [1])
        }
        try await client.writeWithoutResponse(handle: 0x13, value: [1, 2, 3])
        #expect(requester.serverActions == [
            .written(handle: 0x0F, uuid: BluetoothUUID(uuid16: 0x2A39), value: [9], withResponse: true),
            .writeRefused(handle: 0x03, length: 1, withResponse: true, error: .writeNotPermitted),
            .written(handle: 0x13, uuid: KnownDatabase.characteristicUUID, value: [1, 2, 3], withResponse: false),
        ])
        await #expect(throws: GATTError.valueTooLong(length: 21, maximum: 20)) {
            try await client.write(handle: 0x0F, value: Array(repeating: 0, count: 21))
        }
        await #expect(throws: GATTError.valueTooLong(length: 21, maximum: 20)) {
            try await client.writeWithoutResponse(handle: 0x13, value: Array(repeating: 0, count: 21))
        }
    }

    @Test func subscribesThroughTheConfigurationDescriptor() async throws {
        let requester = LoopbackRequester()
        let client = GATTClient(requester: requester)
        let characteristics = try await client.discoverCharacteristics(of: Self.heartRate)
        try await client.subscribe(characteristics[0])
        #expect(requester.server.configuration(of: 0x0C, for: 0x40) == .notification)
        #expect(requester.serverActions
            == [.subscriptionChanged(connection: 0x40, characteristic: 0x0C, notify: true, indicate: false)])
        try await client.unsubscribe(characteristics[0])
        #expect(requester.server.configuration(of: 0x0C, for: 0x40) == [])
        await #expect(throws: GATTError.self) { try await client.subscribe(characteristics[0], indications: true) }
        await #expect(throws: GATTError.self) { try await client.subscribe(characteristics[1]) }

        let other = GATTRemoteService(uuid: KnownDatabase.serviceUUID, startHandle: 0x11, endHandle: 0x16)
        let indicating = try await client.discoverCharacteristics(of: other)[0]
        try await client.subscribe(indicating, indications: true)
        #expect(requester.server.configuration(of: 0x13, for: 0x40) == .indication)
    }

    @Test func subscribingWithoutADescriptorThrowsNotFound() async {
        let client = GATTClient(requester: ScriptedRequester([("04 0d00 0d00", "01 04 0d00 0a")]))
        let characteristic = GATTRemoteCharacteristic(uuid: BluetoothUUID(uuid16: 0x2A37), properties: .notify,
                                                      declarationHandle: 0x0B, valueHandle: 0x0C, endHandle: 0x0D)
        await #expect(throws: GATTError.notFound("Client Characteristic Configuration of 2A37")) {
            try await client.subscribe(characteristic)
        }
    }

    // MARK: - Hand-written sequences

    @Test func exchangeMTU() async throws {
        let requester = ScriptedRequester([("02 0502", "03 f700"), ("02 f700", "03 1000")])
        let client = GATTClient(requester: requester)
        #expect(try await client.exchangeMTU(517) == 247)
        #expect(try await client.exchangeMTU(247) == 23)
        await #expect(throws: GATTError.invalidArgument("an ATT_MTU lies in 23...65535, not 22")) {
            try await client.exchangeMTU(22)
        }
    }

    @Test func serviceDiscoveryStopsAtTheLastHandle() async throws {
        let requester = ScriptedRequester([
            ("10 0100 ffff 0028", "11 06 0100 0700 0018 0800 ffff 0d18"),
        ])
        let services = try await GATTClient(requester: requester).discoverPrimaryServices()
        #expect(services.map(\.endHandle) == [0x07, 0xFFFF])
        #expect(requester.remaining == 0)
    }

    @Test func serviceDiscoveryRefusesHandlesThatGoBackwards() async {
        let requester = ScriptedRequester([
            ("10 0100 ffff 0028", "11 06 0500 0700 0018"),
            ("10 0800 ffff 0028", "11 06 0300 0400 0d18"),
        ])
        await #expect(throws: GATTError.self) { try await GATTClient(requester: requester).discoverPrimaryServices() }
    }

    @Test func unexpectedResponsesThrow() async {
        let client = GATTClient(requester: ScriptedRequester([
            ("10 0100 ffff 0028", "0b 00"),
            ("0a 0300", "01 0c 0300 01"),
            ("12 0300 01", "0b"),
        ]))
        await #expect(throws: GATTError.unexpectedResponse(pdu("0b 00"))) { try await client.discoverPrimaryServices() }
        await #expect(throws: GATTError.unexpectedResponse(pdu("01 0c 0300 01"))) { try await client.read(handle: 3) }
        await #expect(throws: GATTError.unexpectedResponse(pdu("0b"))) { try await client.write(handle: 3, value: [1]) }
    }

    @Test func characteristicDiscoveryAcrossResponses() async throws {
        let requester = ScriptedRequester([
            ("08 0a00 1000 0328", "09 07 0b00 120c00372a"),
            ("08 0c00 1000 0328", "09 07 0e00 0a0f00392a"),
            ("08 0f00 1000 0328", "01 08 0f00 0a"),
        ])
        let characteristics = try await GATTClient(requester: requester).discoverCharacteristics(of: Self.heartRate)
        #expect(characteristics.map(\.valueHandle) == [0x0C, 0x0F])
        #expect(characteristics.map(\.endHandle) == [0x0D, 0x10])
    }

    @Test func aBadDeclarationIsAnInvalidResponse() async {
        let requester = ScriptedRequester([("08 0a00 1000 0328", "09 06 0b00 120c0037")])
        await #expect(throws: GATTError.self) {
            try await GATTClient(requester: requester).discoverCharacteristics(of: Self.heartRate)
        }
    }
}
