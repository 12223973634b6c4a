import Testing
import BlueproofTransmitter

/// N-1 / N / N+1 at every limit, per link kind (bridgefy-ios-sdk-readme.md, "Maximum package
/// sizes and throughput", "Mesh", "Connections with Android devices"). Limits written out here
/// in bytes, a kilobyte being 1024 bytes (choice C1).
@Suite("Size limits")
struct SizeLimitTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let link: LinkKind
        let options: SendingOptions
        var source: TransmitterLimits.MeshLimitSource = .sizeTable
        var dictionary: Int? = nil
        var binary: Int? = nil
        var limits: TransmitterLimits = .documented
        let expected: Expectation
        var warns = false
        var testDescription: String { "\(name) \(link.rawValue) -> \(expected)\(warns ? " (over recommended)" : "")" }
    }

    static let direct = SendingOptions.directTransmission
    static let mesh = SendingOptions.meshTransmission
    static let full = SendingOptions.fullTransmission
    static let broadcast = SendingOptions.broadcastReceiver
    static let okMesh = Expectation.accept(.mesh, encrypted: false, firstHop: .mesh)
    static let okFull = Expectation.accept(.full, encrypted: false, firstHop: .direct)
    static let okBroadcast = Expectation.accept(.broadcast, encrypted: false, firstHop: .mesh)
    static let okDirect = Expectation.accept(.direct, encrypted: false, firstHop: .direct)

    static let rows: [Row] = [
        // Mesh dictionary over BLE, size table: 1 KB = 1024 bytes.
        Row(name: "mesh dict 1023 table", link: .ble, options: mesh, dictionary: 1023, expected: okMesh),
        Row(name: "mesh dict 1024 table", link: .ble, options: mesh, dictionary: 1024, expected: okMesh),
        Row(name: "mesh dict 1025 table", link: .ble, options: mesh, dictionary: 1025, expected: .refuse(50013)),
        Row(name: "full dict 1024 table", link: .ble, options: full, dictionary: 1024, expected: okFull),
        Row(name: "full dict 1025 table (in range)", link: .ble, options: full, dictionary: 1025, expected: .refuse(50013)),
        Row(name: "broadcast dict 1024 table", link: .ble, options: broadcast, dictionary: 1024, expected: okBroadcast),
        Row(name: "broadcast dict 1025 table", link: .ble, options: broadcast, dictionary: 1025, expected: .refuse(50013)),
        // Mesh dictionary over BLE, Mesh section: 2048 bytes.
        Row(name: "mesh dict 2047 section", link: .ble, options: mesh, source: .meshSection, dictionary: 2047, expected: okMesh),
        Row(name: "mesh dict 2048 section", link: .ble, options: mesh, source: .meshSection, dictionary: 2048, expected: okMesh),
        Row(name: "mesh dict 2049 section", link: .ble, options: mesh, source: .meshSection, dictionary: 2049,
            expected: .refuse(50013)),
        Row(name: "broadcast dict 2048 section", link: .ble, options: broadcast, source: .meshSection, dictionary: 2048,
            expected: okBroadcast),
        Row(name: "broadcast dict 2049 section", link: .ble, options: broadcast, source: .meshSection, dictionary: 2049,
            expected: .refuse(50013)),
        // Mesh dictionary over Wi-Fi: 2 KB = 2048 bytes, whichever source applies to BLE.
        Row(name: "mesh dict 2047", link: .wifi, options: mesh, dictionary: 2047, expected: okMesh),
        Row(name: "mesh dict 2048", link: .wifi, options: mesh, dictionary: 2048, expected: okMesh),
        Row(name: "mesh dict 2049", link: .wifi, options: mesh, dictionary: 2049, expected: .refuse(50013)),
        Row(name: "full dict 2048", link: .wifi, options: full, dictionary: 2048, expected: okFull),
        Row(name: "full dict 2049", link: .wifi, options: full, dictionary: 2049, expected: .refuse(50013)),
        Row(name: "broadcast dict 2049 section", link: .wifi, options: broadcast, source: .meshSection, dictionary: 2049,
            expected: .refuse(50013)),
        // Binary over BLE: 120 KB = 122880 bytes.
        Row(name: "binary 122879", link: .ble, options: direct, binary: 122_879, expected: okDirect),
        Row(name: "binary 122880", link: .ble, options: direct, binary: 122_880, expected: okDirect),
        Row(name: "binary 122881", link: .ble, options: direct, binary: 122_881, expected: .refuse(50014)),
        Row(name: "dict 10 + binary 122880", link: .ble, options: direct, dictionary: 10, binary: 122_880, expected: okDirect),
        Row(name: "dict 10 + binary 122881", link: .ble, options: direct, dictionary: 10, binary: 122_881,
            expected: .refuse(50014)),
        // Binary over Wi-Fi: unrestricted.
        Row(name: "binary 122881", link: .wifi, options: direct, binary: 122_881, expected: okDirect),
        Row(name: "binary 100 MB", link: .wifi, options: direct, binary: 100_000_000, expected: okDirect),
        // Direct dictionary over BLE: unrestricted, 120 KB recommended (warning only).
        Row(name: "direct dict 122879", link: .ble, options: direct, dictionary: 122_879, expected: okDirect),
        Row(name: "direct dict 122880", link: .ble, options: direct, dictionary: 122_880, expected: okDirect),
        Row(name: "direct dict 122881", link: .ble, options: direct, dictionary: 122_881, expected: okDirect, warns: true),
        Row(name: "direct dict 100 MB", link: .ble, options: direct, dictionary: 100_000_000, expected: okDirect, warns: true),
        // Direct dictionary over Wi-Fi: unrestricted, nothing recommended.
        Row(name: "direct dict 100 MB", link: .wifi, options: direct, dictionary: 100_000_000, expected: okDirect),
        // A profile that sets a direct dictionary limit (the document sets none).
        Row(name: "profile direct dict 499", link: .ble, options: direct, dictionary: 499,
            limits: TransmitterLimits(dictionaryBLE: 500), expected: okDirect),
        Row(name: "profile direct dict 500", link: .ble, options: direct, dictionary: 500,
            limits: TransmitterLimits(dictionaryBLE: 500), expected: okDirect),
        Row(name: "profile direct dict 501", link: .ble, options: direct, dictionary: 501,
            limits: TransmitterLimits(dictionaryBLE: 500), expected: .refuse(50015)),
        Row(name: "profile binary Wi-Fi 1000", link: .wifi, options: direct, binary: 1000,
            limits: TransmitterLimits(binaryWiFi: 1000), expected: okDirect),
        Row(name: "profile binary Wi-Fi 1001", link: .wifi, options: direct, binary: 1001,
            limits: TransmitterLimits(binaryWiFi: 1000), expected: .refuse(50014)),
    ]

    @Test("size boundary", arguments: rows)
    func boundary(_ row: Row) {
        var limits = row.limits
        limits.meshLimitSource = row.source
        let request = SendRequest(
            options: row.options, dictionarySize: row.dictionary, binarySize: row.binary,
            hasReceiver: !row.options.contains(.broadcastReceiver), receiverInRange: true,
            canEncryptToReceiver: true, link: row.link)
        let verdict = SendValidator(limits: limits).validate(request)
        #expect(row.expected.matches(verdict), "got \(verdict)")
        if let accepted = verdict.accepted {
            #expect(accepted.exceedsRecommendedSize == row.warns)
        }
    }

    @Test("documented limit values")
    func documentedValues() {
        let limits = TransmitterLimits.documented
        #expect(limits.meshDictionaryBLESizeTable == 1024)
        #expect(limits.meshDictionaryMeshSection == 2048)
        #expect(limits.meshDictionaryWiFi == 2048)
        #expect(limits.meshLimitSource == .sizeTable)
        #expect(limits.binaryBLE == 122_880)
        #expect(limits.binaryWiFi == nil)
        #expect(limits.dictionaryBLE == nil)
        #expect(limits.dictionaryBLERecommended == 122_880)
        #expect(limits.dictionaryWiFi == nil)
    }

    /// A real payload whose JSON is exactly 1024 bytes: `{"t":"` + 1016 x "a" + `"}`.
    @Test("encoded payload at the mesh boundary", arguments: [(1015, true), (1016, true), (1017, false)])
    func encodedBoundary(filler: Int, accepted: Bool) throws {
        let payload = try TransmitterPayload(dictionary: ["t": .string(String(repeating: "a", count: filler))])
        #expect(payload.dictionarySize == filler + 8)
        let request = payload.request(options: [.meshTransmission], hasReceiver: true, receiverInRange: false,
                                      canEncryptToReceiver: false)
        let verdict = SendValidator().validate(request)
        #expect((verdict.accepted != nil) == accepted)
        if !accepted { #expect(verdict.error == .meshDictionaryTooLarge) }
    }
}
