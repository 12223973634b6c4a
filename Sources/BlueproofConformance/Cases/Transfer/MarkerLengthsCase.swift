import BlueproofTransfer

/// CBT/CHUNK/BV-06: payloads of every length around the marker's and around a chunk boundary
/// go through the sender's chunks and the receiver's reassembly byte-exact
/// (corebluetooth-transfer-sample.md, "When the Central Receives the Data, Update the User
/// Interface": chunks appended until "EOM"). At ATT_MTU 23 (chunks of ATT_MTU - 3): 1, 2 and 4
/// bytes, then one chunk and 1, 2 and 4 bytes more; each ends in the marker's bytes as far
/// as it can, so a last chunk shorter than, equal to or ending in the marker is on the air.
struct MarkerLengthsCase: ConformanceCase {
    let id: CaseID = "CBT/CHUNK/BV-06"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange, dutNode: 0)
    static let mtu = 23

    /// Payloads of `1, 2, 4, chunk + 1, chunk + 2, chunk + 4` bytes ending in the marker's bytes.
    static func payloads(marker: [UInt8], chunkSize: Int) -> [[UInt8]] {
        [1, 2, 4, chunkSize + 1, chunkSize + 2, chunkSize + 4].map { length in
            let tail = Array(marker.prefix(length))
            return TransferExchange.payload(length - tail.count) + tail
        }
    }

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let marker = Array(try context.profile.string("transfer.eom_marker").utf8)
        let header = try context.profile.int("transfer.att_header_bytes")
        let profile = TransferExchange.transferProfile(context, mtu: Self.mtu)
        var lengths: [String] = []
        for payload in Self.payloads(marker: marker, chunkSize: Self.mtu - header) {
            let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .none), profile: profile)
            if let verdict = exchange.deliveryVerdict(of: payload, what: "a \(payload.count)-byte payload at ATT_MTU \(Self.mtu)") {
                return verdict
            }
            lengths.append("\(payload.count)")
        }
        return .pass("payloads of \(lengths.joined(separator: ", ")) bytes round-tripped byte-exact at ATT_MTU \(Self.mtu)")
    }
}
