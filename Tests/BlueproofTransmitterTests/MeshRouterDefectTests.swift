import BlueproofTransmitter
import Foundation
import Testing

/// The router's deliberate faults added for issue 12 (the BFT cases BV-04 and BV-06 fail on
/// them), each shown against the correct router on the same input.
@Suite("Mesh router: hold and receiver defects (sans I/O)")
struct MeshRouterDefectTests {
    typealias Fixture = MeshRouterTests

    @Test("a relayed packet is held and offered to a neighbour that connects later; with meshNeverHolds it is not")
    func hold() {
        for defects: TransmitterDefects in [[], .meshNeverHolds] {
            var router = MeshRouter(localUser: Fixture.me, duplicateCapacity: 16, defects: defects)
            _ = router.receive(Fixture.frame(to: Fixture.n3), from: Fixture.n1, neighbours: [Fixture.n1], now: Fixture.start)
            let later = router.neighbourConnected(Fixture.n3, now: Fixture.start)
            #expect(Fixture.forwards(later) == (defects.isEmpty ? [Fixture.n3: 2] : [:]), "\(defects)")
        }
    }

    @Test("an originated mesh packet goes to its receiver in range; with meshSkipsReceiver only to the others")
    func receiverInRange() {
        for defects: TransmitterDefects in [[], .meshSkipsReceiver] {
            var router = MeshRouter(localUser: Fixture.sender, duplicateCapacity: 16, defects: defects)
            let actions = router.originate(Fixture.frame(to: Fixture.n1), neighbours: [Fixture.n1, Fixture.n2], now: Fixture.start)
            let expected: Set<UserID> = defects.isEmpty ? [Fixture.n1, Fixture.n2] : [Fixture.n2]
            #expect(Set(Fixture.forwards(actions).keys) == expected, "\(defects)")
            // Nor when the receiver connects (again) later.
            var later = MeshRouter(localUser: Fixture.sender, duplicateCapacity: 16, defects: defects)
            _ = later.originate(Fixture.frame(to: Fixture.n1), neighbours: [Fixture.n2], now: Fixture.start)
            #expect(Fixture.forwards(later.neighbourConnected(Fixture.n1, now: Fixture.start)).keys.contains(Fixture.n1) == defects.isEmpty, "\(defects)")
        }
    }
}
