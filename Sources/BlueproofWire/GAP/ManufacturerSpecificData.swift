/// Manufacturer Specific Data (Core Supplement, Part A §1.4): a Company Identifier
/// (little-endian, Assigned Numbers) followed by octets the company defines.
public struct ManufacturerSpecificData: Hashable, Sendable {
    /// The Company Identifier Code.
    public var companyIdentifier: UInt16
    /// The octets after the company identifier.
    public var data: [UInt8]

    /// Apple, Inc. (Assigned Numbers, Company Identifiers).
    public static let appleCompanyIdentifier: UInt16 = 0x004C

    public init(companyIdentifier: UInt16, data: [UInt8]) {
        self.companyIdentifier = companyIdentifier
        self.data = data
    }

    /// Decodes AD Data of type Manufacturer Specific Data; `baseOffset` places errors.
    public init(adData: [UInt8], baseOffset: Int = 0) throws(WireError) {
        var reader = ByteReader(adData, context: "Manufacturer Specific Data", baseOffset: baseOffset)
        companyIdentifier = try reader.u16("company identifier")
        data = reader.rest()
    }

    /// The AD Data octets.
    public var adData: [UInt8] {
        var writer = ByteWriter(capacity: 2 + data.count)
        writer.u16(companyIdentifier)
        writer.append(data)
        return writer.bytes
    }
}
