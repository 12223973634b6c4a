/// Why the application's call on the core was refused (docs/spark-wire.md "Errors").
public enum SparkError: Error, Hashable, Sendable {
    /// No key on record for the peer: `kMediaFailureKeyError` ("Starting A Data Connection").
    case keyError(peer: UInt64)
    /// Metadata over `SparkLimits.maxMetadataBytes` ("up to 4Kb of metadata").
    case metadataTooLarge(bytes: Int, limit: Int)
    /// The application's connection limit (1 for the single-connection sample) is reached.
    case tooManyConnections(limit: Int)
    case unknownConnection(SparkConnectionID)
    /// The call needs another state (accepting an accepted connection, sending before accept).
    case wrongState(SparkConnectionID, SparkConnectionState)
    /// `SparkLimits.maxChannelsPerConnection` channels are open.
    case channelLimit(limit: Int)
    case unknownChannel(UInt32)
    /// `SparkLimits.maxQueuedStreamBytes` of stream blocks wait for the link: back-pressure.
    case queueFull(bytes: Int, limit: Int)
    /// A description, name or size the wire format refuses.
    case invalid(SparkWireError.Reason)
    /// The file to send is not there or cannot be read.
    case file(SparkFileFailure)
}

/// Why a transfer or stream send failed, as its progress or receive event reports it.
public enum SparkTransferError: Error, Hashable, Sendable {
    /// The sender's file vanished or shrank mid-transfer ("Data and Files").
    case sourceUnavailable(String)
    /// `closeDataChannel` cancelled the send ("Streams").
    case channelClosed(UInt32)
    /// The connection ended before the transfer did.
    case connectionEnded(SparkEndReason)
    /// The other side reported this failure.
    case remote(SparkTransferFailure)
    /// `done` came before (or chunks past) the declared size.
    case sizeMismatch(declared: UInt64, received: UInt64)
    /// The bytes received do not hash to the header's SHA-256.
    case digestMismatch
    /// The receiver could not store the file.
    case storage(SparkFileFailure)
    /// The frame was not valid here (a second header for one id, too many transfers, ...).
    case refused(String)
}
