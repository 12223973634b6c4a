import Foundation

/// The on-disk JSON form of a `SessionRecord` (format "blueproof-transmitter-session", version 1).
/// Documented in docs/transmitter.md, "Identity, encryption, sessions, licence".
struct SessionFile: Codable {
    static let formatName = "blueproof-transmitter-session"
    static let currentVersion = 1

    var format: String
    var version: Int
    var userID: String
    /// RSA private key, DER (as `_RSA.Encryption.PrivateKey.derRepresentation` writes it), base64.
    var encryptionPrivateKey: String
    /// Ed25519 private key, 32 raw bytes, base64.
    var signingPrivateKey: String
    /// User id → `PublicKeyBundle.base64`.
    var knownKeys: [String: String]
    var secureConnectionExpirationLimit: Int
    /// User id → last activity, seconds since 2001-01-01T00:00:00Z (exact round trip of `Date`).
    var secureConnections: [String: Double]

    init(_ record: SessionRecord) {
        format = Self.formatName
        version = Self.currentVersion
        userID = record.identity.userID.description
        encryptionPrivateKey = Data(record.identity.encryptionPrivateKeyDER).base64EncodedString()
        signingPrivateKey = Data(record.identity.signingKeyRaw).base64EncodedString()
        knownKeys = Dictionary(uniqueKeysWithValues: record.knownKeys.map { ($0.key.description, $0.value.base64) })
        secureConnectionExpirationLimit = record.secureConnectionExpirationLimit
        secureConnections = Dictionary(uniqueKeysWithValues: record.secureConnections.map {
            ($0.key.description, $0.value.timeIntervalSinceReferenceDate)
        })
    }

    /// Encodes with sorted keys, so equal records give equal bytes.
    func encoded() throws(TransmitterError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(self))
        } catch {
            throw .sessionError.with(detail: "cannot encode the session")
        }
    }

    /// Decodes and checks every field; the error text is the reason, without key material.
    static func decode(_ bytes: [UInt8]) throws(SessionFileError) -> SessionRecord {
        let file: SessionFile
        do {
            file = try JSONDecoder().decode(SessionFile.self, from: Data(bytes))
        } catch {
            throw SessionFileError(reason: "not a session JSON document")
        }
        guard file.format == formatName else { throw SessionFileError(reason: "format is not \(formatName)") }
        guard file.version == currentVersion else { throw SessionFileError(reason: "unsupported version \(file.version)") }
        guard let userID = UserID(file.userID) else { throw SessionFileError(reason: "userID is not a UUID") }
        guard let rsa = Data(base64Encoded: file.encryptionPrivateKey),
              let signing = Data(base64Encoded: file.signingPrivateKey) else {
            throw SessionFileError(reason: "private keys are not base64")
        }
        let identity: TransmitterIdentity
        do {
            identity = try TransmitterIdentity(userID: userID, encryptionPrivateKeyDER: Array(rsa), signingPrivateKey: Array(signing))
        } catch {
            throw SessionFileError(reason: "private keys are unusable")
        }
        var known: [UserID: PublicKeyBundle] = [:]
        for (user, key) in file.knownKeys {
            guard let id = UserID(user) else { throw SessionFileError(reason: "knownKeys has a key that is not a UUID") }
            do {
                known[id] = try PublicKeyBundle(base64: key)
            } catch {
                throw SessionFileError(reason: "knownKeys[\(user)]: \(error.detail ?? "invalid")")
            }
        }
        guard file.secureConnectionExpirationLimit >= 0 else {
            throw SessionFileError(reason: "secureConnectionExpirationLimit is negative")
        }
        var connections: [UserID: Date] = [:]
        for (user, seconds) in file.secureConnections {
            guard let id = UserID(user) else { throw SessionFileError(reason: "secureConnections has a key that is not a UUID") }
            guard seconds.isFinite else { throw SessionFileError(reason: "secureConnections[\(user)] is not finite") }
            connections[id] = Date(timeIntervalSinceReferenceDate: seconds)
        }
        return SessionRecord(
            identity: identity, knownKeys: known,
            secureConnectionExpirationLimit: file.secureConnectionExpirationLimit,
            secureConnections: connections)
    }
}

/// Why a session file could not be read (becomes `.sessionError` with the path).
struct SessionFileError: Error {
    var reason: String
}
