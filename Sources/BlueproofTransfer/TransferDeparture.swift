import BlueproofHost

/// What the peripheral sees of its central once everything was sent, sans I/O: the sample's
/// central writes back, turns notifications off and disconnects
/// (docs/corebluetooth-transfer-sample.md, "When the Central Receives the Data": `writeData()`,
/// then `cleanup()`). Only the transfer characteristic of this connection counts.
struct TransferDeparture: Sendable {
    let connection: LEConnection
    let valueHandle: UInt16
    /// The first write-back.
    private(set) var reply: [UInt8]?
    private(set) var unsubscribed = false

    init(connection: LEConnection, valueHandle: UInt16) {
        self.connection = connection
        self.valueHandle = valueHandle
    }

    /// Takes one server event; returns what to report of it, nil for events of others.
    mutating func take(_ event: GATTServerEvent) -> TransferEvent? {
        switch event {
        case let .written(from, handle, value, _) where from == connection && handle == valueHandle:
            if reply == nil { reply = value }
            return .reply(value)
        case let .writeRefused(from, handle, length, withResponse, error) where from == connection && handle == valueHandle:
            return .writeRefused(length: length, withResponse: withResponse, error: error)
        case let .subscriptionChanged(from, handle, false, _) where from == connection && handle == valueHandle:
            unsubscribed = true
            return .unsubscribed
        default:
            return nil
        }
    }

    /// What the peripheral still waits for, in words.
    var awaited: String {
        unsubscribed ? "the central to disconnect (it turned notifications off)"
            : "the central to turn notifications off and disconnect"
    }
}
