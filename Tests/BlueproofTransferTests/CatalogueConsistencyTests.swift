import Foundation
import Testing

/// Keeps `Conformance/catalogue.yaml` honest against the profile, the source documents and the
/// test suite. The YAML is read as text with the fixed layout described in `Conformance/README.md`
/// (one field per line, flow lists, double-quoted strings), so no YAML library is needed.
@Suite("Conformance catalogue")
struct CatalogueConsistencyTests {
    /// The five source documents (docs/design.md, "Sources"); the catalogue's own
    /// `documents:` list must name exactly these.
    static let sourceDocuments: Set<String> = [
        "bridgefy-ios-sdk-readme.md",
        "corebluetooth-transfer-sample.md",
        "bluenet-lib-ios-readme.md",
        "spark-data-transfer-readme.md",
        "bridgefy-chat-app-tutorial.md",
    ]
    static let kinds: Set<String> = ["api", "air", "capture"]
    static let statuses: Set<String> = ["implemented", "planned"]

    let catalogue: Catalogue
    let profileKeys: Set<String>

    init() throws {
        catalogue = try Catalogue(text: try Self.read("Conformance/catalogue.yaml"))
        profileKeys = Self.dottedKeys(try Self.read("Conformance/profiles/bridgefy-ios.yaml"))
    }

    @Test("both files are schema version 1")
    func versions() throws {
        #expect(catalogue.version == "1")
        let profile = try Self.read("Conformance/profiles/bridgefy-ios.yaml")
        #expect(profile.split(separator: "\n").contains("version: 1"))
    }

    @Test("the catalogue has cases, every one with all its fields")
    func fields() {
        #expect(catalogue.cases.count >= 100)
        for item in catalogue.cases {
            #expect(!item.title.isEmpty, "\(item.id): no title")
            #expect(!item.document.isEmpty && !item.section.isEmpty, "\(item.id): no source")
            let knownKind = Self.kinds.contains(item.kind), knownStatus = Self.statuses.contains(item.status)
            #expect(knownKind, "\(item.id): kind '\(item.kind)'")
            #expect(knownStatus, "\(item.id): status '\(item.status)'")
            #expect(item.hasProfile, "\(item.id): no profile line")
            if item.status == "implemented" {
                #expect(!item.checks.isEmpty, "\(item.id): implemented without a check")
            } else {
                #expect(item.checks.isEmpty, "\(item.id): planned but names a check")
            }
        }
    }

    @Test("ids are well-formed, unique, and belong to their group")
    func ids() throws {
        let pattern = try Regex("^[A-Z]+/[A-Z]+/B[VI]-[0-9][0-9]$")
        var seen: Set<String> = []
        for item in catalogue.cases {
            #expect(item.id.wholeMatch(of: pattern) != nil, "malformed id '\(item.id)'")
            #expect(seen.insert(item.id).inserted, "duplicate id \(item.id)")
            #expect(item.id.hasPrefix(item.group + "/"), "\(item.id) listed under group \(item.group)")
        }
        let groups = catalogue.cases.map(\.group)
        #expect(Set(groups).count == catalogue.groupCount, "a group code appears twice")
    }

    @Test("sources name the five documents and a heading inside them")
    func sources() throws {
        #expect(Set(catalogue.documents) == Self.sourceDocuments)
        let folder = Self.documentsFolder()
        for item in catalogue.cases {
            #expect(Self.sourceDocuments.contains(item.document), "\(item.id): unknown document \(item.document)")
            guard let folder else { continue }
            let text = try String(contentsOfFile: folder + "/" + item.document, encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
            let found = lines.contains { $0.hasPrefix("#") && $0.contains(item.section) }
                || lines.first.map { $0.trimmingCharacters(in: .whitespaces) == item.section } == true
            #expect(found, "\(item.id): no heading '\(item.section)' in \(item.document)")
        }
    }

    @Test("attack cases cite a listed paper and its section; no other case cites one")
    func attacks() {
        for item in catalogue.cases {
            if item.group == "BFT/ATK" {
                let known = item.paper.map { catalogue.paperKeys.contains($0) } ?? false
                #expect(known, "\(item.id): attack case without a listed paper")
                #expect(item.paperSection?.isEmpty == false, "\(item.id): attack case without the paper's section")
            } else {
                #expect(item.paper == nil, "\(item.id): only BFT/ATK cases cite a paper")
            }
        }
    }

    @Test("every profile value a case reads exists in the profile")
    func profileKeysExist() {
        #expect(profileKeys.contains("bridgefy.limits.ble.mesh_dictionary_bytes"))
        #expect(profileKeys.contains("bridgefy.limits.mesh_dictionary_bytes"), "both contradicting mesh limits are kept")
        for item in catalogue.cases {
            for key in item.profile {
                let exists = profileKeys.contains(key)
                #expect(exists, "\(item.id): profile has no \(key)")
            }
        }
    }

    @Test("every check names a test function that exists in the named file")
    func checksExist() throws {
        for item in catalogue.cases {
            for check in item.checks {
                let parts = check.split(separator: "#", maxSplits: 1).map(String.init)
                #expect(parts.count == 2 && parts[0].hasPrefix("Tests/"), "\(item.id): check '\(check)' is not Tests/<file>#<function>")
                guard parts.count == 2 else { continue }
                let path = Self.repositoryRoot + "/" + parts[0]
                guard let source = try? String(contentsOfFile: path, encoding: .utf8) else {
                    Issue.record("\(item.id): no file \(parts[0])")
                    continue
                }
                let defined = source.contains("func \(parts[1])(")
                #expect(defined, "\(item.id): no func \(parts[1]) in \(parts[0])")
            }
        }
    }

    @Test("contradictions a case refers to are listed")
    func contradictions() {
        #expect(catalogue.contradictionKeys.contains("mesh-dictionary-limit"))
        for item in catalogue.cases {
            if let key = item.contradiction {
                #expect(catalogue.contradictionKeys.contains(key), "\(item.id): unknown contradiction \(key)")
            }
        }
    }

    // MARK: - Reading

    static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static func read(_ relative: String) throws -> String {
        try String(contentsOfFile: repositoryRoot + "/" + relative, encoding: .utf8)
    }

    /// Where the source documents are on this machine, if anywhere: the repository's `docs/` or
    /// the shared folder beside the checkout. Without them only the embedded names are checked.
    static func documentsFolder() -> String? {
        let candidates = [repositoryRoot + "/docs", repositoryRoot + "/../shared/docs"]
        return candidates.first { folder in
            sourceDocuments.allSatisfy { FileManager.default.fileExists(atPath: folder + "/" + $0) }
        }
    }

    /// Every dotted path of a YAML file made of nested block mappings (two spaces a level).
    static func dottedKeys(_ text: String) -> Set<String> {
        var stack: [(indent: Int, key: String)] = []
        var keys: Set<String> = []
        for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = String(raw)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#"), !trimmed.hasPrefix("-"),
                  let colon = trimmed.firstIndex(of: ":") else { continue }
            let key = String(trimmed[..<colon])
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { continue }
            let indent = line.prefix { $0 == " " }.count
            while let last = stack.last, last.indent >= indent { stack.removeLast() }
            stack.append((indent, key))
            keys.insert(stack.map(\.key).joined(separator: "."))
        }
        return keys
    }
}

/// The catalogue as read line by line.
struct Catalogue {
    struct Case {
        var id: String
        var group: String
        var title = ""
        var document = ""
        var section = ""
        var kind = ""
        var hasProfile = false
        var profile: [String] = []
        var status = ""
        var checks: [String] = []
        var contradiction: String?
        var paper: String?
        var paperSection: String?
    }

    var version = ""
    var documents: [String] = []
    var contradictionKeys: Set<String> = []
    var paperKeys: Set<String> = []
    var groupCount = 0
    var cases: [Case] = []

    init(text: String) throws {
        var section = ""
        var group = ""
        for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = String(raw)
            if line.hasPrefix("#") { continue }
            if !line.hasPrefix(" ") {
                section = Self.field(line)?.key ?? ""
                if section == "version" { version = Self.field(line)?.value ?? "" }
                continue
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let isItem = trimmed.hasPrefix("- ")
            let body = isItem ? String(trimmed.dropFirst(2)) : trimmed
            switch section {
            case "documents" where isItem:
                documents.append(body)
            case "contradictions":
                if isItem, let pair = Self.field(body), pair.key == "key" { contradictionKeys.insert(pair.value) }
            case "papers":
                if isItem, let pair = Self.field(body), pair.key == "key" { paperKeys.insert(pair.value) }
            case "groups":
                guard let pair = Self.field(body) else { continue }
                let (key, value) = (pair.key, pair.value)
                if key == "code", isItem {
                    group = value
                    groupCount += 1
                } else if key == "id", isItem {
                    cases.append(Case(id: value, group: group))
                } else if !cases.isEmpty, cases[cases.count - 1].group == group, line.hasPrefix("        ") {
                    Self.apply(key, value, to: &cases[cases.count - 1])
                }
            default:
                continue
            }
        }
    }

    static func apply(_ key: String, _ value: String, to item: inout Case) {
        switch key {
        case "title": item.title = unquote(value)
        case "kind": item.kind = value
        case "status": item.status = value
        case "profile":
            item.hasProfile = true
            item.profile = list(value)
        case "check": item.checks = list(value)
        case "contradiction": item.contradiction = value
        case "attack":
            // {paper: <key>, section: "<heading>"}
            var inner = value
            if inner.hasPrefix("{") { inner.removeFirst() }
            if inner.hasSuffix("}") { inner.removeLast() }
            if let comma = inner.range(of: ", section: ") {
                item.paperSection = unquote(String(inner[comma.upperBound...]))
                inner = String(inner[..<comma.lowerBound])
            }
            if inner.hasPrefix("paper: ") { item.paper = String(inner.dropFirst("paper: ".count)) }
        case "source":
            // {document: <file>, section: "<heading>"}
            var inner = value
            if inner.hasPrefix("{") { inner.removeFirst() }
            if inner.hasSuffix("}") { inner.removeLast() }
            if let comma = inner.range(of: ", section: ") {
                item.section = unquote(String(inner[comma.upperBound...]))
                inner = String(inner[..<comma.lowerBound])
            }
            if inner.hasPrefix("document: ") { item.document = String(inner.dropFirst("document: ".count)) }
        default: break
        }
    }

    /// `key: value` split at the first ": " (or a trailing ":").
    static func field(_ text: String) -> (key: String, value: String)? {
        if let range = text.range(of: ": ") {
            return (String(text[..<range.lowerBound]), String(text[range.upperBound...]).trimmingCharacters(in: .whitespaces))
        }
        if text.hasSuffix(":") { return (String(text.dropLast()), "") }
        return nil
    }

    static func list(_ value: String) -> [String] {
        var inner = value.trimmingCharacters(in: .whitespaces)
        guard inner.hasPrefix("["), inner.hasSuffix("]") else { return inner.isEmpty ? [] : [inner] }
        inner.removeFirst()
        inner.removeLast()
        return inner.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func unquote(_ value: String) -> String {
        guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return value }
        return String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
    }
}
