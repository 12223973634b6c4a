@testable import BlueproofRadio
import BlueproofWire
import Foundation
import Testing

@Suite("Radio scenarios from YAML")
struct RadioScenarioTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Conformance/scenarios").standardized.path

    @Test("every scenario under Conformance/scenarios loads", arguments: [
        "close-range", "gate-boundary", "walk-in", "withheld-credits", "disconnect-mid-transfer",
    ])
    func examples(_ name: String) throws {
        let scenario = try RadioScenario.load(path: "\(Self.folder)/\(name).yaml")
        #expect(scenario.nodeNames == ["peripheral", "central"])
    }

    @Test("the example files say what they mean")
    func exampleContents() throws {
        let close = try RadioScenario.load(path: "\(Self.folder)/close-range.yaml")
        #expect(close.model.defaultLink == .fixed(-40))
        let walk = try RadioScenario.load(path: "\(Self.folder)/walk-in.yaml")
        #expect(walk.model.sensitivity == -80)
        #expect(walk.model.nextRangeChange(0, 1, after: .zero) == .milliseconds(4621))
        #expect(walk.model.defaultLink == .pathLoss(.init(txPower: -59, exponent: 2, noise: .gaussian(sigma: 2))))
        let credits = try RadioScenario.load(path: "\(Self.folder)/withheld-credits.yaml")
        #expect(credits.faults == [RadioFault(node: 0, action: .bufferSize(length: 27, count: 1)),
                                   RadioFault(node: 0, action: .withholdCredits(from: .seconds(1), for: .seconds(2)))])
        let cut = try RadioScenario.load(path: "\(Self.folder)/disconnect-mid-transfer.yaml")
        #expect(cut.faults == [
            RadioFault(node: 1, action: .delay(.name("Number of Completed Packets"), by: .milliseconds(20),
                                               window: RadioWindow(from: .milliseconds(1500), until: .seconds(2)), count: nil)),
            RadioFault(node: 1, action: .disconnect(at: .seconds(2), reason: .connectionTimeout)),
        ])
        let gate = try RadioScenario.load(path: "\(Self.folder)/gate-boundary.yaml")
        #expect(gate.model.rssi(observer: 1, advertiser: 0, at: .seconds(3)) == -51)
    }

    @Test("refusals name the file, the line and the reason", arguments: [
        // An unknown key, at the key.
        ("nodes:\n  - name: a\nsed: 1\n", 3, "unknown key \"sed\""),
        // A wrong type.
        ("seed: many\nnodes:\n  - name: a\n", 1, "seed: expected an integer, found \"many\""),
        ("nodes:\n  - name: a\nadvertising-interval: 100\n", 3, "expected a duration"),
        ("nodes:\n  - name: a\n    position: [1, x]\n", 3, "nodes[0].position[1]: expected a number, found \"x\""),
        ("nodes: a\n", 1, "nodes: expected a list, found a scalar"),
        // A missing value, at the mapping that lacks it.
        ("seed: 1\n", 1, "scenario: missing \"nodes\""),
        ("nodes:\n  - name: a\nfaults:\n  - drop: {event: Hardware Error}\n", 4, "faults[0]: missing \"node\""),
        ("nodes:\n  - name: a\nfaults:\n  - node: a\n    delay: {event: Hardware Error}\n", 5, "faults[0].delay: missing \"by\""),
        // Values that do not fit.
        ("nodes:\n  - name: a\n  - name: b\nlinks:\n  - between: [a, c]\n    fixed: -40\n", 5, "no node \"c\""),
        ("nodes:\n  - name: a\nrssi: {fixed: -40, path-loss: {}}\n", 3, "needs exactly one of fixed, schedule, path-loss"),
        ("nodes:\n  - name: a\nfaults:\n  - node: a\n    drop: {event: Advertising Report}\n", 5, "no event \"Advertising Report\""),
        ("nodes:\n  - name: a\nfaults:\n  - node: a\n    disconnect: {at: 1s, reason: 300}\n", 5, "300 is outside 1...255"),
        ("nodes:\n  - name: a\n  - name: b\nlinks:\n  - between: [a, b]\n    schedule:\n      - {at: 2s, rssi: -50}\n      - {at: 1s, rssi: -51}\n",
         8, "times must increase"),
        // YAML itself.
        ("nodes:\n  - name: a\n  seed: [1\n", 3, "expected"),
        ("nodes:\n  - name: a\nseed: 1\nseed: 2\n", 3, "duplicate keys: seed"),
    ] as [(String, Int, String)])
    func refusals(_ yaml: String, _ line: Int, _ reason: String) {
        #expect {
            _ = try RadioScenario.load(yaml: yaml, file: "bad.yaml")
        } throws: { error in
            guard let error = error as? RadioScenarioError else { return false }
            #expect(error.file == "bad.yaml")
            #expect(error.line == line, "\(error)")
            #expect(error.reason.contains(reason), "\(error)")
            #expect(error.description.hasPrefix("bad.yaml:\(line):"))
            return true
        }
    }

    @Test("events are matched by name, any case, or by code")
    func eventNames() throws {
        let yaml = """
            nodes: [{name: a}]
            faults:
              - node: a
                drop: {event: le advertising report, count: 2}
              - node: 0
                drop: {event: "0x13", from: 1s, until: 2s}
            """
        let scenario = try RadioScenario.load(yaml: yaml)
        #expect(scenario.faults[0].action == .drop(.name("LE Advertising Report"), window: .always, count: 2))
        #expect(scenario.faults[1].action == .drop(.code(0x13), window: RadioWindow(from: .seconds(1), until: .seconds(2)), count: nil))
    }
}
