import BlueproofBackend
import BlueproofHost

/// `blueproof probe` as text for a terminal.
struct ProbeTable {
    var backend: any ControllerBackend
    var report: ProbeReport
    var captures: [String]

    var text: String {
        var lines: [String] = []
        lines.append("blueproof probe: \(report.controllers.count) controller(s) on \(backend.name), \(report.durationMilliseconds) ms")
        for fact in backend.facts { lines.append(row(fact.name, fact.value, indent: 0)) }
        for controller in report.controllers {
            lines.append("")
            lines.append("controller \(controller.index)  \(controller.endpoint)")
            lines.append(row("address", controller.address ?? "unknown"))
            lines.append(row("HCI version", controller.hciVersion ?? "unknown"))
            lines.append(row("LMP version", controller.lmpVersion ?? "unknown"))
            lines.append(row("manufacturer", controller.manufacturer ?? "unknown"))
            lines.append(row("ACL buffers", controller.aclBuffers?.description ?? "unknown"))
            lines.append(row("LE ACL buffers", controller.leACLBuffers.map { "\($0) (\($0.source))" } ?? "none"))
            lines.append(row("LE features", controller.leFeatures.isEmpty ? "none" : controller.leFeatures.joined(separator: ", ")))
            if let commands = controller.supportedCommandCount {
                let extended = "extended advertising \(yesNo(controller.extendedAdvertising)), extended scanning \(yesNo(controller.extendedScanning))"
                let known = controller.knownCommandCount.map { " of the \($0) blueproof knows" } ?? ""
                lines.append(row("command mask", "claims \(commands)\(known); \(extended)"))
            }
            lines.append(row("round trip", controller.commandRoundTrip?.description ?? "not measured"))
            let working = controller.commands.filter { $0.result == "ok" }.count
            let unused = controller.commands.filter { $0.result == "not exercised" }.count
            lines.append(row("host commands", "\(working) of \(controller.commands.count) work"
                             + (unused > 0 ? ", \(unused) not used on this side" : "")))
            for check in controller.commands where check.result != "ok" && check.result != "not exercised" {
                let mask = check.claimed.map { $0 ? " (the mask claims it)" : " (the mask does not claim it)" } ?? ""
                lines.append(row("", "\(check.name): \(check.result)\(mask)"))
            }
            for problem in controller.problems { lines.append(row("PROBLEM", problem)) }
        }
        for link in report.links {
            lines.append("")
            lines.append("link \(link.advertiser) → \(link.initiator)")
            lines.append(row("advertisement", link.advertisementSeen
                ? "seen after \(link.millisecondsToReport ?? 0) ms, RSSI \(link.reportedRSSI ?? "n/a")" : "not seen"))
            if let absent = link.absentPeer { lines.append(row("absent peer", absent)) }
            lines.append(row("connection", link.connected
                ? "made in \(link.millisecondsToConnect ?? 0) ms, RSSI \(link.connectionRSSI ?? "not read")" : "not made"))
            lines.append(row("disconnection", link.disconnected ? "reported on both sides" : "not completed"))
            for problem in link.problems { lines.append(row("PROBLEM", problem)) }
        }
        if !captures.isEmpty {
            lines.append("")
            for capture in captures { lines.append(row("capture", capture, indent: 0)) }
        }
        lines.append("")
        lines.append(report.passed ? "result: PASS" : "result: FAIL")
        return lines.joined(separator: "\n")
    }

    private func row(_ name: String, _ value: String, indent: Int = 2) -> String {
        String(repeating: " ", count: indent) + name.padding(toLength: 18, withPad: " ", startingAt: 0) + value
    }

    private func yesNo(_ value: Bool?) -> String { value.map { $0 ? "yes" : "no" } ?? "unknown" }
}
