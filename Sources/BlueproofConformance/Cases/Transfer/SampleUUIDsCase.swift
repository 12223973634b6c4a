import BlueproofTransfer
import BlueproofWire

/// CBT/GATT/BV-04: out of the box a role uses the sample's service and characteristic UUIDs
/// (its `TransferService.serviceUUID` and `characteristicUUID`, corebluetooth-transfer-sample.md,
/// "Discover Bluetooth Peripherals and Connect to Them": the central scans for that service),
/// so a peer built like the sample app works with it. The profile must name those UUIDs; then
/// a central built like the sample, knowing nothing but them (``TransferProfile``'s defaults,
/// not the profile's), must find the peripheral under test, subscribe to its characteristic and
/// receive the payload byte-exact.
struct SampleUUIDsCase: ConformanceCase {
    let id: CaseID = "CBT/GATT/BV-04"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange, dutNode: 0)

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let sample = (service: TransferProfile.sampleService, characteristic: TransferProfile.sampleCharacteristic)
        let named = (service: try context.profile.string("transfer.service_uuid"), characteristic: try context.profile.string("transfer.characteristic_uuid"))
        guard BluetoothUUID(named.service) == sample.service, BluetoothUUID(named.characteristic) == sample.characteristic else {
            return .notApplicable("the profile names \(named.service) / \(named.characteristic), not the sample's UUIDs: "
                                  + "the implementation does not claim the sample's defaults")
        }
        let payload = TransferExchange.payload(2500)
        let profile = TransferExchange.transferProfile(context)
        let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .echoPrefix), profile: profile)
        guard exchange.centralConnected, exchange.centralReady != nil else {
            return .fail("a central looking for the sample's service \(sample.service) and characteristic \(sample.characteristic) "
                         + "did not find and subscribe to the peripheral: \(exchange.centralText)")
        }
        guard case let .success(received) = exchange.central, received.payload == payload else {
            return .fail("subscribed by the sample's UUIDs, but the payload did not arrive intact: \(exchange.centralText)")
        }
        return .pass("a central knowing only the sample's \(sample.service) and \(sample.characteristic) found the peripheral "
                     + "and received \(payload.count) bytes byte-exact")
    }
}
