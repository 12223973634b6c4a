import Foundation

/// The identifier of a transmitter user: a UUID, written in lowercase with hyphens
/// (the form the document's examples use, e.g. `6655a16c-8209-46c4-9c51-21d8df3efb95`).
///
/// Source: bridgefy-ios-sdk-readme.md, "Session" (a unique identifier assigned to the device)
/// and "4. Send data" (the receiver is named by this string).
public struct UserID: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    public let uuid: UUID

    public init(_ uuid: UUID) { self.uuid = uuid }

    /// Parses the string form; nil if it is not a UUID.
    public init?(_ string: String) {
        guard let uuid = UUID(uuidString: string) else { return nil }
        self.uuid = uuid
    }

    /// A new random identifier.
    public static func random() -> UserID { UserID(UUID()) }

    /// The 16 bytes of the UUID, in order (the wire form).
    public var bytes: [UInt8] {
        withUnsafeBytes(of: uuid.uuid) { Array($0) }
    }

    /// Reads the wire form; nil unless `bytes` holds exactly 16 bytes.
    public init?<Bytes: Collection<UInt8>>(bytes: Bytes) {
        guard bytes.count == 16 else { return nil }
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &raw) { $0.copyBytes(from: bytes) }
        self.uuid = UUID(uuid: raw)
    }

    /// The first five characters, the chat app's name for a peer that has not sent its name
    /// (bridgefy-chat-app-tutorial.md).
    public var shortName: String { String(description.prefix(5)) }

    public var description: String { uuid.uuidString.lowercased() }

    public static func < (lhs: UserID, rhs: UserID) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = UserID(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a user id: \(text)"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
