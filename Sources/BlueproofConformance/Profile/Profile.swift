import BlueproofYAML
import Foundation
import Yams

/// A conformance profile (Conformance/profiles/*.yaml): the documented numbers and rules the
/// cases read, by dotted path (`profile.int("transfer.rssi_gate_dbm")`).
///
/// Loaded with Yams' node API so every problem names its file and line: a wrong type, a key
/// the schema does not know, a missing value (docs/runner.md, "Profiles").
public struct Profile: Sendable {
    public struct Entry: Hashable, Sendable {
        public var value: ProfileValue
        public var line: Int
    }

    public var path: String
    /// `name:` at the top, e.g. `bridgefy-ios`.
    public var name: String
    /// Every scalar or list, by dotted key.
    public var values: [String: Entry]
    /// Dotted keys of the nested mappings.
    public var mappings: Set<String>
    /// The line of each nested mapping's key, for errors about what it lacks.
    var mappingLines: [String: Int]

    /// Parses `yaml` without a schema (the default profile is its own schema). Anchors, aliases,
    /// deep nesting and oversize text are refused before anything is expanded (`SafeYAML`).
    public init(yaml: String, path: String) throws(ConformanceFileError) {
        self.path = path
        let node: Node?
        do throws(SafeYAMLError) {
            node = try SafeYAML.compose(yaml)
        } catch {
            throw ConformanceFileError(file: path, line: error.line, reason: error.reason)
        }
        guard let node, case let .mapping(root) = node else {
            throw ConformanceFileError(file: path, line: 1, reason: "wrong type: a profile is a mapping of keys")
        }
        var values: [String: Entry] = [:]
        var mappings: Set<String> = []
        var lines: [String: Int] = [:]
        try Self.flatten(root, prefix: "", path: path, into: &values, mappings: &mappings, lines: &lines)
        self.values = values
        self.mappings = mappings
        mappingLines = lines
        if case let .string(name)? = values["name"]?.value { self.name = name } else { self.name = URL(fileURLWithPath: path).lastPathComponent }
    }

    /// Loads `path` (as `SafeYAML.read` allows) and checks it against `schema`: unknown keys,
    /// wrong types, missing values; then every integer against its `ProfileRanges` range.
    public static func load(path: String, schema: ProfileSchema?) throws(ConformanceFileError) -> Profile {
        let text: String
        do throws(SafeYAMLError) {
            text = try SafeYAML.read(path: path)
        } catch {
            throw ConformanceFileError(file: path, line: nil, reason: "cannot read the profile: \(error.reason)")
        }
        let profile = try Profile(yaml: text, path: path)
        if let schema { try profile.validate(against: schema) }
        try profile.checkRanges()
        return profile
    }

    /// Refuses, at its line, the first integer outside its range (`ProfileRanges`).
    func checkRanges() throws(ConformanceFileError) {
        for (key, entry) in values.sorted(by: { $0.value.line < $1.value.line }) {
            if let problem = ProfileRanges.problem(key, entry.value) {
                throw ConformanceFileError(file: path, line: entry.line, reason: problem)
            }
        }
    }

    /// Loads the default profile, which is also the schema of every other one.
    public static func loadDefault(path: String = ConformanceFiles.path(ConformanceFiles.defaultProfile)) throws(ConformanceFileError) -> Profile {
        try load(path: path, schema: nil)
    }

    func validate(against schema: ProfileSchema) throws(ConformanceFileError) {
        for (key, entry) in values.sorted(by: { $0.value.line < $1.value.line }) {
            if schema.defaults[key] == nil, ProfileSchema.optionalKeys[key] == nil {
                throw ConformanceFileError(file: path, line: entry.line,
                                           reason: schema.mappings.contains(key)
                                               ? "wrong type: \(key) is a mapping of keys, found \(entry.value.typeName) '\(entry.value.text)'"
                                               : "unknown key \(key)")
            }
            if let problem = schema.mismatch(key, entry.value) {
                throw ConformanceFileError(file: path, line: entry.line, reason: "\(key): \(problem)")
            }
        }
        for key in mappings.sorted() where schema.mappings.contains(key) == false {
            throw ConformanceFileError(file: path, line: mappingLines[key] ?? 1, reason: "unknown key \(key)")
        }
        for key in schema.defaults.keys.sorted() where values[key] == nil {
            let parent = key.split(separator: ".").dropLast().joined(separator: ".")
            let line = mappingLines[parent] ?? 1
            throw ConformanceFileError(file: path, line: line,
                                       reason: "missing value \(key): expected \(ProfileSchema.describe(schema.defaults[key]!))")
        }
    }

    // MARK: - Typed access

    public func value(_ key: String) throws(ProfileAccessError) -> ProfileValue {
        guard let entry = values[key] else { throw .missing(key: key, profile: path) }
        return entry.value
    }

    public func int(_ key: String) throws(ProfileAccessError) -> Int {
        let value = try value(key)
        guard case let .int(number) = value else { throw .wrongType(key: key, expected: "integer", found: value.text, profile: path) }
        return number
    }

    public func bool(_ key: String) throws(ProfileAccessError) -> Bool {
        let value = try value(key)
        guard case let .bool(flag) = value else { throw .wrongType(key: key, expected: "boolean", found: value.text, profile: path) }
        return flag
    }

    public func string(_ key: String) throws(ProfileAccessError) -> String {
        let value = try value(key)
        guard case let .string(text) = value else { throw .wrongType(key: key, expected: "string", found: value.text, profile: path) }
        return text
    }

    public func strings(_ key: String) throws(ProfileAccessError) -> [String] {
        let value = try value(key)
        guard case let .list(items) = value else { throw .wrongType(key: key, expected: "list", found: value.text, profile: path) }
        return items.map(\.text)
    }

    // MARK: - Reading nodes

    private static func flatten(_ mapping: Node.Mapping, prefix: String, path: String,
                                into values: inout [String: Entry], mappings: inout Set<String>,
                                lines: inout [String: Int]) throws(ConformanceFileError) {
        for (keyNode, valueNode) in mapping {
            let line = keyNode.mark?.line ?? 0
            guard let key = keyNode.scalar?.string, !key.isEmpty else {
                throw ConformanceFileError(file: path, line: line, reason: "wrong type: a key must be a plain word")
            }
            let dotted = prefix.isEmpty ? key : "\(prefix).\(key)"
            guard values[dotted] == nil, !mappings.contains(dotted) else {
                throw ConformanceFileError(file: path, line: line, reason: "duplicate key \(dotted)")
            }
            switch valueNode {
            case let .mapping(inner):
                mappings.insert(dotted)
                lines[dotted] = line
                try flatten(inner, prefix: dotted, path: path, into: &values, mappings: &mappings, lines: &lines)
            default:
                values[dotted] = Entry(value: try scalar(valueNode, key: dotted, path: path), line: line)
            }
        }
    }

    private static func scalar(_ node: Node, key: String, path: String) throws(ConformanceFileError) -> ProfileValue {
        switch node {
        case let .sequence(items):
            var list: [ProfileValue] = []
            for item in items { list.append(try scalar(item, key: key, path: path)) }
            return .list(list)
        case .mapping:
            throw ConformanceFileError(file: path, line: node.mark?.line, reason: "wrong type: \(key) may not hold a mapping inside a list")
        case .alias:
            throw ConformanceFileError(file: path, line: node.mark?.line, reason: "\(key): aliases are not allowed in a profile")
        case let .scalar(scalar):
            if node.null != nil, scalar.style == .plain { return .null }
            if scalar.style == .plain {
                if let value = node.int { return .int(value) }
                if let value = node.bool { return .bool(value) }
                if let value = node.float { return .double(value) }
            }
            return .string(scalar.string)
        }
    }
}

/// A case asked for a profile value that is not there or not of the type it needs.
public enum ProfileAccessError: Error, Hashable, Sendable, CustomStringConvertible {
    case missing(key: String, profile: String)
    case wrongType(key: String, expected: String, found: String, profile: String)

    public var description: String {
        switch self {
        case let .missing(key, profile): "\(profile): no value \(key)"
        case let .wrongType(key, expected, found, profile): "\(profile): \(key) is '\(found)', not a \(expected)"
        }
    }
}
