import Foundation

/// Input the typed API cannot hold, taken as an application written against the SDK passes it
/// (bridgefy-ios-sdk-readme.md, "Log levels", "Dictionaries"): a raw log level, a dictionary
/// value without a JSON form. The control protocol carries both from version 3.
extension Transmitter {
    public func takesHarnessCalls() -> Bool { true }

    /// "Log levels": the raw values are error 0, info 1, debug 2 and trace 3; any other names
    /// no level and leaves the one in force.
    public func setLogLevel(raw: Int) -> Bool {
        guard let level = TransmitterLogLevel(rawValue: raw) else { return false }
        setLogLevel(level)
        return true
    }

    /// "Dictionaries": `dictionary` plus an object JSON cannot encode under `key`, built as an
    /// application's `[String: Any]` is; the payload refuses it before anything is sent.
    public func sendUnencodable(_ dictionary: [String: TransmitterValue], key: String, to receiver: UserID?,
                                options: SendingOptions) throws(TransmitterError) -> PacketID {
        var values: [String: Any] = dictionary
        values[key] = UnencodableObject()
        let payload = try TransmitterPayload(anyDictionary: values)
        return try send(dictionary: payload.dictionary, data: nil, to: receiver, options: options)
    }
}

/// An object with no JSON form, standing for the document's `UIImage`.
final class UnencodableObject: Sendable {}
