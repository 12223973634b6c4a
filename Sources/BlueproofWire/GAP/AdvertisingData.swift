/// Advertising or scan response data (Core Vol 3, Part C §11; Core Supplement, Part A §1): an
/// ordered list of AD structures, each Length, AD Type, AD Data.
///
/// Decoding stops at a Length octet of zero: what follows is the non-significant part, padding
/// up to the PDU's data length. Structures of types this module does not know are kept as they
/// are, in order, so a decode then encode gives back the significant part unchanged.
public struct AdvertisingData: Hashable, Sendable, CustomStringConvertible {
    public var structures: [AdvertisingDataStructure]

    /// Legacy advertising data and scan response data hold at most 31 octets
    /// (Core Vol 4, Part E §7.8.7 and §7.8.8).
    public static let legacyMaximumLength = 31

    public init(_ structures: [AdvertisingDataStructure] = []) {
        self.structures = structures
    }

    /// Decodes the AD structures of `bytes`; a Length octet that runs past the end throws
    /// ``WireError/Reason/lengthMismatch(declared:actual:)`` at that octet's offset.
    public init(bytes: [UInt8]) throws(WireError) {
        var reader = ByteReader(bytes, context: "Advertising data")
        var structures: [AdvertisingDataStructure] = []
        while !reader.isAtEnd {
            let lengthOffset = reader.offset
            let length = Int(try reader.u8("length"))
            if length == 0 { break }
            guard length <= reader.remaining else {
                throw WireError(offset: lengthOffset, context: "Advertising data: AD structure length",
                                reason: .lengthMismatch(declared: length, actual: reader.remaining))
            }
            let type = AdvertisingDataType(rawValue: try reader.u8("AD type"))
            let data = try reader.bytes(length - 1, "AD data")
            structures.append(AdvertisingDataStructure(type: type, data: data))
        }
        self.structures = structures
    }

    public mutating func append(_ structure: AdvertisingDataStructure) {
        structures.append(structure)
    }

    public mutating func append(contentsOf more: [AdvertisingDataStructure]) {
        structures.append(contentsOf: more)
    }

    /// Octets the structures take on the wire.
    public var encodedCount: Int { structures.reduce(0) { $0 + $1.encodedCount } }

    /// The wire form, with no padding. Throws when a structure's data is longer than its
    /// Length octet can count (``AdvertisingDataStructure/maximumDataLength``).
    public func encoded() throws(WireError) -> [UInt8] {
        var writer = ByteWriter(capacity: encodedCount)
        for (index, structure) in structures.enumerated() {
            guard structure.data.count <= AdvertisingDataStructure.maximumDataLength else {
                throw WireError(offset: offset(ofStructure: index), context: "Advertising data: AD structure length",
                                reason: .invalidValue("\(structure.data.count) octets of AD data, at most \(AdvertisingDataStructure.maximumDataLength) fit"))
            }
            writer.u8(UInt8(structure.data.count + 1))
            writer.u8(structure.type.rawValue)
            writer.append(structure.data)
        }
        return writer.bytes
    }

    /// The wire form for LE Set Advertising Data or LE Set Scan Response Data
    /// (Core Vol 4, Part E §7.8.7, §7.8.8): refuses more than 31 octets. Controllers must not
    /// be trusted with more; btvirt accepts them and then never reports the advertiser.
    public func encodedLegacy() throws(WireError) -> [UInt8] {
        let bytes = try encoded()
        guard bytes.count <= Self.legacyMaximumLength else {
            throw WireError(offset: Self.legacyMaximumLength, context: "Advertising data",
                            reason: .invalidValue("\(bytes.count) octets, legacy advertising holds at most \(Self.legacyMaximumLength)"))
        }
        return bytes
    }

    /// Where structure `index` starts in the encoded form, for error offsets.
    public func offset(ofStructure index: Int) -> Int {
        structures.prefix(index).reduce(0) { $0 + $1.encodedCount }
    }

    public var description: String {
        "[" + structures.map(\.description).joined(separator: ", ") + "]"
    }
}
