/// L2CAP_CONNECTION_PARAMETER_UPDATE_REQ (Core Vol 3, Part A §4.20): sent by a peripheral to
/// ask the central for new connection parameters.
public struct L2CAPConnectionParameterUpdateRequest: L2CAPSignalBody {
    static let code = L2CAPSignalCode.connectionParameterUpdateRequest

    public var intervalMin: LEConnectionInterval
    public var intervalMax: LEConnectionInterval
    /// Peripheral latency, in connection events.
    public var latency: UInt16
    /// Supervision timeout multiplier, in 10 ms units.
    public var timeout: LESupervisionTimeout

    public init(intervalMin: LEConnectionInterval, intervalMax: LEConnectionInterval,
                latency: UInt16, timeout: LESupervisionTimeout) {
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.latency = latency
        self.timeout = timeout
    }

    /// True when the values lie in the ranges of §4.20 (intervals 6...3200 with min ≤ max,
    /// latency 0...499, timeout 10...3200) and the timeout outlasts
    /// (1 + latency) × interval max × 2 (Core Vol 6, Part B §4.5.2). A central answers a
    /// request that is not valid with "rejected".
    public var isValid: Bool {
        let intervals: ClosedRange<UInt16> = 6...3200
        guard intervals.contains(intervalMin.rawValue), intervals.contains(intervalMax.rawValue),
              intervalMin.rawValue <= intervalMax.rawValue,
              latency <= 499, (10...3200).contains(timeout.rawValue) else { return false }
        // timeout × 10 ms > (1 + latency) × intervalMax × 1.25 ms × 2
        return UInt32(timeout.rawValue) * 4 > (1 + UInt32(latency)) * UInt32(intervalMax.rawValue)
    }

    init(data reader: inout ByteReader) throws(WireError) {
        intervalMin = LEConnectionInterval(rawValue: try reader.u16("interval min"))
        intervalMax = LEConnectionInterval(rawValue: try reader.u16("interval max"))
        latency = try reader.u16("latency")
        timeout = LESupervisionTimeout(rawValue: try reader.u16("timeout"))
    }

    func encode(into writer: inout ByteWriter) {
        writer.u16(intervalMin.rawValue)
        writer.u16(intervalMax.rawValue)
        writer.u16(latency)
        writer.u16(timeout.rawValue)
    }
}
