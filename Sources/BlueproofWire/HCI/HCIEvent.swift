/// An HCI event decoded by its event code (Core Vol 4, Part E §7.7). Codes this project does
/// not know stay as ``unknown(code:parameters:)`` and never fail to decode.
public enum HCIEvent: Hashable, Sendable {
    /// A BR/EDR connection, code 0x03.
    case connectionComplete(HCIConnectionCompleteEvent)
    case disconnectionComplete(HCIDisconnectionCompleteEvent)
    case commandComplete(HCICommandCompleteEvent)
    case commandStatus(HCICommandStatusEvent)
    case hardwareError(HCIHardwareErrorEvent)
    case numberOfCompletedPackets(HCINumberOfCompletedPacketsEvent)
    case dataBufferOverflow(HCIDataBufferOverflowEvent)
    /// An LE Meta event (code 0x3E) and its sub-event.
    case le(HCILEMetaEvent)
    case unknown(code: UInt8, parameters: [UInt8])

    /// Decodes an event packet. A known event whose parameters are short, or longer than its
    /// fields (except Command Complete's return parameters), throws; offsets in the error count
    /// from the start of the event packet (event code at 0, first parameter at 2).
    public init(_ packet: HCIEventPacket) throws(WireError) {
        switch packet.code {
        case HCIConnectionCompleteEvent.code: self = .connectionComplete(try .init(packet))
        case HCIDisconnectionCompleteEvent.code: self = .disconnectionComplete(try .init(packet))
        case HCICommandCompleteEvent.code: self = .commandComplete(try .init(packet))
        case HCICommandStatusEvent.code: self = .commandStatus(try .init(packet))
        case HCIHardwareErrorEvent.code: self = .hardwareError(try .init(packet))
        case HCINumberOfCompletedPacketsEvent.code: self = .numberOfCompletedPackets(try .init(packet))
        case HCIDataBufferOverflowEvent.code: self = .dataBufferOverflow(try .init(packet))
        case HCILEMetaEvent.code: self = .le(try HCILEMetaEvent(packet))
        default: self = .unknown(code: packet.code, parameters: packet.parameters)
        }
    }

    /// Decodes the payload of an H4 event packet (after the indicator).
    public init(payload: [UInt8]) throws(WireError) {
        self = try HCIEvent(HCIEventPacket(payload: payload))
    }

    /// The event as a packet, for fake controllers and tests.
    public var packet: HCIEventPacket {
        switch self {
        case let .connectionComplete(event): event.packet
        case let .disconnectionComplete(event): event.packet
        case let .commandComplete(event): event.packet
        case let .commandStatus(event): event.packet
        case let .hardwareError(event): event.packet
        case let .numberOfCompletedPackets(event): event.packet
        case let .dataBufferOverflow(event): event.packet
        case let .le(event): event.packet
        case let .unknown(code, parameters): HCIEventPacket(code: code, parameters: parameters)
        }
    }

    /// The event code.
    public var code: UInt8 {
        switch self {
        case .connectionComplete: HCIConnectionCompleteEvent.code
        case .disconnectionComplete: HCIDisconnectionCompleteEvent.code
        case .commandComplete: HCICommandCompleteEvent.code
        case .commandStatus: HCICommandStatusEvent.code
        case .hardwareError: HCIHardwareErrorEvent.code
        case .numberOfCompletedPackets: HCINumberOfCompletedPacketsEvent.code
        case .dataBufferOverflow: HCIDataBufferOverflowEvent.code
        case .le: HCILEMetaEvent.code
        case let .unknown(code, _): code
        }
    }

    /// The event's name as btmon prints it; `"Unknown Event (0xNN)"` for an unknown code.
    /// An LE Meta event goes by its sub-event's name.
    public var name: String {
        if case let .le(event) = self { return event.name }
        return HCIEvent.name(ofCode: code)
    }

    /// The name of an event code, whether or not this project decodes it: events without a
    /// typed codec are named from their layout.
    public static func name(ofCode code: UInt8) -> String {
        switch code {
        case HCIConnectionCompleteEvent.code: HCIConnectionCompleteEvent.name
        case HCIDisconnectionCompleteEvent.code: HCIDisconnectionCompleteEvent.name
        case HCICommandCompleteEvent.code: HCICommandCompleteEvent.name
        case HCICommandStatusEvent.code: HCICommandStatusEvent.name
        case HCIHardwareErrorEvent.code: HCIHardwareErrorEvent.name
        case HCINumberOfCompletedPacketsEvent.code: HCINumberOfCompletedPacketsEvent.name
        case HCIDataBufferOverflowEvent.code: HCIDataBufferOverflowEvent.name
        case HCILEMetaEvent.code: "LE Meta Event"
        default: HCIEventLayout.events[code]?.name ?? "Unknown Event (0x\(hex(code)))"
        }
    }
}

/// An LE Meta event (Core Vol 4, Part E §7.7.65), decoded by its Subevent_Code. Sub-events this
/// project does not know stay as ``unknown(subevent:parameters:)``.
public enum HCILEMetaEvent: Hashable, Sendable {
    public static let code: UInt8 = 0x3E

    case connectionComplete(HCILEConnectionCompleteEvent)
    case advertisingReport(HCILEAdvertisingReportEvent)
    case connectionUpdateComplete(HCILEConnectionUpdateCompleteEvent)
    case readRemoteFeaturesComplete(HCILEReadRemoteFeaturesCompleteEvent)
    case dataLengthChange(HCILEDataLengthChangeEvent)
    case enhancedConnectionComplete(HCILEEnhancedConnectionCompleteEvent)
    case extendedAdvertisingReport(HCILEExtendedAdvertisingReportEvent)
    case enhancedConnectionCompleteV2(HCILEEnhancedConnectionCompleteV2Event)
    /// `parameters` are those after the subevent code.
    case unknown(subevent: UInt8, parameters: [UInt8])

    /// Decodes an LE Meta event packet; offsets in errors count from the event code.
    public init(_ packet: HCIEventPacket) throws(WireError) {
        guard packet.code == Self.code else {
            throw WireError(offset: 0, context: "HCI LE Meta Event: event code",
                            reason: .invalidValue("0x\(hex(packet.code)), expected 0x\(hex(Self.code))"))
        }
        guard let subevent = packet.parameters.first else {
            throw WireError(offset: 2, context: "HCI LE Meta Event: subevent code",
                            reason: .truncated(needed: 1, available: 0))
        }
        switch subevent {
        case HCILEConnectionCompleteEvent.subeventCode: self = .connectionComplete(try .init(packet))
        case HCILEAdvertisingReportEvent.subeventCode: self = .advertisingReport(try .init(packet))
        case HCILEConnectionUpdateCompleteEvent.subeventCode: self = .connectionUpdateComplete(try .init(packet))
        case HCILEReadRemoteFeaturesCompleteEvent.subeventCode: self = .readRemoteFeaturesComplete(try .init(packet))
        case HCILEDataLengthChangeEvent.subeventCode: self = .dataLengthChange(try .init(packet))
        case HCILEEnhancedConnectionCompleteEvent.subeventCode: self = .enhancedConnectionComplete(try .init(packet))
        case HCILEExtendedAdvertisingReportEvent.subeventCode: self = .extendedAdvertisingReport(try .init(packet))
        case HCILEEnhancedConnectionCompleteV2Event.subeventCode: self = .enhancedConnectionCompleteV2(try .init(packet))
        default: self = .unknown(subevent: subevent, parameters: Array(packet.parameters.dropFirst()))
        }
    }

    public var packet: HCIEventPacket {
        switch self {
        case let .connectionComplete(event): event.packet
        case let .advertisingReport(event): event.packet
        case let .connectionUpdateComplete(event): event.packet
        case let .readRemoteFeaturesComplete(event): event.packet
        case let .dataLengthChange(event): event.packet
        case let .enhancedConnectionComplete(event): event.packet
        case let .extendedAdvertisingReport(event): event.packet
        case let .enhancedConnectionCompleteV2(event): event.packet
        case let .unknown(subevent, parameters): HCIEventPacket(code: Self.code, parameters: [subevent] + parameters)
        }
    }

    public var subeventCode: UInt8 {
        switch self {
        case .connectionComplete: HCILEConnectionCompleteEvent.subeventCode
        case .advertisingReport: HCILEAdvertisingReportEvent.subeventCode
        case .connectionUpdateComplete: HCILEConnectionUpdateCompleteEvent.subeventCode
        case .readRemoteFeaturesComplete: HCILEReadRemoteFeaturesCompleteEvent.subeventCode
        case .dataLengthChange: HCILEDataLengthChangeEvent.subeventCode
        case .enhancedConnectionComplete: HCILEEnhancedConnectionCompleteEvent.subeventCode
        case .extendedAdvertisingReport: HCILEExtendedAdvertisingReportEvent.subeventCode
        case .enhancedConnectionCompleteV2: HCILEEnhancedConnectionCompleteV2Event.subeventCode
        case let .unknown(subevent, _): subevent
        }
    }

    /// The sub-event's name as btmon prints it, e.g. `"LE Advertising Report"`.
    public var name: String { Self.name(ofSubevent: subeventCode) }

    /// The name of a subevent code; `"Unknown LE Subevent (0xNN)"` when not known.
    public static func name(ofSubevent subevent: UInt8) -> String {
        switch subevent {
        case HCILEConnectionCompleteEvent.subeventCode: HCILEConnectionCompleteEvent.name
        case HCILEAdvertisingReportEvent.subeventCode: HCILEAdvertisingReportEvent.name
        case HCILEConnectionUpdateCompleteEvent.subeventCode: HCILEConnectionUpdateCompleteEvent.name
        case HCILEReadRemoteFeaturesCompleteEvent.subeventCode: HCILEReadRemoteFeaturesCompleteEvent.name
        case HCILEDataLengthChangeEvent.subeventCode: HCILEDataLengthChangeEvent.name
        case HCILEEnhancedConnectionCompleteEvent.subeventCode: HCILEEnhancedConnectionCompleteEvent.name
        case HCILEExtendedAdvertisingReportEvent.subeventCode: HCILEExtendedAdvertisingReportEvent.name
        case HCILEEnhancedConnectionCompleteV2Event.subeventCode: HCILEEnhancedConnectionCompleteV2Event.name
        default: HCIEventLayout.leSubevents[subevent]?.name ?? "Unknown LE Subevent (0x\(hex(subevent)))"
        }
    }
}
