// Controller & Baseband commands (OGF 0x03), Core Vol 4, Part E §7.3.

extension HCIOpcode {
    /// Set Event Mask, 0x03|0x0001.
    public static let setEventMask = HCIOpcode(ogf: 0x03, ocf: 0x0001)
    /// Reset, 0x03|0x0003.
    public static let reset = HCIOpcode(ogf: 0x03, ocf: 0x0003)
}

/// Which events the controller may send to the host (Core Vol 4, Part E §7.3.1). An open set
/// of 64 bits; the members below are the ones an LE host cares about.
public struct HCIEventMask: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static let disconnectionComplete = HCIEventMask(rawValue: 1 << 4)
    public static let encryptionChange = HCIEventMask(rawValue: 1 << 7)
    public static let readRemoteVersionInformationComplete = HCIEventMask(rawValue: 1 << 11)
    public static let hardwareError = HCIEventMask(rawValue: 1 << 15)
    public static let dataBufferOverflow = HCIEventMask(rawValue: 1 << 25)
    public static let encryptionKeyRefreshComplete = HCIEventMask(rawValue: 1 << 47)
    public static let leMeta = HCIEventMask(rawValue: 1 << 61)

    /// The value after Reset: bits 0 to 44 set.
    public static let `default` = HCIEventMask(rawValue: 0x0000_1FFF_FFFF_FFFF)

    public var description: String { "0x\(hex(rawValue))" }
}

/// Reset: returns the controller to its initial state (Core Vol 4, Part E §7.3.2).
/// No parameters; Command Complete carries a status.
public struct HCIReset: HCIParameterlessCommand {
    public static let opcode = HCIOpcode.reset
    public static let name = "Reset"

    public init() {}
}

/// Set Event Mask: chooses the events the controller sends (Core Vol 4, Part E §7.3.1).
public struct HCISetEventMask: HCICommand, HCIFieldListing {
    public static let opcode = HCIOpcode.setEventMask
    public static let name = "Set Event Mask"

    public var eventMask: HCIEventMask

    public init(eventMask: HCIEventMask) { self.eventMask = eventMask }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        eventMask = HCIEventMask(rawValue: try reader.u64("event_mask"))
        try reader.requireEnd()
    }

    public func encodeParameters(into writer: inout ByteWriter) { writer.u64(eventMask.rawValue) }

    public var fieldList: [HCIPacketDescription.Field] { [.describing("event_mask", eventMask)] }
}
