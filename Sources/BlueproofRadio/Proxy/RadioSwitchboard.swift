import BlueproofWire

/// The radio proxy's sans-I/O core: takes the packets crossing each node's host↔controller
/// link, the timers it asked for, and the run time, and returns what to deliver, send and
/// schedule. ``RadioWorld`` carries the actions out.
struct RadioSwitchboard: Sendable {
    let scenario: RadioScenario
    var nodes: [Int: RadioNodeState] = [:]
    /// Pairs of attached nodes in range, as of the last range check.
    var inRange: Set<RadioPair> = []
    var log: [RadioFaultLogEntry] = []
    var delayed: [Int: (node: Int, packet: H4Packet)] = [:]
    var nextDelayed = 0
    /// How many times each drop or delay fault acted.
    var uses: [Int: Int] = [:]
    /// Credits held by each open withhold-credits window, per handle.
    var withheld: [Int: [UInt16: Int]] = [:]

    init(scenario: RadioScenario) { self.scenario = scenario }

    var model: RadioModel { scenario.model }

    /// The timers of the fault script that count from the world's start.
    func start() -> [RadioAction] {
        timers(where: { $0.origin == .start }, after: .zero)
    }

    /// The timers of the faults that match, their times counted from `origin`.
    func timers(where matches: (RadioFault) -> Bool, after origin: Duration) -> [RadioAction] {
        scenario.faults.enumerated().filter { matches($0.element) }.flatMap { index, fault -> [RadioAction] in
            switch fault.action {
            case let .disconnect(at, _), let .hardwareError(at, _): [.schedule(.fault(index: index, edge: .start), at: origin + at)]
            case let .withholdCredits(from, length):
                [.schedule(.fault(index: index, edge: .start), at: origin + from),
                 .schedule(.fault(index: index, edge: .end), at: origin + from + length)]
            default: []
            }
        }
    }

    mutating func attach(node: Int, address: BDAddress?, now: Duration) -> [RadioAction] {
        nodes[node] = RadioNodeState(address: address)
        for other in nodes.keys where other != node && model.inRange(node, other, at: now) {
            inRange.insert(RadioPair(node, other))
        }
        return nextRangeCheck(after: now)
    }

    mutating func setAddress(_ address: BDAddress, of node: Int) {
        nodes[node, default: RadioNodeState()].address = address
    }

    func node(withAddress address: BDAddress) -> Int? {
        nodes.first { $0.value.owns(address) }?.key
    }

    mutating func record(_ now: Duration, _ node: Int, _ kind: RadioFaultLogEntry.Kind, _ detail: String, count: Int? = nil) {
        log.append(RadioFaultLogEntry(time: now / .seconds(1), node: node, kind: kind, detail: detail, count: count))
    }

    // MARK: Host to controller

    /// A packet from `node`'s host. Most pass to the controller unchanged.
    mutating func outbound(_ packet: H4Packet, from node: Int, now: Duration) -> [RadioAction] {
        let pass: [RadioAction] = [.toController(node: node, packet)]
        guard packet.type == .command, let command = try? HCICommandPacket(payload: packet.payload) else { return pass }
        switch command.opcode {
        case .leSetScanEnable:
            guard let scan = try? command.decode(as: HCILESetScanEnable.self) else { return pass }
            return pass + scanning(node, scan.scanEnable, filterDuplicates: scan.filterDuplicates, now: now)
        case .leSetExtendedScanEnable:
            guard let scan = try? command.decode(as: HCILESetExtendedScanEnable.self) else { return pass }
            return pass + scanning(node, scan.enable, filterDuplicates: scan.filterDuplicates != .disabled, now: now)
        case .leSetAdvertisingEnable:
            if let enable = try? command.decode(as: HCILESetAdvertisingEnable.self) { nodes[node]?.advertising = enable.advertisingEnable }
            return pass
        case .leSetExtendedAdvertisingEnable:
            if let enable = try? command.decode(as: HCILESetExtendedAdvertisingEnable.self) { nodes[node]?.advertising = enable.enable }
            return pass
        case .leSetRandomAddress:
            nodes[node]?.pendingRandomAddress = (try? command.decode(as: HCILESetRandomAddress.self))?.randomAddress
            return pass
        case .leCreateConnection:
            guard let create = try? command.decode(as: HCILECreateConnection.self) else { return pass }
            return initiate(command, peer: create.peerAddress, type: create.peerAddressType, extended: false, from: node, now: now) ?? pass
        case .leExtendedCreateConnection:
            guard let create = try? command.decode(as: HCILEExtendedCreateConnection.self) else { return pass }
            return initiate(command, peer: create.peerAddress, type: create.peerAddressType, extended: true, from: node, now: now) ?? pass
        case .leCreateConnectionCancel:
            guard let held = nodes[node]?.held else { return pass }
            nodes[node]?.held = nil
            record(now, node, .connectionCancelled, "the host cancelled the held connection to \(held.peer): Unknown Connection Identifier")
            let complete = HCICommandCompleteEvent(numHCICommandPackets: 1, command: HCILECreateConnectionCancel.self,
                                                   returnParameters: HCIStatusReturn(status: .success))
            return [.toHost(node: node, HCIEvent.commandComplete(complete).h4),
                    .toHost(node: node, Self.failedConnection(held, status: .unknownConnectionIdentifier).h4)]
        default:
            return pass
        }
    }

    /// LE Create Connection to an out-of-range peer: the controller would keep initiating
    /// without result (Vol 6, Part B §4.5), so the proxy accepts it (Command Status, §7.7.15)
    /// and holds it until the peer comes into range or the host cancels. Nil: pass it on.
    private mutating func initiate(_ command: HCICommandPacket, peer: BDAddress, type: LEAddressType, extended: Bool,
                                   from node: Int, now: Duration) -> [RadioAction]? {
        guard let target = self.node(withAddress: peer), !inRange.contains(RadioPair(node, target)) else { return nil }
        nodes[node]?.held = .init(command: command, peer: peer, peerType: type, extended: extended)
        record(now, node, .connectionHeld, "connection to \(scenario.name(of: target)) (\(peer)) held: out of range")
        let status = HCICommandStatusEvent(status: .success, numHCICommandPackets: 1, commandOpcode: command.opcode)
        return [.toHost(node: node, HCIEvent.commandStatus(status).h4)]
    }

    /// LE Connection Complete, or LE Enhanced Connection Complete for the extended command,
    /// reporting a failed attempt (§7.7.65.1, §7.7.65.10).
    static func failedConnection(_ held: RadioNodeState.HeldConnection, status: HCIStatus) -> HCIEvent {
        let complete = HCILEConnectionCompleteEvent(
            status: status, connectionHandle: 0, role: .central, peerAddressType: held.peerType, peerAddress: held.peer,
            connectionInterval: LEConnectionInterval(rawValue: 0), peripheralLatency: 0,
            supervisionTimeout: LESupervisionTimeout(rawValue: 0), centralClockAccuracy: .ppm500)
        guard held.extended else { return .le(.connectionComplete(complete)) }
        return .le(.enhancedConnectionComplete(HCILEEnhancedConnectionCompleteEvent(
            status: status, connectionHandle: 0, role: .central, peerAddressType: held.peerType, peerAddress: held.peer,
            localResolvablePrivateAddress: .zero, peerResolvablePrivateAddress: .zero,
            connectionInterval: complete.connectionInterval, peripheralLatency: 0,
            supervisionTimeout: complete.supervisionTimeout, centralClockAccuracy: .ppm500)))
    }

    private mutating func scanning(_ node: Int, _ enable: Bool, filterDuplicates: Bool, now: Duration) -> [RadioAction] {
        guard var state = nodes[node] else { return [] }
        defer { nodes[node] = state }
        state.filterDuplicates = filterDuplicates
        guard enable != state.scanning else { return [] }
        let old = RadioTimer.reemit(node: node, scan: state.scan)
        state.scanning = enable
        state.scan += 1
        state.cache = [:]
        state.delivered = []
        guard enable else { return [.cancel(old)] }
        return [.schedule(.reemit(node: node, scan: state.scan), at: now + max(scenario.advertisingInterval, .milliseconds(1)))]
    }
}
