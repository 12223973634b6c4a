import BlueproofAsync
import BlueproofHost
import BlueproofTransfer
import BlueproofWire

/// CBT/GATT/BV-07: the peripheral advertises the profile's service UUID and serves it as a
/// primary service holding the profile's characteristic, with exactly the properties and
/// permissions the sample's `setupPeripheral()` gives it (corebluetooth-transfer-sample.md,
/// "When the Peripheral Receives a Connection, Send the Data": notify + write without
/// response, readable + writeable, primary). Read from the peripheral's database on the air by
/// the harness's own GATT client on node 1: Primary Service discovery, the characteristic
/// declaration, a Read Request (readable), and a Write Request, which a characteristic without
/// Write must refuse with Write Not Permitted (Core Vol 3, Part F §3.4.1.1). Its writeable
/// permission shows in CBT/ROLE/BV-01 (the Write Command write-back is taken).
struct GATTDatabaseCase: ConformanceCase {
    let id: CaseID = "CBT/GATT/BV-07"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange, dutNode: 0, judgesAirDevice: true)
    static let limit: Duration = .seconds(5)

    /// The peripheral on node 0, advertising when this returns: ours, or the implementation
    /// under test (which must enable advertising within its start timeout); ours is returned,
    /// to be cancelled when the case is done with it.
    static func startPeripheral(_ context: CaseContext, profile: TransferProfile) async throws -> Task<TransferExchange.RoleRun, Never>? {
        if context.isAirDevice(0) { return nil }
        if let dut = context.dut, dut.node == 0 {
            let launch = try await dut.launch(.peripheral, payload: [1, 2, 3])
            do {
                try await launch.waitForAdvertising(within: dut.exec.startTimeout, clock: context.clock)
            } catch {
                dut.noteStartFailure("\(error)")
                throw error
            }
            return nil
        }
        let (task, advertising, _) = TransferExchange.startPeripheral(context, node: 0, host: try context.host(0), .send([1, 2, 3]),
                                                                      profile: profile)
        _ = await advertising.wait()
        return task
    }

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let wanted = try Wanted(context.profile)
        return try await Self.withDatabase(context, service: wanted.service) { gatt in
            try await Self.judge(gatt, wanted: wanted, capture: context.captures[1])
        }
    }

    /// Starts the peripheral on node 0, finds it from node 1 as an advertiser of `service`,
    /// connects and judges its database with `body`; disconnects after.
    static func withDatabase(_ context: CaseContext, service: BluetoothUUID,
                             _ body: @escaping @Sendable (GATTClient) async throws -> CaseOutcome) async throws -> CaseOutcome {
        let profile = TransferExchange.transferProfile(context)
        let peripheral = try await Self.startPeripheral(context, profile: profile)
        defer { peripheral?.cancel() }
        let host = try context.host(1)
        let devices = try await host.discover()
        let found = try? await withTimeout(Self.limit, clock: context.clock, what: "an advertiser") { () async -> LEDiscoveredDevice? in
            for await device in devices where device.connectable {
                // A device on the air is the one at its address, or the first advertiser of the service.
                guard let air = context.airDevice else { return device }
                if air.address.map({ $0 == device.address }) ?? device.serviceUUIDs.contains(service) { return device }
            }
            return nil
        }
        guard let device = found else { return .error("no connectable advertiser within \(Self.limit)") }
        guard device.serviceUUIDs.contains(service) else {
            return .fail("the peripheral advertises \(device.serviceUUIDs.map(\.description)), not the profile's service \(service)",
                         findings: [Finding("advertising reports", capture: context.captures[1])])
        }
        let connection: LEConnection
        do {
            connection = try await host.connect(to: device.address, type: device.addressType, timeout: .seconds(3))
        } catch {
            return .error("could not connect to the peripheral: \(error)")
        }
        let gatt = host.gattClient(for: connection)
        let outcome = try await withTimeout(.seconds(20), clock: context.clock, what: "reading the peripheral's database") {
            try await body(gatt)
        }
        try? await host.disconnect(connection)
        return outcome
    }

    /// What the profile says the database holds.
    struct Wanted: Sendable {
        var service: BluetoothUUID
        var characteristic: BluetoothUUID
        var properties: GATTCharacteristicProperties
        var readable: Bool
        var primary: Bool

        init(_ profile: Profile) throws {
            guard let service = BluetoothUUID(try profile.string("transfer.service_uuid")),
                  let characteristic = BluetoothUUID(try profile.string("transfer.characteristic_uuid")) else {
                throw CaseSetupError("transfer.service_uuid or transfer.characteristic_uuid is not a UUID")
            }
            self.service = service
            self.characteristic = characteristic
            properties = []
            for name in try profile.strings("transfer.characteristic_properties") {
                guard let property = Self.properties[name] else { throw CaseSetupError("unknown characteristic property \(name)") }
                properties.insert(property)
            }
            readable = try profile.strings("transfer.characteristic_permissions").contains("readable")
            primary = try profile.bool("transfer.service_primary")
        }

        /// Core Bluetooth's names for the properties (Core Vol 3, Part G §3.3.1.1).
        static let properties: [String: GATTCharacteristicProperties] = [
            "broadcast": .broadcast, "read": .read, "writeWithoutResponse": .writeWithoutResponse, "write": .write,
            "notify": .notify, "indicate": .indicate, "authenticatedSignedWrites": .authenticatedSignedWrites,
            "extendedProperties": .extendedProperties,
        ]
    }

    static func judge(_ gatt: GATTClient, wanted: Wanted, capture: String) async throws -> CaseOutcome {
        let evidence = [Finding("the GATT discovery, read and write on the air", capture: capture)]
        let primaries = try await gatt.discoverPrimaryServices()
        let service: GATTRemoteService
        if let primary = primaries.first(where: { $0.uuid == wanted.service }) {
            guard wanted.primary else { return .fail("\(wanted.service) is primary; the profile says secondary", findings: evidence) }
            service = primary
        } else {
            let secondaries = try await secondaryServices(gatt)
            guard let secondary = secondaries.first(where: { $0.uuid == wanted.service }) else {
                return .fail("no service \(wanted.service) in the peripheral's database (primary: \(primaries.map(\.uuid.description)))",
                             findings: evidence)
            }
            guard !wanted.primary else {
                return .fail("\(wanted.service) is served as a secondary service, not primary as the sample sets it up", findings: evidence)
            }
            service = secondary
        }
        let characteristics = try await gatt.discoverCharacteristics(of: service)
        guard let characteristic = characteristics.first(where: { $0.uuid == wanted.characteristic }) else {
            return .fail("no characteristic \(wanted.characteristic) in \(wanted.service) (found \(characteristics.map(\.uuid.description)))",
                         findings: evidence)
        }
        guard characteristic.properties == wanted.properties else {
            return .fail("the characteristic's properties are \(characteristic.properties), not \(wanted.properties)", findings: evidence)
        }
        let handle = characteristic.valueHandle
        do {
            _ = try await gatt.read(handle: handle)
            guard wanted.readable else { return .fail("the value at 0x\(hex(handle)) can be read; the profile says not readable", findings: evidence) }
        } catch let GATTError.att(code, _) {
            guard !wanted.readable else {
                return .fail("a Read Request of the value at 0x\(hex(handle)) was refused with \(code); the sample makes it readable",
                             findings: evidence)
            }
        }
        if !wanted.properties.contains(.write) {
            do {
                try await gatt.write(handle: handle, value: [0x00])
                return .fail("a Write Request to 0x\(hex(handle)) was accepted although the characteristic offers no Write",
                             findings: evidence)
            } catch let GATTError.att(code, _) {
                guard code == .writeNotPermitted else {
                    return .fail("a Write Request to 0x\(hex(handle)) was refused with \(code), not Write Not Permitted", findings: evidence)
                }
            }
        }
        return .pass("primary \(wanted.service) holds \(wanted.characteristic) at 0x\(hex(handle)) with properties \(characteristic.properties)"
                     + (wanted.readable ? ", readable" : "") + (wanted.properties.contains(.write) ? "" : "; a Write Request is Write Not Permitted"),
                     findings: evidence)
    }

    /// Secondary services by Read By Group Type over the whole range (Core Vol 3, Part G §2.5.3).
    static func secondaryServices(_ gatt: GATTClient) async throws -> [GATTRemoteService] {
        var services: [GATTRemoteService] = []
        var start: UInt16 = 0x0001
        while start < 0xFFFF {
            let response = try await gatt.requester.request(
                .readByGroupTypeRequest(startingHandle: start, endingHandle: 0xFFFF, attributeGroupType: .secondaryService))
            guard case let .readByGroupTypeResponse(list) = response, !list.entries.isEmpty else { break }
            for entry in list.entries {
                if let uuid = try? BluetoothUUID(littleEndian: entry.value) {
                    services.append(GATTRemoteService(uuid: uuid, startHandle: entry.attributeHandle, endHandle: entry.endGroupHandle))
                }
            }
            guard let last = list.entries.last?.endGroupHandle, last >= start else { break }
            start = last == 0xFFFF ? 0xFFFF : last + 1
        }
        return services
    }
}

/// A case could not read what it needs from the profile.
struct CaseSetupError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
