/// A Bluetooth UUID (Core Vol 3, Part B §2.5.1): 128 bits, with 16- and 32-bit aliases that
/// stand for values on the Bluetooth Base UUID `00000000-0000-1000-8000-00805F9B34FB`.
///
/// Stored most significant octet first, as it is written in text; the wire carries it
/// least significant octet first.
public struct BluetoothUUID: Hashable, Sendable, CustomStringConvertible, Comparable {
    /// The 16 octets, most significant first.
    public let bigEndianBytes: [UInt8]

    /// The Bluetooth Base UUID, most significant octet first (Core Vol 3, Part B §2.5.1).
    static let base: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00,
                                0x80, 0x00, 0x00, 0x80, 0x5F, 0x9B, 0x34, 0xFB]

    public init(bigEndian bytes: [UInt8]) {
        precondition(bytes.count == 16, "a UUID has 16 octets")
        bigEndianBytes = bytes
    }

    /// A 32-bit alias on the Base UUID.
    public init(uuid32 value: UInt32) {
        var bytes = Self.base
        for index in 0..<4 { bytes[index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
        bigEndianBytes = bytes
    }

    /// A 16-bit alias on the Base UUID.
    public init(uuid16 value: UInt16) { self.init(uuid32: UInt32(value)) }

    /// Decodes 2, 4 or 16 octets as they travel on the air, least significant first.
    public init(littleEndian bytes: [UInt8]) throws(WireError) {
        switch bytes.count {
        case 2: self.init(uuid16: UInt16(bytes[0]) | UInt16(bytes[1]) << 8)
        case 4: self.init(uuid32: bytes.reversed().reduce(0) { $0 << 8 | UInt32($1) })
        case 16: self.init(bigEndian: bytes.reversed())
        default:
            throw WireError(offset: 0, context: "UUID",
                            reason: .invalidValue("a UUID has 2, 4 or 16 octets, not \(bytes.count)"))
        }
    }

    /// Parses `180D`, `0000180D`, or the 36-character form
    /// `E20A39F4-73F5-4BC4-A12F-17D1AD07A961`; case does not matter. Nil when malformed.
    public init?(_ text: String) {
        let digits = text.filter { $0 != "-" }
        let dashes = text.enumerated().filter { $0.element == "-" }.map(\.offset)
        // bytes(fromHex:) takes hex digits only; UInt16(_:radix:) would also take a sign.
        guard let octets = bytes(fromHex: digits) else { return nil }
        switch (octets.count, dashes) {
        case (2, []), (4, []):
            self.init(uuid32: octets.reduce(0) { $0 << 8 | UInt32($1) })
        case (16, [8, 13, 18, 23]):
            self.init(bigEndian: octets)
        default:
            return nil
        }
    }

    /// True when the UUID lies on the Base UUID (so a 32-bit alias exists).
    public var isOnBase: Bool { Array(bigEndianBytes[4...]) == Array(Self.base[4...]) }

    /// The 32-bit alias, when the UUID lies on the Base UUID.
    public var uuid32: UInt32? {
        guard isOnBase else { return nil }
        return bigEndianBytes[0..<4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The 16-bit alias, when the UUID lies on the Base UUID with its top 16 bits clear.
    public var uuid16: UInt16? {
        guard let value = uuid32, value <= 0xFFFF else { return nil }
        return UInt16(value)
    }

    /// The shortest form ATT and advertising data allow for it, least significant first:
    /// 2 octets for a 16-bit alias, 16 otherwise (ATT has no 32-bit form, Vol 3, Part F §3.2.1).
    public var littleEndianBytes: [UInt8] {
        if let short = uuid16 { return [UInt8(truncatingIfNeeded: short), UInt8(short >> 8)] }
        return bigEndianBytes.reversed()
    }

    /// All 128 bits, least significant first.
    public var littleEndian128: [UInt8] { bigEndianBytes.reversed() }

    /// `180D` for a 16-bit alias, the full upper-case 36-character form otherwise.
    public var description: String {
        if let short = uuid16 { return hex(short).uppercased() }
        let text = hex(bigEndianBytes).uppercased()
        let cuts = [8, 12, 16, 20]
        var out = ""
        for (index, character) in text.enumerated() {
            if cuts.contains(index) { out.append("-") }
            out.append(character)
        }
        return out
    }

    public static func < (lhs: BluetoothUUID, rhs: BluetoothUUID) -> Bool {
        lhs.bigEndianBytes.lexicographicallyPrecedes(rhs.bigEndianBytes)
    }
}
