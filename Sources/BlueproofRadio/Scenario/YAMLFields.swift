import Foundation
import Yams

/// Strict reading of a YAML tree: every value has the expected kind, every mapping holds only
/// known keys and all required ones, and every refusal names the file, line and column.
struct YAMLFields {
    let file: String

    func error(_ node: Node?, _ reason: String) -> RadioScenarioError {
        RadioScenarioError(file: file, line: node?.mark?.line, column: node?.mark?.column, reason: reason)
    }

    /// The mapping's values by key; a key outside `required` and `optional` is refused at the
    /// key, a missing required key at the mapping.
    func mapping(_ node: Node, _ what: String, required: [String] = [], optional: [String] = [])
        throws(RadioScenarioError) -> [String: Node] {
        guard case let .mapping(mapping) = node else { throw error(node, "\(what): expected a mapping, found \(kind(node))") }
        var fields: [String: Node] = [:]
        let known = required + optional
        for (key, value) in mapping {
            guard case let .scalar(scalar) = key else { throw error(key, "\(what): keys must be plain words") }
            guard known.contains(scalar.string) else {
                throw error(key, "\(what): unknown key \"\(scalar.string)\" (known: \(known.joined(separator: ", ")))")
            }
            fields[scalar.string] = value
        }
        for key in required where fields[key] == nil {
            throw error(node, "\(what): missing \"\(key)\"")
        }
        return fields
    }

    /// Exactly one of `keys` is present in `fields`; returns it.
    func oneOf(_ keys: [String], in fields: [String: Node], at node: Node, _ what: String) throws(RadioScenarioError) -> String {
        let present = keys.filter { fields[$0] != nil }
        guard present.count == 1 else {
            throw error(node, "\(what): needs exactly one of \(keys.joined(separator: ", "))"
                + (present.isEmpty ? "" : ", found \(present.joined(separator: " and "))"))
        }
        return present[0]
    }

    func sequence(_ node: Node, _ what: String) throws(RadioScenarioError) -> [Node] {
        guard case let .sequence(sequence) = node else { throw error(node, "\(what): expected a list, found \(kind(node))") }
        return Array(sequence)
    }

    func string(_ node: Node, _ what: String) throws(RadioScenarioError) -> String {
        guard case let .scalar(scalar) = node else { throw error(node, "\(what): expected a scalar, found \(kind(node))") }
        return scalar.string
    }

    func double(_ node: Node, _ what: String) throws(RadioScenarioError) -> Double {
        let text = try string(node, what)
        guard let value = Double(text), value.isFinite else { throw error(node, "\(what): expected a number, found \"\(text)\"") }
        return value
    }

    /// A number within `range`; `unit` follows the bounds in the refusal (` dBm`, ` m`).
    func double(_ node: Node, _ what: String, in range: ClosedRange<Double>, unit: String = "") throws(RadioScenarioError) -> Double {
        let value = try double(node, what)
        guard range.contains(value) else {
            throw error(node, "\(what): \(value) is outside \(Self.bound(range.lowerBound))...\(Self.bound(range.upperBound))\(unit)")
        }
        return value
    }

    /// An RSSI in dBm, within `ScenarioLimits.rssi`.
    func rssi(_ node: Node, _ what: String) throws(RadioScenarioError) -> Double {
        try double(node, what, in: ScenarioLimits.rssi, unit: " dBm")
    }

    private static func bound(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// A decimal integer, or hexadecimal with `0x`, within `range`.
    func integer(_ node: Node, _ what: String, in range: ClosedRange<Int>) throws(RadioScenarioError) -> Int {
        let text = try string(node, what)
        let value = text.lowercased().hasPrefix("0x") ? Int(text.dropFirst(2), radix: 16) : Int(text)
        guard let value else { throw error(node, "\(what): expected an integer, found \"\(text)\"") }
        guard range.contains(value) else {
            throw error(node, "\(what): \(value) is outside \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    /// A duration with its unit: `250us`, `100ms`, `1.5s`, `2min`; at most
    /// `ScenarioLimits.maxDuration`, checked before converting to nanoseconds.
    func duration(_ node: Node, _ what: String) throws(RadioScenarioError) -> Duration {
        let text = try string(node, what).trimmingCharacters(in: .whitespaces)
        let units: [(String, Double)] = [("min", 60), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9), ("s", 1)]
        let limit = ScenarioLimits.maxDuration.components.seconds
        for (unit, scale) in units where text.hasSuffix(unit) {
            guard let number = Double(text.dropLast(unit.count)), number.isFinite, number >= 0 else { break }
            guard number * scale <= Double(limit) else {
                throw error(node, "\(what): \(text) is more than a day (the limit is \(limit) s)")
            }
            return .nanoseconds(Int64((number * scale * 1e9).rounded()))
        }
        throw error(node, "\(what): expected a duration such as 100ms or 1.5s, found \"\(text)\"")
    }

    func kind(_ node: Node) -> String {
        switch node {
        case .scalar: "a scalar"
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }
}
