import BlueproofAsync

/// The events of one transmitter under test, which a case waits on with a deadline.
public typealias TransmitterEventLog = EventLog<TransmitterEvent>

extension EventLog where Event == TransmitterEvent {
    /// Starts recording `transmitter`'s events from now on.
    public static func attach(to transmitter: any TransmitterControl) async -> TransmitterEventLog {
        TransmitterEventLog(await transmitter.events())
    }

    /// The packets received so far.
    public var received: [ReceivedPacket] {
        events.compactMap { if case .received(let packet) = $0 { packet } else { nil } }
    }

    /// Waits for packet `id` to be received.
    public func received(_ id: PacketID, within timeout: Duration) async -> ReceivedPacket? {
        let event = await first(within: timeout) { if case .received(let packet) = $0 { packet.packetID == id } else { false } }
        if case .received(let packet)? = event { return packet }
        return nil
    }
}
