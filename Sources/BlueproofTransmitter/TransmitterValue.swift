import Foundation

/// A value a transmitter dictionary may hold: JSON-encodable values, plus binary data.
///
/// Source: bridgefy-ios-sdk-readme.md, "Dictionaries" (values must be JSON encodable and may
/// include binary buffers). Anything else is refused by `init(any:at:)`.
public enum TransmitterValue: Hashable, Sendable {
    case string(String)
    case integer(Int64)
    /// A finite double; NaN and infinity are refused (JSON cannot encode them).
    case number(Double)
    case bool(Bool)
    case null
    case array([TransmitterValue])
    case object([String: TransmitterValue])
    case binary(Data)

    /// The deepest nesting a dictionary may have, counted in JSON containers: the dictionary
    /// itself is level 1, each array, object or binary value (`{"$binary":…}`) inside adds one.
    /// Deeper dictionaries are refused by senders (`TransmitterPayload`) and receivers
    /// (`TransmitterPayload.decode`) alike, so no recursive walk (reading, encoding, equality,
    /// description) ever meets untrusted depth. Messages nest two or three levels; 64 leaves
    /// room for any real one, while the readers' recursion stays a few tens of KiB of stack,
    /// far inside the smallest thread stack (512 KiB) and below Foundation's JSON limit (512).
    public static let maxNestingDepth = 64

    /// The refusal of a value nested deeper than `maxNestingDepth`, at `path`.
    static func tooDeep(at path: String) -> TransmitterError {
        TransmitterError.unsupportedDictionaryValue.with(
            detail: "\(path): nested deeper than maxNestingDepth (\(maxNestingDepth) levels)")
    }

    /// Converts a dynamically typed value, refusing anything not JSON-encodable or binary.
    /// - Parameter path: the key path used in the error detail (e.g. `image` or `list[2]`).
    public init(any value: Any, at path: String) throws(TransmitterError) {
        try self.init(any: value, at: path, depth: 1)
    }

    /// `depth` is the nesting level of the container holding `value` (1: the dictionary).
    private init(any value: Any, at path: String, depth: Int) throws(TransmitterError) {
        switch value {
        case let value as TransmitterValue: self = value
        case let value as Bool: self = .bool(value)
        case let value as String: self = .string(value)
        case let value as Substring: self = .string(String(value))
        case let value as Int: self = .integer(Int64(value))
        case let value as Int8: self = .integer(Int64(value))
        case let value as Int16: self = .integer(Int64(value))
        case let value as Int32: self = .integer(Int64(value))
        case let value as Int64: self = .integer(value)
        case let value as UInt8: self = .integer(Int64(value))
        case let value as UInt16: self = .integer(Int64(value))
        case let value as UInt32: self = .integer(Int64(value))
        case let value as UInt:
            guard let exact = Int64(exactly: value) else { throw Self.outOfRange(path) }
            self = .integer(exact)
        case let value as UInt64:
            guard let exact = Int64(exactly: value) else { throw Self.outOfRange(path) }
            self = .integer(exact)
        case let value as Double: self = try Self.finite(value, at: path)
        case let value as Float: self = try Self.finite(Double(value), at: path)
        case let value as Data: self = .binary(value)
        case is NSNull: self = .null
        case let value as [String: Any]:
            guard depth < Self.maxNestingDepth else { throw Self.tooDeep(at: path) }
            var object: [String: TransmitterValue] = [:]
            for key in value.keys.sorted() {
                object[key] = try TransmitterValue(any: value[key]!, at: path.isEmpty ? key : path + "." + key, depth: depth + 1)
            }
            self = .object(object)
        case let value as [Any]:
            guard depth < Self.maxNestingDepth else { throw Self.tooDeep(at: path) }
            var array: [TransmitterValue] = []
            array.reserveCapacity(value.count)
            for (index, element) in value.enumerated() {
                array.append(try TransmitterValue(any: element, at: path + "[\(index)]", depth: depth + 1))
            }
            self = .array(array)
        default:
            if case .optional = Mirror(reflecting: value).displayStyle {
                let child = Mirror(reflecting: value).children.first
                if let child { self = try TransmitterValue(any: child.value, at: path, depth: depth) } else { self = .null }
                return
            }
            throw TransmitterError.unsupportedDictionaryValue.with(detail: "\(path): \(type(of: value))")
        }
    }

    private static func finite(_ value: Double, at path: String) throws(TransmitterError) -> TransmitterValue {
        guard value.isFinite else { throw TransmitterError.nonFiniteNumber.with(detail: "\(path): \(value)") }
        return .number(value)
    }

    private static func outOfRange(_ path: String) -> TransmitterError {
        TransmitterError.unsupportedDictionaryValue.with(detail: "\(path): unsigned integer above Int64.max")
    }
}
