import BlueproofAsync
import BlueproofWire

extension LEHost {
    /// Sends one L2CAP PDU on `channel` of `connection` (Vol 3, Part A §3.1): it is fragmented
    /// to the controller's ACL size and leaves as ACL buffers free up.
    func sendL2CAP(_ payload: [UInt8], channel: L2CAPChannelID, on handle: UInt16) throws(LEHostError) {
        guard let link = links[handle], !link.closing else { throw .notConnected(handle: handle) }
        do {
            let pdu = try L2CAPBasicFrame(channelID: channel, payload: payload).encoded()
            try acl?.send(pdu, on: handle)
        } catch let error as WireError {
            throw .oversizePDU(error)
        } catch {
            violation("\(error)")
            throw .notConnected(handle: handle)
        }
    }

    /// Waits until fewer than `limit` PDUs of `connection` wait for ACL buffers. Throws when the
    /// connection ends first.
    func waitForRoom(on handle: UInt16, below limit: Int) async throws(LEHostError) {
        guard let acl, let link = links[handle], !link.closing else { throw .notConnected(handle: handle) }
        guard acl.queuedPDUs(on: handle) >= limit else { return }
        let room = OneShot<Bool>()
        links[handle]?.roomWaiters.append(room)
        guard await room.wait() == true else { throw .notConnected(handle: handle) }
    }

    /// How many of the connection's outbound PDUs the controller has completed, every fragment
    /// of each (numbered as ``notifyTracked(_:of:to:)`` numbers them); after the connection
    /// ended, how many it had completed by then.
    public nonisolated func completedPDUs(on connection: LEConnection) -> Int {
        connection.completions.current
    }

    /// Waits until the controller has completed every fragment of the connection's `number`th
    /// outbound PDU and of all before it (Number Of Completed Packets, Vol 4, Part E §7.7.19):
    /// the PDU left this host's side for good. Throws ``LEHostError/disconnected(handle:reason:)``
    /// when the connection ends first (the controller flushes what it holds, §4.3).
    public func waitForCompletion(ofPDU number: Int, on connection: LEConnection) async throws(LEHostError) {
        let handle = connection.handle
        while true {
            if connection.completions.current >= number { return }
            guard acl != nil, links[handle]?.connection == connection else { break }
            let moved = OneShot<Bool>()
            links[handle]?.roomWaiters.append(moved)
            guard await moved.wait() == true else { break }
        }
        if let reason = connection.endReason { throw .disconnected(handle: handle, reason: reason) }
        throw .notConnected(handle: handle)
    }

    /// Number Of Completed Packets for one handle (Vol 4, Part E §7.7.19), counted here unless
    /// the transport's reader thread already did (``ACLScheduler``).
    func packetsCompleted(_ count: Int, on handle: UInt16) {
        guard let acl else { return }
        if !acl.completesOnReaderThread { acl.completed(count, on: handle) }
        for problem in acl.takeViolations() { violation("\(problem)") }
        links[handle]?.connection.completions.set(acl.pdusCompleted(on: handle))
        wakeRoomWaiters()
    }

    /// Wakes every waiter whose connection's queue has moved; each checks again.
    private func wakeRoomWaiters() {
        for handle in Array(links.keys) where !(links[handle]?.roomWaiters.isEmpty ?? true) {
            let waiters = links[handle]?.roomWaiters ?? []
            links[handle]?.roomWaiters = []
            for waiter in waiters { waiter.resolve(true) }
        }
    }

    /// An ACL fragment from the controller: recombined into an L2CAP PDU, then handed to its
    /// channel.
    func receive(_ packet: HCIACLPacket) {
        guard let link = links[packet.handle] else {
            violation("ACL data for unknown handle 0x\(hex(packet.handle)) (\(packet.data.count) bytes) dropped")
            return
        }
        let pdu: [UInt8]?
        do {
            pdu = try recombiner.receive(packet)
        } catch {
            violation("\(error)")
            // A start that cut into an incomplete PDU may itself be whole: it still counts.
            pdu = error.completedPDU
        }
        guard let pdu else { return }
        let frame: L2CAPBasicFrame
        do {
            frame = try L2CAPBasicFrame(bytes: pdu)
        } catch {
            violation("malformed L2CAP PDU on 0x\(hex(packet.handle)): \(error)")
            return
        }
        receiveL2CAP(frame, on: link.connection)
    }
}
