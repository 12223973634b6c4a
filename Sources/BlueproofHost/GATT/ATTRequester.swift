import BlueproofWire

/// Carries ATT PDUs for a ``GATTClient``: a bearer with I/O behind it, or a fake in tests.
public protocol ATTRequester: Sendable {
    /// Sends a request and returns the PDU that answered it (its response or an Error
    /// Response).
    func request(_ pdu: ATTPDU) async throws -> ATTPDU
    /// Sends a command; nothing answers it.
    func command(_ pdu: ATTPDU) async throws
    /// The ATT_MTU in force.
    var mtu: Int { get async }
}
