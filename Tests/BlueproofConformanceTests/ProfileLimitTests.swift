import BlueproofConformance
import Foundation
import Testing

/// Hostile or mistaken profiles (issue 11): impossible values, aliases, oversize, missing or
/// binary files are refused at load with file:line and the allowed range or the reason.
@Suite("Profile limits")
struct ProfileLimitTests {
    /// The helpers of the profile tests: a one-line variant of the default profile, its error.
    let profiles: ProfileTests

    init() throws { profiles = try ProfileTests() }

    func variant(_ old: String, _ new: String) throws -> (path: String, line: Int) { try profiles.variant(old, new) }

    func loadError(_ path: String) -> ConformanceFileError? { profiles.loadError(path) }

    @Test("impossible values are refused at their line with the allowed range", arguments: [
        ("      binary_bytes: 122880", "      binary_bytes: -5", "1...524288"),
        ("      binary_bytes: 122880", "      binary_bytes: 1000000000000", "1...524288"),
        ("      dictionary_bytes: unlimited", "      dictionary_bytes: 0", "1...524288"),
        ("  max_attribute_bytes: 512", "  max_attribute_bytes: 0", "1...512"),
        ("  rssi_gate_dbm: -50", "  rssi_gate_dbm: 99", "-127...20"),
        ("  connect_timeout_s: 3", "  connect_timeout_s: 0", "1...86400"),
        ("  connect_timeout_s: 3", "  connect_timeout_s: 100000", "1...86400"),
        ("    max_connections: 5", "    max_connections: 0", "1...255"),
        ("  switch_states: [0, 1]", "  switch_states: [0, -1]", "0...100"),
    ] as [(String, String, String)])
    func outOfRange(_ old: String, _ new: String, _ range: String) throws {
        let (path, line) = try variant(old, new)
        let error = loadError(path)
        #expect(error?.line == line, "\(String(describing: error))")
        #expect(error?.reason.contains(range) == true, "\(String(describing: error))")
    }

    @Test("every integer of the default profile has a range")
    func everyIntegerHasARange() throws {
        let profile = try Fixtures.defaultProfile()
        for (key, entry) in profile.values {
            let integers: Bool
            switch entry.value {
            case .int: integers = true
            case let .list(items): integers = items.contains { if case .int = $0 { true } else { false } }
            case let .string(word): integers = ["unlimited", "not_applicable", "harness_default"].contains(word)
            case .null: integers = true  // undocumented: any scalar, an integer included
            default: integers = false
            }
            if integers { #expect(ProfileRanges.ranges[key] != nil, "\(key) has no range") }
        }
    }

    @Test("nine levels of nine aliases are refused at the first anchor, before expansion")
    func billionLaughs() throws {
        var text = Fixtures.defaultProfileText + "\nlaughs:\n  a0: &a0 [x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            text += "  a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]\n"
        }
        let path = try Fixtures.write(text, named: "laughs.yaml", in: try Fixtures.folder("limits"))
        let error = loadError(path)
        #expect(error?.reason.contains("anchors and aliases are not allowed") == true, "\(String(describing: error))")
        #expect(error?.line == Fixtures.defaultProfileText.split(separator: "\n", omittingEmptySubsequences: false).count + 2)
    }

    @Test("a missing file, a directory, an oversize file and a binary file each say why")
    func unreadable() throws {
        let folder = try Fixtures.folder("limits")
        let binary = folder + "/binary.yaml"
        try Data([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0x1B, 0x5B]).write(to: URL(fileURLWithPath: binary))
        let cases = [
            (folder + "/missing.yaml", "no such file"),
            (folder, "is a directory"),
            (try Fixtures.write(String(repeating: "#", count: (1 << 20) + 1), named: "big.yaml", in: folder), "limit of 1048576 bytes"),
            (binary, "NUL byte at offset 7"),
        ]
        for (path, reason) in cases {
            let error = loadError(path)
            #expect(error?.reason.hasPrefix("cannot read the profile: ") == true, "\(String(describing: error))")
            #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
        }
    }
}
