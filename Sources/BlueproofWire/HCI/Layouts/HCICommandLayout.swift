/// A command `inspect` names and describes from its parameter layout, for the commands a host
/// sends that have no typed codec here (Core Vol 4, Part E §7.1–§7.8). `returns` lists the
/// Command Complete return parameters after the status; nil for a command answered by
/// Command Status.
struct HCICommandLayout: Sendable {
    let opcode: HCIOpcode
    let name: String
    let parameters: [HCIParameter]
    let returns: [HCIParameter]?

    init(_ ogf: UInt8, _ ocf: UInt16, _ name: String, _ parameters: [HCIParameter] = [],
         returns: [HCIParameter]? = []) {
        opcode = HCIOpcode(ogf: ogf, ocf: ocf)
        self.name = name
        self.parameters = parameters
        self.returns = returns
    }

    /// Describes the parameters; octets past the layout are listed as `extra`.
    func describe(_ parameters: [UInt8]) -> HCIPacketDescription {
        HCIParameter.describe(name, self.parameters, parameters, baseOffset: 3)
    }

    /// The return parameters after the status, with octets past the layout as `extra`.
    func describeReturn(_ returnParameters: [UInt8]) throws(WireError) -> (fields: [HCIPacketDescription.Field], extra: [UInt8]) {
        var reader = ByteReader(returnParameters, context: "\(name) return parameters")
        let fields = try HCIParameter.fields([.status] + (returns ?? []), from: &reader)
        return (fields, reader.rest())
    }
}

extension HCICommandLayout {
    private static let phyPreference: [HCIParameter] = [.hex8("all_phys"), .hex8("tx_phys"), .hex8("rx_phys")]

    /// Every command described from a layout, by opcode.
    static let all: [HCIOpcode: HCICommandLayout] = {
        let list: [HCICommandLayout] = [
            // Link Control (§7.1).
            .init(0x01, 0x0001, "Inquiry", [.octets("lap", 3), .u8("length"), .u8("num_responses")], returns: nil),
            .init(0x01, 0x0002, "Inquiry Cancel"),
            .init(0x01, 0x0005, "Create Connection", [.address, .hex16("packet_type"), .hex8("page_scan_repetition_mode"),
                                                      .hex8("reserved"), .hex16("clock_offset"), .boolean("allow_role_switch")],
                  returns: nil),
            .init(0x01, 0x0008, "Create Connection Cancel", [.address], returns: [.address]),
            .init(0x01, 0x0009, "Accept Connection Request", [.address, .hex8("role")], returns: nil),
            .init(0x01, 0x000A, "Reject Connection Request", [.address, .reason], returns: nil),
            .init(0x01, 0x000B, "Link Key Request Reply", [.address, .octets("link_key", 16)], returns: [.address]),
            .init(0x01, 0x000C, "Link Key Request Negative Reply", [.address], returns: [.address]),
            .init(0x01, 0x000D, "PIN Code Request Reply", [.address, .u8("pin_length"), .octets("pin", 16)],
                  returns: [.address]),
            .init(0x01, 0x000E, "PIN Code Request Negative Reply", [.address], returns: [.address]),
            .init(0x01, 0x000F, "Change Connection Packet Type", [.handle, .hex16("packet_type")], returns: nil),
            .init(0x01, 0x0011, "Authentication Requested", [.handle], returns: nil),
            .init(0x01, 0x0013, "Set Connection Encryption", [.handle, .boolean("encryption")], returns: nil),
            .init(0x01, 0x0019, "Remote Name Request", [.address, .hex8("page_scan_repetition_mode"), .hex8("reserved"),
                                                        .hex16("clock_offset")], returns: nil),
            .init(0x01, 0x001A, "Remote Name Request Cancel", [.address], returns: [.address]),
            .init(0x01, 0x001B, "Read Remote Supported Features", [.handle], returns: nil),
            .init(0x01, 0x001C, "Read Remote Extended Features", [.handle, .u8("page")], returns: nil),
            .init(0x01, 0x001D, "Read Remote Version Information", [.handle], returns: nil),
            .init(0x01, 0x001F, "Read Clock Offset", [.handle], returns: nil),
            .init(0x01, 0x0028, "Setup Synchronous Connection", [.handle, .rest("parameters")], returns: nil),
            .init(0x01, 0x0029, "Accept Synchronous Connection Request", [.address, .rest("parameters")], returns: nil),
            .init(0x01, 0x002B, "IO Capability Request Reply", [.address, .hex8("io_capability"), .hex8("oob_data_present"),
                                                                .hex8("authentication_requirements")], returns: [.address]),
            .init(0x01, 0x002C, "User Confirmation Request Reply", [.address], returns: [.address]),
            .init(0x01, 0x002D, "User Confirmation Request Negative Reply", [.address], returns: [.address]),
            .init(0x01, 0x002E, "User Passkey Request Reply", [.address, .init("passkey", .u32)], returns: [.address]),
            .init(0x01, 0x002F, "User Passkey Request Negative Reply", [.address], returns: [.address]),
            .init(0x01, 0x0034, "IO Capability Request Negative Reply", [.address, .reason], returns: [.address]),
            // Link Policy (§7.2).
            .init(0x02, 0x0003, "Sniff Mode", [.handle, .hex16("max_interval"), .hex16("min_interval"), .hex16("attempt"),
                                               .hex16("timeout")], returns: nil),
            .init(0x02, 0x0004, "Exit Sniff Mode", [.handle], returns: nil),
            .init(0x02, 0x0009, "Role Discovery", [.handle], returns: [.handle, .hex8("role")]),
            .init(0x02, 0x000B, "Switch Role", [.address, .hex8("role")], returns: nil),
            .init(0x02, 0x000C, "Read Link Policy Settings", [.handle], returns: [.handle, .hex16("link_policy")]),
            .init(0x02, 0x000D, "Write Link Policy Settings", [.handle, .hex16("link_policy")], returns: [.handle]),
            .init(0x02, 0x000E, "Read Default Link Policy Settings", returns: [.hex16("link_policy")]),
            .init(0x02, 0x000F, "Write Default Link Policy Settings", [.hex16("link_policy")]),
            .init(0x02, 0x0011, "Sniff Subrating", [.handle, .u16("max_latency"), .u16("min_remote_timeout"),
                                                    .u16("min_local_timeout")], returns: [.handle]),
            // Controller & Baseband (§7.3).
            .init(0x03, 0x0005, "Set Event Filter", [.hex8("filter_type"), .rest("condition")]),
            .init(0x03, 0x0008, "Flush", [.handle], returns: [.handle]),
            .init(0x03, 0x000D, "Read Stored Link Key", [.address, .boolean("read_all")],
                  returns: [.u16("max_num_keys"), .u16("num_keys_read")]),
            .init(0x03, 0x0012, "Delete Stored Link Key", [.address, .boolean("delete_all")], returns: [.u16("num_keys_deleted")]),
            .init(0x03, 0x0013, "Write Local Name", [.init("name", .name(count: 248))]),
            .init(0x03, 0x0014, "Read Local Name", returns: [.init("name", .name(count: 248))]),
            .init(0x03, 0x0015, "Read Connection Accept Timeout", returns: [.hex16("timeout")]),
            .init(0x03, 0x0016, "Write Connection Accept Timeout", [.hex16("timeout")]),
            .init(0x03, 0x0017, "Read Page Timeout", returns: [.hex16("timeout")]),
            .init(0x03, 0x0018, "Write Page Timeout", [.hex16("timeout")]),
            .init(0x03, 0x0019, "Read Scan Enable", returns: [.hex8("scan_enable")]),
            .init(0x03, 0x001A, "Write Scan Enable", [.hex8("scan_enable")]),
            .init(0x03, 0x001B, "Read Page Scan Activity", returns: [.hex16("interval"), .hex16("window")]),
            .init(0x03, 0x001C, "Write Page Scan Activity", [.hex16("interval"), .hex16("window")]),
            .init(0x03, 0x001D, "Read Inquiry Scan Activity", returns: [.hex16("interval"), .hex16("window")]),
            .init(0x03, 0x001E, "Write Inquiry Scan Activity", [.hex16("interval"), .hex16("window")]),
            .init(0x03, 0x001F, "Read Authentication Enable", returns: [.hex8("enable")]),
            .init(0x03, 0x0020, "Write Authentication Enable", [.hex8("enable")]),
            .init(0x03, 0x0023, "Read Class of Device", returns: [.init("class", .hex(width: 3))]),
            .init(0x03, 0x0024, "Write Class of Device", [.init("class", .hex(width: 3))]),
            .init(0x03, 0x0025, "Read Voice Setting", returns: [.hex16("voice_setting")]),
            .init(0x03, 0x0026, "Write Voice Setting", [.hex16("voice_setting")]),
            .init(0x03, 0x002D, "Read Transmit Power Level", [.handle, .hex8("type")], returns: [.handle, .init("tx_power", .dBm)]),
            .init(0x03, 0x0031, "Set Controller To Host Flow Control", [.hex8("flow_control")]),
            .init(0x03, 0x0033, "Host Buffer Size", [.u16("acl_mtu"), .u8("sco_mtu"), .u16("acl_max_packets"),
                                                     .u16("sco_max_packets")]),
            .init(0x03, 0x0035, "Host Number of Completed Packets", [.u8("num_handles"), .rest("handles")], returns: nil),
            .init(0x03, 0x0036, "Read Link Supervision Timeout", [.handle], returns: [.handle, .hex16("timeout")]),
            .init(0x03, 0x0037, "Write Link Supervision Timeout", [.handle, .hex16("timeout")], returns: [.handle]),
            .init(0x03, 0x0038, "Read Number of Supported IAC", returns: [.u8("num_iac")]),
            .init(0x03, 0x0039, "Read Current IAC LAP", returns: [.u8("num_iac"), .rest("iac_lap")]),
            .init(0x03, 0x003A, "Write Current IAC LAP", [.u8("num_iac"), .rest("iac_lap")]),
            .init(0x03, 0x003F, "Set AFH Host Channel Classification", [.octets("channel_map", 10)]),
            .init(0x03, 0x0044, "Read Inquiry Mode", returns: [.hex8("mode")]),
            .init(0x03, 0x0045, "Write Inquiry Mode", [.hex8("mode")]),
            .init(0x03, 0x0046, "Read Page Scan Type", returns: [.hex8("type")]),
            .init(0x03, 0x0047, "Write Page Scan Type", [.hex8("type")]),
            .init(0x03, 0x0048, "Read AFH Channel Assessment Mode", returns: [.hex8("mode")]),
            .init(0x03, 0x0049, "Write AFH Channel Assessment Mode", [.hex8("mode")]),
            .init(0x03, 0x0051, "Read Extended Inquiry Response", returns: [.hex8("fec_required"), .octets("data", 240)]),
            .init(0x03, 0x0052, "Write Extended Inquiry Response", [.hex8("fec_required"), .octets("data", 240)]),
            .init(0x03, 0x0055, "Read Simple Pairing Mode", returns: [.boolean("enabled")]),
            .init(0x03, 0x0056, "Write Simple Pairing Mode", [.boolean("enabled")]),
            .init(0x03, 0x0058, "Read Inquiry Response TX Power Level", returns: [.init("tx_power", .dBm)]),
            .init(0x03, 0x005A, "Read Default Erroneous Data Reporting", returns: [.hex8("reporting")]),
            .init(0x03, 0x005B, "Write Default Erroneous Data Reporting", [.hex8("reporting")]),
            .init(0x03, 0x0063, "Set Event Mask Page 2", [.hex64("event_mask")]),
            .init(0x03, 0x006C, "Read LE Host Supported", returns: [.boolean("le_supported"), .hex8("simultaneous")]),
            .init(0x03, 0x006D, "Write LE Host Supported", [.boolean("le_supported"), .hex8("simultaneous")]),
            .init(0x03, 0x0079, "Read Secure Connections Host Support", returns: [.boolean("supported")]),
            .init(0x03, 0x007A, "Write Secure Connections Host Support", [.boolean("supported")]),
            .init(0x03, 0x007B, "Read Authenticated Payload Timeout", [.handle], returns: [.handle, .hex16("timeout")]),
            .init(0x03, 0x007C, "Write Authenticated Payload Timeout", [.handle, .hex16("timeout")], returns: [.handle]),
            // Informational (§7.4).
            .init(0x04, 0x0004, "Read Local Extended Features", [.u8("page")],
                  returns: [.u8("page"), .u8("max_page"), .hex64("features")]),
            .init(0x04, 0x000B, "Read Local Supported Codecs", returns: [.rest("codecs")]),
            .init(0x04, 0x000D, "Read Local Supported Codecs [v2]", returns: [.rest("codecs")]),
            // Status parameters (§7.5).
            .init(0x05, 0x0003, "Read Link Quality", [.handle], returns: [.handle, .u8("link_quality")]),
            .init(0x05, 0x0006, "Read AFH Channel Map", [.handle],
                  returns: [.handle, .hex8("mode"), .octets("channel_map", 10)]),
            .init(0x05, 0x0007, "Read Clock", [.handle, .hex8("which")],
                  returns: [.handle, .init("clock", .hex(width: 4)), .hex16("accuracy")]),
            .init(0x05, 0x0008, "Read Encryption Key Size", [.handle], returns: [.handle, .u8("key_size")]),
            // LE Controller (§7.8).
            .init(0x08, 0x0007, "LE Read Advertising Channel TX Power", returns: [.init("tx_power", .dBm)]),
            .init(0x08, 0x000F, "LE Read Accept List Size", returns: [.u8("size")]),
            .init(0x08, 0x0010, "LE Clear Accept List"),
            .init(0x08, 0x0011, "LE Add Device To Accept List", [.addressType, .address]),
            .init(0x08, 0x0012, "LE Remove Device From Accept List", [.addressType, .address]),
            .init(0x08, 0x0014, "LE Set Host Channel Classification", [.octets("channel_map", 5)]),
            .init(0x08, 0x0015, "LE Read Channel Map", [.handle], returns: [.handle, .octets("channel_map", 5)]),
            .init(0x08, 0x0016, "LE Read Remote Used Features", [.handle], returns: nil),
            .init(0x08, 0x0017, "LE Encrypt", [.octets("key", 16), .octets("plaintext", 16)],
                  returns: [.octets("encrypted", 16)]),
            .init(0x08, 0x0018, "LE Rand", returns: [.hex64("random")]),
            .init(0x08, 0x0019, "LE Start Encryption", [.handle, .hex64("random"), .hex16("ediv"), .octets("ltk", 16)],
                  returns: nil),
            .init(0x08, 0x001A, "LE Long Term Key Request Reply", [.handle, .octets("ltk", 16)], returns: [.handle]),
            .init(0x08, 0x001B, "LE Long Term Key Request Negative Reply", [.handle], returns: [.handle]),
            .init(0x08, 0x001C, "LE Read Supported States", returns: [.hex64("states")]),
            .init(0x08, 0x001D, "LE Receiver Test", [.u8("rx_channel")]),
            .init(0x08, 0x001E, "LE Transmitter Test", [.u8("tx_channel"), .u8("length"), .hex8("payload")]),
            .init(0x08, 0x001F, "LE Test End", returns: [.u16("num_packets")]),
            .init(0x08, 0x0020, "LE Remote Connection Parameter Request Reply",
                  [.handle] + HCIParameter.connectionParameters + [.hex16("min_ce_length"), .hex16("max_ce_length")],
                  returns: [.handle]),
            .init(0x08, 0x0021, "LE Remote Connection Parameter Request Negative Reply", [.handle, .reason],
                  returns: [.handle]),
            .init(0x08, 0x0023, "LE Read Suggested Default Data Length", returns: [.u16("tx_octets"), .u16("tx_time")]),
            .init(0x08, 0x0024, "LE Write Suggested Default Data Length", [.u16("tx_octets"), .u16("tx_time")]),
            .init(0x08, 0x0025, "LE Read Local P-256 Public Key", returns: nil),
            .init(0x08, 0x0026, "LE Generate DHKey", [.octets("remote_public_key", 64)], returns: nil),
            .init(0x08, 0x0027, "LE Add Device To Resolving List", [.addressType, .address, .octets("peer_irk", 16),
                                                                    .octets("local_irk", 16)]),
            .init(0x08, 0x0028, "LE Remove Device From Resolving List", [.addressType, .address]),
            .init(0x08, 0x0029, "LE Clear Resolving List"),
            .init(0x08, 0x002A, "LE Read Resolving List Size", returns: [.u8("size")]),
            .init(0x08, 0x002B, "LE Read Peer Resolvable Address", [.addressType, .address], returns: [.address]),
            .init(0x08, 0x002C, "LE Read Local Resolvable Address", [.addressType, .address], returns: [.address]),
            .init(0x08, 0x002D, "LE Set Address Resolution Enable", [.boolean("enable")]),
            .init(0x08, 0x002E, "LE Set Resolvable Private Address Timeout", [.u16("timeout_s")]),
            .init(0x08, 0x002F, "LE Read Maximum Data Length",
                  returns: [.u16("max_tx_octets"), .u16("max_tx_time"), .u16("max_rx_octets"), .u16("max_rx_time")]),
            .init(0x08, 0x0030, "LE Read PHY", [.handle], returns: [.handle, .init("tx_phy", .phy), .init("rx_phy", .phy)]),
            .init(0x08, 0x0031, "LE Set Default PHY", phyPreference),
            .init(0x08, 0x0032, "LE Set PHY", [.handle] + phyPreference + [.hex16("phy_options")], returns: nil),
            .init(0x08, 0x003B, "LE Read Number of Supported Advertising Sets", returns: [.u8("num_sets")]),
            .init(0x08, 0x003D, "LE Clear Advertising Sets"),
            .init(0x08, 0x003E, "LE Set Periodic Advertising Parameters", [.u8("advertising_handle"), .hex16("interval_min"),
                                                                           .hex16("interval_max"), .hex16("properties")]),
            .init(0x08, 0x003F, "LE Set Periodic Advertising Data", [.u8("advertising_handle"), .hex8("operation"),
                                                                     .u8("length"), .rest("data")]),
            .init(0x08, 0x0040, "LE Set Periodic Advertising Enable", [.hex8("enable"), .u8("advertising_handle")]),
            .init(0x08, 0x0044, "LE Periodic Advertising Create Sync", [.rest("parameters")], returns: nil),
            .init(0x08, 0x0045, "LE Periodic Advertising Create Sync Cancel"),
            .init(0x08, 0x0046, "LE Periodic Advertising Terminate Sync", [.hex16("sync_handle")]),
            .init(0x08, 0x0033, "LE Enhanced Receiver Test", [.u8("rx_channel"), .init("phy", .phy), .hex8("modulation_index")]),
            .init(0x08, 0x0034, "LE Enhanced Transmitter Test", [.u8("tx_channel"), .u8("length"), .hex8("payload"),
                                                                 .init("phy", .phy)]),
            .init(0x08, 0x0047, "LE Add Device To Periodic Advertiser List", [.addressType, .address, .u8("sid")]),
            .init(0x08, 0x0048, "LE Remove Device From Periodic Advertiser List", [.addressType, .address, .u8("sid")]),
            .init(0x08, 0x0049, "LE Clear Periodic Advertiser List"),
            .init(0x08, 0x004A, "LE Read Periodic Advertiser List Size", returns: [.u8("size")]),
            .init(0x08, 0x004B, "LE Read Transmit Power", returns: [.init("min_tx_power", .dBm), .init("max_tx_power", .dBm)]),
            .init(0x08, 0x004E, "LE Set Privacy Mode", [.addressType, .address, .hex8("privacy_mode")]),
            .init(0x08, 0x005E, "LE Generate DHKey [v2]", [.octets("remote_public_key", 64), .hex8("key_type")], returns: nil),
            .init(0x08, 0x0074, "LE Set Host Feature", [.u8("bit_number"), .boolean("bit_value")]),
            .init(0x08, 0x007E, "LE Subrate Request", [.handle, .u16("subrate_min"), .u16("subrate_max"), .u16("max_latency"),
                                                       .u16("continuation_number"), .hex16("supervision_timeout")],
                  returns: nil),
            .init(0x08, 0x007D, "LE Set Default Subrate", [.u16("subrate_min"), .u16("subrate_max"), .u16("max_latency"),
                                                           .u16("continuation_number"), .hex16("supervision_timeout")]),
        ]
        return Dictionary(uniqueKeysWithValues: list.map { ($0.opcode, $0) })
    }()
}
