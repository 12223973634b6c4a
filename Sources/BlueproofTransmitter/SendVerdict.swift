/// The outcome of `SendValidator.validate(_:)`: accepted with the resolved route, or refused.
public enum SendVerdict: Hashable, Sendable {
    case accepted(AcceptedSend)
    case refused(TransmitterError)

    /// The refusal, if any.
    public var error: TransmitterError? {
        if case .refused(let error) = self { return error }
        return nil
    }

    /// The accepted send, if any.
    public var accepted: AcceptedSend? {
        if case .accepted(let send) = self { return send }
        return nil
    }
}

/// A send the validator accepted.
public struct AcceptedSend: Hashable, Sendable {
    /// The mode resolved from the options.
    public var mode: TransmissionMode
    /// Whether the packet is encrypted.
    public var encrypted: Bool
    /// Where it goes first: `.direct` for direct, and for full with the receiver in range;
    /// `.mesh` for mesh, broadcast, and full with the receiver out of range.
    public var firstHop: FirstHop
    /// Set when a direct dictionary over the link exceeds the recommended (not enforced) size.
    public var exceedsRecommendedSize: Bool

    public enum FirstHop: String, Hashable, Sendable {
        case direct
        case mesh
    }

    public init(mode: TransmissionMode, encrypted: Bool, firstHop: FirstHop, exceedsRecommendedSize: Bool = false) {
        self.mode = mode
        self.encrypted = encrypted
        self.firstHop = firstHop
        self.exceedsRecommendedSize = exceedsRecommendedSize
    }
}
