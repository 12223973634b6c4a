import BlueproofAsync
import BlueproofBluenet
import Foundation

/// The events a control has seen the library publish.
public typealias BluenetPublicationLog = EventLog<BluenetPublication>

/// How a BLN case drives and observes the Bluenet library under test (bluenet-lib-ios README,
/// "Methods" and "Events"): the reference (``ReferenceBluenet``), a broken variant of it, or a
/// device over the control protocol's Bluenet commands (docs/control-protocol.md, "Bluenet";
/// `blueproof dut` serves this interface with the reference). The subject is judged on what it
/// publishes and on what the testers on the other controllers see it do on the air.
public protocol BluenetControl: Sendable {
    /// "isReady()": returns once the library's BLE manager is initialised.
    func isReady() async
    /// startScanning, startScanningForCrownstones or startScanningForService.
    func startScanning(_ filter: BluenetScanFilter) async throws
    /// "stopScanning()".
    func stopScanning() async
    /// Everything the library published since the control was made, in order: to the
    /// control's own subscription, and to each made with ``on(_:)`` (under its id).
    var publications: BluenetPublicationLog { get }
    /// "on(topic)": a new subscription, its deliveries logged under the id the library returned.
    func on(_ topic: BluenetTopic) async -> Int
    /// "off(id)": ends a subscription; whether there was one.
    func off(_ id: Int) async -> Bool
    /// "trackUUID(uuid, groupId)" (Bluenet Localization): ranges that UUID's iBeacons for the group.
    func trackUUID(_ uuid: String, groupId: String) async throws
    /// "connect(handle)", "disconnect()", "setSwitchState(state)": how each promise ended.
    func connect(_ handle: String) async -> BluenetOutcome
    func disconnect() async -> BluenetOutcome
    func setSwitchState(_ state: Double) async -> BluenetOutcome
    // issue 18: Bluenet Localization fingerprints ("Methods"; a fingerprint travels as its
    // stringified JSON, "Fingerprint": idString → RSSI values)
    /// start/pause/resume/abortCollectingFingerprint: the collection of the ranging rounds.
    func startCollectingFingerprint() async throws
    func pauseCollectingFingerprint() async throws
    func resumeCollectingFingerprint() async throws
    func abortCollectingFingerprint() async
    /// "finalizeFingerprint(groupId, locationId)": stores the collection for the location.
    func finalizeFingerprint(groupId: String, locationId: String) async throws
    /// "loadFingerprint(groupId, locationId, Fingerprint(string))".
    func loadFingerprint(groupId: String, locationId: String, fingerprint: String) async throws
    /// "getFingerprint(groupId, locationId)", stringified; nil when there is none.
    func getFingerprint(groupId: String, locationId: String) async -> String?
    /// Ends scanning and the publication log; the control is not used afterwards.
    func stop() async
    /// What broke between the runner and the library during the case (a control channel that
    /// failed): the calls that do not throw then returned empty values, so the case is an error
    /// whatever it concluded. nil for a library in the runner's own process.
    func harnessFailure() async -> String?
}

extension BluenetControl {
    public func harnessFailure() async -> String? { nil }
}

/// One event the library published: when (on the case's clock, from the control's making),
/// on which topic, the data object as JSON text, and the library's own stringified form
/// ("Data Objects": stringify), as a device would report both over the control protocol.
public struct BluenetPublication: Hashable, Sendable {
    public var at: Duration
    public var topic: BluenetTopic
    public var object: String
    public var stringified: String
    /// The subscription (``BluenetControl/on(_:)``) it was delivered to; nil for the control's own.
    public var subscription: Int?

    public init(at: Duration, topic: BluenetTopic, object: String, stringified: String, subscription: Int? = nil) {
        self.at = at
        self.topic = topic
        self.object = object
        self.stringified = stringified
        self.subscription = subscription
    }
}

extension BluenetPublication {
    /// Publications a control keeps for one library (a case); past it they are counted, not
    /// kept, and a case that would pass is an error (what it did not keep it did not judge).
    public static let maximumPerLibrary = 4096

    /// `value` as JSON text with sorted keys, for comparing objects whatever their key order.
    public static func canonical(_ value: Any) -> String? {
        (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) }
    }

    /// `value` (from `JSONSerialization`) as a JSON integer: a number without a fraction, never
    /// `true` or `false`, which Foundation otherwise reads as 1 and 0; nil for anything else.
    public static func integer(_ value: Any?) -> Int? {
        guard let number = value as? NSNumber, type(of: number) != booleanType else { return nil }
        return Int(exactly: number.doubleValue)
    }

    /// `value` as an array of JSON integers; nil when it is not one or an element is not.
    public static func integers(_ value: Any?) -> [Int]? {
        guard let values = value as? [Any] else { return nil }
        let integers = values.compactMap(integer)
        return integers.count == values.count ? integers : nil
    }

    private static let booleanType = type(of: NSNumber(value: true))
}
