/// The keys a profile may hold and the type of each, derived from the default profile
/// (Conformance/profiles/bridgefy-ios.yaml) plus the optional keys documented in
/// docs/runner.md ("Profiles").
///
/// Type rules: a value must have the default's type; a default of `null` (undocumented)
/// accepts any scalar; a default that is a word standing for "no number" (`unlimited`,
/// `not_applicable`, `harness_default`) also accepts an integer.
public struct ProfileSchema: Sendable {
    /// Dotted key → the default profile's value.
    public var defaults: [String: ProfileValue]
    /// Dotted keys of mappings (`bridgefy.limits`).
    public var mappings: Set<String>

    /// Keys any profile may add: a description of the device the profile is for.
    public static let optionalKeys: [String: ProfileValue] = ["description": .string(""), "device": .string("")]
    static let numberWords: Set<String> = ["unlimited", "not_applicable", "harness_default"]

    public init(defaultProfile: Profile) {
        defaults = defaultProfile.values.mapValues(\.value)
        mappings = defaultProfile.mappings
    }

    /// Why `value` does not fit `key`, or nil when it does.
    func mismatch(_ key: String, _ value: ProfileValue) -> String? {
        guard let expected = defaults[key] ?? Self.optionalKeys[key] else { return nil }
        switch (expected, value) {
        case (.null, .list): return "wrong type: expected a scalar, found a list"
        case (.null, _): return nil
        case (.list, .list), (.int, .int), (.bool, .bool), (.string, .string), (.double, .double), (.double, .int):
            return nil
        case let (.string(word), .int) where Self.numberWords.contains(word):
            return nil
        case (_, .null):
            return "missing value: expected \(Self.describe(expected))"
        default:
            return "wrong type: expected \(Self.describe(expected)), found \(value.typeName) '\(value.text)'"
        }
    }

    static func describe(_ expected: ProfileValue) -> String {
        if case let .string(word) = expected, numberWords.contains(word) { return "an integer or a word such as \(word)" }
        return expected.typeName == "integer" ? "an integer" : "a \(expected.typeName)"
    }
}
