import BlueproofTransmitter
import Foundation

/// The protocol's version, sent in the server's `hello` event.
public let controlProtocolVersion = 1

/// One command line, client to server (docs/control-protocol.md, "Commands"). Arguments are
/// optional fields; each command reads the ones it documents.
struct ControlRequest: Codable, Sendable, Equatable {
    var id: Int
    var command: ControlCommand
    var mode: String?
    var dictionary: [String: ControlJSON]?
    var data: String?
    var to: String?
    var options: [String]?
    var user: String?
    var key: String?
    var seconds: Int?
    var level: String?

    init(id: Int, command: ControlCommand) {
        self.id = id
        self.command = command
    }
}

/// The commands, named as the document names the SDK's methods.
enum ControlCommand: String, Codable, Sendable, CaseIterable {
    case start, stop, localUser, send, transmissionSize, connect, disconnect
    case establishSecureConnection, getExpirationLimit, setExpirationLimit
    case localPublicKey, savePublicKey, existsKey, hasSession, destroySession, setLogLevel, saveState
}

/// One answer line, server to client: `ok` with the result fields, or the error.
struct ControlResponse: Codable, Sendable, Equatable {
    var id: Int
    var ok: Bool
    var error: ControlError?
    var packetID: String?
    var size: Int?
    var user: String?
    var key: String?
    var exists: Bool?
    var seconds: Int?

    init(id: Int, ok: Bool = true) {
        self.id = id
        self.ok = ok
    }
}

/// One event line, server to client: the name of a `TransmitterEvent` case and its fields.
struct ControlEvent: Codable, Sendable, Equatable {
    var event: String
    var mode: String?
    var user: String?
    var packetID: String?
    var error: ControlError?
    var reason: String?
    var size: Int?
    var limit: Int?
    var sender: String?
    var dictionary: [String: ControlJSON]?
    var data: String?
    var broadcast: Bool?
    var mesh: Bool?
    var encrypted: Bool?
    var `protocol`: Int?
    var implementation: String?

    init(event: String) { self.event = event }
}

/// Lines in and out: one JSON object per line, UTF-8, ending in a newline.
enum ControlCoding {
    static func line<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // The message types hold only strings, numbers, booleans and finite values.
        let bytes = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Array(bytes) + [0x0A]
    }

    static func decode<T: Decodable>(_ type: T.Type, from line: [UInt8]) throws(TransmitterError) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(line))
        } catch {
            throw .controlChannel("not a \(type) line: \(error)")
        }
    }

    static func userID(_ text: String?, field: String) throws(TransmitterError) -> UserID {
        guard let text, let user = UserID(text) else {
            throw .controlChannel("\(field) must be a user id (UUID), got \(text.map { "\"\($0)\"" } ?? "nothing")")
        }
        return user
    }

    static func binary(_ text: String?) throws(TransmitterError) -> Data? {
        guard let text else { return nil }
        guard let data = Data(base64Encoded: text) else { throw .controlChannel("data is not base64") }
        return data
    }
}

/// Cuts a byte stream into lines (without their newline); a line longer than `limit` is an error.
struct LineSplitter: Sendable {
    static let limit = 16 * 1024 * 1024
    private var pending: [UInt8] = []

    mutating func feed(_ bytes: [UInt8]) throws(TransmitterError) -> [[UInt8]] {
        pending.append(contentsOf: bytes)
        var lines: [[UInt8]] = []
        var start = 0
        while let end = pending[start...].firstIndex(of: 0x0A) {
            lines.append(Array(pending[start..<end]))
            start = end + 1
        }
        pending.removeFirst(start)
        if pending.count > Self.limit { throw .controlChannel("a line is longer than \(Self.limit) bytes") }
        return lines
    }
}
