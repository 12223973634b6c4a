import BlueproofTestSupport
import Foundation
import Testing

/// `inspect`'s whole output on the suite-made fixtures, byte for byte, against what it printed
/// before its output was made fast (issue 16): Tests/Fixtures/captures/inspect holds the output
/// of main 93ff753, run from the package root (suite-transmitter-hello's remade with its capture
/// at wire version 3, when the adopt chunk stopped being shown as a chunk error).
@Suite("inspect: whole output unchanged on the fixtures")
struct InspectGoldenTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/captures")

    @Test("text, text with --hex, JSON with --hex", .requires(.cli),
          arguments: ["suite-gatt-discovery", "suite-transmitter-hello"])
    func wholeOutput(_ name: String) throws {
        let cli = try RequiredComponent.require(.cli)[0]
        let path = Self.fixtures.appendingPathComponent("\(name).pcap").path
        for (arguments, golden) in [([String](), "txt"), (["--hex"], "hex.txt"), (["--json", "--hex"], "hex.json")] {
            let result = try run(cli, ["inspect"] + arguments + [path])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let expected = try String(contentsOf: Self.fixtures.appendingPathComponent("inspect/\(name).\(golden)"), encoding: .utf8)
            // The golden files name the capture as given from the package root.
            let output = result.stdout.replacingOccurrences(of: path, with: "Tests/Fixtures/captures/\(name).pcap")
            let lines = zip(output.split(separator: "\n"), expected.split(separator: "\n"))
            let differing: Int? = lines.enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(output == expected, "inspect \(arguments) \(name): first differing line \(differing.map { $0 + 1 } ?? -1)")
        }
    }
}
