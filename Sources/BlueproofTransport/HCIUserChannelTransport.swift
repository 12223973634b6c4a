import CBluetooth
import CBlueproofSystem
import Glibc

/// `hci:N`: the Linux HCI user channel, exclusive raw access to adapter hciN.
///
/// Opens `socket(AF_BLUETOOTH, SOCK_RAW|SOCK_CLOEXEC, BTPROTO_HCI)`, powers the adapter down
/// (HCIDEVDOWN: the user channel only binds to an adapter that is down) and binds
/// `sockaddr_hci{AF_BLUETOOTH, N, HCI_CHANNEL_USER}`. Each read then returns one whole packet
/// led by its H4 indicator and each write takes one, so the H4 deframer works unchanged.
/// The only file of this module that touches libbluetooth's declarations.
enum HCIUserChannelTransport {
    static func open(index: UInt16) throws(TransportError) -> Int32 {
        let fd = bp_transport_raw_socket(AF_BLUETOOTH, BTPROTO_HCI)
        guard fd >= 0 else { throw classify(errno, index: index, operation: "socket(AF_BLUETOOTH)") }

        if bp_transport_hci_dev_down(fd, Int32(index)) != 0, errno != EALREADY {
            let code = errno
            Glibc.close(fd)
            throw classify(code, index: index, operation: "HCIDEVDOWN hci\(index)")
        }
        var address = userChannelAddress(index: index)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_hci>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            Glibc.close(fd)
            throw classify(code, index: index, operation: "bind HCI user channel hci\(index)")
        }
        return fd
    }

    static func userChannelAddress(index: UInt16) -> sockaddr_hci {
        var address = sockaddr_hci()
        address.hci_family = sa_family_t(AF_BLUETOOTH)
        address.hci_dev = index
        address.hci_channel = UInt16(HCI_CHANNEL_USER)
        return address
    }

    /// The bytes of ``userChannelAddress(index:)`` as `bind` receives them.
    static func userChannelAddressBytes(index: UInt16) -> [UInt8] {
        withUnsafeBytes(of: userChannelAddress(index: index)) { Array($0) }
    }

    /// The actionable error for an errno from opening the user channel.
    static func classify(_ code: Int32, index: UInt16, operation: String) -> TransportError {
        switch code {
        case EAFNOSUPPORT: .kernelWithoutBluetooth
        case ENODEV: .noSuchAdapter(index: index)
        case EBUSY, EALREADY: .adapterBusy(index: index)
        case EPERM, EACCES: .permissionDenied(index: index, errno: code)
        default: .io(operation: operation, errno: code)
        }
    }
}
