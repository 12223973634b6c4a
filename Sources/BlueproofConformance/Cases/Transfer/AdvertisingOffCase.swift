import BlueproofAsync
import BlueproofTransfer
import BlueproofWire

/// CBT/GATT/BV-05: a peripheral that stops advertising stops being reported
/// (corebluetooth-transfer-sample.md, "When the Peripheral Receives a Connection, Send the
/// Data": the switch turns advertising of the service UUID on and off). The way our peripheral
/// offers to switch it off is giving up: it advertises for 2 s with no central and stops.
/// Node 1 scans throughout, behind the radio proxy (which repeats an advertiser's reports only
/// while its controller advertises); it must hear the service while the peripheral advertises
/// and no report of it from 1.5 s after the peripheral stopped for 2 s; the
/// peripheral's capture must show advertising switched off. An implementation under test has
/// no switch the runner can turn (the DUT contract has none), so the case has no place for one.
struct AdvertisingOffCase: ConformanceCase {
    let id: CaseID = "CBT/GATT/BV-05"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange, quietWindow: Self.advertising + Self.settle + Self.quiet)
    /// How long the peripheral advertises before it gives up.
    static let advertising: Duration = .seconds(2)
    /// Reports already on their way when advertising stopped (the proxy's scan interval plus
    /// a loaded machine's delay; a peripheral still advertising is heard well inside `quiet`).
    static let settle: Duration = .milliseconds(1500)
    /// How long after that no report may come.
    static let quiet: Duration = .seconds(2)

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        guard let service = BluetoothUUID(try context.profile.string("transfer.service_uuid")) else {
            throw CaseSetupError("transfer.service_uuid is not a UUID")
        }
        let timeline = Timeline(context.clock)
        let reports = try await context.host(1).scan()
        let heard = Task { () -> [Duration] in
            var times: [Duration] = []
            for await report in reports where (try? AdvertisingData(bytes: report.data).serviceUUIDs())?.contains(service) == true {
                times.append(timeline.elapsed())
            }
            return times
        }
        var profile = TransferExchange.transferProfile(context)
        profile.acceptTimeout = Self.advertising
        let (peripheral, _, _) = TransferExchange.startPeripheral(context, node: 0, host: try context.host(0), .send([1, 2, 3]),
                                                                  profile: profile)
        let (outcome, _) = await peripheral.value
        let stopped = timeline.elapsed()
        try await timeline.sleep(stopped + Self.settle + Self.quiet)
        heard.cancel()
        let times = await heard.value
        guard case .failure(.noCentral) = outcome else {
            return .error("the peripheral was to give up for want of a central; it ended with: \(TransferExchange.text(outcome))")
        }
        guard times.contains(where: { $0 < stopped }) else {
            return .error("node 1 heard no report of \(service) while the peripheral advertised: nothing to stop")
        }
        let late = times.filter { $0 > stopped + Self.settle }
        let capture = try CaptureEvidence(path: context.captures[0])
        let enables = capture.commands([.leSetAdvertisingEnable, .leSetExtendedAdvertisingEnable])
        let findings = [Finding("the peripheral's advertising enable commands", capture: capture.path, frames: enables.map(\.frame))]
        guard late.isEmpty else {
            return .fail("\(late.count) report(s) of \(service) came after the peripheral stopped, the last "
                         + "\(late.last.map { "\($0 - stopped)" } ?? "?") after", findings: findings)
        }
        guard enables.last?.parameters.first == 0 else {
            return .fail("the peripheral never switched advertising off", findings: findings)
        }
        return .pass("\(times.count) report(s) of \(service) while advertising, none in the \(Self.quiet) after it was switched off",
                     findings: findings)
    }
}
