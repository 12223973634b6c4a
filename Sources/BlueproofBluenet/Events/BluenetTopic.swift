/// The topics the two libraries publish on (bluenet-lib-ios README, "Events" of Bluenet and of
/// Bluenet Localization), named as the document names them.
public enum BluenetTopic: String, CaseIterable, Hashable, Sendable {
    /// Bluenet: every advertisement heard while scanning.
    case advertisementData
    /// Localization: the ranged beacons, once a second, after trackUUID.
    case iBeaconAdvertisement
    /// Localization: a tracked group's region was entered (data: the group id).
    case enterRegion
    /// Localization: a tracked group's region is no longer detected (data: the group id).
    case exitRegion
    /// Localization: the classifier has the user in a new location (data: the location id).
    case enterLocation
    /// Localization: the user left a location for another (not on leaving the region).
    case exitLocation
    /// Localization: the prediction, once a second while one is made.
    case currentLocation

    /// The topic named `name`; throws for a name the document does not list.
    public init(name: String) throws(BluenetError) {
        guard let topic = BluenetTopic(rawValue: name) else { throw .unknownTopic(String(name.prefix(64))) }
        self = topic
    }
}
