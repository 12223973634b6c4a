/// One case of Conformance/catalogue.yaml: what it checks, where the behaviour is documented,
/// and which profile values it reads (Conformance/README.md, "Fields").
public struct CatalogueEntry: Hashable, Sendable, Codable {
    public struct Source: Hashable, Sendable, Codable {
        public var document: String
        public var section: String
    }

    public var id: CaseID
    public var title: String
    public var source: Source
    /// `api`, `air` or `capture`.
    public var kind: String
    public var profile: [String]
    /// `implemented` or `planned`.
    public var status: String
    public var check: [String]?
    public var note: String?
    public var contradiction: String?

    /// `document, "section"`.
    public var citation: String { "\(source.document), \"\(source.section)\"" }
}
