import Crypto

/// The blueproof TEST licence issuer. TEST-ONLY: the private key is public (it is in this file
/// and in Conformance/licences/test-issuer.key), so a licence it signs proves nothing outside
/// blueproof's own tests and conformance runs.
enum BlueproofTestIssuerKey {
    /// Ed25519 private key, 32 raw bytes (base64 `Ym0LNgmBEDCPa9v/xm4I9LN+Uc83kh5i12STe7fkxYA=`).
    static let privateKey: [UInt8] = [
        0x62, 0x6d, 0x0b, 0x36, 0x09, 0x81, 0x10, 0x30, 0x8f, 0x6b, 0xdb, 0xff, 0xc6, 0x6e, 0x08, 0xf4,
        0xb3, 0x7e, 0x51, 0xcf, 0x37, 0x92, 0x1e, 0x62, 0xd7, 0x64, 0x93, 0x7b, 0xb7, 0xe4, 0xc5, 0x80,
    ]

    /// The public half of `privateKey`.
    static var publicKey: [UInt8] {
        (try? Curve25519.Signing.PrivateKey(rawRepresentation: privateKey)).map { Array($0.publicKey.rawRepresentation) } ?? []
    }
}
