import BlueproofWire

/// Why a ``GATTDatabase`` could not be built.
public enum GATTDatabaseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The definitions need more attributes than the 0xFFFF handles ATT has (Vol 3, Part F §3.2.2).
    case tooManyAttributes(Int)
    /// A descriptor definition duplicates the Client Characteristic Configuration descriptor
    /// the database adds itself.
    case configurationDescriptorDefined(characteristic: BluetoothUUID)

    public var description: String {
        switch self {
        case let .tooManyAttributes(count): "\(count) attributes do not fit in handles 0x0001-0xFFFF"
        case let .configurationDescriptorDefined(uuid):
            "characteristic \(uuid) defines a Client Characteristic Configuration descriptor; the database adds it"
        }
    }
}
