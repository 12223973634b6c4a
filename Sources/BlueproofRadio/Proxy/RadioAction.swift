import BlueproofWire

/// What the sans-I/O core (``RadioSwitchboard``) asks its driver (``RadioWorld``) to do.
enum RadioAction: Hashable, Sendable {
    /// Hand a packet to the node's host, as if its controller had sent it.
    case toHost(node: Int, H4Packet)
    /// Send a packet to the node's real controller.
    case toController(node: Int, H4Packet)
    /// Call ``RadioSwitchboard/fired(_:now:)`` with this timer at this run time.
    case schedule(RadioTimer, at: Duration)
    /// The timer is no longer wanted.
    case cancel(RadioTimer)
}

/// The core's timers.
enum RadioTimer: Hashable, Sendable {
    /// The next time a pair's range changes.
    case rangeCheck
    /// A scripted fault at its time (disconnect, hardware error), or a window's start or end.
    case fault(index: Int, edge: Edge)
    /// Repeat the cached advertising reports to a scanning node; `scan` tells scans apart.
    case reemit(node: Int, scan: Int)
    /// Deliver a delayed event.
    case delayed(id: Int)

    enum Edge: Hashable, Sendable { case start, end }
}

/// One advertiser's report as a scanner last received it, to repeat.
struct RadioReportKey: Hashable, Sendable, Comparable {
    var address: BDAddress
    var extended: Bool
    var eventType: UInt16

    static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.address.description, lhs.extended ? 1 : 0, lhs.eventType)
            < (rhs.address.description, rhs.extended ? 1 : 0, rhs.eventType)
    }
}

enum RadioCachedReport: Hashable, Sendable {
    case legacy(HCILEAdvertisingReportEvent.Report)
    case extended(HCILEExtendedAdvertisingReportEvent.Report)

    var address: BDAddress {
        switch self {
        case let .legacy(report): report.address
        case let .extended(report): report.address
        }
    }

    var key: RadioReportKey {
        switch self {
        case let .legacy(report): RadioReportKey(address: report.address, extended: false, eventType: UInt16(report.eventType.rawValue))
        case let .extended(report): RadioReportKey(address: report.address, extended: true, eventType: report.eventType.rawValue)
        }
    }

    /// The report with `rssi`, as a whole event of one report.
    func event(rssi: Int8) -> HCIEvent {
        switch self {
        case var .legacy(report):
            report.rawRSSI = rssi
            return .le(.advertisingReport(HCILEAdvertisingReportEvent(reports: [report])))
        case var .extended(report):
            report.rawRSSI = rssi
            return .le(.extendedAdvertisingReport(HCILEExtendedAdvertisingReportEvent(reports: [report])))
        }
    }
}

extension HCIEvent {
    var h4: H4Packet { packet.packet }
}
