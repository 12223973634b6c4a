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
