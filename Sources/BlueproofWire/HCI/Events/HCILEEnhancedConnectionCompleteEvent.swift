/// LE Enhanced Connection Complete [v1] (Core Vol 4, Part E §7.7.65.10): LE Connection Complete
/// plus the resolvable private addresses used, when address resolution is on.
public struct HCILEEnhancedConnectionCompleteEvent: HCILEMetaSubevent {
    public static let subeventCode: UInt8 = 0x0A
    public static let name = "LE Enhanced Connection Complete"

    public var status: HCIStatus
    /// Connection_Handle, 12 significant bits.
    public var connectionHandle: UInt16
    public var role: HCIConnectionRole
    public var peerAddressType: LEAddressType
    public var peerAddress: BDAddress
    /// Local_Resolvable_Private_Address; all zero when none was used.
    public var localResolvablePrivateAddress: BDAddress
    /// Peer_Resolvable_Private_Address; all zero when none was used.
    public var peerResolvablePrivateAddress: BDAddress
    public var connectionInterval: LEConnectionInterval
    /// Peripheral_Latency, in connection events.
    public var peripheralLatency: UInt16
    public var supervisionTimeout: LESupervisionTimeout
    public var centralClockAccuracy: LEClockAccuracy

    public init(
        status: HCIStatus, connectionHandle: UInt16, role: HCIConnectionRole,
        peerAddressType: LEAddressType, peerAddress: BDAddress,
        localResolvablePrivateAddress: BDAddress, peerResolvablePrivateAddress: BDAddress,
        connectionInterval: LEConnectionInterval, peripheralLatency: UInt16,
        supervisionTimeout: LESupervisionTimeout, centralClockAccuracy: LEClockAccuracy
    ) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.role = role
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.localResolvablePrivateAddress = localResolvablePrivateAddress
        self.peerResolvablePrivateAddress = peerResolvablePrivateAddress
        self.connectionInterval = connectionInterval
        self.peripheralLatency = peripheralLatency
        self.supervisionTimeout = supervisionTimeout
        self.centralClockAccuracy = centralClockAccuracy
    }

    /// `connectionComplete`'s fields with the two resolvable private addresses.
    init(_ connectionComplete: HCILEConnectionCompleteEvent,
         localResolvablePrivateAddress: BDAddress, peerResolvablePrivateAddress: BDAddress) {
        let base = connectionComplete
        self.init(status: base.status, connectionHandle: base.connectionHandle, role: base.role,
                  peerAddressType: base.peerAddressType, peerAddress: base.peerAddress,
                  localResolvablePrivateAddress: localResolvablePrivateAddress,
                  peerResolvablePrivateAddress: peerResolvablePrivateAddress,
                  connectionInterval: base.connectionInterval, peripheralLatency: base.peripheralLatency,
                  supervisionTimeout: base.supervisionTimeout, centralClockAccuracy: base.centralClockAccuracy)
    }

    /// The fields LE Connection Complete also has; the two layouts differ only by the
    /// resolvable private addresses.
    var connectionComplete: HCILEConnectionCompleteEvent {
        HCILEConnectionCompleteEvent(
            status: status, connectionHandle: connectionHandle, role: role,
            peerAddressType: peerAddressType, peerAddress: peerAddress,
            connectionInterval: connectionInterval, peripheralLatency: peripheralLatency,
            supervisionTimeout: supervisionTimeout, centralClockAccuracy: centralClockAccuracy)
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        let (base, addresses) = try HCILEConnectionCompleteEvent.decode(&reader, enhanced: true)
        self.init(base, localResolvablePrivateAddress: addresses.local, peerResolvablePrivateAddress: addresses.peer)
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        connectionComplete.encode(into: &writer, resolvablePrivateAddresses: (localResolvablePrivateAddress,
                                                                             peerResolvablePrivateAddress))
    }
}
