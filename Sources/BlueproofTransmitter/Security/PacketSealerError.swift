/// Why `PacketSealer.open` refused a sealed packet. Equality is by `kind`; `detail` gives
/// context (lengths, the failing step), never key material or plaintext.
public struct PacketSealerError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        /// Not a sealed packet: too short, unknown version, inconsistent lengths.
        case malformed
        /// Sealed to another recipient's key.
        case wrongRecipient
        /// Addressed to this identity but altered: the wrapped key, the body, the tag or the
        /// associated data do not authenticate.
        case tampered
    }

    public var kind: Kind
    public var detail: String?

    public init(kind: Kind, detail: String? = nil) {
        self.kind = kind
        self.detail = detail
    }

    public static let malformed = PacketSealerError(kind: .malformed)
    public static let wrongRecipient = PacketSealerError(kind: .wrongRecipient)
    public static let tampered = PacketSealerError(kind: .tampered)

    /// The same error with `detail` set.
    public func with(detail: String) -> PacketSealerError {
        var copy = self
        copy.detail = detail
        return copy
    }

    public var description: String {
        guard let detail else { return "sealed packet \(kind.rawValue)" }
        return "sealed packet \(kind.rawValue) (\(detail))"
    }

    public static func == (lhs: PacketSealerError, rhs: PacketSealerError) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}
