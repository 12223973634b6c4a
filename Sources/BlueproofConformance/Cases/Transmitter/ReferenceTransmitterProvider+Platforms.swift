import BlueproofTransmitter
import BlueproofTransmitterLinks

// issue 14: BFT/SIZE with an Android peer
/// Nodes with both links (bridgefy-ios-sdk-readme.md, "Connections with Android devices"): BLE
/// announcing the node's platform, and Wi-Fi peer-to-peer beside it (TCP on loopback, or a
/// second simulated network on the simulated link). Node 0's defects break its choice of link.
extension ReferenceTransmitterProvider {
    public func transmitters(_ count: Int, platforms: [Int: DevicePlatform], for context: CaseContext) async throws -> [any TransmitterControl] {
        try await make(nodes: 0..<count, platforms: platforms, for: context)
    }

    public func carriage(atTester index: Int, of peer: UserID, within timeout: Duration,
                         where condition: @escaping @Sendable (DualLink.Carriage) -> Bool, for context: CaseContext) async throws -> DualLink.Carriage? {
        guard index != 0, let link = dualLinks.withLock({ $0[ObjectIdentifier(context)]?[index] }) else {
            throw TransmitterUnavailable("node \(index) is no tester with both links in this case")
        }
        return await link.carriage(of: peer, within: timeout, where: condition)
    }

    /// Node `index`'s two links, announcing its platform in `platforms`.
    func dualLink(_ index: Int, platforms: [Int: DevicePlatform], context: CaseContext, network: SimulatedNetwork,
                  wifiNetwork: SimulatedNetwork, wifiGroup: WiFiGroup, clock: OffsetTimeSource) throws -> DualLink {
        guard let platform = platforms[index] else { throw TransmitterUnavailable("node \(index) was given no platform") }
        let ble: any PlatformAnnouncingLink
        let wifi: any TransmitterLink
        switch link {
        case .ble:
            guard index < context.nodes.count, let host = context.nodes[index] else {
                throw TransmitterUnavailable("node \(index) has no controller of ours (the case opened \(context.nodes.count))")
            }
            ble = BLELink(host: host, profile: (index == 0 ? defects : []).bleProfile(platform: platform), timeSource: clock)
            wifi = wifiGroup.link()
        case .simulated:
            ble = network.link(kind: .ble, platform: platform)
            wifi = wifiNetwork.link(kind: .wifi)
        }
        let dual = DualLink(ble: ble, wifi: wifi, platform: platform, faults: index == 0 ? defects.dualLinkFaults : [])
        dualLinks.withLock { $0[ObjectIdentifier(context), default: [:]][index] = dual }
        return dual
    }
}

extension Set<Defect> {
    /// The BLE link's profile with the share of these defects that lives in what it puts on
    /// the air (issue 15: user tracking by a passive scanner).
    public func bleProfile(platform: DevicePlatform? = nil) -> BLELinkProfile {
        var profile = BLELinkProfile(platform: platform)
        if contains(.stableAdvertisedUserId) { profile.announcesUser = true }
        if contains(.stableAdvertisingAddress) { profile.addressRotation = nil }
        if contains(.stableDeviceIdentifier) { profile.announcesDevice = true }
        return profile
    }

    /// The share of these defects that lives in a node's choice of link (`DualLink`).
    public var dualLinkFaults: DualLink.Faults {
        var faults: DualLink.Faults = []
        if contains(.wifiToAndroidPeer) { faults.insert(.wifiToAnyPeer) }
        if contains(.wifiLimitsToAndroidPeer) { faults.insert(.wifiLimitsToAnyPeer) }
        return faults
    }
}
