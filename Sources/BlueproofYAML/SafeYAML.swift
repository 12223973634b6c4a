import CYaml
import Foundation
import Yams

/// Loads YAML from files a user names (profiles, radio scenarios) without trusting them: the
/// file is bounded in size, must be UTF-8 text, and may hold neither anchors nor aliases nor
/// nesting deeper than `maxDepth`. These are refused from libyaml's events, *before* Yams
/// composes the tree, since composing expands aliases (nine levels of nine `*a` references,
/// "billion laughs", are 387 million nodes) and recurses once per nesting level.
///
/// libyaml is `CYaml`, the copy Yams builds (Yams declares it as a target, not a product, so it
/// is imported through Yams; Yams 6.2.2 has no public event API).
public enum SafeYAML {
    /// The largest file accepted: 1 MiB. Profiles and scenarios are a few KiB; a bound keeps a
    /// mistaken path (a log, `/dev/zero`) from being read whole.
    public static let maxFileBytes = 1 << 20
    /// The deepest nesting of mappings and sequences accepted: 64 levels. Profiles nest four,
    /// scenarios five; the bound keeps Yams' recursive composer and our readers far from the
    /// end of the stack.
    public static let maxDepth = 64

    /// The text of the file at `path`: refused when missing, not a regular file, larger than
    /// `maxFileBytes`, not UTF-8, or holding a NUL byte (a binary file).
    public static func read(path: String) throws(SafeYAMLError) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw SafeYAMLError(reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw SafeYAMLError(reason: "is a directory, not a file") }
        let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
        guard type == .typeRegular else { throw SafeYAMLError(reason: "is not a regular file") }
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            data = try handle.read(upToCount: maxFileBytes + 1) ?? Data()
        } catch {
            throw SafeYAMLError(reason: "cannot be read: \(error.localizedDescription)")
        }
        guard data.count <= maxFileBytes else { throw tooLarge }
        return try text(of: Array(data))
    }

    static let tooLarge = SafeYAMLError(reason: "is larger than the limit of \(maxFileBytes) bytes (maxFileBytes)")

    /// `bytes` as text; refuses a NUL byte or invalid UTF-8, naming the offset of the first.
    static func text(of bytes: [UInt8]) throws(SafeYAMLError) -> String {
        if let zero = bytes.firstIndex(of: 0) {
            throw SafeYAMLError(reason: "holds a NUL byte at offset \(zero): not a text file")
        }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while case .valid(let scalar) = parser.parseScalar(from: &iterator) { offset += scalar.count }
        throw SafeYAMLError(reason: "is not UTF-8 text (invalid byte at offset \(offset))")
    }

    /// The document's tree, after the checks above; nil for an empty document.
    public static func compose(_ yaml: String) throws(SafeYAMLError) -> Node? {
        guard yaml.utf8.count <= maxFileBytes else { throw tooLarge }
        if let refusal = screen(Array(yaml.utf8)) { throw refusal }
        do {
            return try Yams.compose(yaml: yaml)
        } catch let error as YamlError {
            throw refusal(error)
        } catch {
            throw SafeYAMLError(reason: "\(error)")
        }
    }

    /// The first anchor, alias or too-deep collection in `bytes`, from libyaml's events, which
    /// expand nothing. A syntax error ends the screening: `Yams.compose` reports it.
    static func screen(_ bytes: [UInt8]) -> SafeYAMLError? {
        guard !bytes.isEmpty else { return nil }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return SafeYAMLError(reason: "cannot start the YAML parser") }
        defer { yaml_parser_delete(&parser) }
        return bytes.withUnsafeBufferPointer { buffer -> SafeYAMLError? in
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var depth = 0
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
                defer { yaml_event_delete(&event) }
                let mark = event.start_mark
                func refuse(_ reason: String) -> SafeYAMLError {
                    SafeYAMLError(line: Int(mark.line) + 1, column: Int(mark.column) + 1, reason: reason)
                }
                func anchor(_ name: UnsafeMutablePointer<yaml_char_t>?) -> SafeYAMLError? {
                    name.map { refuse("anchor &\(String(cString: $0)): anchors and aliases are not allowed") }
                }
                switch event.type {
                case YAML_ALIAS_EVENT:
                    let name = event.data.alias.anchor.map { String(cString: $0) } ?? ""
                    return refuse("alias *\(name): anchors and aliases are not allowed")
                case YAML_SCALAR_EVENT:
                    if let refusal = anchor(event.data.scalar.anchor) { return refusal }
                case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                    let name = event.type == YAML_SEQUENCE_START_EVENT ? event.data.sequence_start.anchor : event.data.mapping_start.anchor
                    if let refusal = anchor(name) { return refusal }
                    depth += 1
                    if depth > maxDepth { return refuse("nested deeper than the limit of \(maxDepth) levels (maxDepth)") }
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    depth -= 1
                case YAML_STREAM_END_EVENT:
                    return nil
                default:
                    break
                }
            }
        }
    }

    /// A Yams error as a place and a one-line reason (its description quotes the input).
    static func refusal(_ error: YamlError) -> SafeYAMLError {
        switch error {
        case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _), let .composer(_, problem, mark, _):
            return SafeYAMLError(line: mark.line, column: mark.column, reason: "not YAML: \(problem)")
        case let .duplicatedKeysInMapping(duplicates, context):
            return SafeYAMLError(line: context.mark.line, column: context.mark.column,
                                 reason: "duplicate keys: \(duplicates.joined(separator: ", "))")
        default:
            return SafeYAMLError(reason: "\(error)")
        }
    }
}
