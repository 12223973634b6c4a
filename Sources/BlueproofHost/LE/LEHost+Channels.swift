import BlueproofWire

extension LEHost {
    /// Hands one L2CAP PDU to its channel (Vol 3, Part A §2.1): ATT, LE signaling, SMP, or a
    /// credit-based channel.
    func receiveL2CAP(_ frame: L2CAPBasicFrame, on connection: LEConnection) {
        switch frame.channelID {
        case .att:
            receiveATT(frame.payload, on: connection.handle)
        case .smp:
            // No pairing here: every pairing attempt is refused (Vol 3, Part H §3.5.5).
            if let answer = SMPPairingRefusal.answer(toPayload: frame.payload) {
                try? sendL2CAP(answer.payload, channel: answer.channelID, on: connection.handle)
            }
        case .leSignaling:
            performSignaling(on: connection.handle) { $0.receive(frame: frame) }
        case let cid where cid.isLEDynamic:
            performSignaling(on: connection.handle) { $0.receive(frame: frame) }
        default:
            violation("L2CAP PDU on unsupported channel \(frame.channelID) of 0x\(hex(connection.handle)) dropped")
        }
    }

    /// A new connection: its signaling channel accepts the credit-based servers registered
    /// with ``listen(spsm:mtu:mps:credits:)``.
    func linkOpened(_ connection: LEConnection) {
        for (spsm, server) in channelServers {
            try? links[connection.handle]?.signaling.register(
                spsm: spsm, mtu: server.parameters.mtu, mps: server.parameters.mps, credits: server.parameters.initialCredits)
        }
    }

    /// The connection ended: every waiter on it fails, every stream of it finishes.
    func linkClosed(_ link: LELink, reason: HCIStatus) {
        var link = link
        let handle = link.connection.handle
        link.attTimer?.task.cancel()
        for action in link.att.close() {
            if case let .failed(id, _) = action {
                link.attWaiters.removeValue(forKey: id)?.resolve(.failure(.disconnected(handle: handle, reason: reason)))
            }
        }
        for waiter in link.attWaiters.values { waiter.resolve(.failure(.disconnected(handle: handle, reason: reason))) }
        for waiter in link.indicationWaiters { waiter.resolve(false) }
        for continuation in link.notificationSubscribers.values { continuation.finish() }
        for waiter in link.channelOpenings.values { waiter.resolve(.failure(.disconnected(handle: handle, reason: reason))) }
        for continuation in link.channelInbound.values { continuation.finish() }
        for waiter in link.channelWaiters.values.joined() { waiter.resolve(false) }
        for waiter in link.creditWaiters.values.joined() { waiter.resolve(false) }
        gattServer?.disconnected(handle)
    }
}
