/// One scalar or flow-list value of a profile, with the line it sits on.
public enum ProfileValue: Hashable, Sendable {
    case int(Int)
    case double(Double)
    case bool(Bool)
    case string(String)
    case null
    case list([ProfileValue])

    /// The type's name in error messages and in the schema.
    public var typeName: String {
        switch self {
        case .int: "integer"
        case .double: "number"
        case .bool: "boolean"
        case .string: "string"
        case .null: "null"
        case .list: "list"
        }
    }

    /// The value as YAML would print it, for messages.
    public var text: String {
        switch self {
        case let .int(value): "\(value)"
        case let .double(value): "\(value)"
        case let .bool(value): "\(value)"
        case let .string(value): value
        case .null: "null"
        case let .list(values): "[" + values.map(\.text).joined(separator: ", ") + "]"
        }
    }
}
