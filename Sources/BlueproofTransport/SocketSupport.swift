import CBlueproofSystem
import Glibc

/// Socket plumbing shared by the unix and TCP transports.
enum SocketSupport {
    /// A new `SOCK_STREAM | SOCK_CLOEXEC` socket connected to `address`, or the errno of the
    /// step that failed (nothing is left open then). An EINTR'd connect goes on in the
    /// background, so it waits for the socket to become writable and reads the outcome.
    static func connectedStream(
        family: Int32, protocol: Int32, to address: UnsafePointer<sockaddr>, length: socklen_t
    ) -> Result<Int32, SystemCallFailure> {
        let fd = bp_transport_stream_socket(family, `protocol`)
        guard fd >= 0 else { return .failure(SystemCallFailure(errno: errno)) }
        let code = connect(fd, address, length)
        guard code == 0 else {
            _ = Glibc.close(fd)
            return .failure(SystemCallFailure(errno: code))
        }
        return .success(fd)
    }

    /// Connects `fd` to `address`; returns 0 or the errno.
    private static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        if Glibc.connect(fd, address, length) == 0 { return 0 }
        let code = errno
        guard code == EINTR || code == EINPROGRESS else { return code }
        var one = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        while poll(&one, 1, -1) < 0 {
            guard errno == EINTR else { return errno }
        }
        var outcome: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &outcome, &size) == 0 else { return errno }
        return outcome
    }

    struct SystemCallFailure: Error {
        var errno: Int32
    }

    /// Sets an integer socket option; returns 0 or the errno.
    @discardableResult
    static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) -> Int32 {
        var value = value
        return setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 ? 0 : errno
    }
}
