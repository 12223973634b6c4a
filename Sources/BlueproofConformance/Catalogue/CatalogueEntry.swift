/// One case of Conformance/catalogue.yaml: what it checks, where the behaviour is documented,
/// and which profile values it reads (Conformance/README.md, "Fields").
public struct CatalogueEntry: Hashable, Sendable, Codable {
    public struct Source: Hashable, Sendable, Codable {
        public var document: String
        public var section: String
    }

    /// Where a published attack on the Bridgefy SDK is described: a key of the catalogue's
    /// `papers:` list and the section of that paper (BFT/ATK cases only).
    public struct Attack: Hashable, Sendable, Codable {
        public var paper: String
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
    public var attack: Attack?

    /// `document, "section"`.
    public var citation: String { "\(source.document), \"\(source.section)\"" }
}
