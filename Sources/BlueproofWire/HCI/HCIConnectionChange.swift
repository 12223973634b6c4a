/// A connection handle coming into use or going out of it, as the controller reports it:
/// a successful LE Connection Complete in any of its forms (Core Vol 4, Part E §7.7.65.1,
/// §7.7.65.10, §7.7.65.29), or a successful Disconnection Complete (§7.7.5). What the
/// transport's ledger and the host's ACL scheduler watch for on the reader thread.
public enum HCIConnectionChange: Hashable, Sendable {
    case opened(handle: UInt16)
    case ended(handle: UInt16)

    /// The change `event` reports; nil for any other event, or one that failed.
    public init?(_ event: HCIEvent) {
        switch event {
        case let .disconnectionComplete(complete) where complete.status == .success:
            self = .ended(handle: complete.connectionHandle & 0x0FFF)
        case let .le(.connectionComplete(complete)) where complete.status == .success:
            self = .opened(handle: complete.connectionHandle & 0x0FFF)
        case let .le(.enhancedConnectionComplete(complete)) where complete.status == .success:
            self = .opened(handle: complete.connectionHandle & 0x0FFF)
        case let .le(.enhancedConnectionCompleteV2(complete)) where complete.base.status == .success:
            self = .opened(handle: complete.base.connectionHandle & 0x0FFF)
        default:
            return nil
        }
    }

    /// The change an H4 event packet's payload reports. Decodes only events whose code (and LE
    /// subevent) can report one, so any other packet costs a byte comparison or two.
    public init?(eventPayload payload: [UInt8]) {
        guard let code = payload.first else { return nil }
        switch code {
        case HCIDisconnectionCompleteEvent.code:
            break
        case HCILEMetaEvent.code:
            guard payload.count > 2, [HCILEConnectionCompleteEvent.subeventCode, HCILEEnhancedConnectionCompleteEvent.subeventCode,
                                      HCILEEnhancedConnectionCompleteV2Event.subeventCode].contains(payload[2]) else { return nil }
        default:
            return nil
        }
        guard let event = try? HCIEvent(HCIEventPacket(payload: payload)) else { return nil }
        self.init(event)
    }
}
