/// Initiator or Responder Key Distribution (Core Vol 3, Part H §3.6.1, Figure 3.11).
public struct SMPKeyDistribution: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let encKey = SMPKeyDistribution(rawValue: 0x01)
    public static let idKey = SMPKeyDistribution(rawValue: 0x02)
    public static let signKey = SMPKeyDistribution(rawValue: 0x04)
    public static let linkKey = SMPKeyDistribution(rawValue: 0x08)

    public var description: String { "0x\(hex(rawValue))" }
}
