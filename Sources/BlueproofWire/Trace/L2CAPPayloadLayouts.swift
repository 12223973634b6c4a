/// The parameter layouts of the PDUs above L2CAP that `inspect` decodes: signalling commands
/// (Core Vol 3, Part A §4), SMP commands (Vol 3, Part H §3.3) and ATT PDUs (Vol 3, Part F
/// §3.4). Field names are snake_case; an attribute handle is `attribute`, never `handle`,
/// which names the ACL connection.
enum L2CAPPayloadLayouts {
    private typealias Layout = HCIEventLayout
    private static let range: [HCIParameter] = HCIParameter.hex16s("start", "end")
    private static let pairingFeatures: [HCIParameter] = [
        .hex8("io_capability"), .hex8("oob_data"), .hex8("auth_req"), .u8("max_key_size"),
        .hex8("initiator_keys"), .hex8("responder_keys"),
    ]

    /// Signalling commands on CID 0x0001 (BR/EDR) and 0x0005 (LE), by code.
    static let signals: [UInt8: HCIEventLayout] = index([
        Layout(0x01, "Command Reject", [.hex16("reason"), .rest("data")]),
        Layout(0x02, "Connection Request", HCIParameter.hex16s("psm", "scid")),
        Layout(0x03, "Connection Response", HCIParameter.hex16s("dcid", "scid") + [.hex16("result"), .hex16("status")]),
        Layout(0x04, "Configure Request", HCIParameter.hex16s("dcid", "flags") + [.rest("options")]),
        Layout(0x05, "Configure Response", HCIParameter.hex16s("scid", "flags", "result") + [.rest("options")]),
        Layout(0x06, "Disconnection Request", HCIParameter.hex16s("dcid", "scid")),
        Layout(0x07, "Disconnection Response", HCIParameter.hex16s("dcid", "scid")),
        Layout(0x08, "Echo Request", [.rest("data")]),
        Layout(0x09, "Echo Response", [.rest("data")]),
        Layout(0x0A, "Information Request", [.hex16("info_type")]),
        Layout(0x0B, "Information Response", HCIParameter.hex16s("info_type", "result") + [.rest("data")]),
        Layout(0x0C, "Create Channel Request", HCIParameter.hex16s("psm", "scid") + [.u8("controller_id")]),
        Layout(0x0D, "Create Channel Response", HCIParameter.hex16s("dcid", "scid", "result", "status")),
        Layout(0x12, "Connection Parameter Update Request", HCIParameter.connectionParameters),
        Layout(0x13, "Connection Parameter Update Response", [.hex16("result")]),
        Layout(0x14, "LE Credit Based Connection Request",
               HCIParameter.hex16s("spsm", "scid") + [.u16("mtu"), .u16("mps"), .u16("initial_credits")]),
        Layout(0x15, "LE Credit Based Connection Response",
               [.hex16("dcid"), .u16("mtu"), .u16("mps"), .u16("initial_credits"), .hex16("result")]),
        Layout(0x16, "Flow Control Credit Indication", [.hex16("cid"), .u16("credits")]),
        Layout(0x17, "Credit Based Connection Request",
               [.hex16("spsm"), .u16("mtu"), .u16("mps"), .u16("initial_credits"), .rest("scids")]),
        Layout(0x18, "Credit Based Connection Response",
               [.u16("mtu"), .u16("mps"), .u16("initial_credits"), .hex16("result"), .rest("dcids")]),
        Layout(0x19, "Credit Based Reconfigure Request", [.u16("mtu"), .u16("mps"), .rest("dcids")]),
        Layout(0x1A, "Credit Based Reconfigure Response", [.hex16("result")]),
    ])

    /// SMP commands on CID 0x0006 (LE) and 0x0007 (BR/EDR), by code; named by ``SMPCode``.
    static let smp: [UInt8: HCIEventLayout] = index([
        Layout(0x01, "Pairing Request", pairingFeatures),
        Layout(0x02, "Pairing Response", pairingFeatures),
        Layout(0x03, "Pairing Confirm", [.octets("confirm", 16)]),
        Layout(0x04, "Pairing Random", [.octets("random", 16)]),
        Layout(0x05, "Pairing Failed", [.init("reason", .smpReason)]),
        Layout(0x06, "Encryption Information", [.octets("ltk", 16)]),
        Layout(0x07, "Central Identification", [.hex16("ediv"), .hex64("rand")]),
        Layout(0x08, "Identity Information", [.octets("irk", 16)]),
        Layout(0x09, "Identity Address Information", [.addressType, .address]),
        Layout(0x0A, "Signing Information", [.octets("csrk", 16)]),
        Layout(0x0B, "Security Request", [.hex8("auth_req")]),
        Layout(0x0C, "Pairing Public Key", [.octets("x", 32), .octets("y", 32)]),
        Layout(0x0D, "Pairing DHKey Check", [.octets("check", 16)]),
        Layout(0x0E, "Pairing Keypress Notification", [.hex8("type")]),
    ].map { Layout($0.code, SMPCode(rawValue: $0.code).name ?? $0.name, $0.parameters) })

    /// ATT PDUs on CID 0x0004, by opcode; named by ``ATTOpcode``.
    static let att: [UInt8: HCIEventLayout] = index([
        Layout(0x01, "", [.init("request", .attOpcode), .hex16("attribute"), .init("error", .attError)]),
        Layout(0x02, "", [.u16("client_rx_mtu")]),
        Layout(0x03, "", [.u16("server_rx_mtu")]),
        Layout(0x04, "", range),
        Layout(0x05, "", [.hex8("format"), .rest("information")]),
        Layout(0x06, "", range + [.hex16("type"), .rest("value")]),
        Layout(0x07, "", [.rest("handles")]),
        Layout(0x08, "", range + [.init("type", .uuid)]),
        Layout(0x09, "", [.u8("length"), .rest("data")]),
        Layout(0x0A, "", [.hex16("attribute")]),
        Layout(0x0B, "", [.rest("value")]),
        Layout(0x0C, "", [.hex16("attribute"), .u16("offset")]),
        Layout(0x0D, "", [.rest("value")]),
        Layout(0x0E, "", [.rest("attributes")]),
        Layout(0x0F, "", [.rest("values")]),
        Layout(0x10, "", range + [.init("type", .uuid)]),
        Layout(0x11, "", [.u8("length"), .rest("data")]),
        Layout(0x12, "", [.hex16("attribute"), .rest("value")]),
        Layout(0x13, ""),
        Layout(0x16, "", [.hex16("attribute"), .u16("offset"), .rest("value")]),
        Layout(0x17, "", [.hex16("attribute"), .u16("offset"), .rest("value")]),
        Layout(0x18, "", [.hex8("flags")]),
        Layout(0x19, ""),
        Layout(0x1B, "", [.hex16("attribute"), .rest("value")]),
        Layout(0x1D, "", [.hex16("attribute"), .rest("value")]),
        Layout(0x1E, ""),
        Layout(0x20, "", [.rest("attributes")]),
        Layout(0x21, "", [.rest("values")]),
        Layout(0x23, "", [.rest("values")]),
        Layout(0x52, "", [.hex16("attribute"), .rest("value")]),
        Layout(0xD2, "", [.hex16("attribute"), .rest("value_and_signature")]),
    ].map { Layout($0.code, ATTOpcode(rawValue: $0.code).name ?? "ATT 0x\(hex($0.code))", $0.parameters) })

    private static func index(_ list: [HCIEventLayout]) -> [UInt8: HCIEventLayout] {
        Dictionary(uniqueKeysWithValues: list.map { ($0.code, $0) })
    }
}
