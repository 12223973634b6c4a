import Foundation

/// What one send carries: an optional dictionary and optional binary data, checked and encoded.
///
/// Source: bridgefy-ios-sdk-readme.md, "4. Send data", "Dictionaries", "Binary data (files)".
/// Construction refuses, before anything is sent, any dictionary value that is neither
/// JSON-encodable nor binary, non-finite numbers, and nesting deeper than
/// `TransmitterValue.maxNestingDepth`. Zero-length binary data counts as no
/// binary data (choice C8). The encoding is described in docs/transmitter.md, "Payload encoding".
public struct TransmitterPayload: Hashable, Sendable {
    /// The dictionary, nil if absent. An empty dictionary is present (it encodes as `{}`).
    public let dictionary: [String: TransmitterValue]?
    /// The separate binary part, nil if absent.
    public let binary: Data?
    /// The deterministic JSON of the dictionary, nil if absent.
    public let dictionaryJSON: [UInt8]?

    /// Builds a payload from typed values; refuses non-finite numbers anywhere in the dictionary
    /// and nesting deeper than `TransmitterValue.maxNestingDepth`, before encoding it.
    public init(dictionary: [String: TransmitterValue]?, data: Data? = nil) throws(TransmitterError) {
        if let dictionary {
            for key in dictionary.keys.sorted() { try Self.check(dictionary[key]!, at: key, depth: 1) }
        }
        let binary = (data?.isEmpty ?? true) ? nil : data
        let json = dictionary.map { TransmitterJSON.encode(object: $0) }
        if let json, json.count > Int(UInt32.max) {
            throw TransmitterError.dictionaryTooLarge.with(detail: "\(json.count) bytes exceed the 32-bit length field")
        }
        if let binary, binary.count > Int(UInt32.max) {
            throw TransmitterError.binaryTooLarge.with(detail: "\(binary.count) bytes exceed the 32-bit length field")
        }
        self.dictionary = dictionary
        self.binary = binary
        self.dictionaryJSON = json
    }

    /// Builds a payload from dynamically typed values (as an application would pass them);
    /// refuses anything not JSON-encodable or binary, naming the key path and type.
    public init(anyDictionary: [String: Any]?, data: Data? = nil) throws(TransmitterError) {
        var converted: [String: TransmitterValue]?
        if let anyDictionary {
            var object: [String: TransmitterValue] = [:]
            for key in anyDictionary.keys.sorted() {
                object[key] = try TransmitterValue(any: anyDictionary[key]!, at: key)
            }
            converted = object
        }
        try self.init(dictionary: converted, data: data)
    }

    /// The kind of payload, nil when there is nothing to send.
    public var kind: PayloadKind? {
        PayloadKind(hasDictionary: dictionary != nil, hasBinary: binary != nil)
    }

    /// Encoded size of the dictionary (its JSON) in bytes, nil if absent. This is the size the
    /// dictionary limits apply to.
    public var dictionarySize: Int? { dictionaryJSON?.count }

    /// Size of the separate binary part in bytes, nil if absent.
    public var binarySize: Int? { binary?.count }

    /// The number of bytes `encoded()` produces: 2 header bytes, then a 4-byte length and the
    /// bytes of each part present.
    public var transmissionSize: Int {
        Self.headerSize
            + (dictionaryJSON.map { Self.lengthSize + $0.count } ?? 0)
            + (binary.map { Self.lengthSize + $0.count } ?? 0)
    }

    /// The encoded payload (docs/transmitter.md, "Payload encoding").
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(transmissionSize)
        out.append(Self.formatVersion)
        out.append((dictionaryJSON == nil ? 0 : Self.flagDictionary) | (binary == nil ? 0 : Self.flagBinary))
        if let dictionaryJSON {
            Self.appendLength(dictionaryJSON.count, to: &out)
            out.append(contentsOf: dictionaryJSON)
        }
        if let binary {
            Self.appendLength(binary.count, to: &out)
            out.append(contentsOf: binary)
        }
        return out
    }

    /// A `SendRequest` for this payload; the caller supplies the context.
    public func request(
        options: SendingOptions,
        hasReceiver: Bool,
        receiverInRange: Bool,
        canEncryptToReceiver: Bool,
        mode: ConnectionMode = .automatic,
        link: LinkKind = .ble
    ) -> SendRequest {
        SendRequest(
            options: options, dictionarySize: dictionarySize, binarySize: binarySize,
            hasReceiver: hasReceiver, receiverInRange: receiverInRange,
            canEncryptToReceiver: canEncryptToReceiver, mode: mode, link: link)
    }

    /// Payload encoding version.
    public static let formatVersion: UInt8 = 1
    /// Flag bit: a dictionary part follows.
    public static let flagDictionary: UInt8 = 0x01
    /// Flag bit: a binary part follows.
    public static let flagBinary: UInt8 = 0x02
    static let headerSize = 2
    static let lengthSize = 4

    private static func appendLength(_ length: Int, to out: inout [UInt8]) {
        let value = UInt32(truncatingIfNeeded: length)
        out.append(contentsOf: [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)])
    }

    /// Refuses a non-finite number or a container beyond the nesting limit; `depth` is the level
    /// of the container holding `value`, so the walk never goes deeper than the limit.
    private static func check(_ value: TransmitterValue, at path: String, depth: Int) throws(TransmitterError) {
        switch value {
        case .number(let number) where !number.isFinite:
            throw TransmitterError.nonFiniteNumber.with(detail: "\(path): \(number)")
        case .array, .object, .binary:
            guard depth < TransmitterValue.maxNestingDepth else { throw TransmitterValue.tooDeep(at: path) }
            if case .array(let array) = value {
                for (index, element) in array.enumerated() { try check(element, at: path + "[\(index)]", depth: depth + 1) }
            } else if case .object(let object) = value {
                for key in object.keys.sorted() { try check(object[key]!, at: path + "." + key, depth: depth + 1) }
            }
        default:
            break
        }
    }
}
