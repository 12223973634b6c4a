@testable import BlueproofRadio
import BlueproofTestSupport
import BlueproofWire

/// Two (or more) nodes on fake controllers behind one radio world on a manual clock.
struct ProxyBench {
    static let addresses = (0..<4).map { BDAddress(littleEndian: [UInt8(0xA0 + $0), 0, 0, 0, 0xAA, 0x00]) }
    static let stranger = BDAddress(littleEndian: [0x99, 0x99, 0, 0, 0xBB, 0x00])

    let clock = ManualClock()
    let world: RadioWorld
    let controllers: [FakeController]
    var hosts: [HostEnd]

    /// `reemitBacklog`: as the world's; by default none, so a jump of the clock gets every repetition.
    init(_ scenario: RadioScenario, nodes: Int = 2, reemitBacklog: Duration? = nil) {
        world = RadioWorld(scenario: scenario, clock: clock, reemitBacklog: reemitBacklog)
        controllers = (0..<nodes).map { _ in FakeController() }
        hosts = controllers.enumerated().map { [world] index, controller in
            HostEnd(world.attach(node: index, to: controller, address: Self.addresses[index]))
        }
    }

    /// The next events of node `node`'s host before a marker passed through its controller.
    mutating func events(_ node: Int, marker: UInt8 = 0) async throws -> [HCIEvent] {
        controllers[node].injectMarker(marker)
        let events = try await hosts[node].until(marker: marker)
        // What the proxy sent the controllers meanwhile has reached them (their writers are threads).
        guard await world.drained() else { throw DrainTimeout() }
        return events
    }

    static func report(from address: BDAddress, rssi: Int8) -> HCIEvent {
        .le(.advertisingReport(.init(reports: [.init(eventType: .advInd, addressType: .publicDevice, address: address,
                                                    data: [0x02, 0x01, 0x06], rawRSSI: rssi)])))
    }

    static func extendedReport(from address: BDAddress, rssi: Int8) -> HCIEvent {
        .le(.extendedAdvertisingReport(.init(reports: [.init(eventType: .legacyAdvInd, addressType: .publicDevice,
                                                             address: address, rawRSSI: rssi, data: [0x02, 0x01, 0x06])])))
    }

    static func connected(handle: UInt16, role: HCIConnectionRole, peer: BDAddress) -> HCIEvent {
        .le(.connectionComplete(.init(status: .success, connectionHandle: handle, role: role, peerAddressType: .publicDevice,
                                      peerAddress: peer, connectionInterval: .init(rawValue: 24), peripheralLatency: 0,
                                      supervisionTimeout: .init(rawValue: 500), centralClockAccuracy: .ppm500)))
    }

    static func createConnection(to peer: BDAddress) -> HCILECreateConnection {
        HCILECreateConnection(scanInterval: .init(rawValue: 16), scanWindow: .init(rawValue: 16), peerAddressType: .publicDevice,
                              peerAddress: peer, connectionIntervalMin: .init(rawValue: 24),
                              connectionIntervalMax: .init(rawValue: 24), supervisionTimeout: .init(rawValue: 500))
    }

    static func credits(_ handle: UInt16, _ count: UInt16) -> HCIEvent {
        .numberOfCompletedPackets(.init(handles: [.init(connectionHandle: handle, numCompletedPackets: count)]))
    }
}

struct DrainTimeout: Error, CustomStringConvertible {
    var description: String { "timed out waiting for the proxy's writes to the controllers" }
}

extension HCIEvent {
    /// The RSSI of every advertising report in the event.
    var reportedRSSI: [Int8] {
        switch self {
        case let .le(.advertisingReport(event)): event.reports.map(\.rawRSSI)
        case let .le(.extendedAdvertisingReport(event)): event.reports.map(\.rawRSSI)
        default: []
        }
    }

    var isReport: Bool { !reportedRSSI.isEmpty }
}

extension Array where Element == RadioFaultLogEntry {
    func times(of kind: RadioFaultLogEntry.Kind) -> [Double] { filter { $0.kind == kind }.map(\.time) }
}
