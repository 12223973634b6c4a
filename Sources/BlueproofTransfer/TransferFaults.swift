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

    public init(chunkSizeDelta: Int = 0, omitEndOfMessage: Bool = false, ignoreRSSIGate: Bool = false,
                refuseAtGate: Bool = false, skipWriteBack: Bool = false, skipCleanup: Bool = false) {
        self.chunkSizeDelta = chunkSizeDelta
        self.omitEndOfMessage = omitEndOfMessage
        self.ignoreRSSIGate = ignoreRSSIGate
        self.refuseAtGate = refuseAtGate
        self.skipWriteBack = skipWriteBack
        self.skipCleanup = skipCleanup
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
        return parts.isEmpty ? "reference" : parts.joined(separator: ", ")
    }
}
