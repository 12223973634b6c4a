import BlueproofTransfer

/// CBT/CHUNK/BV-09: what the central does with a value that is not valid UTF-8
/// (corebluetooth-transfer-sample.md, "When the Central Receives the Data, Update the User
/// Interface": the sample turns each value into a UTF-8 string and returns without appending
/// when that fails). The project keeps bytes on purpose; the profile's
/// `transfer.non_utf8_values` names the reading applied: `keep` (every byte arrives) or `drop`
/// (the sample's: values that are not UTF-8 are left out). At ATT_MTU 23 the payload's third
/// chunk holds 0xFF and a two-byte character is cut between two chunks, so three of seven
/// values are not UTF-8.
struct TextValuesCase: ConformanceCase {
    let id: CaseID = "CBT/CHUNK/BV-09"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange, dutNode: 1)
    static let mtu = 23

    /// Seven chunks of 20 bytes at ATT_MTU 23 (the last shorter).
    static let payload: [UInt8] = {
        let text = { (count: Int, letter: Character) in [UInt8](repeating: letter.asciiValue ?? 0x61, count: count) }
        return text(20, "a") + text(20, "b") + [0xFF] + text(19, "c") + text(20, "d")
            + text(19, "e") + [0xC3] + [0xA9] + text(19, "f") + text(7, "g")
    }()

    /// What the central should hold under each reading, chunked as the sender chunks.
    static func expected(keep: Bool, chunkSize: Int) -> [UInt8] {
        guard !keep else { return payload }
        return stride(from: 0, to: payload.count, by: chunkSize)
            .map { Array(payload[$0..<min($0 + chunkSize, payload.count)]) }
            .filter { String(validating: $0, as: UTF8.self) != nil }
            .flatMap { $0 }
    }

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let reading = try context.profile.string("transfer.non_utf8_values")
        guard reading == "keep" || reading == "drop" else {
            return .error("transfer.non_utf8_values is \(reading); keep or drop")
        }
        let header = try context.profile.int("transfer.att_header_bytes")
        let chunkSize = Self.mtu - header
        let keep = reading == "keep"
        let profile = TransferExchange.transferProfile(context, mtu: Self.mtu)
        let exchange = await TransferExchange.run(context, .send(Self.payload), .receive(reply: .echoPrefix), profile: profile)
        guard exchange.centralReady != nil else {
            return .error("the central never subscribed: \(exchange.centralText)")
        }
        guard case let .success(received) = exchange.central else {
            return .fail("\(Self.payload.count) bytes were sent and the central did not complete the message: \(exchange.centralText)")
        }
        let got = received.payload ?? []
        let wanted = Self.expected(keep: keep, chunkSize: chunkSize)
        let other = Self.expected(keep: !keep, chunkSize: chunkSize)
        if got == wanted {
            return .pass(keep
                ? "all \(got.count) bytes kept, the values that are not UTF-8 among them (transfer.non_utf8_values: keep)"
                : "the values that are not UTF-8 were left out as the sample does: \(got.count) of \(Self.payload.count) bytes (transfer.non_utf8_values: drop)")
        }
        if got == other {
            return .fail(keep
                ? "the central dropped the values that are not UTF-8 (\(got.count) of \(Self.payload.count) bytes); the profile keeps bytes"
                : "the central kept the values that are not UTF-8; the profile applies the sample's reading (drop)")
        }
        return .fail("the central received \(got.count) bytes matching neither reading: "
                     + (TransferExchange.difference(sent: wanted, received: got) ?? ""))
    }
}
