/// A case id, `GROUP/SUBGROUP/BV-nn` or `BI-nn` (Conformance/README.md, "Case ids").
public struct CaseID: Hashable, Sendable, Comparable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    public var rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// `GROUP/SUBGROUP`, the JUnit class name.
    public var group: String { rawValue.split(separator: "/").prefix(2).joined(separator: "/") }

    /// The id as one path component: `/` becomes `_` (`CBT_CHUNK_BV-01`).
    public var pathComponent: String { rawValue.replacingOccurrences(of: "/", with: "_") }

    public var description: String { rawValue }
    public static func < (lhs: CaseID, rhs: CaseID) -> Bool { lhs.rawValue < rhs.rawValue }
}
