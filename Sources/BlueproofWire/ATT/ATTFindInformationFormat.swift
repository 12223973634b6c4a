/// The format of a Find Information Response's information data (Core Vol 3, Part F
/// §3.4.3.2, Table 3.8): which size of UUID every handle-UUID pair carries.
public enum ATTFindInformationFormat: UInt8, Hashable, Sendable {
    /// Handles with 16-bit Bluetooth UUIDs.
    case uuid16 = 0x01
    /// Handles with 128-bit UUIDs.
    case uuid128 = 0x02

    /// Octets of UUID per pair.
    public var uuidLength: Int { self == .uuid16 ? 2 : 16 }
}
