/// L2CAP_CONNECTION_PARAMETER_UPDATE_RSP (Core Vol 3, Part A §4.21): the central's answer.
public struct L2CAPConnectionParameterUpdateResponse: L2CAPSignalBody {
    static let code = L2CAPSignalCode.connectionParameterUpdateResponse

    public var result: L2CAPConnectionParameterUpdateResult

    public init(result: L2CAPConnectionParameterUpdateResult) { self.result = result }

    init(data reader: inout ByteReader) throws(WireError) {
        result = L2CAPConnectionParameterUpdateResult(rawValue: try reader.u16("result"))
    }

    func encode(into writer: inout ByteWriter) { writer.u16(result.rawValue) }
}
