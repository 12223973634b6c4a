import CBlueproofSystem
import Glibc

/// `serial:DEVICE[@BAUD][,noflow]`: H4 over a UART.
///
/// Opens the device O_RDWR|O_NOCTTY|O_CLOEXEC|O_NONBLOCK (non-blocking, so a line without
/// carrier does not block the open; the link keeps every descriptor non-blocking anyway),
/// then sets raw 8N1 at the given rate with CLOCAL, and RTS/CTS hardware flow control unless
/// the spec says `noflow`.
enum SerialTransport {
    static func open(device: String, baudRate: Int, flowControl: Bool, endpoint: String) throws(TransportError) -> Int32 {
        let speed = bp_transport_baud_constant(UInt32(clamping: baudRate))
        guard speed != 0 else {
            throw .invalidSpec(input: endpoint, problem: "this system has no termios speed for \(baudRate) baud")
        }
        let fd = Glibc.open(device, O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .connectFailed(endpoint: endpoint, errno: errno) }
        guard bp_transport_make_raw(fd, speed, flowControl ? 1 : 0) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .connectFailed(endpoint: endpoint, errno: code)
        }
        return fd
    }
}
