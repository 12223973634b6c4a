/// A 48-bit device address (Core Vol 2, Part B §1.2). Stored as on the wire, least
/// significant octet first; printed most significant first, as `00:AA:01:00:00:23`.
public struct BDAddress: Hashable, Sendable, CustomStringConvertible {
    /// Little-endian octets, exactly 6.
    public let littleEndianBytes: [UInt8]

    public init(littleEndian bytes: [UInt8]) {
        precondition(bytes.count == 6, "a BD_ADDR has 6 octets")
        littleEndianBytes = bytes
    }

    /// Parses `AA:BB:CC:DD:EE:FF` (most significant first); nil when malformed.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6, parts.allSatisfy({ $0.count == 2 }),
              let octets = bytes(fromHex: parts.joined()) else { return nil }
        littleEndianBytes = octets.reversed()
    }

    public static let zero = BDAddress(littleEndian: [0, 0, 0, 0, 0, 0])

    public var description: String {
        littleEndianBytes.reversed().map { hex($0).uppercased() }.joined(separator: ":")
    }

    static func read(_ reader: inout ByteReader, _ field: String) throws(WireError) -> BDAddress {
        BDAddress(littleEndian: try reader.bytes(6, field))
    }

    func write(_ writer: inout ByteWriter) { writer.append(littleEndianBytes) }
}

/// The kind of an LE address in HCI parameters (Core Vol 4, Part E §7.8.12). An open set.
public struct LEAddressType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let publicDevice = LEAddressType(rawValue: 0x00)
    public static let randomDevice = LEAddressType(rawValue: 0x01)
    public static let publicIdentity = LEAddressType(rawValue: 0x02)
    public static let randomIdentity = LEAddressType(rawValue: 0x03)

    public var description: String {
        switch self {
        case .publicDevice: "public"
        case .randomDevice: "random"
        case .publicIdentity: "public-identity"
        case .randomIdentity: "random-identity"
        default: "0x\(hex(rawValue))"
        }
    }
}
