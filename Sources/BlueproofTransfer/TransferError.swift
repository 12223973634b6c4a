import BlueproofHost
import BlueproofWire

/// Why a transfer failed.
public enum TransferError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A chunk size that cannot carry the "EOM" marker.
    case chunkSizeTooSmall(Int)
    /// The received data passed the reassembler's limit.
    case payloadTooLarge(limit: Int)
    /// No advertiser of the service passed the RSSI gate within the scan timeout.
    case noPeripheralFound(service: BluetoothUUID, rejected: Int, limit: Duration)
    /// No central connected and subscribed within the limit.
    case noCentral(limit: Duration)
    /// The peer's server has no transfer service or characteristic, or the characteristic
    /// lacks notify or write without response.
    case serviceNotFound(String)
    /// The connection ended before the transfer did.
    case disconnected(reason: HCIStatus?, bytes: Int)
    /// The central turned notifications off before the transfer ended.
    case unsubscribed(bytes: Int)
    /// The peer stopped sending: nothing arrived within the limit.
    case stalled(bytes: Int, limit: Duration)
    /// The transfer was done, but the central did not leave: `awaited` (in words) did not
    /// happen within `limit`.
    case peerStayed(awaited: String, limit: Duration)
    /// The LE host failed (a command, a connection attempt).
    case host(LEHostError)
    /// A GATT procedure failed (discovery, subscription, a write).
    case gatt(String)
    /// The transfer service could not be served.
    case database(String)

    public var description: String {
        switch self {
        case let .chunkSizeTooSmall(size): "a chunk of \(size) bytes cannot carry the EOM marker"
        case let .payloadTooLarge(limit): "the payload passed the \(limit)-byte limit"
        case let .noPeripheralFound(service, rejected, limit):
            "no peripheral advertising \(service) passed the RSSI gate within \(limit) (\(rejected) rejected)"
        case let .noCentral(limit): "no central connected and subscribed within \(limit)"
        case let .serviceNotFound(what): "transfer service not usable: \(what)"
        case let .disconnected(reason, bytes):
            "the connection ended mid-transfer after \(bytes) bytes\(reason.map { ": \($0)" } ?? "")"
        case let .unsubscribed(bytes): "the central unsubscribed mid-transfer after \(bytes) bytes"
        case let .stalled(bytes, limit): "nothing arrived for \(limit) after \(bytes) bytes"
        case let .peerStayed(awaited, limit): "waited \(limit) for \(awaited) after the transfer"
        case let .host(error): "\(error)"
        case let .gatt(what): "GATT: \(what)"
        case let .database(what): "cannot serve the transfer service: \(what)"
        }
    }

    /// This error with `bytes` as the bytes moved, where it names them.
    func sent(_ bytes: Int) -> TransferError {
        switch self {
        case let .disconnected(reason, _): .disconnected(reason: reason, bytes: bytes)
        case .unsubscribed: .unsubscribed(bytes: bytes)
        case let .stalled(_, limit): .stalled(bytes: bytes, limit: limit)
        default: self
        }
    }

    /// A host or GATT failure as a transfer error, keeping what the connection's end says.
    static func from(_ error: any Error, connection: LEConnection?, bytes: Int) -> TransferError {
        if let reason = connection?.endReason { return .disconnected(reason: reason, bytes: bytes) }
        if let transfer = error as? TransferError { return transfer }
        if let host = error as? LEHostError {
            switch host {
            case let .disconnected(_, reason): return .disconnected(reason: reason, bytes: bytes)
            case .notConnected: return .disconnected(reason: nil, bytes: bytes)
            default: return .host(host)
            }
        }
        return .gatt("\(error)")
    }
}
