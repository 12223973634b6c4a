import Crypto
import Foundation

/// Issues offline licences (see `Licence`) with an Ed25519 private key. blueproof uses it to
/// make test licences; a real issuer keeps its key elsewhere.
public struct LicenceIssuer: Sendable {
    private let privateKeyRaw: [UInt8]

    /// `privateKey`: 32 raw Ed25519 bytes; `.licenceInvalid` otherwise.
    public init(privateKey: [UInt8]) throws(TransmitterError) {
        guard privateKey.count == 32, (try? Curve25519.Signing.PrivateKey(rawRepresentation: privateKey)) != nil else {
            throw .licenceInvalid.with(detail: "issuer private key is not 32 Ed25519 bytes")
        }
        self.privateKeyRaw = privateKey
    }

    /// The blueproof TEST issuer (key embedded in source, see `BlueproofTestIssuerKey`).
    public static func blueproofTest() throws(TransmitterError) -> LicenceIssuer {
        try LicenceIssuer(privateKey: BlueproofTestIssuerKey.privateKey)
    }

    /// The issuer's public key, for a `LicenceVerifier`.
    public var publicKey: [UInt8] {
        (try? Curve25519.Signing.PrivateKey(rawRepresentation: privateKeyRaw)).map { Array($0.publicKey.rawRepresentation) } ?? []
    }

    /// A licence text for `apiKey`, held by `holder`, valid until `expires` (whole seconds).
    public func issue(apiKey: String, holder: String, expires: Date) throws(TransmitterError) -> String {
        let payload = LicencePayload(apiKey: apiKey, holder: holder, expires: LicencePayload.format(expires))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let json = try? encoder.encode(payload) else {
            throw .licenceInvalid.with(detail: "cannot encode the licence")
        }
        return try signed(payload: Array(json))
    }

    /// `payload` as the first part of a licence, followed by this issuer's signature over it.
    func signed(payload: [UInt8]) throws(TransmitterError) -> String {
        let first = Base64URL.encode(payload)
        do {
            let key = try Curve25519.Signing.PrivateKey(rawRepresentation: privateKeyRaw)
            let signature = Array(try key.signature(for: Array(first.utf8)))
            return first + "." + Base64URL.encode(signature)
        } catch {
            throw .licenceInvalid.with(detail: "cannot sign the licence")
        }
    }
}
