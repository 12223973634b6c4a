import BlueproofHost
import BlueproofWire

/// CBT/GATT/BV-02: the transfer characteristic offers notify and write without response, the
/// two the transfer uses (corebluetooth-transfer-sample.md, "When the Peripheral Receives a
/// Connection, Send the Data": `setupPeripheral()` gives it `[.notify, .writeWithoutResponse]`).
/// Read from the peripheral's database on the air by our GATT client on node 1: the
/// characteristic declaration's properties hold every one the profile names (CBT/GATT/BV-07
/// asks for exactly those and judges the rest of the database).
struct CharacteristicPropertiesCase: ConformanceCase {
    let id: CaseID = "CBT/GATT/BV-02"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange, dutNode: 0, judgesAirDevice: true)

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let wanted = try GATTDatabaseCase.Wanted(context.profile)
        let capture = context.captures[1]
        return try await GATTDatabaseCase.withDatabase(context, service: wanted.service) { gatt in
            let evidence = [Finding("the GATT discovery on the air", capture: capture)]
            guard let service = try await gatt.discoverPrimaryService(uuid: wanted.service).first else {
                return .fail("no primary service \(wanted.service) in the peripheral's database", findings: evidence)
            }
            let characteristics = try await gatt.discoverCharacteristics(of: service)
            guard let characteristic = characteristics.first(where: { $0.uuid == wanted.characteristic }) else {
                return .fail("no characteristic \(wanted.characteristic) in \(wanted.service)", findings: evidence)
            }
            let missing = wanted.properties.subtracting(characteristic.properties)
            guard missing.isEmpty else {
                return .fail("the characteristic's properties are \(characteristic.properties): \(missing) missing", findings: evidence)
            }
            return .pass("\(wanted.characteristic) at 0x\(hex(characteristic.valueHandle)) offers \(characteristic.properties)",
                         findings: evidence)
        }
    }
}
