import BlueproofWire

/// Which HCI commands the host uses for advertising, scanning and initiating. A controller
/// must not see both (Vol 4, Part E §3.1.1: after an extended advertising command, legacy
/// advertising, scanning and initiating commands are refused, and the other way round).
public enum LECommandSet: String, Hashable, Sendable, CustomStringConvertible {
    /// LE Set Advertising Parameters, LE Set Scan Parameters, LE Create Connection (§7.8.5–§7.8.12).
    case legacy
    /// LE Set Extended Advertising Parameters, LE Set Extended Scan Parameters, LE Extended
    /// Create Connection (§7.8.53–§7.8.66), still sending legacy PDUs so every scanner sees them.
    case extended

    /// Extended when the supported-commands mask has all of them, legacy otherwise (btvirt's
    /// LE controller answers Unknown Command to the extended ones and its mask says so).
    public static func best(for mask: HCISupportedCommands) -> LECommandSet {
        mask.supportsExtendedAdvertising && mask.supportsExtendedScanning
            && mask.supports(.leExtendedCreateConnection) == true ? .extended : .legacy
    }

    public var description: String { rawValue }
}
