/// The unit of the secure-connection expiration limit as the profile names it
/// (`bridgefy.secure_connection.expiration_limit_unit`): bridgefy-ios-sdk-readme.md, "Secure
/// connections", gives the limit as a bare integer, so the expiry cases convert every limit
/// they set and every idle time they wait through this unit, never assuming seconds.
struct ExpiryUnit: Sendable, CustomStringConvertible {
    static let key = "bridgefy.secure_connection.expiration_limit_unit"
    /// The units a profile may name, and how long one of each lasts.
    static let known: [(name: String, length: Duration)] = [
        ("milliseconds", .milliseconds(1)), ("seconds", .seconds(1)), ("minutes", .seconds(60)),
    ]

    let name: String
    let length: Duration

    /// The profile's unit; a unit the cases do not know is a profile error (the case errs).
    init(_ profile: Profile) throws {
        let name = try profile.string(Self.key)
        guard let unit = Self.known.first(where: { $0.name == name }) else {
            throw ProfileAccessError.wrongType(key: Self.key, expected: "unit (\(Self.known.map(\.name).joined(separator: ", ")))",
                                               found: name, profile: profile.path)
        }
        self.name = name
        self.length = unit.length
    }

    /// The limit, in whole units, closest to `span` (one unit at least).
    func limit(near span: Duration) -> Int {
        max(1, Int((span / length).rounded()))
    }

    /// How long `limit` units last.
    func span(_ limit: Int) -> Duration { length * limit }

    var description: String { name }
}
