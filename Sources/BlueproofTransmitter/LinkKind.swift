/// The kind of link a packet travels on; the size limits differ per kind.
///
/// Source: bridgefy-ios-sdk-readme.md, "Connections with Android devices" and
/// "Maximum package sizes and throughput" (BLE and Wi-Fi peer-to-peer).
public enum LinkKind: String, Hashable, Sendable, CaseIterable {
    case ble
    case wifi
}
