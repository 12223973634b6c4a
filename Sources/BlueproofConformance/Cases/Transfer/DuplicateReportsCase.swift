import BlueproofTransfer
import BlueproofWire

/// CBT/GATT/BV-06: the central scans with duplicate reports kept, so each new report of a
/// peer (and its RSSI) reaches the gate again (corebluetooth-transfer-sample.md, "Discover
/// Bluetooth Peripherals and Connect to Them": the scan allows duplicates). Judged on the
/// central's capture: every LE Set Scan Enable (or LE Set Extended Scan Enable) that switches
/// scanning on leaves Filter_Duplicates off (Core Vol 4, Part E §7.8.11, §7.8.65). CBT/GATE/BV-04
/// and BV-05 show the re-judging itself.
struct DuplicateReportsCase: ConformanceCase {
    let id: CaseID = "CBT/GATT/BV-06"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange, dutNode: 1)

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        guard try context.profile.bool("transfer.scan_allow_duplicates") else {
            return .notApplicable("the profile says the central filters duplicate reports (transfer.scan_allow_duplicates)")
        }
        let payload = TransferExchange.payload(1000)
        let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .echoPrefix),
                                                  profile: TransferExchange.transferProfile(context))
        let capture = try CaptureEvidence(path: context.captures[1])
        // Parameters: Scan_Enable, Filter_Duplicates (both commands start so).
        let enables = capture.commands([.leSetScanEnable, .leSetExtendedScanEnable]).filter { $0.parameters.first == 1 }
        guard !enables.isEmpty else {
            return .error("the central never switched scanning on: \(exchange.centralText)")
        }
        let filtering = enables.filter { $0.parameters.count > 1 && $0.parameters[1] != 0 }
        guard filtering.isEmpty else {
            return .fail("the central scanned with duplicate reports filtered out",
                         findings: [Finding("scan enable with Filter_Duplicates on", capture: capture.path, frames: filtering.map(\.frame))])
        }
        return .pass("\(enables.count) scan enable(s), each with Filter_Duplicates off",
                     findings: [Finding("scan enable", capture: capture.path, frames: enables.map(\.frame))])
    }
}
