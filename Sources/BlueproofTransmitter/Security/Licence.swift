import Foundation

/// An offline licence: which API key it covers, who holds it, until when.
///
/// The document says a licence text downloaded from the dashboard lets the framework validate
/// the licence without Internet, but not what the text holds. blueproof's form:
/// `<base64url(JSON {"apiKey","holder","expires"})>.<base64url(Ed25519 signature)>`, the
/// signature taken over the ASCII of the first part; `expires` is ISO 8601 (whole seconds, UTC).
///
/// Source: bridgefy-ios-sdk-readme.md, "Configuring Transmitter Framework without Internet".
public struct Licence: Sendable, Equatable {
    public let apiKey: String
    public let holder: String
    public let expires: Date

    public init(apiKey: String, holder: String, expires: Date) {
        self.apiKey = apiKey
        self.holder = holder
        self.expires = expires
    }
}

/// The JSON inside a licence.
struct LicencePayload: Codable {
    var apiKey: String
    var holder: String
    var expires: String

    static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    static func parse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
