/// What a send carries: a dictionary, binary data, or both in one packet.
///
/// Source: bridgefy-ios-sdk-readme.md, "4. Send data" and "Binary data (files)".
/// Binary here is the separate data argument; binary values inside the dictionary are part of
/// the dictionary.
public enum PayloadKind: String, Hashable, Sendable, CaseIterable {
    case dictionary
    case binary
    case dictionaryAndBinary

    /// The kind for the parts present, or nil when nothing is present.
    public init?(hasDictionary: Bool, hasBinary: Bool) {
        switch (hasDictionary, hasBinary) {
        case (true, true): self = .dictionaryAndBinary
        case (true, false): self = .dictionary
        case (false, true): self = .binary
        case (false, false): return nil
        }
    }

    public var hasDictionary: Bool { self != .binary }
    public var hasBinary: Bool { self != .dictionary }
}
