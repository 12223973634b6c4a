import BlueproofWire

extension RadioSwitchboard {
    /// A packet from `node`'s controller, on its way to the host.
    mutating func inbound(_ packet: H4Packet, at node: Int, now: Duration) -> [RadioAction] {
        // Data still arriving on a connection the proxy already ended for the host (before the
        // controller has processed the proxy's HCI Disconnect): the host was told the link is
        // gone (Disconnection Complete, Vol 4, Part E §7.7.5), so its data is no longer its own.
        if packet.type == .acl, let data = try? HCIACLPacket(payload: packet.payload),
           nodes[node]?.closedHandles.contains(data.handle) == true {
            return []
        }
        guard packet.type == .event, let event = try? HCIEvent(payload: packet.payload) else {
            return [.toHost(node: node, packet)]
        }
        switch event {
        case var .commandComplete(complete):
            if nodes[node]?.takeOwnAnswer(complete.commandOpcode) == true { return [] }
            if complete.commandOpcode == .readBDADDR, nodes[node]?.address == nil,
               let read = try? complete.decodeReturnParameters(as: HCIReadBDADDR.self), read.status == .success {
                nodes[node]?.address = read.bdAddr
            }
            if complete.commandOpcode == .leSetRandomAddress {
                if complete.returnParameters.first == HCIStatus.success.rawValue { nodes[node]?.randomAddressTaken() }
                else { nodes[node]?.pendingRandomAddress = nil }
            }
            if shrinkBuffers(&complete, at: node, now: now) { return deliver(.commandComplete(complete), to: node, now: now) }
        case let .commandStatus(status):
            if nodes[node]?.takeOwnAnswer(status.commandOpcode) == true { return [] }
        case let .le(.connectionComplete(complete)):
            return connected(node, status: complete.status, handle: complete.connectionHandle, role: complete.role,
                             peer: complete.peerAddress, now: now) + deliver(event, to: node, now: now, original: packet)
        case let .le(.enhancedConnectionComplete(complete)):
            return connected(node, status: complete.status, handle: complete.connectionHandle, role: complete.role,
                             peer: complete.peerAddress, now: now) + deliver(event, to: node, now: now, original: packet)
        case let .le(.enhancedConnectionCompleteV2(complete)):
            let base = complete.base
            return connected(node, status: base.status, handle: base.connectionHandle, role: base.role,
                             peer: base.peerAddress, now: now) + deliver(event, to: node, now: now, original: packet)
        case let .disconnectionComplete(complete):
            if nodes[node]?.closedHandles.remove(complete.connectionHandle) != nil { return [] }
            nodes[node]?.connections[complete.connectionHandle] = nil
        case let .numberOfCompletedPackets(completed):
            return credits(completed, at: node, now: now)
        case let .le(.advertisingReport(event)):
            let reports = event.reports.compactMap { report -> HCILEAdvertisingReportEvent.Report? in
                guard case let .legacy(rewritten)? = heard(.legacy(report), by: node, now: now) else { return nil }
                return rewritten
            }
            return reports.isEmpty ? [] : deliver(.le(.advertisingReport(.init(reports: reports))), to: node, now: now)
        case let .le(.extendedAdvertisingReport(event)):
            let reports = event.reports.compactMap { report -> HCILEExtendedAdvertisingReportEvent.Report? in
                guard case let .extended(rewritten)? = heard(.extended(report), by: node, now: now) else { return nil }
                return rewritten
            }
            return reports.isEmpty ? [] : deliver(.le(.extendedAdvertisingReport(.init(reports: reports))), to: node, now: now)
        default:
            break
        }
        return deliver(event, to: node, now: now, original: packet)
    }

    /// Hands an event from the controller to the host, unless a drop or delay fault takes it.
    mutating func deliver(_ event: HCIEvent, to node: Int, now: Duration, original: H4Packet? = nil) -> [RadioAction] {
        let packet = original ?? event.h4
        for (index, fault) in scenario.faults.enumerated() where fault.node == node {
            switch fault.action {
            case let .drop(match, window, count) where match.matches(event) && window.contains(now) && (uses[index] ?? 0) < (count ?? .max):
                uses[index, default: 0] += 1
                record(now, node, .drop, "dropped \(event.name)")
                return []
            case let .delay(match, by, window, count) where match.matches(event) && window.contains(now) && (uses[index] ?? 0) < (count ?? .max):
                uses[index, default: 0] += 1
                nextDelayed += 1
                delayed[nextDelayed] = (node, packet)
                record(now, node, .delay, "delayed \(event.name) by \(by)")
                return [.schedule(.delayed(id: nextDelayed), at: now + by)]
            default:
                continue
            }
        }
        return [.toHost(node: node, packet)]
    }

    /// Rewrites an LE Read Buffer Size answer (§7.8.2, §7.8.93) as a buffer-size fault says.
    private mutating func shrinkBuffers(_ complete: inout HCICommandCompleteEvent, at node: Int, now: Duration) -> Bool {
        guard complete.commandOpcode == .leReadBufferSize || complete.commandOpcode == .leReadBufferSizeV2,
              complete.returnParameters.count >= 4, complete.returnParameters[0] == 0 else { return false }
        for fault in scenario.faults where fault.node == node {
            guard case let .bufferSize(length, count) = fault.action else { continue }
            var bytes = complete.returnParameters
            let realLength = UInt16(bytes[1]) | UInt16(bytes[2]) << 8
            let newLength = min(realLength, length ?? realLength)
            let realCount = bytes[3]
            let newCount = min(realCount, count ?? realCount)
            bytes[1] = UInt8(truncatingIfNeeded: newLength)
            bytes[2] = UInt8(truncatingIfNeeded: newLength >> 8)
            bytes[3] = newCount
            complete.returnParameters = bytes
            record(now, node, .bufferSize, "LE ACL buffers \(realLength) x \(realCount) reported as \(newLength) x \(newCount)")
            return true
        }
        return false
    }

    /// A connection completed: recorded, and on the node's first one the timers of its
    /// `since: connection` faults start.
    private mutating func connected(_ node: Int, status: HCIStatus, handle: UInt16, role: HCIConnectionRole,
                                    peer: BDAddress, now: Duration) -> [RadioAction] {
        guard status == .success, nodes[node] != nil else { return [] }
        nodes[node]?.connections[handle] = peer
        // Connectable advertising ends when a central connects (§7.8.9).
        if role == .peripheral { nodes[node]?.advertising = false }
        guard nodes[node]?.connectedOnce == false else { return [] }
        nodes[node]?.connectedOnce = true
        return timers(where: { $0.node == node && $0.origin == .connection }, after: now)
    }

    /// Number Of Completed Packets: credits of handles the proxy ended are dropped, and an
    /// open withhold window keeps the rest.
    private mutating func credits(_ event: HCINumberOfCompletedPacketsEvent, at node: Int, now: Duration) -> [RadioAction] {
        let closed = nodes[node]?.closedHandles ?? []
        var entries = event.handles.filter { !closed.contains($0.connectionHandle) }
        for (index, fault) in scenario.faults.enumerated() where fault.node == node && withheld[index] != nil {
            for entry in entries { withheld[index]![entry.connectionHandle, default: 0] += Int(entry.numCompletedPackets) }
            entries = []
        }
        guard !entries.isEmpty else { return [] }
        return deliver(.numberOfCompletedPackets(.init(handles: entries)), to: node, now: now)
    }

    /// An advertising report heard by `observer`: hidden when its advertiser is out of range,
    /// otherwise given the model's RSSI. Reports of devices that are not nodes pass unchanged.
    private mutating func heard(_ report: RadioCachedReport, by observer: Int, now: Duration) -> RadioCachedReport? {
        guard let advertiser = node(withAddress: report.address), advertiser != observer else { return report }
        if nodes[observer]?.scanning == true { nodes[observer]?.cache[report.key] = report }
        guard inRange.contains(RadioPair(observer, advertiser)) else {
            if nodes[observer]?.hiddenLogged.insert(advertiser).inserted == true {
                record(now, observer, .hidden, "\(scenario.name(of: advertiser)) is out of range: its reports are not delivered")
            }
            return nil
        }
        nodes[observer]?.delivered.insert(report.key)
        let rssi = model.rssi(observer: observer, advertiser: advertiser, at: now)
        return switch report.event(rssi: rssi) {
        case let .le(.advertisingReport(event)): .legacy(event.reports[0])
        case let .le(.extendedAdvertisingReport(event)): .extended(event.reports[0])
        default: nil
        }
    }
}
