@testable import BlueproofRadio
import Foundation
import Testing

/// Hostile scenario files (issue 11): values out of range, aliases, oversize, missing or binary
/// files are refused with file:line and the limit, never a crash, a hang or raw bytes echoed.
@Suite("Scenario limits")
struct ScenarioLimitTests {
    static func refusal(_ yaml: String) -> RadioScenarioError? {
        #expect(throws: RadioScenarioError.self) { try RadioScenario.load(yaml: yaml, file: "bad.yaml") }
    }

    static func file(_ bytes: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "bp-scenario-\(UUID().uuidString.prefix(8)).yaml"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("values out of range are refused at their line, naming the range", arguments: [
        ("nodes:\n  - name: a\nfaults:\n  - node: a\n    withhold-credits: {from: 0s, for: 10000000000s}\n", 5, "86400 s"),
        ("nodes:\n  - name: a\nfaults:\n  - node: a\n    disconnect: {at: 25h}\n", 5, "expected a duration"),
        ("nodes:\n  - name: a\nfaults:\n  - node: a\n    disconnect: {at: 1441min}\n", 5, "86400 s"),
        ("nodes:\n  - name: a\nrssi: {fixed: 99999999999}\n", 3, "-127...20 dBm"),
        ("nodes:\n  - name: a\nrssi:\n  schedule: [{at: 0s, rssi: 21}]\n", 4, "-127...20 dBm"),
        ("nodes:\n  - name: a\nsensitivity: -128\n", 3, "-127...20 dBm"),
        ("nodes:\n  - name: a\nrssi: {path-loss: {tx-power: 1e300}}\n", 3, "-127...20 dBm"),
        ("nodes:\n  - name: a\nrssi: {path-loss: {exponent: 1e300}}\n", 3, "0...10"),
        ("nodes:\n  - name: a\nrssi: {path-loss: {noise: {gaussian: 1e300}}}\n", 3, "0...100 dB"),
        ("nodes:\n  - name: a\n    position: [1e300, 0]\n", 3, "100000 m"),
        ("nodes:\n  - name: a\nadvertising-interval: 1ns\n", 3, "1 ms"),
        ("nodes:\n  - name: a\nfaults:\n  - node: a\n    drop: {event: Hardware Error, count: 2000000}\n", 5, "1...1000000"),
    ] as [(String, Int, String)])
    func outOfRange(_ yaml: String, _ line: Int, _ reason: String) {
        let error = Self.refusal(yaml)
        #expect(error?.line == line, "\(String(describing: error))")
        #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
    }

    @Test("nine levels of nine aliases are refused at the first anchor, before expansion")
    func billionLaughs() {
        var yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            yaml += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]\n"
        }
        yaml += "nodes:\n  - name: a\n"
        let error = Self.refusal(yaml)
        #expect(error?.line == 1 && error?.reason.contains("anchors and aliases are not allowed") == true, "\(String(describing: error))")
    }

    @Test("nesting deeper than the limit is refused before composing; 100,000 levels are no crash either")
    func deepNesting() {
        let error = Self.refusal("nodes: " + String(repeating: "[", count: 100) + String(repeating: "]", count: 100))
        #expect(error?.line == 1 && error?.reason.contains("64 levels") == true, "\(String(describing: error))")
        #expect(Self.refusal("nodes: " + String(repeating: "[", count: 100_000)) != nil)
    }

    @Test("a missing file, a directory, an oversize file and a binary file each say why")
    func unreadable() throws {
        let missing = NSTemporaryDirectory() + "bp-none-\(UUID().uuidString).yaml"
        #expect(throws: RadioScenarioError.self) { try RadioScenario.load(path: missing) }
        let reasons = try [
            (missing, "no such file"),
            (NSTemporaryDirectory(), "is a directory"),
            (Self.file(Array(repeating: UInt8(ascii: "#"), count: (1 << 20) + 1)), "1048576 bytes"),
            (Self.file([0x1B, 0x5B, 0x32, 0x4A, 0xFF, 0xFE, 0x00, 0x07]), "NUL byte at offset 6"),
            (Self.file([0x6E, 0x3A, 0x20, 0xC3, 0x28]), "not UTF-8 text (invalid byte at offset 3)"),
        ]
        for (path, reason) in reasons {
            let error = #expect(throws: RadioScenarioError.self) { try RadioScenario.load(path: path) }
            #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
            #expect(error?.description.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } == true)
        }
    }

    @Test("control characters quoted from the input are escaped in the message")
    func escaped() {
        let error = Self.refusal("nodes:\n  - name: a\n\"\\e[2Jx\": 1\n")
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains(#"\u{1B}[2Jx"#), "\(text)")
        #expect(!text.unicodeScalars.contains("\u{1B}"))
    }
}
