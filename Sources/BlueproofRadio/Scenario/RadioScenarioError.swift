import BlueproofYAML

/// Why a scenario file was refused: where (file, line and column, 1-based, when known) and why.
public struct RadioScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: Int?
    public var reason: String

    public init(file: String, line: Int?, column: Int?, reason: String) {
        self.file = file
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// `file:line:column: reason`, as compilers print it; characters quoted from the file that
    /// could drive a terminal are escaped.
    public var description: String {
        var place = file
        if let line { place += ":\(line)" }
        if let column { place += ":\(column)" }
        return PrintableText.escape("\(place): \(reason)")
    }
}
