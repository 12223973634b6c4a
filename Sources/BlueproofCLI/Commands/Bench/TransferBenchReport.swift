import BlueproofAsync
import Foundation

/// One measurement of our transfer.
struct OurTransferRun: Encodable, Sendable {
    var bytes: Int
    var receivedBytes: Int
    /// The receiver's time, first chunk to "EOM".
    var seconds: Double
    var bytesPerSecond: Double
    /// What arrived has the SHA-256 and length of what was sent.
    var intact: Bool
    /// Rootcanal, capture on: the credit cadence of the sender's controller.
    var credits: CreditCadence?
}

/// One round: ours without and with capture, then Bumble's.
struct TransferBenchRound: Sendable {
    var ours: OurTransferRun
    var captured: OurTransferRun
    var bumble: BumbleBenchRun.Result
}

/// What `blueproof bench transfer` prints: medians over the rounds, their ratios, the targets.
struct TransferBenchReport: Encodable {
    struct Figure: Encodable {
        /// The median over the rounds.
        var bytesPerSecond: Double
        var runs: [Double]
        init(_ runs: [Double]) {
            self.runs = runs
            bytesPerSecond = median(runs) ?? 0
        }
    }

    struct BumbleRun: Encodable {
        var bytes: Int
        var seconds: Double
        var bytesPerSecond: Double
        var sequenceGaps: Int
    }

    /// The controller's credit ceiling (Rootcanal), medians over the capture runs.
    struct Ceiling: Encodable {
        var source = "measured: Number Of Completed Packets cadence in the sender's capture (capture run)"
        var bufferSize: Int
        var bufferCount: Int
        var medianBurstIntervalMs: Double
        var medianBurstPackets: Int
        var packetsPerSecond: Double
        var aclBytesPerSecond: Double
        var packetsPerPDU: Int
        var payloadBytesPerSecond: Double
        /// Our throughput without capture as a share of each ceiling.
        var oursPercentOfACLCeiling: Double
        var oursPercentOfPayloadCeiling: Double
        /// Each capture run's cadence.
        var runs: [CreditCadence]
    }

    struct Target: Encodable {
        var name: String
        var goal: String
        var value: String
        var met: Bool
    }

    var backend: String
    /// What was measured and how it was framed (chunks, MTU), for the first line.
    var framing: String
    /// Bumble's benchmark, as the table names it.
    var bumbleName: String
    /// The unit the payload ceiling counts (``PayloadFraming/unit``).
    var ceilingUnit: String
    var bytes: Int
    var rounds: Int
    var ours: Figure
    var oursCapture: Figure
    var bumble: Figure
    /// Ours (no capture) over Bumble's.
    var ratio: Double
    /// How much slower the capture run was: (1 - capture / no capture) x 100.
    var captureCostPercent: Double
    var ceiling: Ceiling?
    var targets: [Target]
    /// Every one of our runs delivered the payload byte-exact.
    var intact: Bool
    var oursRuns: [OurTransferRun]
    var bumbleRuns: [BumbleRun]
    var workDirectory: String

    init(backend: String, framing: String, bumbleName: String, ceilingUnit: String, size: Int, rounds: [TransferBenchRound],
         workDirectory: String) {
        self.backend = backend
        self.framing = framing
        self.bumbleName = bumbleName
        self.ceilingUnit = ceilingUnit
        bytes = size
        self.rounds = rounds.count
        self.workDirectory = workDirectory
        ours = Figure(rounds.map(\.ours.bytesPerSecond))
        oursCapture = Figure(rounds.map(\.captured.bytesPerSecond))
        bumble = Figure(rounds.map(\.bumble.bytesPerSecond))
        ratio = bumble.bytesPerSecond > 0 ? ours.bytesPerSecond / bumble.bytesPerSecond : 0
        captureCostPercent = ours.bytesPerSecond > 0 ? (1 - oursCapture.bytesPerSecond / ours.bytesPerSecond) * 100 : 0
        oursRuns = rounds.flatMap { [$0.ours, $0.captured] }
        intact = oursRuns.allSatisfy(\.intact)
        bumbleRuns = rounds.map { BumbleRun(bytes: $0.bumble.bytes, seconds: $0.bumble.seconds,
                                            bytesPerSecond: $0.bumble.bytesPerSecond, sequenceGaps: $0.bumble.gaps) }
        let cadences = rounds.compactMap(\.captured.credits)
        if let first = cadences.first {
            let packets = median(cadences.map(\.ceilingPacketsPerSecond)) ?? 0
            let payload = median(cadences.map(\.ceilingPayloadBytesPerSecond)) ?? 0
            let acl = median(cadences.map(\.ceilingACLBytesPerSecond)) ?? 0
            ceiling = Ceiling(
                bufferSize: first.bufferSize, bufferCount: first.bufferCount,
                medianBurstIntervalMs: median(cadences.map(\.medianBurstIntervalMs)) ?? 0,
                medianBurstPackets: Int(median(cadences.map { Double($0.medianBurstPackets) }) ?? 0),
                packetsPerSecond: packets, aclBytesPerSecond: acl, packetsPerPDU: first.packetsPerPDU,
                payloadBytesPerSecond: payload,
                oursPercentOfACLCeiling: ours.bytesPerSecond / acl * 100,
                oursPercentOfPayloadCeiling: ours.bytesPerSecond / payload * 100, runs: cadences)
        }
        var targets: [Target] = []
        if backend == "btvirt" {
            targets.append(Target(name: "btvirt: ours / Bumble", goal: ">= 3.00x",
                                  value: String(format: "%.2fx", ratio), met: ratio >= 3))
        }
        if let ceiling {
            targets.append(Target(name: "Rootcanal: ours / payload ceiling", goal: ">= 98%",
                                  value: String(format: "%.1f%%", ceiling.oursPercentOfPayloadCeiling),
                                  met: ceiling.oursPercentOfPayloadCeiling >= 98))
        }
        targets.append(Target(name: "capture cost", goal: "< 5%", value: String(format: "%.1f%%", captureCostPercent),
                              met: captureCostPercent < 5))
        self.targets = targets
    }

    var text: String {
        func rate(_ value: Double) -> String {
            value >= 1_000_000 ? String(format: "%.2f MB/s", value / 1_000_000) : String(format: "%.1f kB/s", value / 1000)
        }
        func column(_ label: String) -> String { label + String(repeating: " ", count: max(2, 25 - label.count)) }
        func runs(_ figure: Figure) -> String {
            figure.runs.count > 1 ? "  (runs: \(figure.runs.map(rate).joined(separator: ", ")))" : ""
        }
        let label = rounds > 1 ? "median of \(rounds)" : "1 run"
        var lines = [
            "\(backend): \(bytes) bytes, \(framing), \(label)",
            "  ours, no capture       \(rate(ours.bytesPerSecond))\(runs(ours))",
            "  ours, capture on       \(rate(oursCapture.bytesPerSecond))\(runs(oursCapture))",
            column("  Bumble (\(bumbleName))") + "\(rate(bumble.bytesPerSecond))\(runs(bumble))",
            String(format: "  ratio ours / Bumble    %.2fx", ratio),
            String(format: "  capture cost           %.1f%%", captureCostPercent),
        ]
        if let ceiling {
            lines.append(String(format: "  credit ceiling         %.0f packets/s: %d x %d-byte buffers every %.2f ms (median burst %d packets; measured from the capture)",
                                ceiling.packetsPerSecond, ceiling.bufferCount, ceiling.bufferSize,
                                ceiling.medianBurstIntervalMs, ceiling.medianBurstPackets))
            lines.append(String(format: "    raw ACL              %@ (ours %.1f%%)", rate(ceiling.aclBytesPerSecond), ceiling.oursPercentOfACLCeiling))
            lines.append(String(format: "    payload              %@ at %d packets per %@ (ours %.1f%%)",
                                rate(ceiling.payloadBytesPerSecond), ceiling.packetsPerPDU, ceilingUnit, ceiling.oursPercentOfPayloadCeiling))
        }
        let gaps = bumbleRuns.reduce(0) { $0 + $1.sequenceGaps }
        if gaps > 0 { lines.append("  note: Bumble's receiver saw \(gaps) sequence gap(s): the controller lost notifications") }
        lines.append("  targets (informational):")
        for target in targets {
            lines.append("    \(target.name) \(target.goal): \(target.value) — \(target.met ? "met" : "not met")")
        }
        let different = oursRuns.filter { !$0.intact }
        if different.isEmpty {
            lines.append("  our payload arrived intact in every run")
        } else {
            let received = different.map { "\($0.receivedBytes) of \($0.bytes) bytes" }.joined(separator: ", ")
            lines.append("  our payload arrived DIFFERENT in \(different.count) of \(oursRuns.count) runs (received \(received))")
        }
        return lines.joined(separator: "\n")
    }
}
