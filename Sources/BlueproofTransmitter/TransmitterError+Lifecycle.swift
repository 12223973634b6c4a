/// Codes for start, session, key and connection failures (blueproof's numbering, the last
/// seven of the 50000–50024 range). See docs/transmitter.md, "Error codes".
extension TransmitterError {
    /// The offline licence is malformed, signed by another issuer, or for another API key.
    /// "Configuring Transmitter Framework without Internet"; "2. Start transmitter".
    public static let licenceInvalid = TransmitterError(
        code: 50018, name: "licenceInvalid", summary: "the licence is not valid for this API key",
        origin: .document(section: "2. Start transmitter"))

    /// The offline licence is past its expiry date.
    public static let licenceExpired = TransmitterError(
        code: 50019, name: "licenceExpired", summary: "the licence has expired",
        origin: .document(section: "2. Start transmitter"))

    /// The session store cannot be read or written; a corrupt store is never replaced silently.
    public static let sessionError = TransmitterError(
        code: 50020, name: "sessionError", summary: "the session store cannot be used",
        origin: .inferred(reason: "the document says a session is needed and persistent, not how its failure shows"))

    /// A public key given to `savePublicKey` is not one `localPublicKey` could have exported.
    public static let invalidPublicKey = TransmitterError(
        code: 50021, name: "invalidPublicKey", summary: "the public key is not a valid exported key",
        origin: .document(section: "Export and import keys"))

    /// A different key was offered for a user whose key is on record.
    public static let publicKeyConflict = TransmitterError(
        code: 50022, name: "publicKeyConflict", summary: "a different key is already on record for this user",
        origin: .inferred(reason: "issue 5: a key that changes for a known user is never replaced silently"))

    /// On-demand mode already holds its maximum number of connections.
    public static let connectionLimitReached = TransmitterError(
        code: 50023, name: "connectionLimitReached", summary: "the maximum number of on-demand connections is open",
        origin: .document(section: "2. On-demand"))

    /// The call needs a started transmitter.
    public static let notStarted = TransmitterError(
        code: 50024, name: "notStarted", summary: "the transmitter is not started",
        origin: .document(section: "2. Start transmitter"))
}
