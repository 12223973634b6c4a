import Foundation

/// Progress and diagnostics on standard error, so standard output stays the result.
enum Console {
    static func progress(_ text: String) {
        FileHandle.standardError.write(Data("• \(text)\n".utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data("blueproof: \(text)\n".utf8))
    }

    static func json<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}

extension Console {
    /// One compact JSON object on its own line, flushed, for streaming output.
    static func jsonLine<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return }
        line(String(decoding: data, as: UTF8.self))
    }

    /// A line on standard output, flushed at once so a pipe sees it live.
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
