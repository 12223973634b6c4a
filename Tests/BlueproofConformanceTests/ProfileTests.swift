import BlueproofConformance
import Testing

@Suite("Profiles")
struct ProfileTests {
    let schema: ProfileSchema

    init() throws { schema = ProfileSchema(defaultProfile: try Fixtures.defaultProfile()) }

    /// The default profile with one line replaced, written to a temporary file.
    func variant(_ old: String, _ new: String) throws -> (path: String, line: Int) {
        let text = Fixtures.defaultProfileText
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = try #require(lines.firstIndex(of: old), "no line '\(old)' in the default profile")
        var changed = lines
        changed[index] = new
        let path = try Fixtures.write(changed.joined(separator: "\n"), named: "profile.yaml", in: try Fixtures.folder("profile"))
        return (path, index + 1)
    }

    func loadError(_ path: String) -> ConformanceFileError? {
        do {
            _ = try Profile.load(path: path, schema: schema)
            return nil
        } catch {
            return error
        }
    }

    @Test("the default profile loads and values are read by dotted path with their types")
    func typedAccess() throws {
        let profile = try Fixtures.defaultProfile()
        #expect(profile.name == "bridgefy-ios")
        #expect(try profile.int("bridgefy.limits.ble.binary_bytes") == 122_880)
        #expect(try profile.int("transfer.rssi_gate_dbm") == -50)
        #expect(try profile.bool("transfer.rssi_allow_unavailable") == false)
        #expect(try profile.string("transfer.eom_marker") == "EOM")
        #expect(try profile.strings("transfer.characteristic_properties") == ["notify", "writeWithoutResponse"])
        #expect(try profile.value("bridgefy.secure_connection.expiration_limit_default") == .null)
        #expect(throws: ProfileAccessError.self) { try profile.int("transfer.eom_marker") }
        #expect(throws: ProfileAccessError.self) { try profile.int("transfer.no_such_key") }
        // The default profile also passes its own schema.
        #expect(loadError(Fixtures.defaultProfilePath) == nil)
    }

    @Test("a wrong type is refused with file, line and reason")
    func wrongType() throws {
        let (path, line) = try variant("  rssi_gate_dbm: -50", "  rssi_gate_dbm: close")
        let error = try #require(loadError(path))
        #expect(error.file == path && error.line == line)
        #expect(error.reason.contains("transfer.rssi_gate_dbm") && error.reason.contains("wrong type"), "\(error)")
        #expect(error.description == "\(path):\(line): \(error.reason)")
        // A list where a number belongs, and a number where a list belongs.
        let list = try variant("      binary_bytes: 122880", "      binary_bytes: [1, 2]")
        #expect(loadError(list.path)?.line == list.line)
        let number = try variant("  characteristic_properties: [notify, writeWithoutResponse]", "  characteristic_properties: 3")
        #expect(loadError(number.path)?.reason.contains("expected a list") == true)
    }

    @Test("an unknown key is refused with its line")
    func unknownKey() throws {
        let (path, line) = try variant("  rssi_gate_dbm: -50", "  rssi_gate_dBm: -50")
        let error = try #require(loadError(path))
        // The misspelt key is met first (its line); the real one is then missing.
        #expect(error.line == line)
        #expect(error.reason == "unknown key transfer.rssi_gate_dBm")
    }

    @Test("a missing value is refused: an empty value at its line, an absent key at its mapping's line")
    func missing() throws {
        let (path, line) = try variant("  rssi_gate_dbm: -50", "  rssi_gate_dbm:")
        let error = try #require(loadError(path))
        #expect(error.line == line)
        #expect(error.reason.contains("missing value"), "\(error)")

        let text = Fixtures.defaultProfileText.replacingOccurrences(of: "  eom_marker: EOM\n", with: "")
        let folder = try Fixtures.folder("profile-missing")
        let absent = try Fixtures.write(text, named: "p.yaml", in: folder)
        let absentError = try #require(loadError(absent))
        let transferLine = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex(of: "transfer:")! + 1
        #expect(absentError.line == transferLine)
        #expect(absentError.reason.hasPrefix("missing value transfer.eom_marker"), "\(absentError)")
    }

    @Test("optional preconditions are known words; a flag adds to them")
    func optionalPreconditions() throws {
        let (path, line) = try variant("  optional_preconditions: []", "  optional_preconditions: [connection, radio]")
        let error = try #require(loadError(path))
        #expect(error.line == line)
        #expect(error.reason.contains("'radio' is not one of"), "\(error.reason)")
        let (good, _) = try variant("  optional_preconditions: []", "  optional_preconditions: [secure_connection]")
        let profile = try Profile.load(path: good, schema: schema)
        #expect(profile.optionalPreconditions == [.secureConnection])
        #expect(profile.declaringOptional([.connection]).optionalPreconditions == [.secureConnection, .connection])
        #expect(try Fixtures.defaultProfile().optionalPreconditions.isEmpty)
    }

    @Test("every refusal rule has its list of errors in the default profile")
    func refusals() throws {
        let profile = try Fixtures.defaultProfile()
        for rule in RefusalRule.allCases {
            #expect(try !profile.strings(rule.profileKey).isEmpty, "\(rule.profileKey)")
        }
    }

    @Test("a device may document an undocumented value and give a number for 'unlimited'")
    func relaxedTypes() throws {
        let documented = try variant("    expiration_limit_default: null", "    expiration_limit_default: 3600")
        #expect(loadError(documented.path) == nil)
        let limited = try variant("      dictionary_bytes: unlimited", "      dictionary_bytes: 65536")
        #expect(loadError(limited.path) == nil)
    }

    @Test("text that is not YAML names its line")
    func notYAML() throws {
        let path = try Fixtures.write("version: 1\nname: [unclosed\n", named: "bad.yaml", in: try Fixtures.folder("notyaml"))
        let error = try #require(loadError(path))
        #expect(error.line != nil && error.reason.hasPrefix("not YAML"), "\(error)")
    }
}
