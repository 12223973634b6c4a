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

    public init(chunkSizeDelta: Int = 0, omitEndOfMessage: Bool = false, ignoreRSSIGate: Bool = false,
                refuseAtGate: Bool = false, skipWriteBack: Bool = false, skipCleanup: Bool = false,
                acceptAboveMaximum: Bool = false, writeBackToWrongHandle: Bool = false,
                writeBackBeforeEndOfMessage: Bool = false, dropNonUTF8Values: Bool = false,
                secondaryService: Bool = false, extraProperties: GATTCharacteristicProperties = [], unreadableValue: Bool = false,
                foreignServiceUUID: Bool = false, endOnMarkerSuffix: Bool = false) {
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
        return parts.isEmpty ? "reference" : parts.joined(separator: ", ")
    }
}
