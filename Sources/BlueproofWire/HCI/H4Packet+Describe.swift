extension H4Packet {
    /// What a reader sees of this packet: its name and fields, as `blueproof inspect` prints
    /// them. Bytes that do not decode set `malformed` and keep the best name the packet claims.
    /// Never traps, whatever the bytes.
    ///
    /// Where an event holds several entries (handles, advertising reports), field names take
    /// an index, `rssi[1]`, but only when there is more than one entry.
    public func describe() -> HCIPacketDescription {
        switch type {
        case .command: describeCommand()
        case .event: describeEvent()
        case .acl: describeACL()
        case .sco: describeSCO()
        case .iso: describeISO()
        default:
            HCIPacketDescription(name: "Unknown Packet (\(type))", fields: [.init("data", hex(payload))])
        }
    }

    private func describeCommand() -> HCIPacketDescription {
        let command: HCICommandPacket
        do throws(WireError) {
            command = try HCICommandPacket(payload: payload)
        } catch {
            var name = "Command"
            var fields: [HCIPacketDescription.Field] = []
            if payload.count >= 2 {
                let opcode = HCIOpcode(rawValue: UInt16(payload[0]) | UInt16(payload[1]) << 8)
                name = HCICommandCatalogue.name(of: opcode) ?? "Unknown Command"
                fields.append(.init("opcode", opcode.description))
            }
            return HCIPacketDescription(name: name, fields: fields, malformed: error)
        }
        return HCICommandCatalogue.describe(command)
    }

    private func describeEvent() -> HCIPacketDescription {
        let packet: HCIEventPacket
        do throws(WireError) {
            packet = try HCIEventPacket(payload: payload)
        } catch {
            let parameters = Array(payload.dropFirst(2))
            let name = payload.first.map { Self.bestEventName(code: $0, parameters: parameters) } ?? "Event"
            return HCIPacketDescription(name: name, fields: [], malformed: error)
        }
        let event: HCIEvent
        do throws(WireError) {
            event = try HCIEvent(packet)
        } catch {
            return HCIPacketDescription(
                name: Self.bestEventName(code: packet.code, parameters: packet.parameters),
                fields: [.init("parameters", hex(packet.parameters))], malformed: error)
        }
        switch event {
        case let .unknown(code, parameters):
            if let layout = HCIEventLayout.events[code] { return layout.describe(parameters, baseOffset: 2) }
        case let .le(.unknown(subevent, parameters)):
            if let layout = HCIEventLayout.leSubevents[subevent] { return layout.describe(parameters, baseOffset: 3) }
        default:
            break
        }
        return HCIPacketDescription(name: event.name, fields: Self.fields(of: event))
    }

    private static func bestEventName(code: UInt8, parameters: [UInt8]) -> String {
        if code == HCILEMetaEvent.code, let subevent = parameters.first {
            return HCILEMetaEvent.name(ofSubevent: subevent)
        }
        return HCIEvent.name(ofCode: code)
    }

    private typealias Field = HCIPacketDescription.Field

    /// `name` for a single entry, `name[index]` when there are several.
    private static func indexed(_ name: String, _ index: Int, of count: Int) -> String {
        count > 1 ? "\(name)[\(index)]" : name
    }

    private static func address(_ address: BDAddress, _ type: LEAddressType) -> String {
        "\(address) (\(type))"
    }

    /// The connection timing that LE Connection Complete, its enhanced form and LE Connection
    /// Update Complete share.
    private static func timing(_ interval: LEConnectionInterval, _ latency: UInt16,
                               _ timeout: LESupervisionTimeout) -> [Field] {
        [.init("interval", interval.description), .init("latency", "\(latency)"),
         .init("supervision_timeout", timeout.description)]
    }

    private static func fields(of event: HCIEvent) -> [Field] {
        switch event {
        case let .connectionComplete(event):
            return [.init("status", event.status.description), .init("handle", "\(event.connectionHandle & 0x0FFF)"),
                    .init("address", event.address.description), .init("link_type", event.linkType.description),
                    .init("encryption", "0x\(hex(event.encryptionEnabled))")]
        case let .disconnectionComplete(event):
            return [.init("status", event.status.description), .init("handle", "\(event.connectionHandle)"),
                    .init("reason", event.reason.description)]
        case let .commandComplete(event):
            var fields: [Field] = [
                .init("ncmd", "\(event.numHCICommandPackets)"),
                .init("opcode", event.commandOpcode.description),
            ]
            if event.isCreditUpdateOnly && event.returnParameters.isEmpty {
                fields.append(.init("command", "none (credit update)"))
            } else {
                fields.append(.init("command", HCICommandCatalogue.name(of: event.commandOpcode) ?? "Unknown"))
                fields += HCICommandCatalogue.describeReturn(of: event.commandOpcode, event.returnParameters)
            }
            return fields
        case let .commandStatus(event):
            return [.init("status", event.status.description), .init("ncmd", "\(event.numHCICommandPackets)"),
                    .init("opcode", event.commandOpcode.description),
                    .init("command", HCICommandCatalogue.name(of: event.commandOpcode) ?? "Unknown")]
        case let .hardwareError(event):
            return [.init("code", "0x\(hex(event.hardwareCode))")]
        case let .numberOfCompletedPackets(event):
            var fields: [Field] = [.init("num_handles", "\(event.handles.count)")]
            for (index, entry) in event.handles.enumerated() {
                fields.append(.init(indexed("handle", index, of: event.handles.count), "\(entry.connectionHandle)"))
                fields.append(.init(indexed("count", index, of: event.handles.count), "\(entry.numCompletedPackets)"))
            }
            return fields
        case let .dataBufferOverflow(event):
            return [.init("link_type", event.linkType.description)]
        case let .le(event):
            return fields(of: event)
        case let .unknown(_, parameters):
            return [.init("parameters", hex(parameters))]
        }
    }

    private static func fields(of event: HCILEMetaEvent) -> [Field] {
        switch event {
        case let .connectionComplete(event):
            return [.init("status", event.status.description), .init("handle", "\(event.connectionHandle)"),
                    .init("role", event.role.description),
                    .init("peer_address", address(event.peerAddress, event.peerAddressType))]
                + timing(event.connectionInterval, event.peripheralLatency, event.supervisionTimeout)
                + [.init("clock_accuracy", event.centralClockAccuracy.description)]
        case let .enhancedConnectionComplete(event):
            var fields = fields(of: .connectionComplete(event.connectionComplete))
            // The resolvable private addresses follow status, handle, role and peer address.
            fields.insert(contentsOf: [.init("local_rpa", event.localResolvablePrivateAddress.description),
                                       .init("peer_rpa", event.peerResolvablePrivateAddress.description)], at: 4)
            return fields
        case let .advertisingReport(event):
            let count = event.reports.count
            var fields: [Field] = [.init("num_reports", "\(count)")]
            for (index, report) in event.reports.enumerated() {
                fields += [
                    .init(indexed("event_type", index, of: count), report.eventType.description),
                    .init(indexed("address", index, of: count), address(report.address, report.addressType)),
                    .init(indexed("data", index, of: count), hex(report.data)),
                    .init(indexed("rssi", index, of: count), report.rssi.map { "\($0) dBm" } ?? "n/a"),
                ]
            }
            return fields
        case let .enhancedConnectionCompleteV2(event):
            return fields(of: .enhancedConnectionComplete(event.base)) + [
                .init("advertising_handle", event.advertisingHandle == HCILEEnhancedConnectionCompleteV2Event.noAdvertisingHandle
                      ? "none" : "\(event.advertisingHandle)"),
                .init("sync_handle", event.syncHandle == HCILEEnhancedConnectionCompleteV2Event.noSyncHandle
                      ? "none" : "0x\(hex(event.syncHandle))"),
            ]
        case let .extendedAdvertisingReport(event):
            return extendedReportFields(event)
        case let .connectionUpdateComplete(event):
            return [.init("status", event.status.description), .init("handle", "\(event.connectionHandle)")]
                + timing(event.connectionInterval, event.peripheralLatency, event.supervisionTimeout)
        case let .readRemoteFeaturesComplete(event):
            return [.init("status", event.status.description), .init("handle", "\(event.connectionHandle)"),
                    .init("features", event.leFeatures.description)]
        case let .dataLengthChange(event):
            return [
                .init("handle", "\(event.connectionHandle)"),
                .init("max_tx_octets", "\(event.maxTXOctets)"), .init("max_tx_time", event.maxTXTime.description),
                .init("max_rx_octets", "\(event.maxRXOctets)"), .init("max_rx_time", event.maxRXTime.description),
            ]
        case let .unknown(_, parameters):
            return [.init("parameters", hex(parameters))]
        }
    }

    /// LE Extended Advertising Report: what a reader needs of each report. The direct address
    /// shows only for directed PDUs, the SID and periodic interval only when present.
    private static func extendedReportFields(_ event: HCILEExtendedAdvertisingReportEvent) -> [Field] {
        let count = event.reports.count
        var fields: [Field] = [.init("num_reports", "\(count)")]
        for (index, report) in event.reports.enumerated() {
            func name(_ base: String) -> String { indexed(base, index, of: count) }
            let advertiser = report.addressType == .anonymous ? "anonymous" : address(report.address, report.addressType)
            var phy = report.primaryPHY.name ?? report.primaryPHY.description
            if report.secondaryPHY != .noPackets { phy += "/" + (report.secondaryPHY.name ?? report.secondaryPHY.description) }
            fields += [
                .init(name("event_type"), report.eventType.description),
                .init(name("address"), advertiser),
                .init(name("phy"), phy),
            ]
            if report.advertisingSID != HCILEExtendedAdvertisingReportEvent.Report.noSID {
                fields.append(.init(name("sid"), "\(report.advertisingSID)"))
            }
            fields.append(.init(name("tx_power"), report.txPower.map { "\($0) dBm" } ?? "n/a"))
            fields.append(.init(name("rssi"), report.rssi.map { "\($0) dBm" } ?? "n/a"))
            if report.periodicAdvertisingInterval != .noPeriodicAdvertising {
                fields.append(.init(name("periodic_interval"), report.periodicAdvertisingInterval.description))
            }
            if report.eventType.contains(.directed) {
                fields.append(.init(name("direct_address"), address(report.directAddress, report.directAddressType)))
            }
            fields.append(.init(name("data"), hex(report.data)))
        }
        return fields
    }

    private func describeACL() -> HCIPacketDescription {
        let acl: HCIACLPacket
        do throws(WireError) {
            acl = try HCIACLPacket(payload: payload)
        } catch {
            var fields: [Field] = []
            if payload.count >= 2 {
                fields.append(.init("handle", "\((UInt16(payload[0]) | UInt16(payload[1]) << 8) & 0x0FFF)"))
            }
            return HCIPacketDescription(name: "ACL Data", fields: fields, malformed: error)
        }
        var fields: [Field] = [
            .init("handle", String(acl.handle)),
            .describing("pb", acl.packetBoundary),
            .describing("bc", acl.broadcast),
            .init("dlen", String(acl.data.count)),
        ]
        if acl.packetBoundary.startsPDU && acl.data.count >= 4 {
            let length = UInt16(acl.data[0]) | UInt16(acl.data[1]) << 8
            let cid = UInt16(acl.data[2]) | UInt16(acl.data[3]) << 8
            fields.append(.init("l2cap_len", String(length)))
            fields.append(.init("cid", "0x" + hex(cid)))
            // A whole basic frame in this packet: its signalling, SMP or ATT PDU too.
            if Int(length) == acl.data.count - 4,
               let upper = L2CAPFrameDescription.describe(cid: cid, payload: Array(acl.data.dropFirst(4))) {
                return HCIPacketDescription(name: "ACL Data", fields: fields + upper.fields, malformed: upper.malformed)
            }
        }
        return HCIPacketDescription(name: "ACL Data", fields: fields)
    }

    private func describeSCO() -> HCIPacketDescription {
        do throws(WireError) {
            let sco = try HCISCOPacket(payload: payload)
            return HCIPacketDescription(name: "SCO Data", fields: [
                .init("handle", "\(sco.handle)"), .init("dlen", "\(sco.data.count)"),
            ])
        } catch {
            return HCIPacketDescription(name: "SCO Data", malformed: error)
        }
    }

    private func describeISO() -> HCIPacketDescription {
        do throws(WireError) {
            let iso = try HCIISOPacket(payload: payload)
            return HCIPacketDescription(name: "ISO Data", fields: [
                .init("handle", "\(iso.handle)"), .init("dlen", "\(iso.data.count)"),
            ])
        } catch {
            return HCIPacketDescription(name: "ISO Data", malformed: error)
        }
    }
}
