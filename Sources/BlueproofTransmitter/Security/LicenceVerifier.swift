import Crypto
import Foundation

/// Checks offline licences (see `Licence`) against one issuer's Ed25519 public key.
///
/// Source: bridgefy-ios-sdk-readme.md, "Configuring Transmitter Framework without Internet",
/// "2. Start transmitter".
public struct LicenceVerifier: Sendable {
    /// The issuer's Ed25519 public key, 32 bytes.
    public let issuerPublicKey: [UInt8]

    public init(issuerPublicKey: [UInt8]) {
        self.issuerPublicKey = issuerPublicKey
    }

    /// The verifier for licences from `LicenceIssuer.blueproofTest()` (test material only).
    public static let blueproofTestIssuer = LicenceVerifier(issuerPublicKey: BlueproofTestIssuerKey.publicKey)

    /// The licence `text` grants, if it is well formed, signed by this issuer, for `apiKey`
    /// and not expired at `now`. Surrounding whitespace (a trailing newline in the .txt) is
    /// ignored. `.licenceInvalid` or `.licenceExpired` with a detail otherwise.
    public func verify(_ text: String, apiKey: String, now: Date) throws(TransmitterError) -> Licence {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw .licenceInvalid.with(detail: "not two dot-separated parts") }
        guard let payloadBytes = Base64URL.decode(parts[0]), let signature = Base64URL.decode(parts[1]) else {
            throw .licenceInvalid.with(detail: "a part is not base64url")
        }
        guard signature.count == 64 else { throw .licenceInvalid.with(detail: "signature is \(signature.count) bytes, not 64") }
        guard issuerPublicKey.count == 32,
              let key = try? Curve25519.Signing.PublicKey(rawRepresentation: issuerPublicKey) else {
            throw .licenceInvalid.with(detail: "issuer key is not a 32-byte Ed25519 key")
        }
        guard key.isValidSignature(signature, for: Array(parts[0].utf8)) else {
            throw .licenceInvalid.with(detail: "signature does not match this issuer")
        }
        let payload: LicencePayload
        do {
            payload = try JSONDecoder().decode(LicencePayload.self, from: Data(payloadBytes))
        } catch {
            throw .licenceInvalid.with(detail: "payload is not the licence JSON")
        }
        guard let expires = LicencePayload.parse(payload.expires) else {
            throw .licenceInvalid.with(detail: "expires is not an ISO 8601 date")
        }
        guard payload.apiKey == apiKey else { throw .licenceInvalid.with(detail: "licence is for another API key") }
        guard now < expires else { throw .licenceExpired.with(detail: "expired \(payload.expires)") }
        return Licence(apiKey: payload.apiKey, holder: payload.holder, expires: expires)
    }
}
