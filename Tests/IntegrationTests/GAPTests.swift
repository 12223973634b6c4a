import BlueproofAsync
import BlueproofBackend
import BlueproofCapture
import BlueproofHost
import BlueproofTestSupport
import BlueproofWire
import Testing

extension Integration {
    /// GAP of our LE host between two of its own nodes on each backend: advertise, discover by
    /// service, connect and disconnect with a reason, an absent peer, and oversize data refused.
    @Suite("GAP")
    struct GAPTests {
        static let service = BluetoothUUID("E20A39F4-73F5-4BC4-A12F-17D1AD07A961")!

        @Test("btvirt: discover by service, connect, disconnect; an absent peer fails at once",
              .requires(.btvirt, .preload, .tshark), .timeLimit(.minutes(3)))
        func btvirt() async throws {
            try RequiredComponent.require(.btvirt, .preload, .tshark)
            try await checkGAP(.btvirt, expecting: .legacy) { error in
                // btvirt fails a connection to nobody at once (measured, docs/design.md).
                #expect(error == .connectionFailed(peer: Self.absent, status: .connectionFailedToBeEstablished), "\(error)")
            }
        }

        @Test("Rootcanal, extended commands: discover by service, connect, disconnect; an absent peer times out and is cancelled",
              .requires(.rootcanal, .preload, .tshark), .timeLimit(.minutes(3)))
        func rootcanal() async throws {
            try RequiredComponent.require(.rootcanal, .preload, .tshark)
            try await checkGAP(.rootcanal, expecting: .extended) { error in
                #expect(error == .connectTimedOut(peer: Self.absent, limit: .milliseconds(300)), "\(error)")
            }
        }

        @Test("Rootcanal, legacy commands forced: the same", .requires(.rootcanal, .preload, .tshark), .timeLimit(.minutes(3)))
        func rootcanalLegacy() async throws {
            try RequiredComponent.require(.rootcanal, .preload, .tshark)
            try await checkGAP(.rootcanal, expecting: .legacy, forcing: .legacy) { error in
                #expect(error == .connectTimedOut(peer: Self.absent, limit: .milliseconds(300)), "\(error)")
            }
        }

        static let absent = BDAddress(littleEndian: [0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0xC0])

        /// btvirt stops advertising on any connection, as central too, where the specification
        /// keeps it running (Vol 6, Part B §4.4.2): the host enables it again, so a third node
        /// can still connect to one that connected as central.
        @Test("btvirt: a host that advertised and connected as central still advertises (a third host connects to it)",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func advertisingOutlastsCentralConnection() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("gap-advertising-kept")
            defer { folder.cleanUp() }
            try await withHosts(.btvirt, count: 3, in: folder) { nodes in
                let (hub, peripheral, third) = (nodes.hosts[0], nodes.hosts[1], nodes.hosts[2])
                let connectable = LEAdvertisingParameters(data: try AdvertisingData([.flags(.generalDiscoverableLEOnly)]).encodedLegacy())
                try await hub.startAdvertising(connectable)
                try await peripheral.startAdvertising(connectable)
                let incoming = await hub.incomingConnections()
                let out = try await hub.connect(to: await peripheral.address, type: .publicDevice)
                #expect(out.role == .central)
                // btvirt fails a connection to a node that does not advertise at once.
                let back = try await third.connect(to: await hub.address, type: .publicDevice)
                #expect(back.role == .central)
                let accepted = try await firstValue(of: incoming, within: .seconds(2), "the third host's connection on the hub") { $0 }
                #expect(accepted.peerAddress == (await third.address))
                #expect(await hub.connections.count == 2)
                #expect(await nodes.violations() == [[], [], []])
            }
        }

        func checkGAP(_ spec: BackendSpec, expecting commandSet: LECommandSet, forcing: LECommandSet? = nil,
                      absentPeer: (LEHostError) -> Void) async throws {
            let folder = try WorkFolder("gap-\(spec)")
            defer { folder.cleanUp() }
            try await withHosts(spec, commandSet: forcing, in: folder) { nodes in
                let (peripheral, central) = (nodes.hosts[0], nodes.hosts[1])
                #expect(await peripheral.commandSet == commandSet)
                #expect(await central.commandSet == commandSet)
                let name = "bp-gap"
                var data = AdvertisingData([.flags(.generalDiscoverableLEOnly)])
                data.append(contentsOf: AdvertisingDataStructure.serviceUUIDs([Self.service], complete: true))
                let scanResponse = AdvertisingData([.localName(name)])

                // More than a legacy PDU holds never reaches the controller.
                let oversize = LEAdvertisingParameters(data: [UInt8](repeating: 0, count: 32))
                await #expect(throws: LEHostError.advertisingDataTooLong(field: "advertising data", length: 32, limit: 31)) {
                    try await peripheral.startAdvertising(oversize)
                }

                let incoming = await peripheral.incomingConnections()
                try await peripheral.startAdvertising(LEAdvertisingParameters(
                    data: try data.encodedLegacy(), scanResponse: try scanResponse.encodedLegacy()))
                let peripheralAddress = await peripheral.address

                // A device with another service is filtered out; ours arrives with its name.
                let devices = try await central.discover(services: [Self.service])
                let device = try await firstValue(of: devices, within: .seconds(5), "our advertiser with its name") {
                    $0.address == peripheralAddress && $0.name == name ? $0 : nil
                }
                #expect(device.serviceUUIDs == [Self.service])
                #expect(device.connectable)
                if spec == .btvirt { #expect(device.rssi == nil, "btvirt reports RSSI 127: not available") }

                do throws(LEHostError) {
                    let connection = try await central.connect(to: Self.absent, type: .randomDevice, timeout: .milliseconds(300))
                    Issue.record("connected to an address nobody has: \(connection)")
                } catch {
                    absentPeer(error)
                }

                let connection = try await central.connect(to: device.address, type: device.addressType)
                #expect(connection.role == .central)
                let accepted = try await firstValue(of: incoming, within: .seconds(2), "the connection on the peripheral") { $0 }
                #expect(accepted.role == .peripheral)
                #expect(accepted.peerAddress == (await central.address))

                try await central.disconnect(connection, reason: .remoteUserTerminated)
                #expect(await peripheral.waitForDisconnection(accepted) == .remoteUserTerminated)
                #expect(await central.connections.isEmpty)
                #expect(await nodes.violations() == [[], []])
            }
            var commands: [[UInt8]] = []
            for index in 0..<2 {
                let path = folder.file("node\(index).pcap")
                let file = try CaptureReader.read(path: path)
                try checkCapture(path, expectedCount: file.records.count)
                commands += file.records.filter { $0.packet.type == .command }.map(\.packet.payload)
            }
            // The oversize data never went out: every advertising data command holds 31 bytes or less.
            for command in commands where command.starts(with: [0x08, 0x20]) {
                #expect(command.count == 3 + 32 && command[3] <= 31)
            }
            for command in commands where command.starts(with: [0x37, 0x20]) {
                #expect(command.count == 3 + 4 + Int(command[6]) && command[6] <= 31)
            }
            // One command set, never both on a controller (Vol 4, Part E §3.1.1): advertising
            // parameters, scan parameters and create connection of the set in use.
            let extendedOpcodes: [[UInt8]] = [[0x36, 0x20], [0x41, 0x20], [0x43, 0x20]]
            let legacyOpcodes: [[UInt8]] = [[0x06, 0x20], [0x0B, 0x20], [0x0D, 0x20]]
            let used = commandSet == .extended ? extendedOpcodes : legacyOpcodes
            let avoided = commandSet == .extended ? legacyOpcodes : extendedOpcodes
            #expect(used.allSatisfy { opcode in commands.contains { $0.starts(with: opcode) } }, "\(commandSet) commands used")
            #expect(!avoided.contains { opcode in commands.contains { $0.starts(with: opcode) } }, "only \(commandSet) commands")
        }
    }
}

/// The first element of `stream` that `match` turns into a value, within `limit`.
func firstValue<Element: Sendable, T: Sendable>(
    of stream: AsyncStream<Element>, within limit: Duration, _ what: String,
    match: @escaping @Sendable (Element) -> T?
) async throws -> T {
    try await withTimeout(limit, what: what) {
        for await element in stream {
            if let value = match(element) { return value }
        }
        throw StreamEnded(what: what)
    }
}

struct StreamEnded: Error, CustomStringConvertible {
    var what: String
    var description: String { "the stream ended before \(what)" }
}
