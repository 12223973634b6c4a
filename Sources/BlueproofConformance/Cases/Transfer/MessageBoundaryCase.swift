import BlueproofTransfer

/// CBT/CHUNK/BV-05: the central appends every chunk until "EOM", and the marker closes the
/// message: it is not part of it, and the next message starts empty
/// (corebluetooth-transfer-sample.md, "When the Central Receives the Data, Update the User
/// Interface": a chunk is appended to the buffer, the marker shows the buffer). Two messages
/// in a row between the same nodes, of different lengths and bytes; each must arrive exactly,
/// with nothing of the marker or of the message before it.
struct MessageBoundaryCase: ConformanceCase {
    let id: CaseID = "CBT/CHUNK/BV-05"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange, dutNode: 1)

    /// A longer message, then a shorter one of other bytes: a leftover of the first shows.
    static let messages: [[UInt8]] = [TransferExchange.payload(1700), Array(TransferExchange.payload(900).reversed())]

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let profile = TransferExchange.transferProfile(context)
        var done: [String] = []
        for (index, message) in Self.messages.enumerated() {
            let exchange = await TransferExchange.run(context, .send(message), .receive(reply: .echoPrefix), profile: profile)
            if let verdict = exchange.deliveryVerdict(of: message, what: "message \(index + 1)") { return verdict }
            done.append("\(message.count) bytes")
        }
        return .pass("each message was its chunks appended up to EOM and nothing else: \(done.joined(separator: ", then "))")
    }
}
