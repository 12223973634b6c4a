import BlueproofTransfer
import BlueproofWire

/// CBT/GATT/BV-01: the peripheral advertises the transfer service UUID, and a central
/// scanning for that UUID finds it (corebluetooth-transfer-sample.md, "When the Peripheral
/// Receives a Connection, Send the Data": all it advertises is the service's UUID). Judged on
/// our central's capture (the advertising reports it was given list the profile's service
/// among their service UUIDs) and on the transfer that follows: our central, which keeps only
/// advertisers of its service, connected and received the payload.
struct AdvertisedServiceCase: ConformanceCase {
    let id: CaseID = "CBT/GATT/BV-01"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange, dutNode: 0)

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        guard let service = BluetoothUUID(try context.profile.string("transfer.service_uuid")) else {
            throw CaseSetupError("transfer.service_uuid is not a UUID")
        }
        let payload = TransferExchange.payload(1000)
        let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .echoPrefix),
                                                  profile: TransferExchange.transferProfile(context))
        let capture = try CaptureEvidence(path: context.captures[1])
        let reports = capture.advertisingReports
        let listing = reports.filter { (try? AdvertisingData(bytes: $0.data).serviceUUIDs())?.contains(service) == true }
        guard !listing.isEmpty else {
            let seen = Set(reports.flatMap { (try? AdvertisingData(bytes: $0.data).serviceUUIDs()) ?? [] }.map(\.description)).sorted()
            return .fail("no advertising report lists \(service)" + (seen.isEmpty ? "" : "; reports list \(seen.joined(separator: ", "))"),
                         findings: [Finding("advertising reports", capture: capture.path, frames: Array(reports.prefix(20).map(\.frame)))])
        }
        guard exchange.centralConnected, case let .success(received) = exchange.central, received.payload == payload else {
            return .fail("the service was advertised but a central scanning for it did not complete the transfer: \(exchange.centralText)")
        }
        return .pass("\(listing.count) advertising report(s) list \(service); the central found it by that UUID and received the payload",
                     findings: [Finding("reports listing the service", capture: capture.path, frames: Array(listing.prefix(5).map(\.frame)))])
    }
}
