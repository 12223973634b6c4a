/// The error codes blueproof assigns. The document gives no numbers (see `TransmitterError`);
/// numbering follows the order issue 5 lists the situations in, then blueproof's additions.
extension TransmitterError {
    /// Neither a dictionary nor binary data was given.
    /// "4. Send data": the dictionary may be nil only if the data isn't, and vice versa.
    public static let noDataToSend = TransmitterError(
        code: 50000, name: "noDataToSend", summary: "nothing to send: no dictionary and no binary data",
        origin: .document(section: "4. Send data"))

    /// Broadcast combined with encryption.
    public static let encryptedBroadcast = TransmitterError(
        code: 50001, name: "encryptedBroadcast", summary: "a broadcast packet cannot be encrypted",
        origin: .document(section: "Sending options"))

    /// Binary data with the mesh or full option.
    public static let binaryInMesh = TransmitterError(
        code: 50002, name: "binaryInMesh", summary: "binary data travels by direct transmission only",
        origin: .document(section: "Mesh"))

    /// Direct transmission while the receiver is not in range.
    public static let directReceiverNotInRange = TransmitterError(
        code: 50003, name: "directReceiverNotInRange", summary: "direct transmission needs the receiver in range",
        origin: .document(section: "Sending options"))

    /// Encryption without a secure connection made at least once (and not expired) or an imported key.
    public static let noSecureConnection = TransmitterError(
        code: 50004, name: "noSecureConnection",
        summary: "encrypted content needs a secure connection made at least once or an imported key",
        origin: .document(section: "Export and import keys"))

    /// Mesh, full or broadcast in on-demand mode.
    public static let functionNotAvailableInMode = TransmitterError(
        code: 50005, name: "functionNotAvailableInMode",
        summary: "on-demand mode supports direct messages only",
        origin: .document(section: "Operation modes"))

    /// Broadcast with binary data.
    public static let binaryInBroadcast = TransmitterError(
        code: 50006, name: "binaryInBroadcast", summary: "a broadcast packet cannot carry binary data",
        origin: .document(section: "Broadcast messages"))

    /// Broadcast combined with direct or full transmission.
    public static let broadcastOutsideMesh = TransmitterError(
        code: 50007, name: "broadcastOutsideMesh", summary: "broadcast is sent through the mesh only",
        origin: .document(section: "Broadcast messages"))

    /// More than one of direct, mesh and full.
    public static let conflictingTransmissionOptions = TransmitterError(
        code: 50008, name: "conflictingTransmissionOptions",
        summary: "choose one of direct, mesh and full transmission",
        origin: .inferred(reason: "the document never combines them; choice C4 in docs/transmitter.md"))

    /// Both encrypted and not encrypted.
    public static let conflictingEncryptionOptions = TransmitterError(
        code: 50009, name: "conflictingEncryptionOptions",
        summary: "a packet cannot be both encrypted and not encrypted",
        origin: .inferred(reason: "choice C5 in docs/transmitter.md"))

    /// None of direct, mesh, full or broadcast.
    public static let missingTransmissionOption = TransmitterError(
        code: 50010, name: "missingTransmissionOption",
        summary: "one of direct, mesh, full or broadcast is needed",
        origin: .inferred(reason: "the document gives no default; choice C6 in docs/transmitter.md"))

    /// Direct, mesh or full without a receiver.
    public static let missingReceiver = TransmitterError(
        code: 50011, name: "missingReceiver", summary: "direct, mesh and full transmission need a receiver",
        origin: .inferred(reason: "only broadcast is sent without a receiver; choice C7 in docs/transmitter.md"))

    /// Broadcast with a receiver.
    public static let broadcastWithReceiver = TransmitterError(
        code: 50012, name: "broadcastWithReceiver", summary: "a broadcast packet has no receiver",
        origin: .inferred(reason: "the document's broadcast example passes no receiver; choice C7 in docs/transmitter.md"))

    /// A dictionary sent through the mesh (mesh, full, broadcast) above the mesh limit of the link.
    public static let meshDictionaryTooLarge = TransmitterError(
        code: 50013, name: "meshDictionaryTooLarge", summary: "the dictionary exceeds the mesh size limit of the link",
        origin: .document(section: "Maximum package sizes and throughput"))

    /// Binary data above the direct limit of the link.
    public static let binaryTooLarge = TransmitterError(
        code: 50014, name: "binaryTooLarge", summary: "the binary data exceeds the size limit of the link",
        origin: .document(section: "Maximum package sizes and throughput"))

    /// A direct dictionary above a limit the profile sets (the document sets none).
    public static let dictionaryTooLarge = TransmitterError(
        code: 50015, name: "dictionaryTooLarge", summary: "the dictionary exceeds the size limit of the link",
        origin: .inferred(reason: "the document leaves direct dictionaries unrestricted; only a profile can set a limit"))

    /// A dictionary value that is neither JSON-encodable nor binary.
    public static let unsupportedDictionaryValue = TransmitterError(
        code: 50016, name: "unsupportedDictionaryValue",
        summary: "dictionary values must be JSON-encodable or binary data",
        origin: .document(section: "Dictionaries"))

    /// A number JSON cannot represent (NaN, infinity).
    public static let nonFiniteNumber = TransmitterError(
        code: 50017, name: "nonFiniteNumber", summary: "JSON cannot encode NaN or infinity",
        origin: .document(section: "Dictionaries"))

    /// Every code this module assigns, in code order.
    public static let all: [TransmitterError] = [
        .noDataToSend, .encryptedBroadcast, .binaryInMesh, .directReceiverNotInRange, .noSecureConnection,
        .functionNotAvailableInMode, .binaryInBroadcast, .broadcastOutsideMesh, .conflictingTransmissionOptions,
        .conflictingEncryptionOptions, .missingTransmissionOption, .missingReceiver, .broadcastWithReceiver,
        .meshDictionaryTooLarge, .binaryTooLarge, .dictionaryTooLarge, .unsupportedDictionaryValue, .nonFiniteNumber,
        .licenceInvalid, .licenceExpired, .sessionError, .invalidPublicKey, .publicKeyConflict,
        .connectionLimitReached, .notStarted,
    ]
}
