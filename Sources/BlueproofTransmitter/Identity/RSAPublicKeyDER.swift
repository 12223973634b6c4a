import _CryptoExtras

/// Reads an RSA SubjectPublicKeyInfo (RFC 5280 §4.1, RFC 8017 §A.1.1) strictly, before any of
/// it reaches BoringSSL: swift-crypto's DER initialiser frees its key twice when both of its
/// parses fail (`BoringSSLRSAPublicKey.Backing`, swift-crypto 3.x), so DER from a peer or an
/// import never goes there. The key is built from the modulus and exponent instead.
///
///     SEQUENCE { SEQUENCE { OID rsaEncryption, NULL }, BIT STRING { 0, SEQUENCE { INTEGER n, INTEGER e } } }
enum RSAPublicKeyDER {
    /// The longest DER taken: an RSA-4096 SPKI is 550 bytes.
    static let maxLength = 1024
    static let rsaEncryption: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01, 0x05, 0x00]

    /// The key `der` holds, or `.invalidPublicKey` naming what is wrong.
    static func publicKey(_ der: [UInt8]) throws(TransmitterError) -> _RSA.Encryption.PublicKey {
        let (n, e) = try components(der)
        do {
            return try _RSA.Encryption.PublicKey(n: n, e: e)
        } catch {
            throw .invalidPublicKey.with(detail: "the RSA modulus and exponent do not make a key")
        }
    }

    /// The modulus and exponent, as the DER's INTEGER contents.
    static func components(_ der: [UInt8]) throws(TransmitterError) -> (n: [UInt8], e: [UInt8]) {
        guard der.count <= maxLength else {
            throw .invalidPublicKey.with(detail: "encryption key of \(der.count) bytes is over \(maxLength)")
        }
        var outer = Reader(der[...])
        var spki = try outer.element(0x30)
        try outer.end()
        guard Array(try spki.element(0x30).bytes) == rsaEncryption else {
            throw .invalidPublicKey.with(detail: "encryption key is not rsaEncryption")
        }
        var bits = try spki.element(0x03)
        try spki.end()
        guard bits.bytes.first == 0 else { throw .invalidPublicKey.with(detail: "encryption key's BIT STRING has unused bits") }
        bits.bytes = bits.bytes.dropFirst()
        var key = try bits.element(0x30)
        try bits.end()
        let n = try key.element(0x02).bytes
        let e = try key.element(0x02).bytes
        try key.end()
        return (Array(n), Array(e))
    }

    /// DER elements one after another: tag, definite length (short or long form), contents.
    struct Reader {
        var bytes: ArraySlice<UInt8>
        init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

        mutating func element(_ tag: UInt8) throws(TransmitterError) -> Reader {
            guard bytes.first == tag else { throw .invalidPublicKey.with(detail: "encryption key: expected DER tag \(tag)") }
            bytes = bytes.dropFirst()
            guard let first = bytes.first else { throw .invalidPublicKey.with(detail: "encryption key: DER cut short") }
            bytes = bytes.dropFirst()
            var length = Int(first)
            if first & 0x80 != 0 {
                let count = Int(first & 0x7F)
                guard (1...2).contains(count), bytes.count >= count else {
                    throw .invalidPublicKey.with(detail: "encryption key: DER length form not allowed")
                }
                length = bytes.prefix(count).reduce(0) { $0 << 8 | Int($1) }
                bytes = bytes.dropFirst(count)
            }
            guard length <= bytes.count else { throw .invalidPublicKey.with(detail: "encryption key: DER length past its end") }
            let contents = bytes.prefix(length)
            bytes = bytes.dropFirst(length)
            return Reader(contents)
        }

        func end() throws(TransmitterError) {
            guard bytes.isEmpty else { throw .invalidPublicKey.with(detail: "encryption key: bytes after the DER") }
        }
    }
}
