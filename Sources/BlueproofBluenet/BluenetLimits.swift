/// Bounds on what the Bluenet core keeps from untrusted input (advertisements, fingerprint
/// strings, control lines). The document sets none; these are blueproof's.
public enum BluenetLimits {
    /// The longest fingerprint string taken by ``Fingerprint/init(string:)``, octets.
    public static let fingerprintTextMaximum = 1 << 20
    /// Beacons in one fingerprint.
    public static let fingerprintBeaconsMaximum = 256
    /// Samples for one beacon in one fingerprint (over an hour at one a second).
    public static let fingerprintSamplesMaximum = 4096
    /// Tracked UUIDs, and locations per group.
    public static let trackedRegionsMaximum = 64
    /// Distinct beacons kept between two ranging rounds.
    public static let rangedBeaconsMaximum = 512
    /// isReady waiters kept before the BLE manager is initialised.
    public static let readyWaitersMaximum = 64
    /// Characters in a group or location id.
    public static let identifierMaximum = 256
    /// RSSI as a controller reports it (Core Vol 4, Part E §7.7.65.2).
    public static let rssiRange = -127...20
}
