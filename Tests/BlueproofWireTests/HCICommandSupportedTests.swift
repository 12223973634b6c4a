import Testing
import BlueproofWire

@Suite("Supported commands mask and LE features")
struct HCICommandSupportedTests {
    /// Positions as absolute bit numbers (octet × 8 + bit), as BlueZ writes them, checked
    /// against Bumble's per-octet table and Core Vol 4, Part E §6.27.
    @Test("bit positions", arguments: [
        (HCIOpcode.disconnect, 5), (.setEventMask, 46), (.reset, 47), (.readLocalVersionInformation, 115),
        (.readLocalSupportedFeatures, 117), (.readBufferSize, 119), (.readBDADDR, 121), (.readRSSI, 125),
        (.leSetEventMask, 200), (.leReadBufferSize, 201), (.leReadLocalSupportedFeatures, 202),
        (.leSetRandomAddress, 204), (.leSetAdvertisingParameters, 205), (.leSetAdvertisingData, 207),
        (.leSetScanResponseData, 208), (.leSetAdvertisingEnable, 209), (.leSetScanParameters, 210),
        (.leSetScanEnable, 211), (.leCreateConnection, 212), (.leCreateConnectionCancel, 213),
        (.leConnectionUpdate, 218), (.leSetDataLength, 270), (.leSetAdvertisingSetRandomAddress, 289),
        (.leSetExtendedAdvertisingParameters, 290), (.leReadMaximumAdvertisingDataLength, 294),
        (.leRemoveAdvertisingSet, 296),
        (.leSetExtendedAdvertisingData, 291), (.leSetExtendedScanResponseData, 292),
        (.leSetExtendedAdvertisingEnable, 293), (.leSetExtendedScanParameters, 301),
        (.leSetExtendedScanEnable, 302), (.leExtendedCreateConnection, 303), (.leReadBufferSizeV2, 333),
    ] as [(HCIOpcode, Int)])
    func position(_ opcode: HCIOpcode, _ absoluteBit: Int) {
        var bytes = [UInt8](repeating: 0, count: 64)
        bytes[absoluteBit / 8] = 1 << (absoluteBit % 8)
        let mask = HCISupportedCommands(bytes)
        #expect(mask.supports(opcode) == true)
        // That bit alone answers for that command alone.
        #expect(mask.supportedOpcodes == [opcode])
        #expect(HCISupportedCommands(supporting: [opcode]).bytes == bytes)
    }

    @Test func everyCommandWithACodecHasABitExceptReadLocalSupportedCommands() {
        for opcode in HCICommandCatalogue.knownOpcodes where opcode != .readLocalSupportedCommands {
            #expect(HCISupportedCommands.position(of: opcode) != nil, "\(opcode)")
        }
        #expect(HCISupportedCommands(leOnlyControllerCommands).supports(.readLocalSupportedCommands) == nil)
    }

    @Test func anLEOnlyControllersMask() {
        #expect(leOnlyControllerCommands.count == 64)
        let mask = HCISupportedCommands(leOnlyControllerCommands)
        for opcode: HCIOpcode in [
            .disconnect, .setEventMask, .reset, .readLocalVersionInformation, .readLocalSupportedFeatures,
            .readBDADDR, .readRSSI, .leSetEventMask, .leReadBufferSize, .leReadLocalSupportedFeatures,
            .leSetRandomAddress, .leSetAdvertisingParameters, .leSetAdvertisingData, .leSetScanResponseData,
            .leSetAdvertisingEnable, .leSetScanParameters, .leSetScanEnable, .leCreateConnection,
            .leCreateConnectionCancel, .leConnectionUpdate, .leSetDataLength,
        ] {
            #expect(mask.supports(opcode) == true, "\(opcode)")
        }
        for opcode: HCIOpcode in [
            .readBufferSize, .leSetExtendedAdvertisingParameters, .leSetExtendedAdvertisingData,
            .leSetExtendedAdvertisingEnable, .leSetExtendedScanParameters, .leSetExtendedScanEnable,
            .leExtendedCreateConnection, .leReadBufferSizeV2,
        ] {
            #expect(mask.supports(opcode) == false, "\(opcode)")
        }
        #expect(mask.supports(HCIOpcode(rawValue: 0xFC01)) == nil)
        #expect(!mask.supportsExtendedAdvertising)
        #expect(!mask.supportsExtendedScanning)
    }

    @Test func extendedAdvertisingNeedsAllThreeCommands() {
        let some = HCISupportedCommands(supporting: [.leSetExtendedAdvertisingParameters, .leSetExtendedAdvertisingData])
        #expect(!some.supportsExtendedAdvertising)
        let all = HCISupportedCommands(supporting: [
            .leSetExtendedAdvertisingParameters, .leSetExtendedAdvertisingData, .leSetExtendedAdvertisingEnable,
            .leSetExtendedScanParameters, .leSetExtendedScanEnable,
        ])
        #expect(all.supportsExtendedAdvertising)
        #expect(all.supportsExtendedScanning)
    }

    @Test func shortMasksArePaddedWithUnsupported() {
        var bytes = [UInt8](repeating: 0, count: 10)
        bytes[5] = 0x80
        let mask = HCISupportedCommands(bytes)
        #expect(mask.bytes.count == 64)
        #expect(mask.supports(.reset) == true)
        #expect(mask.supports(.setEventMask) == false)
        #expect(mask.supports(.leSetScanEnable) == false)
    }

    @Test func leFeatureNames() {
        let features = HCILEFeatures(rawValue: 0x59FF)
        #expect(features.contains(.le2MPHY))
        #expect(features.contains(.extendedAdvertising))
        #expect(!features.contains(.periodicAdvertising))
        #expect(features.names == [
            "LE Encryption", "Connection Parameters Request Procedure", "Extended Reject Indication",
            "Peripheral-initiated Features Exchange", "LE Ping", "LE Data Packet Length Extension", "LL Privacy",
            "Extended Scanner Filter Policies", "LE 2M PHY", "LE Coded PHY", "LE Extended Advertising",
            "Channel Selection Algorithm #2",
        ])
        #expect(HCILEFeatures(rawValue: 1 << 16 | 1 << 40).names
                == ["Minimum Number of Used Channels Procedure", "bit 40"])
        #expect(HCILEFeatures(rawValue: 0).names.isEmpty)
    }
}
