import Glibc
import BlueproofWire

/// Why a transport could not be opened, or why its link ended.
public enum TransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A transport spec string that does not parse; `problem` says what is wrong.
    case invalidSpec(input: String, problem: String)
    /// The endpoint could not be reached or opened; `errno` is the system's reason.
    case connectFailed(endpoint: String, errno: Int32)
    /// The host name of a `tcp:` spec did not resolve; `detail` is the resolver's reason.
    case hostNotFound(host: String, detail: String)
    /// The controller side closed the link (end of file, EPIPE or ECONNRESET).
    case closedByPeer
    /// This side closed the transport: `send` after `close()`.
    case closed
    /// The peer stopped reading: a send found `packets` packets or `bytes` bytes already
    /// waiting for it (``QueuedTransport``), so the link was closed.
    case backlogFull(endpoint: String, packets: Int, bytes: Int)
    /// A system call on an open link failed.
    case io(operation: String, errno: Int32)
    /// The controller sent bytes that are not an H4 stream; nothing after them can be trusted.
    case malformedStream(WireError)
    /// `hci:N`: this kernel has no Bluetooth sockets (EAFNOSUPPORT).
    case kernelWithoutBluetooth
    /// `hci:N`: the kernel knows no adapter hciN (ENODEV).
    case noSuchAdapter(index: UInt16)
    /// `hci:N`: another user holds the adapter (EBUSY/EALREADY), usually bluetoothd.
    case adapterBusy(index: UInt16)
    /// `hci:N`: the HCI user channel needs CAP_NET_ADMIN (EPERM/EACCES).
    case permissionDenied(index: UInt16, errno: Int32)

    /// The spec forms, quoted by every `invalidSpec` message.
    public static let specSyntax =
        "unix:PATH | tcp:HOST:PORT | hci:N (or hciN) | serial:DEVICE[@BAUD][,noflow]"

    public var description: String {
        switch self {
        case let .invalidSpec(input, problem):
            return "invalid transport \"\(input)\": \(problem) (expected \(Self.specSyntax))"
        case let .connectFailed(endpoint, code):
            return "cannot open \(endpoint): \(errnoText(code))"
        case let .hostNotFound(host, detail):
            return "cannot resolve host \"\(host)\": \(detail)"
        case .closedByPeer:
            return "the controller closed the link"
        case .closed:
            return "the transport was closed by this side"
        case let .backlogFull(endpoint, packets, bytes):
            return "\(endpoint) stopped reading: \(packets) packets or \(bytes) bytes were already waiting for it "
                + "(the send queue's limit), so the link was closed"
        case let .io(operation, code):
            return "\(operation) failed: \(errnoText(code))"
        case let .malformedStream(error):
            return "malformed H4 stream from the controller: \(error)"
        case .kernelWithoutBluetooth:
            return "this kernel has no Bluetooth support (socket(AF_BLUETOOTH) failed with EAFNOSUPPORT); "
                + "hci:N needs a Linux kernel built with Bluetooth (CONFIG_BT) and its module loaded (modprobe bluetooth)"
        case let .noSuchAdapter(index):
            return "no Bluetooth adapter hci\(index) (ENODEV); list adapters with `btmgmt info` or `ls /sys/class/bluetooth`"
        case let .adapterBusy(index):
            return "adapter hci\(index) is busy: another program holds it (usually bluetoothd). "
                + "Stop bluetoothd (systemctl stop bluetooth) or power the adapter down with "
                + "`btmgmt --index \(index) power off`, then retry"
        case let .permissionDenied(index, code):
            return "no permission for the HCI user channel on hci\(index) (\(errnoText(code))): "
                + "run as root or grant CAP_NET_ADMIN (e.g. setcap cap_net_admin+ep on the binary)"
        }
    }
}

/// `strerror` text with the number, e.g. "No such file or directory (errno 2)".
public func errnoText(_ code: Int32) -> String {
    "\(String(cString: strerror(code))) (errno \(code))"
}
