import BlueproofBluenet
import Testing

@Suite("Crownstone control packet")
struct ControlPacketTests {
    /// On is 100, off 0, as a switch command (type 0, reserved, length 1 little-endian).
    @Test func switchCommandsEncode() throws {
        #expect(CrownstoneControlPacket(on: true).bytes == [0, 0, 1, 0, 100])
        #expect(CrownstoneControlPacket(on: false).bytes == [0, 0, 1, 0, 0])
        #expect(try CrownstoneControlPacket(bytes: [0, 0, 1, 0, 42]).switchState == 42)
    }

    /// Anything but a switch command is refused with the reason, never trapped on.
    @Test(arguments: [
        ([], "0 octets"), ([0, 0, 1, 0, 100, 0], "6 octets"), ([1, 0, 1, 0, 100], "command type 1"), ([0, 1, 1, 0, 100], "reserved octet 1"),
        ([0, 0, 2, 0, 100], "payload length 2"), ([0, 0, 1, 0, 101], "switch state 101"),
    ] as [([UInt8], String)])
    func othersAreRefused(bytes: [UInt8], reason: String) {
        #expect {
            _ = try CrownstoneControlPacket(bytes: bytes)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }
}
