/// A decoded packet as a reader sees it: the specification's name and its fields in order.
/// `blueproof inspect` prints it as one line, or as JSON.
public struct HCIPacketDescription: Hashable, Sendable {
    public struct Field: Hashable, Sendable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// e.g. `"LE Set Scan Enable"`, `"Command Complete"`, `"ACL Data"`.
    public var name: String
    public var fields: [Field]
    /// Set when the bytes did not decode; `name` then still says what the packet claimed to be.
    public var malformed: WireError?

    public init(name: String, fields: [Field] = [], malformed: WireError? = nil) {
        self.name = name
        self.fields = fields
        self.malformed = malformed
    }

    /// `name field=value field=value`, or `name [malformed: …]`.
    public var line: String {
        var parts = [name]
        parts += fields.map { "\($0.name)=\($0.value)" }
        if let malformed { parts.append("[malformed: \(malformed)]") }
        return parts.joined(separator: " ")
    }
}
