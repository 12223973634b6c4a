import BlueproofAsync
import BlueproofBackend
import BlueproofBluenet
import BlueproofBluenetHost
import BlueproofHost
import BlueproofTestSupport
import BlueproofWire
import Testing

extension Integration {
    /// Bluenet on our LE host against a simulated Crownstone on btvirt and Rootcanal (issue 18): scanning for
    /// Crownstones by their scan response, and switching one over GATT.
    @Suite("Bluenet on the LE host")
    struct BluenetHostTests {
        /// A device that is not a Crownstone: service data (16 octets, as a Crownstone's) under another UUID.
        static let otherData = ServiceData(uuid: BluetoothUUID(uuid16: 0xFEAA), data: Array(0..<16))

        @Test("btvirt: a Crownstones-only scan finds the simulated Crownstone with its fields decoded, and not another advertiser an all-devices scan hears",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func crownstonesOnlyScan() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            try await checkScan(.btvirt)
        }

        @Test("Rootcanal: the same", .requires(.rootcanal, .preload), .timeLimit(.minutes(3)))
        func crownstonesOnlyScanRootcanal() async throws {
            try RequiredComponent.require(.rootcanal, .preload)
            try await checkScan(.rootcanal)
        }

        @Test("btvirt: connect and setSwitchState(1) switch the simulated Crownstone on; setSwitchState(0.5) is refused and writes nothing; connecting to nobody fails at once",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func switchState() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            try await checkSwitch(.btvirt) { outcome, _ in
                // btvirt fails a connection to nobody at once (docs/design.md).
                guard case .rejected(.connection(.failed)) = outcome else { return false }
                return true
            }
        }

        @Test("Rootcanal: the same; connecting to nobody times out after 3 s", .requires(.rootcanal, .preload), .timeLimit(.minutes(3)))
        func switchStateRootcanal() async throws {
            try RequiredComponent.require(.rootcanal, .preload)
            try await checkSwitch(.rootcanal) { outcome, elapsed in
                // No connection within 3 s from the start of the attempt.
                outcome == .rejected(.connection(.connectTimeout(seconds: 3))) && elapsed >= .seconds(3) && elapsed < .seconds(4)
            }
        }

        func checkScan(_ spec: BackendSpec) async throws {
            let folder = try WorkFolder("bluenet-scan-\(spec)")
            defer { folder.cleanUp() }
            try await withHosts(spec, count: 3, in: folder) { nodes in
                let crownstone = SimulatedCrownstone(host: nodes.hosts[0], crownstoneId: 513, switchState: 100, name: "plug")
                let other = nodes.hosts[1]
                let (crownstoneHandle, otherHandle) = ("\(await nodes.hosts[0].address)", "\(await other.address)")
                let all = BluenetHost(host: nodes.hosts[2])
                let crownstonesOnly = BluenetHost(host: nodes.hosts[2])
                await crownstonesOnly.hostStarted()
                await crownstonesOnly.isReady()
                try await crownstonesOnly.startScanning(.crownstones)
                try await all.startScanning(.all)

                // btvirt reports an advertiser when its advertising starts (docs/design.md), and
                // one host's reports reach both scans in the same order: the other device first.
                try await other.startAdvertising(LEAdvertisingParameters(
                    data: try AdvertisingData([.flags(.generalDiscoverableLEOnly), .localName("other")]).encodedLegacy(),
                    scanResponse: try AdvertisingData([.serviceData(Self.otherData)]).encodedLegacy()))
                let heard = try await firstValue(of: all.advertisements, within: .seconds(10), "the other advertiser's scan response") {
                    $0.handle == otherHandle && $0.serviceData != nil ? $0 : nil
                }
                #expect(heard.serviceData == .bytes(Self.otherData.data))
                #expect(!heard.isCrownstone)

                // Then the Crownstone: the first thing the Crownstones-only scan publishes, so
                // the other device's reports, taken before it, were not.
                try await crownstone.start()
                let found = try await firstValue(of: crownstonesOnly.advertisements, within: .seconds(10),
                                                 "the first advertisement of the Crownstones-only scan") { $0 }
                #expect(found.handle == crownstoneHandle)
                let expected = CrownstoneServiceData(crownstoneId: 513, crownstoneStateId: 0, switchState: 100, eventBitmask: 0,
                                                     powerUsage: 0, accumulatedEnergy: 0)
                #expect(found.serviceData == .crownstone(uuid: CrownstoneServiceData.plugServiceUUID, expected))
                #expect(found.name == "plug")
                #expect(found.stringify().contains(#""C001":{"accumulatedEnergy":0,"crownstoneId":"513""#))
                let both = try await firstValue(of: all.advertisements, within: .seconds(10), "the Crownstone on the all-devices scan") {
                    $0.handle == crownstoneHandle && $0.isCrownstone ? $0 : nil
                }
                #expect(both == found)
                await crownstonesOnly.stopScanning()
                await all.stopScanning()
                await crownstone.stop()
                #expect(await nodes.violations() == [[], [], []])
            }
        }

        /// `absent`: whether connecting to an address nobody advertises ended as it does on this backend, and when.
        func checkSwitch(_ spec: BackendSpec, absent: @escaping @Sendable (BluenetOutcome, Duration) -> Bool) async throws {
            let folder = try WorkFolder("bluenet-switch-\(spec)")
            defer { folder.cleanUp() }
            try await withHosts(spec, count: 2, in: folder) { nodes in
                let crownstone = SimulatedCrownstone(host: nodes.hosts[0], crownstoneId: 7)
                try await crownstone.start()
                let handle = "\(await nodes.hosts[0].address)"
                let bluenet = BluenetHost(host: nodes.hosts[1])
                // Nothing connected: setSwitchState is refused, disconnect fulfils at once.
                #expect(await bluenet.setSwitchState(1) == .rejected(.connection(.notConnected)))
                #expect(await bluenet.disconnect() == .fulfilled)
                let started = ContinuousClock.now
                let nobody = await bluenet.connect("5A:5A:5A:5A:5A:C0")
                let elapsed = ContinuousClock.now - started
                #expect(absent(nobody, elapsed), "\(nobody) after \(elapsed)")

                #expect(await bluenet.connect(handle) == .fulfilled)
                #expect(await bluenet.setSwitchState(1) == .fulfilled)
                let first = try await firstValue(of: crownstone.events, within: .seconds(5), "the first write's outcome") { Self.written($0) }
                #expect(first == .switched(switchState: 100))
                #expect(await crownstone.state.switchState == 100)
                #expect(await crownstone.state.crownstoneStateId == 1)

                #expect(await bluenet.setSwitchState(0.5) == .rejected(.connection(.switchStateUnsupported(0.5))))
                // The next write the Crownstone sees is the next call's: 0.5 wrote nothing.
                #expect(await bluenet.setSwitchState(0) == .fulfilled)
                let next = try await firstValue(of: crownstone.events, within: .seconds(5), "the second write's outcome") { Self.written($0) }
                #expect(next == .switched(switchState: 0))
                #expect(await crownstone.state.crownstoneStateId == 2)

                #expect(await bluenet.disconnect() == .fulfilled)
                await crownstone.stop()
                #expect(await nodes.violations() == [[], []])
            }
        }

        /// A write's outcome on the Crownstone (switched or refused); nil for other events.
        static func written(_ event: SimulatedCrownstone.Event) -> SimulatedCrownstone.Event? {
            switch event {
            case .switched, .refused: event
            default: nil
            }
        }
    }
}
