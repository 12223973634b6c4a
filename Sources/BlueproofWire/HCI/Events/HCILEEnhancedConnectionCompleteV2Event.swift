/// LE Enhanced Connection Complete [v2] (Core Vol 4, Part E §7.7.65.10): the [v1] fields plus
/// the advertising set and periodic advertising train the connection came from. Sent instead
/// of [v1] when the host unmasks it.
public struct HCILEEnhancedConnectionCompleteV2Event: HCILEMetaSubevent {
    public static let subeventCode: UInt8 = 0x29
    public static let name = "LE Enhanced Connection Complete [v2]"

    /// Advertising_Handle meaning "not created from an advertising set", and Sync_Handle
    /// meaning "not from a periodic advertising train".
    public static let noAdvertisingHandle: UInt8 = 0xFF
    public static let noSyncHandle: UInt16 = 0xFFFF

    /// The fields [v1] has, in the same order.
    public var base: HCILEEnhancedConnectionCompleteEvent
    /// The advertising set the peripheral connection came from, or ``noAdvertisingHandle``.
    public var advertisingHandle: UInt8
    /// The periodic advertising train (PAwR) the connection came from, or ``noSyncHandle``.
    public var syncHandle: UInt16

    public init(_ base: HCILEEnhancedConnectionCompleteEvent,
                advertisingHandle: UInt8 = Self.noAdvertisingHandle, syncHandle: UInt16 = Self.noSyncHandle) {
        self.base = base
        self.advertisingHandle = advertisingHandle
        self.syncHandle = syncHandle
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        base = try HCILEEnhancedConnectionCompleteEvent(parameters: &reader)
        advertisingHandle = try reader.u8("advertising handle")
        syncHandle = try reader.u16("sync handle")
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        base.encodeParameters(into: &writer)
        writer.u8(advertisingHandle)
        writer.u16(syncHandle)
    }
}
