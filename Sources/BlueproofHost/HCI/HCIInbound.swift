import BlueproofWire

/// What a controller sends the host, in arrival order: events and ACL data share one stream,
/// so a connection's first data never overtakes the event that created the connection.
public enum HCIInbound: Sendable {
    case event(HCIEvent)
    case acl(HCIACLPacket)
}
