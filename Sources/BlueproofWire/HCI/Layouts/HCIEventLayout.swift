/// Something keyed by a one-octet code that `inspect` names and describes from its parameter
/// layout: an event or LE Meta sub-event without a typed codec here (Core Vol 4, Part E §7.7),
/// or an L2CAP signalling command, SMP command or ATT PDU (`L2CAPPayloadLayouts`).
struct HCIEventLayout: Sendable {
    let code: UInt8
    let name: String
    let parameters: [HCIParameter]

    init(_ code: UInt8, _ name: String, _ parameters: [HCIParameter] = []) {
        self.code = code
        self.name = name
        self.parameters = parameters
    }

    /// Describes the parameters (for a sub-event, those after the subevent code, which start
    /// at `baseOffset` of the event packet); octets past the layout are listed as `extra`.
    func describe(_ parameters: [UInt8], baseOffset: Int) -> HCIPacketDescription {
        HCIParameter.describe(name, self.parameters, parameters, baseOffset: baseOffset)
    }
}

extension HCIEventLayout {

    /// Events by code (§7.7).
    static let events: [UInt8: HCIEventLayout] = index([
        .init(0x01, "Inquiry Complete", [.status]),
        .init(0x02, "Inquiry Result", [.u8("num_responses"), .rest("responses")]),
        .init(0x04, "Connect Request", [.address, .init("class", .hex(width: 3)), .hex8("link_type")]),
        .init(0x06, "Auth Complete", [.status, .handle]),
        .init(0x07, "Remote Name Req Complete", [.status, .address, .init("name", .name(count: 248))]),
        .init(0x08, "Encryption Change", [.status, .handle, .hex8("encryption")]),
        .init(0x09, "Change Connection Link Key Complete", [.status, .handle]),
        .init(0x0B, "Read Remote Supported Features", [.status, .handle, .hex64("features")]),
        .init(0x0C, "Read Remote Version Complete", [.status, .handle, .hex8("version"), .hex16("company"),
                                                     .hex16("subversion")]),
        .init(0x0D, "QoS Setup Complete", [.status, .handle, .rest("parameters")]),
        .init(0x11, "Flush Occurred", [.handle]),
        .init(0x12, "Role Change", [.status, .address, .hex8("role")]),
        .init(0x14, "Mode Change", [.status, .handle, .hex8("mode"), .hex16("interval")]),
        .init(0x15, "Return Link Keys", [.u8("num_keys"), .rest("keys")]),
        .init(0x16, "PIN Code Request", [.address]),
        .init(0x17, "Link Key Request", [.address]),
        .init(0x18, "Link Key Notification", [.address, .octets("link_key", 16), .hex8("key_type")]),
        .init(0x1B, "Max Slots Change", [.handle, .u8("max_slots")]),
        .init(0x1C, "Read Clock Offset Complete", [.status, .handle, .hex16("clock_offset")]),
        .init(0x1D, "Connection Packet Type Changed", [.status, .handle, .hex16("packet_type")]),
        .init(0x20, "Page Scan Repetition Mode Change", [.address, .hex8("page_scan_repetition_mode")]),
        .init(0x22, "Inquiry Result with RSSI", [.u8("num_responses"), .rest("responses")]),
        .init(0x23, "Read Remote Extended Features", [.status, .handle, .u8("page"), .u8("max_page"), .hex64("features")]),
        .init(0x2C, "Synchronous Connect Complete", [.status, .handle, .address, .hex8("link_type"), .u8("tx_interval"),
                                                     .u8("retransmission_window"), .u16("rx_length"), .u16("tx_length"),
                                                     .hex8("air_mode")]),
        .init(0x2D, "Synchronous Connect Changed", [.status, .handle, .u8("tx_interval"), .u8("retransmission_window"),
                                                    .u16("rx_length"), .u16("tx_length")]),
        .init(0x2E, "Sniff Subrating", [.status, .handle, .u16("max_tx_latency"), .u16("max_rx_latency"),
                                        .u16("min_remote_timeout"), .u16("min_local_timeout")]),
        .init(0x2F, "Extended Inquiry Result", [.u8("num_responses"), .address, .rest("response")]),
        .init(0x30, "Encryption Key Refresh Complete", [.status, .handle]),
        .init(0x31, "IO Capability Request", [.address]),
        .init(0x32, "IO Capability Response", [.address, .hex8("io_capability"), .hex8("oob_data_present"),
                                               .hex8("authentication_requirements")]),
        .init(0x33, "User Confirmation Request", [.address, .init("passkey", .u32)]),
        .init(0x34, "User Passkey Request", [.address]),
        .init(0x35, "Remote OOB Data Request", [.address]),
        .init(0x36, "Simple Pairing Complete", [.status, .address]),
        .init(0x38, "Link Supervision Timeout Change", [.handle, .hex16("timeout")]),
        .init(0x39, "Enhanced Flush Complete", [.handle]),
        .init(0x3B, "User Passkey Notification", [.address, .init("passkey", .u32)]),
        .init(0x3C, "Keypress Notification", [.address, .hex8("type")]),
        .init(0x3D, "Remote Host Supported Features", [.address, .hex64("features")]),
        .init(0x57, "Authenticated Payload Timeout Expired", [.handle]),
        .init(0x59, "Encryption Change [v2]", [.status, .handle, .hex8("encryption"), .u8("key_size")]),
        .init(0xFF, "Vendor", [.rest("data")]),
    ])

    /// LE Meta sub-events by subevent code (§7.7.65).
    static let leSubevents: [UInt8: HCIEventLayout] = index([
        .init(0x05, "LE Long Term Key Request", [.handle, .hex64("random"), .hex16("ediv")]),
        .init(0x06, "LE Remote Connection Parameter Request", [.handle] + HCIParameter.connectionParameters),
        .init(0x08, "LE Read Local P-256 Public Key Complete", [.status, .octets("public_key", 64)]),
        .init(0x09, "LE Generate DHKey Complete", [.status, .octets("dhkey", 32)]),
        .init(0x0B, "LE Direct Advertising Report", [.u8("num_reports"), .rest("reports")]),
        .init(0x0C, "LE PHY Update Complete", [.status, .handle, .init("tx_phy", .phy), .init("rx_phy", .phy)]),
        .init(0x0E, "LE Periodic Advertising Sync Established", [.status, .hex16("sync_handle"), .u8("sid"),
                                                                 .addressType, .address, .init("phy", .phy),
                                                                 .hex16("interval"), .hex8("clock_accuracy")]),
        .init(0x0F, "LE Periodic Advertising Report", [.hex16("sync_handle"), .init("tx_power", .dBm),
                                                       .init("rssi", .dBm), .hex8("cte_type"), .hex8("data_status"),
                                                       .u8("data_length"), .rest("data")]),
        .init(0x10, "LE Periodic Advertising Sync Lost", [.hex16("sync_handle")]),
        .init(0x11, "LE Scan Timeout"),
        .init(0x12, "LE Advertising Set Terminated", [.status, .u8("advertising_handle"), .handle,
                                                      .u8("num_completed_events")]),
        .init(0x13, "LE Scan Request Received", [.u8("advertising_handle"), .addressType, .address]),
        .init(0x14, "LE Channel Selection Algorithm", [.handle, .hex8("algorithm")]),
        .init(0x15, "LE Connectionless IQ Report", [.hex16("sync_handle"), .rest("report")]),
        .init(0x16, "LE Connection IQ Report", [.handle, .rest("report")]),
        .init(0x17, "LE CTE Request Failed", [.status, .handle]),
        .init(0x18, "LE Periodic Advertising Sync Transfer Received", [.status, .handle, .rest("parameters")]),
        .init(0x19, "LE CIS Established", [.status, .init("cis_handle", .handle), .rest("parameters")]),
        .init(0x1A, "LE CIS Request", [.handle, .init("cis_handle", .handle), .u8("cig_id"), .u8("cis_id")]),
        .init(0x1B, "LE Create BIG Complete", [.status, .u8("big_handle"), .rest("parameters")]),
        .init(0x1C, "LE Terminate BIG Complete", [.u8("big_handle"), .reason]),
        .init(0x1D, "LE BIG Sync Established", [.status, .u8("big_handle"), .rest("parameters")]),
        .init(0x1E, "LE BIG Sync Lost", [.u8("big_handle"), .reason]),
        .init(0x1F, "LE Request Peer SCA Complete", [.status, .handle, .hex8("peer_clock_accuracy")]),
        .init(0x20, "LE Path Loss Threshold", [.handle, .u8("current_path_loss"), .hex8("zone_entered")]),
        .init(0x21, "LE Transmit Power Reporting", [.status, .handle, .hex8("reason_code"), .init("phy", .phy),
                                                    .init("tx_power", .dBm), .hex8("tx_power_level_flag"),
                                                    .init("delta", .dBm)]),
        .init(0x22, "LE BIGInfo Advertising Report", [.hex16("sync_handle"), .rest("parameters")]),
        .init(0x23, "LE Subrate Change", [.status, .handle, .u16("subrate_factor"), .u16("latency"),
                                          .u16("continuation_number"), .hex16("supervision_timeout")]),
        .init(0x24, "LE Periodic Advertising Sync Established [v2]", [.status, .hex16("sync_handle"), .rest("parameters")]),
        .init(0x25, "LE Periodic Advertising Report [v2]", [.hex16("sync_handle"), .rest("parameters")]),
        .init(0x26, "LE Periodic Advertising Sync Transfer Received [v2]", [.status, .handle, .rest("parameters")]),
        .init(0x27, "LE Periodic Advertising Subevent Data Request", [.u8("advertising_handle"), .rest("parameters")]),
        .init(0x28, "LE Periodic Advertising Response Report", [.u8("advertising_handle"), .rest("parameters")]),
    ])

    private static func index(_ list: [HCIEventLayout]) -> [UInt8: HCIEventLayout] {
        Dictionary(uniqueKeysWithValues: list.map { ($0.code, $0) })
    }
}
