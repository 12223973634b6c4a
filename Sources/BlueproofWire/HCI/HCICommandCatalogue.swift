/// The commands this project knows, looked up by opcode: their names and how to describe
/// their parameters and return parameters.
public enum HCICommandCatalogue {
    /// What the catalogue keeps for one command type.
    struct Entry: Sendable {
        let opcode: HCIOpcode
        let name: String
        let decode: @Sendable (HCICommandPacket) throws(WireError) -> any HCICommand & HCIFieldListing
        let describeReturn: @Sendable ([UInt8]) throws(WireError) -> (fields: [HCIPacketDescription.Field], extra: [UInt8])

        init<C: HCICommand & HCIFieldListing>(_ type: C.Type) where C.ReturnParameters: HCIFieldListing {
            opcode = C.opcode
            name = C.name
            decode = { packet throws(WireError) in try packet.decode(as: C.self) }
            describeReturn = { bytes throws(WireError) in
                var reader = ByteReader(bytes, context: "\(C.name) return parameters")
                let value = try C.ReturnParameters(returnParameters: &reader)
                return (value.fieldList, reader.rest())
            }
        }
    }

    /// Every command type with a codec, by opcode.
    static let entries: [HCIOpcode: Entry] = {
        let types: [Entry] = [
            Entry(HCIDisconnect.self),
            Entry(HCISetEventMask.self),
            Entry(HCIReset.self),
            Entry(HCIReadLocalVersionInformation.self),
            Entry(HCIReadLocalSupportedCommands.self),
            Entry(HCIReadLocalSupportedFeatures.self),
            Entry(HCIReadBufferSize.self),
            Entry(HCIReadBDADDR.self),
            Entry(HCIReadRSSI.self),
            Entry(HCILESetEventMask.self),
            Entry(HCILEReadBufferSize.self),
            Entry(HCILEReadBufferSizeV2.self),
            Entry(HCILEReadLocalSupportedFeatures.self),
            Entry(HCILESetRandomAddress.self),
            Entry(HCILESetAdvertisingParameters.self),
            Entry(HCILESetAdvertisingData.self),
            Entry(HCILESetScanResponseData.self),
            Entry(HCILESetAdvertisingEnable.self),
            Entry(HCILESetScanParameters.self),
            Entry(HCILESetScanEnable.self),
            Entry(HCILECreateConnection.self),
            Entry(HCILECreateConnectionCancel.self),
            Entry(HCILEConnectionUpdate.self),
            Entry(HCILESetDataLength.self),
            Entry(HCILESetAdvertisingSetRandomAddress.self),
            Entry(HCILESetExtendedAdvertisingParameters.self),
            Entry(HCILESetExtendedAdvertisingData.self),
            Entry(HCILESetExtendedScanResponseData.self),
            Entry(HCILESetExtendedAdvertisingEnable.self),
            Entry(HCILEReadMaximumAdvertisingDataLength.self),
            Entry(HCILERemoveAdvertisingSet.self),
            Entry(HCILESetExtendedScanParameters.self),
            Entry(HCILESetExtendedScanEnable.self),
            Entry(HCILEExtendedCreateConnection.self),
        ]
        return Dictionary(uniqueKeysWithValues: types.map { ($0.opcode, $0) })
    }()

    /// The opcodes of every command with a codec, in opcode order.
    public static var knownOpcodes: [HCIOpcode] { entries.keys.sorted() }

    /// The name of a known command, nil for an unknown opcode. Commands without a typed
    /// codec are named from their layout; vendor commands (OGF 0x3F) are `"Vendor"`.
    public static func name(of opcode: HCIOpcode) -> String? {
        entries[opcode]?.name ?? HCICommandLayout.all[opcode]?.name ?? (opcode.ogf == vendorOGF ? "Vendor" : nil)
    }

    /// The OGF of vendor-specific commands (Core Vol 4, Part E §5.4.1).
    static let vendorOGF: UInt8 = 0x3F

    /// Decodes a command packet as its typed command; nil for an unknown opcode, throws when
    /// the parameters do not fit the command's layout.
    public static func decode(_ packet: HCICommandPacket) throws(WireError) -> (any HCICommand)? {
        guard let entry = entries[packet.opcode] else { return nil }
        return try entry.decode(packet)
    }

    /// Describes a command packet; unknown opcodes become `"Unknown Command"` with the raw bytes.
    public static func describe(_ packet: HCICommandPacket) -> HCIPacketDescription {
        guard let entry = entries[packet.opcode] else {
            if let layout = HCICommandLayout.all[packet.opcode] { return layout.describe(packet.parameters) }
            return HCIPacketDescription(name: name(of: packet.opcode) ?? "Unknown Command", fields: [
                .init("opcode", packet.opcode.description), .init("parameters", hex(packet.parameters)),
            ])
        }
        do {
            return HCIPacketDescription(name: entry.name, fields: try entry.decode(packet).fieldList)
        } catch {
            return HCIPacketDescription(name: entry.name, fields: [.init("parameters", hex(packet.parameters))],
                                        malformed: error)
        }
    }

    /// Describes the return parameters of a Command Complete for `opcode`: the status first,
    /// then the command's return fields. Octets past the known layout (newer controllers may
    /// append some) are listed as `extra`. A controller that refuses a command may return
    /// the status alone; that is not reported as malformed.
    public static func describeReturn(of opcode: HCIOpcode, _ returnParameters: [UInt8]) -> [HCIPacketDescription.Field] {
        guard let status = returnParameters.first.map(HCIStatus.init(rawValue:)) else {
            let error = WireError(offset: 0, context: "\(name(of: opcode) ?? "Command") return parameters: status",
                                  reason: .truncated(needed: 1, available: 0))
            return [.init("malformed", error.description)]
        }
        let describe: ([UInt8]) throws(WireError) -> (fields: [HCIPacketDescription.Field], extra: [UInt8])
        if let entry = entries[opcode] {
            describe = entry.describeReturn
        } else if let layout = HCICommandLayout.all[opcode], layout.returns != nil {
            describe = layout.describeReturn
        } else {
            var fields: [HCIPacketDescription.Field] = [.describing("status", status)]
            if returnParameters.count > 1 { fields.append(.init("return", hex(returnParameters.dropFirst()))) }
            return fields
        }
        do {
            let (fields, extra) = try describe(returnParameters)
            return extra.isEmpty ? fields : fields + [.init("extra", hex(extra))]
        } catch {
            if status != .success && returnParameters.count == 1 { return [.describing("status", status)] }
            return [.describing("status", status), .init("return", hex(returnParameters.dropFirst())),
                    .init("malformed", error.description)]
        }
    }
}
