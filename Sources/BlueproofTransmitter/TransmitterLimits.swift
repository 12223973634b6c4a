/// The size limits a transmitter applies, per link kind. `nil` means unrestricted.
///
/// Source: bridgefy-ios-sdk-readme.md, "Maximum package sizes and throughput" (the size
/// table), "Mesh" (2048 bytes) and "Connections with Android devices" (120 KB binary over BLE).
/// The document contradicts itself on the mesh dictionary limit over BLE (1 KB in the table,
/// 2048 bytes in the Mesh section): both values are held and `meshLimitSource` says which one
/// applies. A kilobyte is taken as 1024 bytes (choice C1 in docs/transmitter.md).
public struct TransmitterLimits: Hashable, Sendable {
    /// Which of the two documented mesh dictionary limits over BLE applies.
    public enum MeshLimitSource: String, Hashable, Sendable, CaseIterable {
        /// "Maximum package sizes and throughput": 1 KB over BLE.
        case sizeTable
        /// "Mesh": 2048 bytes.
        case meshSection
    }

    /// Mesh dictionary over BLE, from the size table (1 KB).
    public var meshDictionaryBLESizeTable: Int
    /// Mesh dictionary limit from the Mesh section (2048 bytes).
    public var meshDictionaryMeshSection: Int
    /// Mesh dictionary over Wi-Fi, from the size table (2 KB).
    public var meshDictionaryWiFi: Int
    /// Which BLE mesh dictionary value applies.
    public var meshLimitSource: MeshLimitSource
    /// Binary data over BLE (120 KB).
    public var binaryBLE: Int?
    /// Binary data over Wi-Fi (unrestricted).
    public var binaryWiFi: Int?
    /// Direct dictionary over BLE (unrestricted).
    public var dictionaryBLE: Int?
    /// Direct dictionary over BLE, recommended maximum (120 KB); exceeding it is a warning only.
    public var dictionaryBLERecommended: Int?
    /// Direct dictionary over Wi-Fi (unrestricted).
    public var dictionaryWiFi: Int?

    public init(
        meshDictionaryBLESizeTable: Int = 1024,
        meshDictionaryMeshSection: Int = 2048,
        meshDictionaryWiFi: Int = 2048,
        meshLimitSource: MeshLimitSource = .sizeTable,
        binaryBLE: Int? = 120 * 1024,
        binaryWiFi: Int? = nil,
        dictionaryBLE: Int? = nil,
        dictionaryBLERecommended: Int? = 120 * 1024,
        dictionaryWiFi: Int? = nil
    ) {
        self.meshDictionaryBLESizeTable = meshDictionaryBLESizeTable
        self.meshDictionaryMeshSection = meshDictionaryMeshSection
        self.meshDictionaryWiFi = meshDictionaryWiFi
        self.meshLimitSource = meshLimitSource
        self.binaryBLE = binaryBLE
        self.binaryWiFi = binaryWiFi
        self.dictionaryBLE = dictionaryBLE
        self.dictionaryBLERecommended = dictionaryBLERecommended
        self.dictionaryWiFi = dictionaryWiFi
    }

    /// The documented values, with the size table's 1 KB for mesh over BLE.
    public static let documented = TransmitterLimits()

    /// The largest dictionary (encoded bytes) that may enter the mesh on `link`.
    /// Over BLE this follows `meshLimitSource`; over Wi-Fi the table's 2 KB (the Mesh section's
    /// 2048 bytes names no link, and agrees).
    public func meshDictionary(on link: LinkKind) -> Int {
        switch link {
        case .ble: meshLimitSource == .sizeTable ? meshDictionaryBLESizeTable : meshDictionaryMeshSection
        case .wifi: meshDictionaryWiFi
        }
    }

    /// The largest binary part (bytes) on `link`, nil if unrestricted.
    public func binary(on link: LinkKind) -> Int? {
        switch link {
        case .ble: binaryBLE
        case .wifi: binaryWiFi
        }
    }

    /// The largest direct dictionary (encoded bytes) on `link`, nil if unrestricted.
    public func dictionary(on link: LinkKind) -> Int? {
        switch link {
        case .ble: dictionaryBLE
        case .wifi: dictionaryWiFi
        }
    }

    /// The recommended maximum for a direct dictionary on `link`, nil if none.
    public func recommendedDictionary(on link: LinkKind) -> Int? {
        switch link {
        case .ble: dictionaryBLERecommended
        case .wifi: nil
        }
    }
}
