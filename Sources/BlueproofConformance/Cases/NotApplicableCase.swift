/// A catalogued behaviour no interface an implementation offers lets the runner judge: the
/// case says why, and is not-applicable wherever it runs.
struct NotApplicableCase: ConformanceCase {
    let id: CaseID
    let reason: String
    let needs = CaseNeeds(controllers: 0)

    func run(_ context: CaseContext) async throws -> CaseOutcome { .notApplicable(reason) }

    /// CBT/CHUNK/BI-01: a chunk size below the marker's length is refused
    /// (corebluetooth-transfer-sample.md, "When the Peripheral Receives a Connection, Send the
    /// Data": the marker is a value of its own, so a value must hold its three bytes). No LE
    /// link asks for one: ATT_MTU is at least 23 on LE (Core Vol 3, Part F §3.2.8), so the
    /// largest notification carries at least 20 bytes, and neither role offers another way to
    /// set a chunk size (the DUT contract has none). The rule shows only in the chunker's own
    /// API (TransferChunkerTests#tooSmall).
    static let chunkBelowMarker = NotApplicableCase(
        id: "CBT/CHUNK/BI-01",
        reason: "no LE link offers a chunk below the 3-byte marker: ATT_MTU is at least 23 (Core Vol 3, Part F §3.2.8), "
            + "so a notification holds at least 20 bytes, and no interface of the roles sets a chunk size")

    /// CBT/GATE/BV-06: another gate value in the profile moves the threshold
    /// (corebluetooth-transfer-sample.md, "Discover Bluetooth Peripherals and Connect to Them":
    /// -50 dBm is the sample's own number). The gate is the implementation's own: the runner
    /// builds the gate cases from the profile's `transfer.rssi_gate_dbm` and judges the roles
    /// with their built-in gate, so one whose gate is not the profile's fails CBT/GATE/BV-02 or
    /// BI-01 (RunCaseTests#profileGateNotCopied). Whether a gate can be *set* no interface lets
    /// the runner try: the DUT contract (docs/dut.md) passes no gate, and a device on the air
    /// has none. TransferChunkerTests#unavailableAllowed checks the reference's setting.
    static let gateSetting = NotApplicableCase(
        id: "CBT/GATE/BV-06",
        reason: "no interface of an implementation takes a gate value from the runner (the DUT contract passes none); "
            + "the gate it has is judged against the profile's by CBT/GATE/BV-02 and BI-01")

    /// BFT/LIFE/BI-04 (bridgefy-ios-sdk-readme.md, "iOS Simulator"): on the simulator the
    /// framework builds but never starts. The harness runs implementations on Linux against
    /// virtual controllers: there is no simulator to put one on, and no interface an
    /// implementation offers (its SDK calls, the control protocol) moves it onto one.
    static let simulator = NotApplicableCase(
        id: "BFT/LIFE/BI-04",
        reason: "the rule is about the iOS Simulator, where the framework builds but never starts; this harness runs "
            + "implementations on Linux against virtual controllers, has no simulator to put one on, and no interface "
            + "an implementation offers (its SDK calls, the control protocol) can move it onto one or tell it that it is on one")

    /// Every case of this kind, for the tests that check each says why.
    static let all = [chunkBelowMarker, gateSetting, simulator]
        // issue 17: Spark
        + [sparkPush, sparkSilent]
}
