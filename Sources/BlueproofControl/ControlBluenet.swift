import BlueproofBluenet
import BlueproofBluenetHost
import BlueproofTransmitter
import BlueproofWire
import Foundation

// issue 18: Bluenet
/// How a Bluenet promise ended on the control protocol (version 6, docs/control-protocol.md,
/// "Bluenet"): `{"result": "fulfilled"}`, or `"rejected"` with the reason the bluenet-lib-ios
/// README gives ("Methods": connect, disconnect, setSwitchState) and its figure.
struct ControlBluenetOutcome: Codable, Sendable, Equatable {
    var result: String
    /// `connectTimeout`, `disconnectTimeout` (with `seconds`), `aborted`, `failed` (with `detail`),
    /// `notConnected`, `switchStateUnsupported` (with `value`).
    var reason: String?
    var seconds: Double?
    var value: Double?
    var detail: String?

    init(result: String) { self.result = result }

    init(_ outcome: BluenetOutcome) {
        guard case let .rejected(error) = outcome else {
            self.init(result: "fulfilled")
            return
        }
        self.init(result: "rejected")
        guard case let .connection(failure) = error else {
            // Not a connection failure: the library refused for a reason of its own, kept as text.
            (reason, detail) = ("failed", error.description)
            return
        }
        switch failure {
        case let .connectTimeout(seconds): (reason, self.seconds) = ("connectTimeout", seconds)
        case let .disconnectTimeout(seconds): (reason, self.seconds) = ("disconnectTimeout", seconds)
        case .aborted: reason = "aborted"
        case let .failed(why): (reason, detail) = ("failed", why)
        case .notConnected: reason = "notConnected"
        case let .switchStateUnsupported(value): (reason, self.value) = ("switchStateUnsupported", value)
        }
    }

    /// The outcome this names; a result or reason this version does not know, or a figure that
    /// is missing or not a finite number of seconds, is refused.
    func outcome() throws(ControlBluenetDecoding) -> BluenetOutcome {
        func figure(_ number: Double?, _ field: String) throws(ControlBluenetDecoding) -> Double {
            guard let number, number.isFinite, number >= 0 || field == "value" else {
                throw ControlBluenetDecoding("a \(reason ?? "") rejection needs \(field), a finite number\(field == "value" ? "" : " not below 0")")
            }
            return number
        }
        switch result {
        case "fulfilled": return .fulfilled
        case "rejected": break
        default: throw ControlBluenetDecoding("outcome result must be fulfilled or rejected, got \(result)")
        }
        let failure: BluenetConnectionFailure
        switch reason {
        case "connectTimeout": failure = .connectTimeout(seconds: try figure(seconds, "seconds"))
        case "disconnectTimeout": failure = .disconnectTimeout(seconds: try figure(seconds, "seconds"))
        case "aborted": failure = .aborted
        case "failed": failure = .failed(detail ?? "")
        case "notConnected": failure = .notConnected
        case "switchStateUnsupported": failure = .switchStateUnsupported(try figure(value, "value"))
        default: throw ControlBluenetDecoding("a rejection's reason must be one the document gives, got \(reason ?? "nothing")")
        }
        return .rejected(.connection(failure))
    }
}

/// The scan filters by name: `all`, `crownstones`, `service` with `uuid`.
enum ControlBluenetFilter {
    static func fields(_ filter: BluenetScanFilter) -> (name: String, uuid: String?) {
        switch filter {
        case .all: ("all", nil)
        case .crownstones: ("crownstones", nil)
        case let .service(uuid): ("service", uuid.description)
        }
    }

    static func filter(_ name: String?, uuid: String?) throws(TransmitterError) -> BluenetScanFilter {
        switch name {
        case "all": return .all
        case "crownstones": return .crownstones
        case "service":
            guard let text = uuid, let parsed = BluetoothUUID(text) else {
                throw .controlChannel("bluenetStartScanning with service needs uuid (180F or the 36-character form)")
            }
            return .service(parsed)
        default: throw .controlChannel("filter must be all, crownstones or service, got \(name ?? "nothing")")
        }
    }
}

/// The `bluenetPublished` event: one callback the library ran, with the topic, the subscription
/// it went to (absent for the control's own), the data object as JSON (not as text, so a
/// device writes what its library made) and the library's own stringify of it.
enum ControlBluenetEvent {
    static let name = "bluenetPublished"

    /// The line for `publication`. Data that is not JSON goes as a JSON string of its text.
    static func line(_ publication: BluenetPublication) throws(TransmitterError) -> [UInt8] {
        let data = (try? JSONSerialization.jsonObject(with: Data(publication.object.utf8), options: [.fragmentsAllowed])) ?? publication.object
        var fields: [String: Any] = ["event": name, "topic": publication.topic.rawValue, "data": data, "stringified": publication.stringified]
        if let subscription = publication.subscription { fields["subscription"] = subscription }
        do {
            return Array(try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes])) + [0x0A]
        } catch {
            throw .controlChannel("cannot write the \(name) event: \(error)")
        }
    }

    /// What a line says, its data as JSON text with sorted keys. A topic the document does not
    /// list, or a field of the wrong kind, is refused.
    static func read(_ line: [UInt8]) throws(ControlBluenetDecoding)
        -> (topic: BluenetTopic, subscription: Int?, object: String, stringified: String) {
        guard let fields = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any] else {
            throw ControlBluenetDecoding("\(name) is not a JSON object")
        }
        guard let text = fields["topic"] as? String, let topic = BluenetTopic(rawValue: text) else {
            throw ControlBluenetDecoding("\(name) needs topic, one of \(BluenetTopic.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let stringified = fields["stringified"] as? String else { throw ControlBluenetDecoding("\(name) needs stringified, a string") }
        guard let data = fields["data"],
              let object = try? JSONSerialization.data(withJSONObject: data, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]) else {
            throw ControlBluenetDecoding("\(name) needs data, a JSON value")
        }
        var subscription: Int?
        if let value = fields["subscription"], !(value is NSNull) {
            guard let number = BluenetPublication.integer(value) else { throw ControlBluenetDecoding("\(name): subscription must be an integer") }
            subscription = number
        }
        return (topic, subscription, String(decoding: object, as: UTF8.self), stringified)
    }
}

/// A Bluenet line the runner cannot read: the channel is no longer trusted.
struct ControlBluenetDecoding: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Only the name of an event line.
struct ControlEventName: Decodable {
    var event: String
}
