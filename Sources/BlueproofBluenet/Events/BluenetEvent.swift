/// One published event: its topic and its data, as the "Events" tables type it.
public enum BluenetEvent: Hashable, Sendable {
    case advertisementData(BluenetAdvertisement)
    case iBeaconAdvertisement([IBeaconPacket])
    case enterRegion(groupId: String)
    case exitRegion(groupId: String)
    case enterLocation(locationId: String)
    case exitLocation(locationId: String)
    case currentLocation(locationId: String)

    public var topic: BluenetTopic {
        switch self {
        case .advertisementData: .advertisementData
        case .iBeaconAdvertisement: .iBeaconAdvertisement
        case .enterRegion: .enterRegion
        case .exitRegion: .exitRegion
        case .enterLocation: .enterLocation
        case .exitLocation: .exitLocation
        case .currentLocation: .currentLocation
        }
    }
}
