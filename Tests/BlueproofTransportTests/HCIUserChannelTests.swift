import CBlueproofSystem
import Glibc
import Testing
@testable import BlueproofTransport

@Suite("HCI user channel")
struct HCIUserChannelTests {
    @Test("hci:0 on a kernel without AF_BLUETOOTH fails with the typed error")
    func kernelWithoutBluetooth() throws {
        // This machine has no kernel Bluetooth: socket(AF_BLUETOOTH) fails with EAFNOSUPPORT.
        let probe = bp_transport_raw_socket(31, 1)
        let probeErrno = errno
        if probe >= 0 { Glibc.close(probe) }
        try #require(probe < 0 && probeErrno == EAFNOSUPPORT, "this test assumes a kernel without Bluetooth")

        #expect(throws: TransportError.kernelWithoutBluetooth) {
            try openTransport(.hci(index: 0), capture: nil)
        }
        #expect(throws: TransportError.kernelWithoutBluetooth) {
            try openTransport(TransportSpec(parsing: "hci0"), capture: nil)
        }
        #expect(TransportError.kernelWithoutBluetooth.description.contains("CONFIG_BT"))
    }

    @Test("sockaddr_hci bytes: family AF_BLUETOOTH, device, HCI_CHANNEL_USER, little-endian")
    func addressBytes() {
        #expect(HCIUserChannelTransport.userChannelAddressBytes(index: 0) == [0x1F, 0x00, 0x00, 0x00, 0x01, 0x00])
        #expect(HCIUserChannelTransport.userChannelAddressBytes(index: 3) == [0x1F, 0x00, 0x03, 0x00, 0x01, 0x00])
        #expect(HCIUserChannelTransport.userChannelAddressBytes(index: 0x0102) == [0x1F, 0x00, 0x02, 0x01, 0x01, 0x00])
    }

    @Test("errno from the user channel becomes the actionable error")
    func classification() {
        func classify(_ code: Int32) -> TransportError {
            HCIUserChannelTransport.classify(code, index: 1, operation: "bind")
        }
        #expect(classify(EAFNOSUPPORT) == .kernelWithoutBluetooth)
        #expect(classify(ENODEV) == .noSuchAdapter(index: 1))
        #expect(classify(EBUSY) == .adapterBusy(index: 1))
        #expect(classify(EALREADY) == .adapterBusy(index: 1))
        #expect(classify(EPERM) == .permissionDenied(index: 1, errno: EPERM))
        #expect(classify(EACCES) == .permissionDenied(index: 1, errno: EACCES))
        #expect(classify(EINVAL) == .io(operation: "bind", errno: EINVAL))

        #expect(TransportError.adapterBusy(index: 1).description.contains("bluetoothd"))
        #expect(TransportError.adapterBusy(index: 1).description.contains("btmgmt --index 1 power off"))
        #expect(TransportError.permissionDenied(index: 1, errno: EPERM).description.contains("CAP_NET_ADMIN"))
        #expect(TransportError.noSuchAdapter(index: 1).description.contains("hci1"))
    }
}
