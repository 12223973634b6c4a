/// The data field of one signaling command with a fixed layout (Core Vol 3, Part A §4.x).
protocol L2CAPSignalBody: Hashable, Sendable {
    static var code: L2CAPSignalCode { get }
    /// Decodes the whole data field; octets left over throw.
    init(data reader: inout ByteReader) throws(WireError)
    func encode(into writer: inout ByteWriter)
}

extension L2CAPSignalBody {
    static func decode(_ reader: inout ByteReader) throws(WireError) -> Self {
        let value = try Self(data: &reader)
        try reader.requireEnd()
        return value
    }
}
