@testable import BlueproofRadio
import BlueproofWire
import Foundation
import Testing

@Suite("Radio proxy: scripted faults", .timeLimit(.minutes(5)))
struct RadioProxyFaultTests {
    typealias Bench = ProxyBench
    static let (a0, a1) = (Bench.addresses[0], Bench.addresses[1])

    @Test("withheld credits stall, then come back summed: nothing lost or duplicated; buffers reported smaller")
    func withheldCredits() async throws {
        var bench = Bench(try RadioScenario.load(path: "\(RadioScenarioTests.folder)/withheld-credits.yaml"))
        try bench.hosts[0].send(HCILEReadBufferSize())
        bench.controllers[0].inject(.commandComplete(.init(numHCICommandPackets: 1, command: HCILEReadBufferSize.self,
            returnParameters: .init(leACLDataPacketLength: 251, totalNumLEACLDataPackets: 8))))
        guard case let .commandComplete(buffers) = try await bench.hosts[0].next() else { Issue.record("no answer"); return }
        let size = try buffers.decodeReturnParameters(as: HCILEReadBufferSize.self)
        #expect(size.leACLDataPacketLength == 27 && size.totalNumLEACLDataPackets == 1)

        bench.controllers[0].inject(Bench.connected(handle: 0x41, role: .peripheral, peer: Self.a1))
        bench.clock.advance(to: .milliseconds(500))
        bench.controllers[0].inject(Bench.credits(0x41, 1))
        var seen = try await bench.events(0, marker: 1)
        #expect(seen.count == 2, "the connection and the credit before the window")
        bench.clock.advance(to: .milliseconds(1200))
        for count: UInt16 in [1, 2, 3] { bench.controllers[0].inject(Bench.credits(0x41, count)) }
        #expect(try await bench.events(0, marker: 9).isEmpty, "held in the window")
        bench.clock.advance(to: .milliseconds(2999))
        #expect(try await bench.events(0, marker: 2).isEmpty, "stalled until 3 s")
        bench.clock.advance(to: .seconds(3))
        bench.controllers[0].inject(Bench.credits(0x41, 1))
        seen += try await bench.events(0, marker: 3)
        let credits = seen.compactMap { event -> UInt16? in
            guard case let .numberOfCompletedPackets(completed) = event else { return nil }
            return completed.handles.reduce(0) { $0 + $1.numCompletedPackets }
        }
        #expect(credits == [1, 6, 1], "released as one event of 6, then flowing again")
        #expect(credits.reduce(0, +) == 8, "every credit the controller returned, once")
        let log = bench.world.faultLog
        #expect(log.map(\.kind) == [.bufferSize, .withholdCredits, .releaseCredits])
        #expect(log.map(\.time) == [0, 1, 3])
        #expect(log[2].detail.contains("released 6"))
        // The stream of entries replays those so far, then ends at shutdown.
        let entries = bench.world.faultLogEntries()
        bench.world.shutdown()
        var streamed: [RadioFaultLogEntry] = []
        for await entry in entries { streamed.append(entry) }
        #expect(streamed == log)
    }

    @Test("a scripted disconnect reaches the host with its reason; delayed events arrive late")
    func scriptedDisconnect() async throws {
        var bench = Bench(try RadioScenario.load(path: "\(RadioScenarioTests.folder)/disconnect-mid-transfer.yaml"))
        let central = 1
        bench.controllers[central].inject(Bench.connected(handle: 0x40, role: .central, peer: Self.a0))
        #expect(try await bench.events(central, marker: 1).count == 1)
        bench.clock.advance(to: .milliseconds(1600))
        bench.controllers[central].inject(Bench.credits(0x40, 1))
        #expect(try await bench.events(central, marker: 2).isEmpty, "delayed by 20 ms")
        bench.clock.advance(to: .milliseconds(1620))
        #expect(try await bench.events(central, marker: 3) == [Bench.credits(0x40, 1)])
        bench.clock.advance(to: .seconds(2))
        #expect(try await bench.events(central, marker: 4)
                == [.disconnectionComplete(.init(status: .success, connectionHandle: 0x40, reason: .connectionTimeout))])
        #expect(bench.controllers[central].sent == [HCIDisconnect(connectionHandle: 0x40, reason: .remoteUserTerminated).packet])
        // Data the controller still delivers on the ended link is not the host's any more.
        bench.controllers[central].inject(HCIACLPacket(handle: 0x40, packetBoundary: .firstFlushable, data: [1, 0, 4, 0, 0x1B, 3, 0]).packet)
        #expect(try await bench.events(central, marker: 5).isEmpty, "data after Disconnection Complete")
        let log = bench.world.faultLog
        #expect(log.map(\.kind) == [.delay, .disconnect])
        #expect(log.map(\.time) == [1.6, 2])
    }

    @Test("dropped events, a hardware error and a disconnect with a reason Disconnect accepts; the log is Codable")
    func dropAndHardwareError() async throws {
        let yaml = """
            nodes: [{name: a}, {name: b}]
            rssi: {fixed: -45}
            faults:
              - node: a
                drop: {event: LE Advertising Report, count: 2}
              - node: a
                hardware-error: {at: 1s, code: 0x2A}
              - node: a
                disconnect: {at: 2s, reason: 0x15}
            """
        var bench = Bench(try RadioScenario.load(yaml: yaml))
        try bench.hosts[1].send(HCILESetAdvertisingEnable(advertisingEnable: true))
        try bench.hosts[0].send(HCILESetScanEnable(scanEnable: true))
        for _ in 0..<3 { bench.controllers[0].inject(Bench.report(from: Self.a1, rssi: 127)) }
        #expect(try await bench.events(0, marker: 1).map(\.reportedRSSI) == [[-45]], "two of three dropped")
        try bench.hosts[0].send(HCILESetScanEnable(scanEnable: false))
        bench.controllers[0].inject(.commandComplete(.init(numHCICommandPackets: 1, command: HCILESetScanEnable.self,
                                                           returnParameters: .init(status: .success))))
        bench.controllers[0].inject(Bench.connected(handle: 0x40, role: .central, peer: Self.a1))
        #expect(try await bench.events(0, marker: 3).count == 2, "Command Complete of the scan disable, the connection")
        bench.clock.advance(to: .seconds(2))
        let events = try await bench.events(0, marker: 2)
        #expect(events == [.hardwareError(.init(hardwareCode: 0x2A)),
                                       .disconnectionComplete(.init(status: .success, connectionHandle: 0x40, reason: .remotePowerOff))])
        #expect(bench.controllers[0].sent.last == HCIDisconnect(connectionHandle: 0x40, reason: .remotePowerOff).packet)
        let log = bench.world.faultLog
        #expect(log.map(\.kind) == [.drop, .drop, .hardwareError, .disconnect])
        #expect(log.map(\.time) == [0, 0, 1, 2])
        let decoded = try JSONDecoder().decode([RadioFaultLogEntry].self, from: JSONEncoder().encode(log))
        #expect(decoded == log)
    }

    @Test("since: connection counts a fault's times from the node's first connection, however late it comes")
    func sinceConnection() async throws {
        let yaml = """
            nodes: [{name: a}, {name: b}]
            rssi: {fixed: -45}
            faults:
              - node: a
                withhold-credits: {from: 1s, for: 1s, since: connection}
              - node: a
                disconnect: {at: 3s, reason: 0x13, since: connection}
            """
        var bench = Bench(try RadioScenario.load(yaml: yaml))
        bench.clock.advance(to: .seconds(5))
        #expect(bench.world.faultLog.isEmpty, "nothing acts before the node connects")
        bench.controllers[0].inject(Bench.connected(handle: 0x40, role: .central, peer: Self.a1))
        #expect(try await bench.events(0, marker: 1).count == 1)
        bench.clock.advance(to: .milliseconds(6500))
        bench.controllers[0].inject(Bench.credits(0x40, 2))
        #expect(try await bench.events(0, marker: 2).isEmpty, "withheld from 1 s after the connection")
        bench.clock.advance(to: .seconds(7))
        #expect(try await bench.events(0, marker: 3) == [Bench.credits(0x40, 2)])
        bench.clock.advance(to: .milliseconds(7999))
        #expect(try await bench.events(0, marker: 4).isEmpty)
        bench.clock.advance(to: .seconds(8))
        #expect(try await bench.events(0, marker: 5)
                == [.disconnectionComplete(.init(status: .success, connectionHandle: 0x40, reason: .remoteUserTerminated))])
        let log = bench.world.faultLog
        #expect(log.map(\.kind) == [.withholdCredits, .releaseCredits, .disconnect])
        #expect(log.map(\.time) == [6, 7, 8])
    }

    @Test("since takes start or connection, nothing else, naming the line")
    func sinceRefused() {
        let yaml = "nodes:\n  - name: a\nfaults:\n  - node: a\n    disconnect: {at: 1s, since: boot}\n"
        #expect {
            try RadioScenario.load(yaml: yaml)
        } throws: { error in
            "\(error)".contains("neither start nor connection") && "\(error)".contains(":5:")
        }
    }
}
