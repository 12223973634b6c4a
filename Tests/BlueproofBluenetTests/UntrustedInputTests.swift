import BlueproofBluenet
import BlueproofWire
import Testing

/// Untrusted input never crashes the core and what it keeps stays bounded.
@Suite("Bluenet untrusted input")
struct UntrustedInputTests {
    /// BLN/LOC/BV-06: random fingerprint strings (JSON-ish noise) parse or are typed refusals.
    @Test func randomFingerprintStrings() {
        var random = SplitMix64(seed: 0xB1E)
        let alphabet = Array(#"{}[]":,-0123456789.eE abc\"#)
        var parsed = 0
        for _ in 0..<3000 {
            let text = String((0..<Int(random.next() % 40)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
            do throws(BluenetError) {
                let fingerprint = try Fingerprint(string: text)
                #expect(try Fingerprint(string: fingerprint.stringify()) == fingerprint)
                parsed += 1
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
        #expect(parsed < 3000)
    }

    /// BLN/BCN/BV-04: a flood of distinct beacons in one second keeps at most the bound, and
    /// RSSI outside -127...20 (127 is "not available") is left out.
    @Test func rangedBeaconsAreBounded() throws {
        var core = BluenetLocalization()
        try core.trackUUID(LocalizationHarness.uuid, groupId: "home")
        final class Count { var packets = 0 }
        let count = Count()
        core.on(.iBeaconAdvertisement) { event in if case let .iBeaconAdvertisement(packets) = event { count.packets = packets.count } }
        core.tick(now: .zero)
        for minor in 0..<2000 {
            core.receive(LocalizationHarness.beacon(UInt16(minor)), rssi: minor == 0 ? 127 : -60)
        }
        core.tick(now: .seconds(1))
        #expect(count.packets == BluenetLimits.rangedBeaconsMaximum)
    }

    /// Handles and ids from outside are bounded: an empty or overlong handle is refused at once.
    @Test func connectHandlesAreBounded() {
        var core = BluenetConnection()
        for handle in ["", String(repeating: "h", count: BluenetLimits.identifierMaximum + 1)] {
            let request = core.connect(handle, now: .zero)
            guard case .complete(request, .rejected(.identifier))? = core.drainActions().first else {
                Issue.record("\(handle.count) characters accepted")
                continue
            }
        }
        #expect(core.state == .idle)
    }
}
