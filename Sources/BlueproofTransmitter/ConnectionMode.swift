/// The operation mode the transmitter was started in.
///
/// Source: bridgefy-ios-sdk-readme.md, "Operation modes": automatic connects to every peer;
/// on-demand reports nearby users, connects only when asked (at most 5 at once) and supports
/// direct messages only.
public enum ConnectionMode: String, Hashable, Sendable, CaseIterable {
    case automatic
    case onDemand
}
