/// CBT/GATE/BV-06: another gate value in the profile moves the threshold
/// (corebluetooth-transfer-sample.md, "Discover Bluetooth Peripherals and Connect to Them":
/// the -50 dBm is the sample's own number). The gate is the implementation's own: the runner
/// builds the gate cases from the profile's `transfer.rssi_gate_dbm` and judges the roles with
/// their built-in gate, so an implementation whose gate is not the profile's fails
/// CBT/GATE/BV-02 or BI-01 (RunCaseTests#profileGateNotCopied). Whether a gate *can be set*
/// is not something any interface an implementation offers lets the runner try: the DUT
/// contract (docs/dut.md) passes no gate, and a device on the air has none. Not-applicable,
/// for that reason; TransferChunkerTests#unavailableAllowed checks the reference's setting.
struct GateSettingCase: ConformanceCase {
    let id: CaseID = "CBT/GATE/BV-06"
    let needs = CaseNeeds(controllers: 0)

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        .notApplicable("no interface of an implementation takes a gate value from the runner (the DUT contract passes none); "
                       + "the gate it has is judged against the profile's by CBT/GATE/BV-02 and BI-01")
    }
}
