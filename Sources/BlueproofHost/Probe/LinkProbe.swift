import BlueproofAsync
import BlueproofWire

/// Proves that two controllers see each other: the advertiser advertises (connectable,
/// legacy), the initiator scans until it gets a report from the advertiser's address, checks
/// that LE Create Connection Cancel works, connects, reads RSSI, updates the connection and
/// disconnects; both sides must report the connection and the disconnection.
struct LinkProbe {
    var timeout: Duration

    func run(
        advertiser: (index: Int, controller: HCIController, address: String?, commands: CommandRecorder),
        initiator: (index: Int, controller: HCIController, commands: CommandRecorder)
    ) async -> LinkCheck {
        var check = LinkCheck(advertiser: advertiser.index, initiator: initiator.index)
        guard let text = advertiser.address, let address = BDAddress(text) else {
            check.problems.append("the advertiser's address is unknown (Read BD_ADDR failed)")
            return check
        }
        let a = advertiser.controller, b = initiator.controller
        do {
            try await advertise(on: a, index: advertiser.index, commands: advertiser.commands)

            // Scan until the advertiser shows up.
            try await initiator.commands.run(
                HCILESetScanParameters(scanType: .active, scanInterval: LEScanInterval(rawValue: 0x0010),
                                       scanWindow: LEScanInterval(rawValue: 0x0010)), on: b)
            let scanStart = ContinuousClock.now
            let report = try await b.expectEvent("an advertising report from \(address)", within: timeout, after: {
                try await initiator.commands.run(HCILESetScanEnable(scanEnable: true, filterDuplicates: false), on: b)
            }, match: { event -> HCILEAdvertisingReportEvent.Report? in
                guard case let .le(.advertisingReport(reports)) = event else { return nil }
                return reports.reports.first { $0.address == address }
            })
            check.advertisementSeen = true
            check.millisecondsToReport = milliseconds(ContinuousClock.now - scanStart)
            check.reportedRSSI = report.rssi.map { "\($0) dBm" } ?? "n/a"
            try await initiator.commands.run(HCILESetScanEnable(scanEnable: false), on: b)

            check.absentPeer = try await cancelPendingConnection(on: b, commands: initiator.commands)

            // Connect; both sides must report it.
            let advertiserEvents = await a.events()
            let connectStart = ContinuousClock.now
            let handle = try await b.expectEvent("LE Connection Complete on the initiator", within: timeout, after: {
                try await initiator.commands.run(connect(to: address, type: report.addressType), on: b)
            }, match: connectionComplete)
            try await firstEvent(in: advertiserEvents, "LE Connection Complete on the advertiser",
                                 within: timeout, match: connectionComplete)
            check.connected = true
            check.millisecondsToConnect = milliseconds(ContinuousClock.now - connectStart)

            if let rssi = try? await initiator.commands.run(HCIReadRSSI(handle: handle), on: b) {
                check.connectionRSSI = rssi.rssi == 127 ? "n/a" : "\(rssi.rssi) dBm"
            }
            _ = try? await initiator.commands.run(
                HCILEConnectionUpdate(connectionHandle: handle,
                                      connectionIntervalMin: LEConnectionInterval(rawValue: 0x0018),
                                      connectionIntervalMax: LEConnectionInterval(rawValue: 0x0028),
                                      maxLatency: 0, supervisionTimeout: LESupervisionTimeout(rawValue: 0x01F4)), on: b)

            // Disconnect; both sides must report it.
            let advertiserEnd = await a.events()
            try await b.expectEvent("Disconnection Complete on the initiator", within: timeout, after: {
                try await initiator.commands.run(HCIDisconnect(connectionHandle: handle, reason: .remoteUserTerminated), on: b)
            }, match: disconnection)
            try await firstEvent(in: advertiserEnd, "Disconnection Complete on the advertiser",
                                 within: timeout, match: disconnection)
            check.disconnected = true
        } catch {
            check.problems.append("\(error)")
        }
        return check
    }

    private func advertise(on controller: HCIController, index: Int, commands: CommandRecorder) async throws {
        try await commands.run(HCILESetAdvertisingParameters(
            advertisingIntervalMin: LEAdvertisingInterval(rawValue: 0x0020),
            advertisingIntervalMax: LEAdvertisingInterval(rawValue: 0x0030)), on: controller)
        // Flags (LE General Discoverable, BR/EDR not supported) and the complete local name.
        let name = Array("blueproof-probe-\(index)".utf8)
        let data: [UInt8] = [0x02, 0x01, 0x06, UInt8(name.count + 1), 0x09] + name
        try await commands.run(try HCILESetAdvertisingData(advertisingData: data), on: controller)
        try await commands.run(try HCILESetScanResponseData(scanResponseData: []), on: controller)
        try await commands.run(HCILESetAdvertisingEnable(advertisingEnable: true), on: controller)
    }

    /// Starts a connection to an address nobody has, then cancels it. The specification's
    /// behaviour (Core Vol 4, Part E §7.8.13): Cancel completes and LE Connection Complete
    /// follows with Unknown Connection Identifier. btvirt instead fails the attempt at once
    /// (Connection Failed to be Established), so Cancel finds nothing pending and answers
    /// Command Disallowed, which is right for that state. Returns which of the two it saw.
    private func cancelPendingConnection(on controller: HCIController, commands: CommandRecorder) async throws -> String {
        let nobody = BDAddress(littleEndian: [0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0xC0])
        let events = await controller.events()
        try await commands.run(connect(to: nobody, type: .randomDevice), on: controller)
        var cancelled = true
        do {
            try await commands.run(HCILECreateConnectionCancel(), on: controller)
        } catch HCICommandError.failed(_, .commandDisallowed) {
            cancelled = false
        }
        let status = try await firstEvent(in: events, "LE Connection Complete for the absent peer", within: timeout) {
            event -> HCIStatus? in
            switch event {
            case let .le(.connectionComplete(complete)) where complete.status != .success: complete.status
            case let .le(.enhancedConnectionComplete(complete)) where complete.status != .success: complete.status
            case let .le(.enhancedConnectionCompleteV2(complete)) where complete.base.status != .success: complete.base.status
            default: nil
            }
        }
        if cancelled {
            guard status == .unknownConnectionIdentifier else {
                throw LinkProbeError("a cancelled connection ended with \(status), not Unknown Connection Identifier")
            }
            return "pending until cancelled, then \(status)"
        }
        await commands.override(HCILECreateConnectionCancel.opcode, with: "ok")
        return "failed at once with \(status); Cancel then found nothing pending (Command Disallowed)"
    }

    private func connect(to address: BDAddress, type: LEAddressType) -> HCILECreateConnection {
        HCILECreateConnection(scanInterval: LEScanInterval(rawValue: 0x0010), scanWindow: LEScanInterval(rawValue: 0x0010),
                              peerAddressType: type, peerAddress: address,
                              connectionIntervalMin: LEConnectionInterval(rawValue: 0x0018),
                              connectionIntervalMax: LEConnectionInterval(rawValue: 0x0028),
                              supervisionTimeout: LESupervisionTimeout(rawValue: 0x01F4))
    }
}

struct LinkProbeError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The handle of a successful LE (Enhanced) Connection Complete.
@Sendable func connectionComplete(_ event: HCIEvent) -> UInt16? {
    guard case let .opened(handle)? = HCIConnectionChange(event) else { return nil }
    return handle
}

@Sendable func disconnection(_ event: HCIEvent) -> Bool? {
    if case .disconnectionComplete = event { true } else { nil }
}
