import BlueproofCapture
import BlueproofWire
import Testing
@testable import BlueproofConformance

/// What the runner reads from the commands an implementation under test sends its controller.
@Suite("DUTActivity: an implementation's signs of life, from its HCI commands")
struct DUTActivityTests {
    static func command(_ opcode: UInt16, _ parameters: [UInt8]) -> H4Packet {
        H4Packet(type: .command, payload: [UInt8(opcode & 0xFF), UInt8(opcode >> 8), UInt8(parameters.count)] + parameters)
    }

    @Test("advertising and scanning count once enabled (legacy or extended); disabling, events and short packets do not")
    func signs() {
        var activity = DUTActivity()
        let changed1 = activity.observe(.sent, Self.command(0x200A, [0]))
        #expect(!changed1)
        let changed2 = activity.observe(.received, Self.command(0x200A, [1]))
        #expect(!changed2)
        let changed3 = activity.observe(.sent, H4Packet(type: .command, payload: [0x0A, 0x20]))
        #expect(!changed3)
        #expect(!activity.advertisingEnabled)
        let changed4 = activity.observe(.sent, Self.command(0x200A, [1]))
        #expect(changed4)
        #expect(activity.advertisingEnabled)
        var extended = DUTActivity()
        let changed5 = extended.observe(.sent, Self.command(0x2039, [1, 1, 0, 0, 0, 0, 0]))
        #expect(changed5)
        #expect(extended.advertisingEnabled && !extended.scanningEnabled)
        let changed6 = extended.observe(.sent, Self.command(0x2042, [1, 0, 0, 0, 0, 0]))
        #expect(changed6)
        #expect(extended.scanningEnabled)
        let changed7 = extended.observe(.sent, Self.command(0x200D, Array(repeating: 0, count: 25)))
        #expect(changed7)
        let changed8 = extended.observe(.sent, Self.command(0x2043, Array(repeating: 0, count: 10)))
        #expect(changed8)
        #expect(extended.connectionAttempts == 2)
    }
}
