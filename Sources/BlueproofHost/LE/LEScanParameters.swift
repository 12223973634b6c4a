import BlueproofWire

/// How to scan (Vol 4, Part E §7.8.10–§7.8.11).
public struct LEScanParameters: Sendable, Hashable {
    /// Active scanning asks advertisers for their scan response.
    public var active = true
    /// 10 ms interval and window by default: scanning all the time.
    public var interval = LEScanInterval(rawValue: 0x0010)
    public var window = LEScanInterval(rawValue: 0x0010)
    /// Let the controller drop duplicate reports.
    public var filterDuplicates = false

    public init(active: Bool = true, filterDuplicates: Bool = false) {
        self.active = active
        self.filterDuplicates = filterDuplicates
    }
}
