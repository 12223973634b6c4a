@testable import BlueproofRadio
import BlueproofWire
import Testing

@Suite("Radio proxy: RSSI, range and re-emission", .timeLimit(.minutes(5)))
struct RadioProxyVisibilityTests {
    typealias Bench = ProxyBench
    static let (a0, a1) = (Bench.addresses[0], Bench.addresses[1])

    @Test("reports get the scenario's RSSI: 127 from btvirt becomes -50, -50 stays -50; strangers pass unchanged")
    func rewrite() async throws {
        var bench = Bench(.fixed(rssi: -50))
        try bench.hosts[1].send(HCILESetAdvertisingEnable(advertisingEnable: true))
        try bench.hosts[0].send(HCILESetScanEnable(scanEnable: true))
        bench.controllers[0].inject(Bench.report(from: Self.a1, rssi: 127))
        bench.controllers[0].inject(Bench.report(from: Self.a1, rssi: -50))
        bench.controllers[0].inject(Bench.extendedReport(from: Self.a1, rssi: 127))
        bench.controllers[0].inject(Bench.report(from: Bench.stranger, rssi: 127))
        let events = try await bench.events(0)
        #expect(events.map(\.reportedRSSI) == [[-50], [-50], [-50], [127]])
        // Commands pass to the controllers unchanged.
        #expect(bench.controllers[0].sent == [HCILESetScanEnable(scanEnable: true).packet])
        #expect(bench.controllers[1].sent == [HCILESetAdvertisingEnable(advertisingEnable: true).packet])
    }

    @Test("an out-of-range advertiser is invisible, and the hiding is logged once")
    func outOfRange() async throws {
        var bench = Bench(.fixed(rssi: -100))
        try bench.hosts[0].send(HCILESetScanEnable(scanEnable: true))
        bench.controllers[0].inject(Bench.report(from: Self.a1, rssi: 127))
        bench.controllers[0].inject(Bench.report(from: Self.a1, rssi: 127))
        #expect(try await bench.events(0).isEmpty)
        let log = bench.world.faultLog
        #expect(log.map(\.kind) == [.hidden])
        #expect(log.first?.node == 0 && log.first?.time == 0)
    }

    @Test("while a node scans, the last report of each advertiser in range repeats at the advertising interval")
    func reemission() async throws {
        var bench = Bench(.fixed(rssi: -40))
        try bench.hosts[1].send(HCILESetAdvertisingEnable(advertisingEnable: true))
        try bench.hosts[0].send(HCILESetScanEnable(scanEnable: true))
        bench.controllers[0].inject(Bench.report(from: Self.a1, rssi: 127))
        #expect(try await bench.events(0, marker: 1).map(\.reportedRSSI) == [[-40]])
        bench.clock.advance(by: .milliseconds(99))
        #expect(try await bench.events(0, marker: 2).isEmpty)
        bench.clock.advance(by: .milliseconds(1))
        #expect(try await bench.events(0, marker: 3).map(\.reportedRSSI) == [[-40]])
        bench.clock.advance(by: .milliseconds(300))
        #expect(try await bench.events(0, marker: 4).map(\.reportedRSSI) == [[-40], [-40], [-40]])
        // The advertiser stops: nothing more.
        try bench.hosts[1].send(HCILESetAdvertisingEnable(advertisingEnable: false))
        bench.clock.advance(by: .milliseconds(300))
        #expect(try await bench.events(0, marker: 5).isEmpty)
        // It starts again; then the scanner stops scanning: nothing once scanning is off.
        try bench.hosts[1].send(HCILESetAdvertisingEnable(advertisingEnable: true))
        bench.clock.advance(by: .milliseconds(100))
        #expect(try await bench.events(0, marker: 6).count == 1)
        try bench.hosts[0].send(HCILESetScanEnable(scanEnable: false))
        bench.clock.advance(by: .seconds(1))
        #expect(try await bench.events(0, marker: 7).isEmpty)
    }

    @Test("a repetition more than the backlog late fires once, at the clock's time: missed advertising events are not made up")
    func reemissionBacklog() async throws {
        var bench = Bench(.fixed(rssi: -40), reemitBacklog: .seconds(1))
        try bench.hosts[1].send(HCILESetAdvertisingEnable(advertisingEnable: true))
        try bench.hosts[0].send(HCILESetScanEnable(scanEnable: true))
        bench.controllers[0].inject(Bench.report(from: Self.a1, rssi: 127))
        #expect(try await bench.events(0, marker: 1).count == 1)
        bench.clock.advance(by: .milliseconds(900))
        #expect(try await bench.events(0, marker: 2).count == 9, "within the backlog: every repetition")
        bench.clock.advance(by: .seconds(5))
        #expect(try await bench.events(0, marker: 3).count == 1, "5 s late: one report, not fifty")
        bench.clock.advance(by: .milliseconds(100))
        #expect(try await bench.events(0, marker: 4).count == 1, "then on at the interval from the clock's time")
    }

    @Test("a random address the host took (LE Set Random Address, success) is its node's: its reports are judged by range and connections to it held; one the controller refused is not")
    func randomAddress() async throws {
        var bench = Bench(.fixed(rssi: -100))
        let refused = BDAddress(littleEndian: [0x01, 0x02, 0x03, 0x04, 0x05, 0x06])
        let taken = BDAddress(littleEndian: [0x11, 0x12, 0x13, 0x14, 0x15, 0x16])
        // A host sends its next command once the controller answered the last (Vol 4, Part E §4.4).
        try bench.hosts[1].send(HCILESetRandomAddress(randomAddress: refused))
        bench.controllers[1].inject(.commandComplete(.init(numHCICommandPackets: 1, commandOpcode: .leSetRandomAddress,
                                                           returnParameters: [HCIStatus.commandDisallowed.rawValue])))
        #expect(try await bench.events(1).count == 1)
        try bench.hosts[1].send(HCILESetRandomAddress(randomAddress: taken))
        bench.controllers[1].inject(.commandComplete(.init(numHCICommandPackets: 1, commandOpcode: .leSetRandomAddress,
                                                           returnParameters: [HCIStatus.success.rawValue])))
        #expect(try await bench.events(1).count == 1)
        try bench.hosts[0].send(HCILESetScanEnable(scanEnable: true))
        bench.controllers[0].inject(Bench.report(from: taken, rssi: 127))
        bench.controllers[0].inject(Bench.report(from: refused, rssi: 127))
        #expect(try await bench.events(0).map(\.reportedRSSI) == [[127]], "node 1's random address is out of range; the refused one is a stranger's")
        try bench.hosts[0].send(Bench.createConnection(to: taken))
        guard case let .commandStatus(status) = try await bench.hosts[0].next() else { Issue.record("no Command Status"); return }
        #expect(status.commandOpcode == .leCreateConnection)
        #expect(bench.world.faultLog.map(\.kind) == [.hidden, .connectionHeld])
    }

    @Test("connecting to an out-of-range peer: Command Status, then nothing until the host cancels, then Unknown Connection Identifier")
    func heldConnection() async throws {
        var bench = Bench(.fixed(rssi: -100))
        try bench.hosts[0].send(Bench.createConnection(to: Self.a1))
        guard case let .commandStatus(status) = try await bench.hosts[0].next() else { Issue.record("no Command Status"); return }
        #expect(status.status == .success && status.commandOpcode == .leCreateConnection)
        bench.clock.advance(by: .seconds(30))
        #expect(try await bench.events(0, marker: 1).isEmpty, "no LE Connection Complete while the peer is out of range")
        try bench.hosts[0].send(HCILECreateConnectionCancel())
        let events = try await bench.events(0, marker: 2)
        guard events.count == 2, case let .commandComplete(cancel) = events[0], case let .le(.connectionComplete(complete)) = events[1] else {
            Issue.record("expected Command Complete then LE Connection Complete: \(events)")
            return
        }
        #expect(cancel.commandOpcode == .leCreateConnectionCancel && cancel.returnParameters == [0x00])
        #expect(complete.status == .unknownConnectionIdentifier && complete.peerAddress == Self.a1)
        #expect(bench.controllers[0].sent.isEmpty, "the controller never saw the attempt")
        #expect(bench.world.faultLog.map(\.kind) == [.connectionHeld, .connectionCancelled])
        #expect(bench.world.faultLog.map(\.time) == [0, 30])
    }

    @Test("a peer that moves into range is seen, and connected, only once it passes the range")
    func walkIn() async throws {
        let scenario = try RadioScenario.load(path: "\(RadioScenarioTests.folder)/walk-in.yaml")
        var bench = Bench(scenario)
        let (peripheral, central) = (0, 1)
        try bench.hosts[peripheral].send(HCILESetAdvertisingEnable(advertisingEnable: true))
        try bench.hosts[central].send(HCILESetScanEnable(scanEnable: true))
        // btvirt reports once, at enable: the peripheral is 20 m away then.
        bench.controllers[central].inject(Bench.report(from: Self.a0, rssi: 127))
        #expect(try await bench.events(central, marker: 9).isEmpty, "hidden")
        try bench.hosts[central].send(Bench.createConnection(to: Self.a0))
        let held = try await bench.events(central, marker: 1)
        #expect(held.count == 1 && held.allSatisfy { if case .commandStatus = $0 { true } else { false } })

        bench.clock.advance(to: .milliseconds(4620))
        #expect(try await bench.events(central, marker: 2).isEmpty, "out of range until 4.621 s")
        #expect(!bench.controllers[central].sent.contains { $0.payload.starts(with: [0x0D, 0x20]) })

        bench.clock.advance(to: .seconds(10))
        var sent = bench.controllers[central].sentStream.makeAsyncIterator()
        var create: HCICommandPacket
        repeat { create = try await FakeController.next(&sent) } while create.opcode != .leCreateConnection
        #expect(create.packet == Bench.createConnection(to: Self.a0).packet, "the held command, as the host sent it")
        bench.controllers[central].inject(.commandStatus(.init(status: .success, numHCICommandPackets: 1, commandOpcode: .leCreateConnection)))
        bench.controllers[central].inject(Bench.connected(handle: 0x40, role: .central, peer: Self.a0))
        let events = try await bench.events(central, marker: 3)
        // Re-emitted reports at 4.7 s ... 10.0 s, then the connection; the controller's
        // Command Status answered the proxy, not the host.
        #expect(events.dropLast().allSatisfy { $0.isReport })
        #expect(events.filter(\.isReport).count == 54)
        #expect(events.filter(\.isReport).allSatisfy { $0.reportedRSSI[0] >= -86 && $0.reportedRSSI[0] <= -50 })
        guard case let .le(.connectionComplete(complete))? = events.last else { Issue.record("no connection: \(events)"); return }
        #expect(complete.status == .success)

        let log = bench.world.faultLog
        #expect(log.map(\.kind) == [.hidden, .connectionHeld, .rangeChange, .connectionReleased])
        #expect(log.map(\.time) == [0, 0, 4.621, 4.621])
    }

    @Test("moving out of range mid-connection ends the link on both hosts with Connection Timeout")
    func walkOut() async throws {
        let away = try #require(RadioPath(waypoints: [.init(at: .zero, position: RadioPosition(x: 1, y: 0)),
                                                      .init(at: .seconds(10), position: RadioPosition(x: 20, y: 0))]))
        var bench = Bench(RadioScenario(model: RadioModel(sensitivity: -80, paths: [1: away])))
        bench.controllers[0].inject(Bench.connected(handle: 0x40, role: .central, peer: Self.a1))
        bench.controllers[1].inject(Bench.connected(handle: 0x41, role: .peripheral, peer: Self.a0))
        #expect(try await bench.events(0, marker: 1).count == 1)
        #expect(try await bench.events(1, marker: 1).count == 1)
        bench.clock.advance(to: .seconds(6))
        for (node, handle) in [(0, UInt16(0x40)), (1, UInt16(0x41))] {
            let events = try await bench.events(node, marker: 2)
            #expect(events == [.disconnectionComplete(.init(status: .success, connectionHandle: handle, reason: .connectionTimeout))])
        }
        // One controller is told, so both controllers agree; their own events are swallowed.
        #expect(bench.controllers[0].sent == [HCIDisconnect(connectionHandle: 0x40, reason: .remoteUserTerminated).packet])
        bench.controllers[0].inject(.commandStatus(.init(status: .success, numHCICommandPackets: 1, commandOpcode: .disconnect)))
        bench.controllers[0].inject(.disconnectionComplete(.init(status: .success, connectionHandle: 0x40, reason: .localHostTerminated)))
        bench.controllers[1].inject(Bench.credits(0x41, 1))
        bench.controllers[1].inject(.disconnectionComplete(.init(status: .success, connectionHandle: 0x41, reason: .remoteUserTerminated)))
        #expect(try await bench.events(0, marker: 3).isEmpty)
        #expect(try await bench.events(1, marker: 3).isEmpty)
        let log = bench.world.faultLog
        #expect(log.map(\.kind) == [.rangeChange, .disconnect, .disconnect])
        #expect(log.allSatisfy { $0.time == 5.38 })
    }
}
