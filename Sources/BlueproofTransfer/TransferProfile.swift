import BlueproofWire

/// The numbers and names both transfer roles follow. The defaults are the sample's
/// (docs/corebluetooth-transfer-sample.md), so a phone running Apple's sample app can be the
/// other side: its service and characteristic UUIDs, and its RSSI gate of -50 dBm.
public struct TransferProfile: Hashable, Sendable {
    /// The service the peripheral advertises and serves (the sample's `TransferService.serviceUUID`).
    public var service: BluetoothUUID
    /// Its one characteristic: notify + write without response (the sample's `setupPeripheral()`).
    public var characteristic: BluetoothUUID
    /// The RSSI gate the central applies before connecting ("Discover Bluetooth Peripherals and
    /// Connect to Them").
    public var gate: RSSIGate
    /// How long the central scans for a peripheral that passes the gate.
    public var scanTimeout: Duration
    /// How long one connection attempt may take.
    public var connectTimeout: Duration
    /// How long the peripheral waits for a central to connect and subscribe.
    public var acceptTimeout: Duration
    /// How long either side waits with nothing moving before it gives up: 30 s by default, as
    /// long as an ATT transaction may take (Core Vol 3, Part F §3.3.3).
    public var idleTimeout: Duration
    /// The ATT_MTU the central asks for in Exchange MTU; 23 skips the exchange. Chunks are the
    /// ATT_MTU in force minus 3.
    public var mtu: Int
    /// The most a receiver accepts.
    public var payloadLimit: Int
    /// The local name in the peripheral's scan response.
    public var localName: String
    /// The only peripheral the central considers, when set (a device on the air under test);
    /// nil: any advertiser of the service.
    public var peer: BDAddress?
    /// Deliberate faults for the conformance suite's broken variants; ``TransferFaults/none`` in
    /// every real transfer.
    public var faults: TransferFaults = .none

    public init(service: BluetoothUUID = TransferProfile.sampleService,
                characteristic: BluetoothUUID = TransferProfile.sampleCharacteristic,
                gate: RSSIGate = RSSIGate(minimum: -50, allowUnavailable: false),
                scanTimeout: Duration = .seconds(10), connectTimeout: Duration = .seconds(3),
                acceptTimeout: Duration = .seconds(60), idleTimeout: Duration = .seconds(30),
                mtu: Int = 517, payloadLimit: Int = TransferReassembler.defaultLimit,
                localName: String = "blueproof-transfer") {
        self.service = service
        self.characteristic = characteristic
        self.gate = gate
        self.scanTimeout = scanTimeout
        self.connectTimeout = connectTimeout
        self.acceptTimeout = acceptTimeout
        self.idleTimeout = idleTimeout
        self.mtu = mtu
        self.payloadLimit = payloadLimit
        self.localName = localName
    }

    /// The sample's transfer service UUID.
    public static let sampleService = BluetoothUUID("E20A39F4-73F5-4BC4-A12F-17D1AD07A961")!
    /// The sample's transfer characteristic UUID.
    public static let sampleCharacteristic = BluetoothUUID("08590F7E-DB05-467E-8757-72F6FAEB13D4")!
}
