/// For a tester that writes an offer its own encoder refuses (docs/spark-wire.md, "Bounds";
/// SPK/CONN/BI-04): the core holds the connection as if it had offered it, so the peer's answer
/// is reported as any answer is (`ended … by the remote side`), origin and reason checked. A
/// subject's core never calls it.
extension SparkCore {
    /// Numbers an outgoing connection to `peer` (`number` if given, else the next) and holds it
    /// offering, sending nothing: the caller writes the offer itself.
    public mutating func holdWrittenOffer(to peer: UInt64, number: UInt32? = nil) -> SparkConnectionID {
        let id = SparkConnectionID(peer: peer, number: number ?? nextConnection, outgoing: true)
        if number == nil { nextConnection &+= 1 }
        precondition(connections[id] == nil, "holdWrittenOffer: the tester already holds \(id)")
        connections[id] = ConnectionRecord(state: .offering, outgoing: true, deadline: clock.now().addingTimeInterval(configuration.offerTimeout))
        return id
    }
}
