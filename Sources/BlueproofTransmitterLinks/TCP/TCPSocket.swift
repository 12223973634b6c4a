import CBlueproofSystem
import Foundation
import Glibc
import Synchronization

/// Blocking POSIX socket calls for the TCP link, each run off the cooperative pool.
enum TCPSocket {
    /// A listening socket on `address` (port 0 picks one); returns it and the port bound.
    static func listen(on address: TCPAddress) throws(TCPSocketError) -> (fd: Int32, port: UInt16) {
        let fd = bp_transport_stream_socket(AF_INET, 0)
        guard fd >= 0 else { throw .failed("socket", errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var socketAddress = try socketAddress(address)
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, 16) == 0 else {
            let failure = errno
            Glibc.close(fd)
            throw .failed("bind/listen \(address)", failure)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, UInt16(bigEndian: actual.sin_port))
    }

    /// Connects to `address`; the socket has TCP_NODELAY set.
    static func dial(_ address: TCPAddress) async throws(TCPSocketError) -> Int32 {
        let result: Result<Int32, TCPSocketError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: Result { () throws(TCPSocketError) -> Int32 in try dialNow(address) })
            }
        }
        return try result.get()
    }

    private static func dialNow(_ address: TCPAddress) throws(TCPSocketError) -> Int32 {
        let fd = bp_transport_stream_socket(AF_INET, 0)
        guard fd >= 0 else { throw .failed("socket", errno) }
        var socketAddress = try socketAddress(address)
        let status = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else {
            let failure = errno
            Glibc.close(fd)
            throw .failed("connect \(address)", failure)
        }
        noDelay(fd)
        return fd
    }

    /// No Nagle delay: frames go out as soon as they are written.
    static func noDelay(_ fd: Int32) {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    private static func socketAddress(_ address: TCPAddress) throws(TCPSocketError) -> sockaddr_in {
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = address.port.bigEndian
        guard inet_pton(AF_INET, address.host, &socketAddress.sin_addr) == 1 else { throw .badAddress(address) }
        return socketAddress
    }

    /// Writes every byte (MSG_NOSIGNAL: a closed peer is an error, not SIGPIPE).
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Reads exactly `count` bytes; nil at end of stream or on error.
    static func readExactly(_ fd: Int32, _ count: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let got = out.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + offset, count - offset, 0) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { return nil }
            offset += got
        }
        return out
    }
}

/// Why a socket call failed.
public enum TCPSocketError: Error, Hashable, Sendable, CustomStringConvertible {
    case failed(String, Int32)
    case badAddress(TCPAddress)

    public var description: String {
        switch self {
        case let .failed(call, code): "\(call): \(String(cString: strerror(code)))"
        case let .badAddress(address): "not an IPv4 address: \(address)"
        }
    }
}
