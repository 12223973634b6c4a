import BlueproofHost
import BlueproofTransfer
import BlueproofWire

/// CBT/CLEAN/BI-01 and BI-02: a link that ends mid-transfer fails both roles, each saying the
/// connection ended, and leaves no connection open (corebluetooth-transfer-sample.md, "When
/// the Central Receives the Data, Update the User Interface": the central cleans up on an
/// error; a message without its "EOM" is not complete). The radio proxy ends the link 2 s after
/// it connected, while an 8 MB transfer crawls through four 27-byte buffers:
/// - BI-01: the peripheral's side ends it (its host is told Remote User Terminated, the
///   central's controller gets an HCI Disconnect);
/// - BI-02: the central's link times out (Connection Timeout, 0x08), as if the peer vanished.
/// Judged on both roles' outcomes, the proxy's log and our nodes' connections.
struct MidTransferCutCase: ConformanceCase {
    enum Cut: Sendable { case peripheralLeaves, connectionTimeout }

    let id: CaseID
    let cut: Cut
    static let payloadSize = 8_000_000
    /// How long the peripheral may take to report the link's end once the central has.
    static let peripheralGrace: Duration = .seconds(10)

    init(_ cut: Cut) {
        self.cut = cut
        id = cut == .peripheralLeaves ? "CBT/CLEAN/BI-01" : "CBT/CLEAN/BI-02"
    }

    var needs: CaseNeeds {
        let disconnect = switch cut {
        case .peripheralLeaves: (node: "peripheral", fault: "disconnect: {at: 2s, reason: 0x13, since: connection}")
        case .connectionTimeout: (node: "central", fault: "disconnect: {at: 2s, reason: 0x08, since: connection}")
        }
        return CaseNeeds(controllers: 2, radioScenario: TransferScenarios.faulted([
            ("peripheral", "buffer-size: {length: 27, count: 4}"), disconnect,
        ]))
    }

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let payload = TransferExchange.payload(Self.payloadSize)
        // The peripheral hears of the end from its controller, after what it had queued.
        let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .echoPrefix),
                                                  profile: TransferExchange.transferProfile(context), grace: Self.peripheralGrace)
        let faults = context.radio?.faultLog ?? []
        for fault in faults { context.log.note("radio proxy: \(fault)") }
        guard let ended = faults.first(where: { $0.kind == .disconnect }), ended.detail.contains("ended") else {
            return .error("the proxy ended no connection: \(faults.map(\.description))")
        }
        guard exchange.centralReady != nil else {
            return .error("the link ended before the transfer began: \(exchange.centralText)")
        }
        if let verdict = Self.judge(exchange.central, role: "central", total: payload.count)
            ?? Self.judge(exchange.peripheral, role: "peripheral", total: payload.count) {
            return verdict
        }
        let open = await TransferExchange.openConnections(context)
        guard open.isEmpty else {
            return .fail("\(open.count) connection(s) still open after the link ended: \(open.joined(separator: "; "))")
        }
        return .pass("the link ended at \(ended.time) s (\(ended.detail)); the central: \(exchange.centralText); "
                     + "the peripheral: \(exchange.peripheralText); no connection left")
    }

    /// The verdict on one role's outcome, or nil when it failed saying the connection ended.
    static func judge(_ outcome: Result<TransferSummary, TransferError>, role: String, total: Int) -> CaseOutcome? {
        switch outcome {
        case let .success(summary):
            return .fail("the \(role) reports the transfer done (\(summary.bytes) of \(total) bytes) although the link ended mid-transfer")
        case let .failure(.disconnected(_, bytes)):
            guard bytes < total else {
                return .error("the \(role) had moved all \(total) bytes before the link ended: not mid-transfer")
            }
            return nil
        case let .failure(error):
            return .fail("the \(role) failed without saying the connection ended: \(error)")
        }
    }
}
