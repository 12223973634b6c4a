/// How an accepted packet travels, resolved from `SendingOptions`.
///
/// Source: bridgefy-ios-sdk-readme.md, "Direct and mesh transmission", "Sending options",
/// "Broadcast messages".
public enum TransmissionMode: String, Hashable, Sendable, CaseIterable {
    /// Only to a receiver in range.
    case direct
    /// Through the mesh, receiver anywhere.
    case mesh
    /// Direct first; into the mesh if the receiver is not in range or direct delivery fails.
    case full
    /// Through the mesh to every user, no receiver.
    case broadcast

    /// Whether the packet may enter the mesh (and so is held to the mesh size limits).
    public var mayUseMesh: Bool { self != .direct }

    /// The option bit that selects this mode.
    public var option: SendingOptions {
        switch self {
        case .direct: .directTransmission
        case .mesh: .meshTransmission
        case .full: .fullTransmission
        case .broadcast: .broadcastReceiver
        }
    }
}
