/// The Supported_Commands mask of Read Local Supported Commands: 64 octets, one bit per
/// command (Core Vol 4, Part E §6.27). Only the commands this project uses have a known bit
/// here; ``supports(_:)`` answers nil for the others.
public struct HCISupportedCommands: Hashable, Sendable {
    /// Octets in the mask.
    public static let size = 64

    /// Where a command's bit sits: `octet` 0...63, `bit` 0...7 (bit 0 least significant).
    public struct BitPosition: Hashable, Sendable, CustomStringConvertible {
        public var octet: Int
        public var bit: Int
        public init(octet: Int, bit: Int) {
            self.octet = octet
            self.bit = bit
        }
        public var description: String { "octet \(octet) bit \(bit)" }
    }

    /// Exactly 64 octets.
    public let bytes: [UInt8]

    /// Takes the mask as the controller returned it; missing octets count as zero (nothing
    /// supported) and octets past the 64th are ignored.
    public init(_ bytes: [UInt8]) {
        var octets = Array(bytes.prefix(Self.size))
        octets += repeatElement(0, count: Self.size - octets.count)
        self.bytes = octets
    }

    /// A mask with exactly the given commands' bits set; commands without a known bit are
    /// left out.
    public init(supporting opcodes: some Sequence<HCIOpcode>) {
        var octets = [UInt8](repeating: 0, count: Self.size)
        for opcode in opcodes {
            if let position = Self.position(of: opcode) {
                octets[position.octet] |= 1 << position.bit
            }
        }
        self.bytes = octets
    }

    /// True or false when the command has a known bit, nil when it has none here.
    public func supports(_ opcode: HCIOpcode) -> Bool? {
        guard let position = Self.position(of: opcode) else { return nil }
        return bytes[position.octet] & (1 << position.bit) != 0
    }

    /// The commands with a known bit that are set, in opcode order.
    public var supportedOpcodes: [HCIOpcode] {
        Self.positions.keys.filter { supports($0) == true }.sorted()
    }

    /// True when the controller offers the extended advertising commands a host needs
    /// instead of the legacy ones (parameters, data, enable).
    public var supportsExtendedAdvertising: Bool {
        [HCIOpcode.leSetExtendedAdvertisingParameters, .leSetExtendedAdvertisingData, .leSetExtendedAdvertisingEnable]
            .allSatisfy { supports($0) == true }
    }

    /// True when the controller offers extended scanning (parameters and enable).
    public var supportsExtendedScanning: Bool {
        [HCIOpcode.leSetExtendedScanParameters, .leSetExtendedScanEnable].allSatisfy { supports($0) == true }
    }

    public static func position(of opcode: HCIOpcode) -> BitPosition? { positions[opcode] }

    /// The bit of every command this project knows (Core Vol 4, Part E §6.27, Table 6.27).
    ///
    /// Read Local Supported Commands itself has no bit: octet 14 bit 4 is reserved in current
    /// versions of the table (early tables used it for this command; controllers differ).
    public static let positions: [HCIOpcode: BitPosition] = [
        .disconnect: BitPosition(octet: 0, bit: 5),
        .setEventMask: BitPosition(octet: 5, bit: 6),
        .reset: BitPosition(octet: 5, bit: 7),
        .readLocalVersionInformation: BitPosition(octet: 14, bit: 3),
        .readLocalSupportedFeatures: BitPosition(octet: 14, bit: 5),
        .readBufferSize: BitPosition(octet: 14, bit: 7),
        .readBDADDR: BitPosition(octet: 15, bit: 1),
        .readRSSI: BitPosition(octet: 15, bit: 5),
        .leSetEventMask: BitPosition(octet: 25, bit: 0),
        .leReadBufferSize: BitPosition(octet: 25, bit: 1),
        .leReadLocalSupportedFeatures: BitPosition(octet: 25, bit: 2),
        .leSetRandomAddress: BitPosition(octet: 25, bit: 4),
        .leSetAdvertisingParameters: BitPosition(octet: 25, bit: 5),
        .leSetAdvertisingData: BitPosition(octet: 25, bit: 7),
        .leSetScanResponseData: BitPosition(octet: 26, bit: 0),
        .leSetAdvertisingEnable: BitPosition(octet: 26, bit: 1),
        .leSetScanParameters: BitPosition(octet: 26, bit: 2),
        .leSetScanEnable: BitPosition(octet: 26, bit: 3),
        .leCreateConnection: BitPosition(octet: 26, bit: 4),
        .leCreateConnectionCancel: BitPosition(octet: 26, bit: 5),
        .leConnectionUpdate: BitPosition(octet: 27, bit: 2),
        .leSetDataLength: BitPosition(octet: 33, bit: 6),
        .leSetAdvertisingSetRandomAddress: BitPosition(octet: 36, bit: 1),
        .leSetExtendedAdvertisingParameters: BitPosition(octet: 36, bit: 2),
        .leSetExtendedAdvertisingData: BitPosition(octet: 36, bit: 3),
        .leSetExtendedScanResponseData: BitPosition(octet: 36, bit: 4),
        .leSetExtendedAdvertisingEnable: BitPosition(octet: 36, bit: 5),
        .leReadMaximumAdvertisingDataLength: BitPosition(octet: 36, bit: 6),
        .leRemoveAdvertisingSet: BitPosition(octet: 37, bit: 0),
        .leSetExtendedScanParameters: BitPosition(octet: 37, bit: 5),
        .leSetExtendedScanEnable: BitPosition(octet: 37, bit: 6),
        .leExtendedCreateConnection: BitPosition(octet: 37, bit: 7),
        .leReadBufferSizeV2: BitPosition(octet: 41, bit: 5),
    ]
}

/// The LE features a link layer supports, as LE Read Local Supported Features returns them
/// (Core Vol 6, Part B §4.6). An open set of 64 bits; the first 17 are named.
public struct HCILEFeatures: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static let encryption = HCILEFeatures(rawValue: 1 << 0)
    public static let connectionParametersRequestProcedure = HCILEFeatures(rawValue: 1 << 1)
    public static let extendedRejectIndication = HCILEFeatures(rawValue: 1 << 2)
    public static let peripheralInitiatedFeaturesExchange = HCILEFeatures(rawValue: 1 << 3)
    public static let ping = HCILEFeatures(rawValue: 1 << 4)
    public static let dataPacketLengthExtension = HCILEFeatures(rawValue: 1 << 5)
    public static let llPrivacy = HCILEFeatures(rawValue: 1 << 6)
    public static let extendedScannerFilterPolicies = HCILEFeatures(rawValue: 1 << 7)
    public static let le2MPHY = HCILEFeatures(rawValue: 1 << 8)
    public static let stableModulationIndexTransmitter = HCILEFeatures(rawValue: 1 << 9)
    public static let stableModulationIndexReceiver = HCILEFeatures(rawValue: 1 << 10)
    public static let leCodedPHY = HCILEFeatures(rawValue: 1 << 11)
    public static let extendedAdvertising = HCILEFeatures(rawValue: 1 << 12)
    public static let periodicAdvertising = HCILEFeatures(rawValue: 1 << 13)
    public static let channelSelectionAlgorithm2 = HCILEFeatures(rawValue: 1 << 14)
    public static let powerClass1 = HCILEFeatures(rawValue: 1 << 15)
    public static let minimumNumberOfUsedChannelsProcedure = HCILEFeatures(rawValue: 1 << 16)

    /// The named features in bit order, with the specification's names.
    static let named: [(HCILEFeatures, String)] = [
        (.encryption, "LE Encryption"),
        (.connectionParametersRequestProcedure, "Connection Parameters Request Procedure"),
        (.extendedRejectIndication, "Extended Reject Indication"),
        (.peripheralInitiatedFeaturesExchange, "Peripheral-initiated Features Exchange"),
        (.ping, "LE Ping"),
        (.dataPacketLengthExtension, "LE Data Packet Length Extension"),
        (.llPrivacy, "LL Privacy"),
        (.extendedScannerFilterPolicies, "Extended Scanner Filter Policies"),
        (.le2MPHY, "LE 2M PHY"),
        (.stableModulationIndexTransmitter, "Stable Modulation Index - Transmitter"),
        (.stableModulationIndexReceiver, "Stable Modulation Index - Receiver"),
        (.leCodedPHY, "LE Coded PHY"),
        (.extendedAdvertising, "LE Extended Advertising"),
        (.periodicAdvertising, "LE Periodic Advertising"),
        (.channelSelectionAlgorithm2, "Channel Selection Algorithm #2"),
        (.powerClass1, "LE Power Class 1"),
        (.minimumNumberOfUsedChannelsProcedure, "Minimum Number of Used Channels Procedure"),
    ]

    /// The names of the set features, in bit order; set bits without a name here appear as
    /// `bit N`.
    public var names: [String] {
        var result: [String] = []
        for bit in 0..<64 {
            let feature = HCILEFeatures(rawValue: 1 << UInt64(bit))
            guard contains(feature) else { continue }
            result.append(Self.named.first { $0.0 == feature }?.1 ?? "bit \(bit)")
        }
        return result
    }

    /// `0x…` followed by the set features' names.
    public var description: String {
        let list = names
        return list.isEmpty ? "0x\(hex(rawValue))" : "0x\(hex(rawValue)) (\(list.joined(separator: ", ")))"
    }
}
