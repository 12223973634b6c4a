import BlueproofTransfer

/// CBT/ROLE/BV-05 and BV-06: the payload crosses between our role and the other side's,
/// whoever built it, byte-exact (corebluetooth-transfer-sample.md, "When the Peripheral
/// Receives a Connection, Send the Data" and "When the Central Receives the Data, Update the
/// User Interface"):
/// - BV-05: our peripheral's payload reaches the central (the implementation under test when
///   the run has one: `received.bin`; the Bumble central of examples/duts/ is one);
/// - BV-06: the peripheral's payload (the implementation under test's, e.g. the Bumble
///   peripheral) reaches our central.
/// The payload holds every byte value, text that is not UTF-8 and the marker's bytes inside
/// chunks, so only a byte-exact transfer passes.
struct InteropPayloadCase: ConformanceCase {
    enum Subject: Sendable { case central, peripheral }

    let id: CaseID
    let subject: Subject

    init(_ subject: Subject) {
        self.subject = subject
        id = subject == .central ? "CBT/ROLE/BV-05" : "CBT/ROLE/BV-06"
    }

    var needs: CaseNeeds {
        CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange, dutNode: subject == .central ? 1 : 0)
    }

    static let payload: [UInt8] = TransferExchange.payload(3100) + Array("EOM".utf8) + (0...255).map(UInt8.init)

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let exchange = await TransferExchange.run(context, .send(Self.payload), .receive(reply: .echoPrefix),
                                                  profile: TransferExchange.transferProfile(context))
        let central = context.isDevice(1) ? "the central under test" : "our central"
        let peripheral = context.isDevice(0) ? "the peripheral under test" : "our peripheral"
        if let verdict = exchange.deliveryVerdict(of: Self.payload, what: "\(Self.payload.count) bytes from \(peripheral) to \(central)") {
            return verdict
        }
        return .pass("\(Self.payload.count) bytes from \(peripheral) reached \(central) byte-exact")
    }
}
