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

    /// Converts a dynamically typed value, refusing anything not JSON-encodable or binary.
    /// - Parameter path: the key path used in the error detail (e.g. `image` or `list[2]`).
    public init(any value: Any, at path: String) throws(TransmitterError) {
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
            var object: [String: TransmitterValue] = [:]
            for key in value.keys.sorted() {
                object[key] = try TransmitterValue(any: value[key]!, at: path.isEmpty ? key : path + "." + key)
            }
            self = .object(object)
        case let value as [Any]:
            var array: [TransmitterValue] = []
            array.reserveCapacity(value.count)
            for (index, element) in value.enumerated() {
                array.append(try TransmitterValue(any: element, at: path + "[\(index)]"))
            }
            self = .array(array)
        default:
            if case .optional = Mirror(reflecting: value).displayStyle {
                let child = Mirror(reflecting: value).children.first
                if let child { self = try TransmitterValue(any: child.value, at: path) } else { self = .null }
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
