/// Radio-proxy scenarios (docs/radio-proxy.md) the transfer cases run in: node 0 is the
/// peripheral, node 1 the central.
enum TransferScenarios {
    /// Both nodes heard at `rssi` dBm, always in range.
    static func fixed(rssi: Int) -> String { fixed(value: "\(rssi)") }

    /// Both nodes in range, every report carrying RSSI 127, "not available", on any backend
    /// (Rootcanal measures an RSSI; btvirt reports 127 anyway).
    static let unmeasured = fixed(value: "not-available")

    private static func fixed(value: String) -> String {
        """
        seed: 1
        advertising-interval: 100ms
        nodes:
          - name: peripheral
          - name: central
        rssi:
          fixed: \(value)
        """
    }

    /// Close range: -40 dBm, well above the sample's gate.
    static let closeRange = fixed(rssi: -40)

    /// Like Conformance/scenarios/withheld-credits.yaml, sooner: the peripheral's controller
    /// reports one 27-byte buffer and keeps its Number Of Completed Packets for 1 s from 300 ms
    /// after it connected, while a transfer of some 100 KB is under way on btvirt.
    static let withheldCredits = faulted([
        ("peripheral", "buffer-size: {length: 27, count: 1}"), ("peripheral", "withhold-credits: {from: 300ms, for: 1s, since: connection}"),
    ], seed: 4)

    /// Both nodes at -45 dBm with radio-proxy `faults`, each a node's name and its fault's
    /// line (docs/radio-proxy.md, "Faults"), e.g. `("peripheral", "buffer-size: {length: 27, count: 20}")`.
    static func faulted(_ faults: [(node: String, fault: String)], seed: Int = 6) -> String {
        """
        seed: \(seed)
        nodes:
          - name: peripheral
          - name: central
        rssi:
          fixed: -45
        faults:

        """ + faults.map { "  - node: \($0.node)\n    \($0.fault)\n" }.joined()
    }
}
