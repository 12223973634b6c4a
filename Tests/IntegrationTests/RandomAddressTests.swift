import BlueproofBackend
import BlueproofHost
import BlueproofTestSupport
import BlueproofWire
import Testing

// issue 15: user tracking by a passive scanner
extension Integration {
    /// `LEHost.useRandomAddress`: a host advertises from a random address of its choosing, takes
    /// a new one while advertising, and is connectable at it, on each backend (the step a BLE
    /// link needs to stop being tracked by its address, docs/security.md).
    @Suite("Random device address")
    struct RandomAddressTests {
        @Test("btvirt: advertising from a random address, a new one while advertising, a connection to it",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func btvirt() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            try await check(.btvirt)
        }

        @Test("Rootcanal, extended commands: the same (the advertising set takes the address too)",
              .requires(.rootcanal, .preload), .timeLimit(.minutes(3)))
        func rootcanal() async throws {
            try RequiredComponent.require(.rootcanal, .preload)
            try await check(.rootcanal)
        }

        func check(_ spec: BackendSpec) async throws {
            let folder = try WorkFolder("random-address-\(spec)")
            defer { folder.cleanUp() }
            try await withHosts(spec, in: folder) { nodes in
                let (peripheral, central) = (nodes.hosts[0], nodes.hosts[1])
                let data = try AdvertisingData([.flags(.generalDiscoverableLEOnly)]).encodedLegacy()
                // Static random addresses: the two top bits set (Vol 6, Part B §1.3.2.1).
                let first = BDAddress(littleEndian: [0x01, 0x02, 0x03, 0x04, 0x05, 0xC1])
                let second = BDAddress(littleEndian: [0x06, 0x05, 0x04, 0x03, 0x02, 0xC2])
                try await peripheral.useRandomAddress(first)
                try await peripheral.startAdvertising(LEAdvertisingParameters(data: data))
                let reports = try await central.scan(LEScanParameters(active: true))
                let seen = try await firstValue(of: reports, within: .seconds(10), "a report from \(first)") { $0.address == first ? $0 : nil }
                #expect(seen.addressType == .randomDevice)
                try await peripheral.useRandomAddress(second)
                #expect(await peripheral.randomAddress == second)
                let again = try await firstValue(of: reports, within: .seconds(10), "a report from \(second)") { $0.address == second ? $0 : nil }
                #expect(again.addressType == .randomDevice)
                let incoming = await peripheral.incomingConnections()
                let connection = try await central.connect(to: second, type: .randomDevice)
                #expect(connection.role == .central && connection.peerAddress == second)
                let accepted = try await firstValue(of: incoming, within: .seconds(5), "the central's connection") { $0 }
                #expect(accepted.role == .peripheral)
                #expect(await nodes.violations() == [[], []])
            }
        }
    }
}
