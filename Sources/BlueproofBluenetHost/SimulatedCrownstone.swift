import BlueproofBluenet
import BlueproofHost
import BlueproofWire

/// A Crownstone plug on an LE host, for checking Bluenet against a real GATT peer: it
/// advertises its name, puts ``CrownstoneServiceData`` under the plug's service data UUID (C001)
/// in its scan response, and serves the Crownstone service with the control characteristic.
/// A switch command written there (``CrownstoneControlPacket``) becomes its switch state (and a
/// new state id) in the next advertisement; anything else is refused and changes nothing.
public actor SimulatedCrownstone {
    public enum Event: Hashable, Sendable {
        case advertising(address: BDAddress)
        case connected(peer: BDAddress)
        case disconnected(peer: BDAddress)
        /// A switch command set the state to `switchState` (0…100).
        case switched(switchState: UInt8)
        /// A write to the control characteristic that is not a switch command.
        case refused(BluenetError)
    }

    public let host: LEHost
    public let name: String
    /// What the scan response carries now.
    public private(set) var state: CrownstoneServiceData
    public nonisolated let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private var controlHandle: UInt16?
    private var tasks: [Task<Void, Never>] = []

    /// Events kept for a reader that lags, newest first out.
    public static let eventBuffer = 256

    public init(host: LEHost, crownstoneId: UInt16, switchState: UInt8 = 0, name: String = "crownstone") {
        self.init(host: host, state: CrownstoneServiceData(crownstoneId: crownstoneId, crownstoneStateId: 0, switchState: switchState,
                                                           eventBitmask: 0, powerUsage: 0, accumulatedEnergy: 0), name: name)
    }

    /// A plug advertising `state` (every field chosen; the switch state held to 0…100).
    public init(host: LEHost, state: CrownstoneServiceData, name: String = "crownstone") {
        self.host = host
        self.name = name
        var state = state
        state.switchState = min(state.switchState, 100)
        self.state = state
        (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(Self.eventBuffer))
    }

    /// The advertisement: flags and name, and the Crownstone service data in the scan response.
    public var advertisingParameters: LEAdvertisingParameters {
        get throws(WireError) {
            let data = try AdvertisingData([.flags(.generalDiscoverableLEOnly), .localName(name)]).encodedLegacy()
            let response = try AdvertisingData([
                .serviceData(ServiceData(uuid: CrownstoneServiceData.plugServiceUUID, data: state.bytes)),
            ]).encodedLegacy()
            return LEAdvertisingParameters(data: data, scanResponse: response)
        }
    }

    /// Serves GATT and starts advertising on the (started) host; advertising starts again,
    /// with the current state, after each disconnection.
    public func start() async throws {
        try await host.serve([GATTServiceDefinition(uuid: CrownstoneControlPacket.crownstoneServiceUUID, characteristics: [
            GATTCharacteristicDefinition(uuid: CrownstoneControlPacket.controlCharacteristicUUID, properties: [.read, .write],
                                         value: CrownstoneControlPacket(on: false).bytes),
        ])], deviceName: name)
        controlHandle = await host.gattDatabase?.characteristic(uuid: CrownstoneControlPacket.controlCharacteristicUUID)?.valueHandle
        let writes = await host.gattServerEvents()
        let connections = await host.incomingConnections()
        try await host.startAdvertising(try advertisingParameters)
        continuation.yield(.advertising(address: await host.address))
        tasks.append(Task { [weak self] in
            for await event in writes {
                guard case let .written(_, handle, value, _) = event else { continue }
                await self?.written(value, to: handle)
            }
        })
        tasks.append(Task { [weak self, host] in
            for await connection in connections {
                await self?.yield(.connected(peer: connection.peerAddress))
                _ = await host.waitForDisconnection(connection)
                await self?.yield(.disconnected(peer: connection.peerAddress))
                await self?.readvertise()
            }
        })
    }

    /// Stops advertising and the event stream.
    public func stop() async {
        tasks.forEach { $0.cancel() }
        tasks = []
        try? await host.stopAdvertising()
        continuation.finish()
    }

    private func yield(_ event: Event) { continuation.yield(event) }

    private func readvertise() async {
        guard let parameters = try? advertisingParameters else { return }
        try? await host.startAdvertising(parameters)
    }

    private func written(_ value: [UInt8], to handle: UInt16) async {
        guard handle == controlHandle else { return }
        do throws(BluenetError) {
            let packet = try CrownstoneControlPacket(bytes: value)
            state.switchState = packet.switchState
            state.crownstoneStateId &+= 1
            continuation.yield(.switched(switchState: packet.switchState))
        } catch {
            // The database took the value; put back the last switch command so reads tell the truth.
            _ = await host.setValue(CrownstoneControlPacket(switchState: state.switchState).bytes, of: handle)
            continuation.yield(.refused(error))
        }
    }
}
