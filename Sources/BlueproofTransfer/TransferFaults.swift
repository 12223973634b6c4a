import BlueproofWire

/// Deliberately broken behaviours, off by default: the conformance suite shows with them that
/// each of its transfer cases can fail (issue 6, "Every case can fail"). No real transfer sets
/// one; a variant run names the switch it turned on.
public struct TransferFaults: Hashable, Sendable, CustomStringConvertible {
    /// Bytes added to the sender's chunk size (ATT_MTU - 3): negative sends short chunks.
    public var chunkSizeDelta = 0
    /// The sender never sends the "EOM" marker.
    public var omitEndOfMessage = false
    /// The central connects whatever its RSSI gate decides.
    public var ignoreRSSIGate = false
    /// The central refuses an RSSI exactly at the gate (`>` where the sample has `>=`).
    public var refuseAtGate = false
    /// The central never writes its reply back after EOM.
    public var skipWriteBack = false
    /// The central neither unsubscribes nor disconnects once the transfer is done.
    public var skipCleanup = false
    /// The central's gate has no upper bound: an RSSI above 0 dBm passes (the sample's code
    /// alone, `>= -50`, would let it through).
    public var acceptAboveMaximum = false
    /// The central writes its reply back with a Write Command to the wrong handle (the
    /// characteristic's declaration instead of its value).
    public var writeBackToWrongHandle = false
    /// The central writes back before the peripheral's "EOM" (right after subscribing).
    public var writeBackBeforeEndOfMessage = false
    /// The receiver drops every value that is not valid UTF-8, as the sample's
    /// `String(data:encoding: .utf8)` guard does, instead of keeping bytes.
    public var dropNonUTF8Values = false
    /// The peripheral serves the transfer service as secondary, not primary.
    public var secondaryService = false
    /// Properties the peripheral adds to the characteristic's (notify + write without response).
    public var extraProperties: GATTCharacteristicProperties = []
    /// The peripheral's characteristic value is not readable (the sample's permissions are
    /// readable and writeable).
    public var unreadableValue = false
    /// The peripheral serves and advertises another service UUID than the sample's.
    public var foreignServiceUUID = false
    /// The central ends the message on any value that ends in "EOM", not only on "EOM" itself.
    public var endOnMarkerSuffix = false
    /// The sender lets a data chunk that is exactly "EOM" go out whole (no framing rule).
    public var markerChunkUnsplit = false
    // issue 14: CBT/GATT, CHUNK, FLOW, ROLE, CLEAN, GATE runner cases
    /// The central keeps taking values past its payload limit.
    public var ignorePayloadLimit = false
    /// The sender puts an empty notification before the marker of an empty payload.
    public var emptyChunkBeforeMarker = false
    /// The central keeps the "EOM" marker at the end of the message it completes.
    public var keepMarkerInMessage = false
    /// The sender leaves out data chunks shorter than the marker (a payload's short last chunk).
    public var dropChunksShorterThanMarker = false
    /// The sender (either role) leaves out the first chunk that starts at or after this many bytes.
    public var loseChunkAt: Int? = nil
    /// The peripheral sends its chunks as indications, not notifications.
    public var indicateChunks = false
    /// The peripheral leaves the service UUID out of its advertising data.
    public var unadvertisedService = false
    /// Properties the peripheral takes away from the characteristic's (notify + write without response).
    public var missingProperties: GATTCharacteristicProperties = []
    /// The peripheral keeps advertising when it gives up waiting for a central.
    public var keepAdvertising = false
    /// The central scans with duplicate reports filtered out.
    public var filterDuplicateReports = false
    /// Once connected, the central connects to the same peer again (as on a repeated report).
    public var connectAgain = false
    /// The central reports a failed transfer without saying why (a bare GATT error).
    public var vagueFailure = false
    /// The central neither unsubscribes nor disconnects when its transfer fails.
    public var skipCleanupOnError = false
    /// The central lets "not available" (127) through its gate.
    public var acceptUnavailableRSSI = false
    /// The central's gate passes RSSI at or below the gate (`<=` where the sample has `>=`).
    public var gateAsUpperBound = false

    public init(chunkSizeDelta: Int = 0, omitEndOfMessage: Bool = false, ignoreRSSIGate: Bool = false,
                refuseAtGate: Bool = false, skipWriteBack: Bool = false, skipCleanup: Bool = false,
                acceptAboveMaximum: Bool = false, writeBackToWrongHandle: Bool = false,
                writeBackBeforeEndOfMessage: Bool = false, dropNonUTF8Values: Bool = false,
                secondaryService: Bool = false, extraProperties: GATTCharacteristicProperties = [], unreadableValue: Bool = false,
                foreignServiceUUID: Bool = false, endOnMarkerSuffix: Bool = false, markerChunkUnsplit: Bool = false,
                ignorePayloadLimit: Bool = false, emptyChunkBeforeMarker: Bool = false, keepMarkerInMessage: Bool = false,
                dropChunksShorterThanMarker: Bool = false, loseChunkAt: Int? = nil, indicateChunks: Bool = false,
                unadvertisedService: Bool = false, missingProperties: GATTCharacteristicProperties = [], keepAdvertising: Bool = false,
                filterDuplicateReports: Bool = false, connectAgain: Bool = false, vagueFailure: Bool = false,
                skipCleanupOnError: Bool = false, acceptUnavailableRSSI: Bool = false, gateAsUpperBound: Bool = false) {
        self.chunkSizeDelta = chunkSizeDelta
        self.omitEndOfMessage = omitEndOfMessage
        self.ignoreRSSIGate = ignoreRSSIGate
        self.refuseAtGate = refuseAtGate
        self.skipWriteBack = skipWriteBack
        self.skipCleanup = skipCleanup
        self.acceptAboveMaximum = acceptAboveMaximum
        self.writeBackToWrongHandle = writeBackToWrongHandle
        self.writeBackBeforeEndOfMessage = writeBackBeforeEndOfMessage
        self.dropNonUTF8Values = dropNonUTF8Values
        self.secondaryService = secondaryService
        self.extraProperties = extraProperties
        self.unreadableValue = unreadableValue
        self.foreignServiceUUID = foreignServiceUUID
        self.endOnMarkerSuffix = endOnMarkerSuffix
        self.markerChunkUnsplit = markerChunkUnsplit
        self.ignorePayloadLimit = ignorePayloadLimit
        self.emptyChunkBeforeMarker = emptyChunkBeforeMarker
        self.keepMarkerInMessage = keepMarkerInMessage
        self.dropChunksShorterThanMarker = dropChunksShorterThanMarker
        self.loseChunkAt = loseChunkAt
        self.indicateChunks = indicateChunks
        self.unadvertisedService = unadvertisedService
        self.missingProperties = missingProperties
        self.keepAdvertising = keepAdvertising
        self.filterDuplicateReports = filterDuplicateReports
        self.connectAgain = connectAgain
        self.vagueFailure = vagueFailure
        self.skipCleanupOnError = skipCleanupOnError
        self.acceptUnavailableRSSI = acceptUnavailableRSSI
        self.gateAsUpperBound = gateAsUpperBound
    }

    /// Whether the sender leaves out data chunk `index` of chunks of `chunkSize` (``loseChunkAt``).
    public func losesChunk(_ index: Int, chunkSize: Int) -> Bool {
        loseChunkAt.map { index == ($0 + chunkSize - 1) / chunkSize } ?? false
    }

    /// The reference behaviour: no fault.
    public static let none = TransferFaults()

    public var description: String {
        var parts: [String] = []
        if chunkSizeDelta != 0 { parts.append("chunk size \(chunkSizeDelta > 0 ? "+" : "")\(chunkSizeDelta)") }
        if omitEndOfMessage { parts.append("EOM omitted") }
        if ignoreRSSIGate { parts.append("RSSI gate ignored") }
        if refuseAtGate { parts.append("RSSI at the gate refused") }
        if skipWriteBack { parts.append("no write-back") }
        if skipCleanup { parts.append("no cleanup") }
        if acceptAboveMaximum { parts.append("RSSI above 0 dBm accepted") }
        if writeBackToWrongHandle { parts.append("write-back to the wrong handle") }
        if writeBackBeforeEndOfMessage { parts.append("write-back before EOM") }
        if dropNonUTF8Values { parts.append("non-UTF-8 values dropped") }
        if secondaryService { parts.append("secondary service") }
        if !extraProperties.isEmpty { parts.append("extra properties \(extraProperties)") }
        if unreadableValue { parts.append("value not readable") }
        if foreignServiceUUID { parts.append("foreign service UUID") }
        if endOnMarkerSuffix { parts.append("message ended on a value ending in EOM") }
        if markerChunkUnsplit { parts.append("a chunk that is EOM sent whole") }
        if ignorePayloadLimit { parts.append("payload limit ignored") }
        if emptyChunkBeforeMarker { parts.append("empty chunk before EOM") }
        if keepMarkerInMessage { parts.append("EOM kept in the message") }
        if dropChunksShorterThanMarker { parts.append("chunks shorter than EOM dropped") }
        if let loseChunkAt { parts.append("a chunk lost at \(loseChunkAt) bytes") }
        if indicateChunks { parts.append("chunks indicated") }
        if unadvertisedService { parts.append("service UUID not advertised") }
        if !missingProperties.isEmpty { parts.append("properties missing \(missingProperties)") }
        if keepAdvertising { parts.append("advertising kept on") }
        if filterDuplicateReports { parts.append("duplicate reports filtered") }
        if connectAgain { parts.append("connects twice") }
        if vagueFailure { parts.append("failure without its reason") }
        if skipCleanupOnError { parts.append("no cleanup after an error") }
        if acceptUnavailableRSSI { parts.append("RSSI not available accepted") }
        if gateAsUpperBound { parts.append("RSSI gate turned round") }
        return parts.isEmpty ? "reference" : parts.joined(separator: ", ")
    }
}
