import BlueproofTransmitter
import BlueproofWire

/// The numbers every BLE transmitter node uses: the service and characteristic it serves,
/// the company identifier its announcement goes under, its address and its timings.
/// Layout and choices: docs/transmitter-links.md, "BLE".
public struct BLELinkProfile: Hashable, Sendable {
    /// The transmitter service, advertised (complete list of 128-bit UUIDs) and served.
    public var service: BluetoothUUID
    /// Its one characteristic: written by the central, notified by the peripheral.
    public var characteristic: BluetoothUUID
    /// The ATT_MTU the central asks for; 23 skips the exchange.
    public var mtu: Int
    /// A peer not seen for this long (and not connected) is gone; nil keeps peers until a
    /// connection ends (bare btvirt repeats no advertising reports, docs/radio-proxy.md).
    public var staleAfter: Duration?
    /// How long one `connect` may take, either side.
    public var connectTimeout: Duration
    /// How long one LE Create Connection may go unanswered before the central cancels it and
    /// issues it again (within `connectTimeout`); shorter than `initiatorGrace`, so a lost
    /// connection request is retried before the peer opens the connection itself
    /// (docs/transmitter-links.md, "Connections").
    public var connectAttempt: Duration
    /// How long the higher id waits for the lower one to open the connection before it opens
    /// it itself (the lower one may never be asked to connect, as in on-demand mode).
    public var initiatorGrace: Duration
    /// The largest frame sent or accepted.
    public var frameLimit: Int
    /// The platform announced in the scan response (``BLEAnnouncement``); nil announces none.
    public var platform: DevicePlatform?
    /// How often the node moves to a new random address (it takes one at every start too); nil
    /// keeps the controller's public address, which follows the device for good (the broken
    /// variant `stableAdvertisingAddress`). The documents are silent; 10 minutes is within the
    /// Core's recommended 15 (Vol 3, Part C, Appendix A, TGAP(private_addr_int)).
    public var addressRotation: Duration?
    /// Puts the user id in the scan response, as the first version did (the broken variant
    /// `stableAdvertisedUserId`); peers are still named by hellos.
    public var announcesUser: Bool
    /// Puts the controller's public address in the scan response, as a device identifier that
    /// outlives every user and address of the device (the broken variant `stableDeviceIdentifier`).
    public var announcesDevice = false
    /// How long a connection that named both ends stays when neither application asked for it
    /// (on-demand mode learns its nearby users this way).
    public var probeHold: Duration
    /// How long a naming connection may take to be made before it is given up and tried again
    /// later (shorter than `connectTimeout`: the host initiates one connection at a time, and
    /// an application's `connect` may be waiting behind it).
    public var namingTimeout: Duration

    public init(service: BluetoothUUID = BLELinkProfile.transmitterService,
                characteristic: BluetoothUUID = BLELinkProfile.frameCharacteristic,
                mtu: Int = 517, staleAfter: Duration? = .seconds(5), connectTimeout: Duration = .seconds(10),
                connectAttempt: Duration = .seconds(1), initiatorGrace: Duration = .seconds(2),
                frameLimit: Int = BLEFrameChunk.defaultFrameLimit, platform: DevicePlatform? = nil,
                addressRotation: Duration? = .seconds(600), announcesUser: Bool = false, probeHold: Duration = .seconds(3),
                namingTimeout: Duration = .seconds(4)) {
        self.namingTimeout = namingTimeout
        self.platform = platform
        self.addressRotation = addressRotation
        self.announcesUser = announcesUser
        self.probeHold = probeHold
        self.service = service
        self.characteristic = characteristic
        self.mtu = mtu
        self.staleAfter = staleAfter
        self.connectTimeout = connectTimeout
        self.connectAttempt = connectAttempt
        self.initiatorGrace = initiatorGrace
        self.frameLimit = frameLimit
    }

    /// Blueproof's transmitter service (a random 128-bit UUID chosen for this project).
    public static let transmitterService = BluetoothUUID("5B1E7A00-0B1E-4F5A-9C3D-7E2A61B0F001")!
    /// The frame characteristic of that service.
    public static let frameCharacteristic = BluetoothUUID("5B1E7A01-0B1E-4F5A-9C3D-7E2A61B0F001")!
    /// "Reserved for internal use / testing" in the SIG's company identifier list: the
    /// announcement travels as manufacturer specific data under it.
    public static let testCompany: UInt16 = 0xFFFF
}
