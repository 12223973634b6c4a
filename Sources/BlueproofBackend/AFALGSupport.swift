import BlueproofTransport
import Foundation

/// Whether this kernel offers AF_ALG crypto sockets, which btvirt needs to create an LE
/// controller (BlueZ `src/shared/crypto.c` binds `skcipher`/`ecb(aes)` at creation).
public enum AFALGSupport {
    /// nil when AF_ALG works; otherwise why not, e.g. "socket(AF_ALG): Address family not supported".
    public static func missingReason() -> String? {
        let afALG: Int32 = 38
        let fd = socket(afALG, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return "socket(AF_ALG): \(errnoText(errno))" }
        defer { close(fd) }
        // struct sockaddr_alg: family(2) type[14] feat(4) mask(4) name[64]
        var address = [UInt8](repeating: 0, count: 88)
        address[0] = UInt8(afALG)
        for (index, byte) in "skcipher".utf8.enumerated() { address[2 + index] = byte }
        for (index, byte) in "ecb(aes)".utf8.enumerated() { address[24 + index] = byte }
        let result = address.withUnsafeBytes { raw in
            bind(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        return result == 0 ? nil : "bind(AF_ALG skcipher ecb(aes)): \(errnoText(errno))"
    }
}
