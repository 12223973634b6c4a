import BlueproofWire

extension RadioSwitchboard {
    /// A timer the core asked for has come.
    mutating func fired(_ timer: RadioTimer, now: Duration) -> [RadioAction] {
        switch timer {
        case .rangeCheck:
            return checkRange(now: now)
        case let .fault(index, edge):
            return scripted(index, edge, now: now)
        case let .reemit(node, scan):
            return reemit(node, scan: scan, now: now)
        case let .delayed(id):
            guard let (node, packet) = delayed.removeValue(forKey: id) else { return [] }
            return [.toHost(node: node, packet)]
        }
    }

    func nextRangeCheck(after now: Duration) -> [RadioAction] {
        guard let next = model.nextRangeChange(among: nodes.keys.sorted(), after: now) else { return [.cancel(.rangeCheck)] }
        return [.schedule(.rangeCheck, at: next)]
    }

    /// Applies the range changes due by `now`.
    mutating func checkRange(now: Duration) -> [RadioAction] {
        var actions: [RadioAction] = []
        let attached = nodes.keys.sorted()
        for (index, a) in attached.enumerated() {
            for b in attached[(index + 1)...] {
                let pair = RadioPair(a, b)
                let reachable = model.inRange(a, b, at: now)
                guard reachable != inRange.contains(pair) else { continue }
                nodes[a]?.hiddenLogged.remove(b)
                nodes[b]?.hiddenLogged.remove(a)
                let rssi = model.meanRSSI(a, b, at: now)
                if reachable {
                    inRange.insert(pair)
                    record(now, a, .rangeChange, "\(scenario.name(of: a)) and \(scenario.name(of: b)) in range (mean RSSI \(format3(rssi)) dBm)")
                    actions += release(from: a, to: b, now: now) + release(from: b, to: a, now: now)
                } else {
                    inRange.remove(pair)
                    record(now, a, .rangeChange, "\(scenario.name(of: a)) and \(scenario.name(of: b)) out of range (mean RSSI \(format3(rssi)) dBm)")
                    actions += lostLink(a, b, now: now)
                }
            }
        }
        return actions + nextRangeCheck(after: now)
    }

    /// A held connection attempt from `node` to `peer`, now in range, goes to the controller.
    private mutating func release(from node: Int, to peer: Int, now: Duration) -> [RadioAction] {
        guard let held = nodes[node]?.held, nodes[peer]?.owns(held.peer) == true else { return [] }
        nodes[node]?.held = nil
        nodes[node]?.ownCommands[held.command.opcode, default: 0] += 1
        record(now, node, .connectionReleased, "\(scenario.name(of: peer)) came into range: connection attempt sent to the controller")
        return [.toController(node: node, held.command.packet)]
    }

    /// A link between two nodes that drifted apart ends as a supervision timeout would
    /// (Vol 6, Part B §4.5.2): Disconnection Complete with Connection Timeout (0x08) on both
    /// sides. The real controllers are told with HCI Disconnect from one side (§7.1.6); the
    /// Disconnection Complete events that follow are swallowed.
    private mutating func lostLink(_ a: Int, _ b: Int, now: Duration) -> [RadioAction] {
        guard let stateA = nodes[a], let stateB = nodes[b] else { return [] }
        var actions: [RadioAction] = []
        var told = false
        for (node, other) in [(a, stateB), (b, stateA)] {
            for (handle, peer) in (nodes[node]?.connections ?? [:]).sorted(by: { $0.key < $1.key }) where other.owns(peer) {
                actions += endConnection(node, handle: handle, reason: .connectionTimeout, tellController: !told, now: now)
                told = true
            }
        }
        return actions
    }

    /// Ends a connection for the host with `reason`, and (when asked) for the controller.
    mutating func endConnection(_ node: Int, handle: UInt16, reason: HCIStatus, tellController: Bool,
                                now: Duration) -> [RadioAction] {
        nodes[node]?.connections[handle] = nil
        nodes[node]?.closedHandles.insert(handle)
        record(now, node, .disconnect, "connection 0x\(String(handle, radix: 16)) ended: \(reason)")
        var actions: [RadioAction] = [.toHost(node: node, HCIEvent.disconnectionComplete(
            .init(status: .success, connectionHandle: handle, reason: reason)).h4)]
        if tellController {
            nodes[node]?.ownCommands[.disconnect, default: 0] += 1
            // Disconnect accepts only a few reasons (§7.1.6); others become Remote User Terminated.
            let allowed: Set<HCIStatus> = [.authenticationFailure, .remoteUserTerminated, .remoteLowResources,
                                           .remotePowerOff, .unsupportedRemoteFeature, .unacceptableConnectionParameters]
            let sent = allowed.contains(reason) ? reason : .remoteUserTerminated
            actions.append(.toController(node: node, HCIDisconnect(connectionHandle: handle, reason: sent).packet))
        }
        return actions
    }

    private mutating func scripted(_ index: Int, _ edge: RadioTimer.Edge, now: Duration) -> [RadioAction] {
        let fault = scenario.faults[index]
        let node = fault.node
        switch fault.action {
        case let .disconnect(_, reason):
            let handles = (nodes[node]?.connections.keys).map { $0.sorted() } ?? []
            if handles.isEmpty { record(now, node, .disconnect, "scripted disconnect: no connection open") }
            return handles.flatMap { handle in endConnection(node, handle: handle, reason: reason, tellController: true, now: now) }
        case let .hardwareError(_, code):
            record(now, node, .hardwareError, "Hardware Error, code 0x\(String(code, radix: 16))")
            return [.toHost(node: node, HCIEvent.hardwareError(.init(hardwareCode: code)).h4)]
        case let .withholdCredits(_, length):
            guard edge == .end else {
                withheld[index] = [:]
                record(now, node, .withholdCredits, "withholding Number Of Completed Packets for \(length)")
                return []
            }
            let held = withheld.removeValue(forKey: index) ?? [:]
            let closed = nodes[node]?.closedHandles ?? []
            let entries = held.filter { !closed.contains($0.key) && $0.value > 0 }.sorted { $0.key < $1.key }
                .map { HCINumberOfCompletedPacketsEvent.Entry(connectionHandle: $0.key, numCompletedPackets: UInt16(clamping: $0.value)) }
            let total = entries.reduce(0) { $0 + Int($1.numCompletedPackets) }
            record(now, node, .releaseCredits, "released \(total) withheld credits"
                + entries.map { " (0x\(String($0.connectionHandle, radix: 16)): \($0.numCompletedPackets))" }.joined(), count: total)
            return entries.isEmpty ? [] : [.toHost(node: node, HCIEvent.numberOfCompletedPackets(.init(handles: entries)).h4)]
        default:
            return []
        }
    }

    /// Repeats to a scanning node the last report of each in-range, advertising node.
    private mutating func reemit(_ node: Int, scan: Int, now: Duration) -> [RadioAction] {
        guard let state = nodes[node], state.scanning, state.scan == scan else { return [] }
        var actions: [RadioAction] = []
        for (key, report) in state.cache.sorted(by: { $0.key < $1.key }) {
            guard let advertiser = self.node(withAddress: key.address), nodes[advertiser]?.advertising == true,
                  inRange.contains(RadioPair(node, advertiser)) else { continue }
            if state.filterDuplicates, state.delivered.contains(key) { continue }
            nodes[node]?.delivered.insert(key)
            let event = report.event(rssi: model.rssi(observer: node, advertiser: advertiser, at: now))
            actions += deliver(event, to: node, now: now)
        }
        return actions + [.schedule(.reemit(node: node, scan: scan), at: now + max(scenario.advertisingInterval, .milliseconds(1)))]
    }
}
