/// CBT/CHUNK/BI-01: a chunk size below the marker's length is refused
/// (corebluetooth-transfer-sample.md, "When the Peripheral Receives a Connection, Send the
/// Data": the marker is a value of its own, so a value must hold its three bytes). No LE link
/// can ask for it: ATT_MTU is at least 23 on LE (Core Vol 3, Part F §3.2.8), so the largest
/// notification carries at least 20 bytes, and neither role offers any other way to set a
/// chunk size (the DUT contract has none). The rule shows only in the chunker's own API
/// (TransferChunkerTests#tooSmall); here it is not-applicable, for that reason.
struct ChunkMinimumCase: ConformanceCase {
    let id: CaseID = "CBT/CHUNK/BI-01"
    let needs = CaseNeeds(controllers: 0)

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        .notApplicable("no LE link offers a chunk below the 3-byte marker: ATT_MTU is at least 23 (Core Vol 3, Part F §3.2.8), "
                       + "so a notification holds at least 20 bytes, and no interface of the roles sets a chunk size")
    }
}
