import BlueproofWire

/// The connection handles the controller has reported ended, as the packets cross the link.
///
/// After a successful Disconnection Complete the handle no longer exists (Core Vol 4, Part E
/// §7.7.5), and a host must not send data on it. The host actor learns of the event some
/// microseconds after the transport read it; a packet it sends in that window would reach the
/// controller, and the capture, after the event. Our transport closes the window: the reader
/// marks the handle as it records the event, and the sender checks the mark as it records the
/// packet, both under one lock, so the capture's order is the order of the decisions.
///
/// A handle lives again when a connection complete reuses it. Pure: fed packets, no I/O.
struct EndedHandles: Sendable {
    private var ended: Set<UInt16> = []

    /// Takes note of a packet from the controller.
    mutating func observe(received packet: H4Packet) {
        guard packet.type == .event, let change = HCIConnectionChange(eventPayload: packet.payload) else { return }
        switch change {
        case let .ended(handle): ended.insert(handle)
        case let .opened(handle): ended.remove(handle)
        }
    }

    /// Whether a packet from the host may go to the controller: anything but data on an
    /// ended handle.
    func admits(sent packet: H4Packet) -> Bool {
        guard packet.type == .acl, packet.payload.count >= 2, !ended.isEmpty else { return true }
        let handle = (UInt16(packet.payload[0]) | UInt16(packet.payload[1]) << 8) & 0x0FFF
        return !ended.contains(handle)
    }
}
