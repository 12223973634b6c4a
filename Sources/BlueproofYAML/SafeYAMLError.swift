/// Why a YAML file or text was refused before its values were read: where (1-based line and
/// column, when known) and why. Callers add the file name in their own error type.
public struct SafeYAMLError: Error, Hashable, Sendable {
    public var line: Int?
    public var column: Int?
    public var reason: String

    public init(line: Int? = nil, column: Int? = nil, reason: String) {
        self.line = line
        self.column = column
        self.reason = reason
    }
}
