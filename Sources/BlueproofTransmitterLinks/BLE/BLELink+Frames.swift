import BlueproofHost
import BlueproofTransmitter

/// Frames as chunks on the frame characteristic (docs/transmitter-links.md, "Chunks").
extension BLELink {
    /// Writes from centrals, one at a time: a hello is settled before the chunks behind it.
    func serverEvent(_ event: GATTServerEvent) async {
        guard case let .written(connection, handle, value, _) = event, handle == valueHandle else { return }
        if let user = handles[connection.handle], sessions[user]?.connection == connection {
            await chunkArrived(value, on: connection.handle)
        } else if unnamed[connection.handle]?.connection == connection {
            await hello(value, on: connection)
        }
    }

    /// A chunk on a connection: the hello that names the peer, the adopt chunk that keeps the
    /// connection, or a piece of a frame.
    func chunkArrived(_ bytes: [UInt8], on handle: UInt16) async {
        guard let user = handles[handle], sessions[user] != nil else {
            if let entry = unnamed[handle] { await hello(bytes, on: entry.connection) }
            return
        }
        if let flags = bytes.first.map(BLEFrameChunk.Flags.init(rawValue:)), !flags.isDisjoint(with: [.hello, .adopt]) {
            if flags.contains(.adopt) { becameReady(user) }
            return
        }
        do {
            if let frame = try sessions[user]?.reassembler.receive(bytes) { frameArrived(frame, from: user) }
        } catch .interrupted(let sequence, let received, let expected) {
            logger.debug("frame \(sequence) from \(user) cut short at \(received) of \(expected) bytes; dropped")
            if let frame = try? sessions[user]?.reassembler.receive(bytes) { frameArrived(frame, from: user) }
        } catch {
            logger.debug("chunk from \(user) refused: \(error)")
        }
    }

    /// Reports a whole frame, or holds it until the connection is kept (``BLESession/held``).
    private func frameArrived(_ frame: [UInt8], from user: UserID) {
        guard let session = sessions[user], !session.ready else {
            output.yield(.frame(from: user, bytes: frame))
            return
        }
        guard session.held.count < BLESession.heldLimit else {
            logger.debug("frame from \(user) before the connection was kept, over the \(BLESession.heldLimit) held: dropped")
            return
        }
        sessions[user]?.held.append(frame)
    }

    public func send(_ frame: [UInt8], to peer: UserID) async throws(LinkError) {
        guard let session = sessions[peer], session.ready else { throw LinkError(.peerUnreachable, "\(peer) is not connected") }
        guard frame.count <= profile.frameLimit else {
            throw LinkError(.refused, "a frame of \(frame.count) bytes is over the link's \(profile.frameLimit)")
        }
        await take(.sending(peer))
        defer { turns.give(.sending(peer)) }
        guard var current = sessions[peer], current.connection == session.connection else {
            throw LinkError(.connectionLost, "the connection to \(peer) ended before the frame was sent")
        }
        let chunks: [[UInt8]]
        do {
            chunks = try current.chunker.chunks(of: frame)
        } catch {
            throw LinkError(.refused, "\(error)")
        }
        sessions[peer] = current
        let connection = session.connection
        for chunk in chunks {
            guard connection.endReason == nil else {
                throw LinkError(.connectionLost, "the connection to \(peer) ended mid-frame")
            }
            do {
                switch session.role {
                case let .central(gatt, handle):
                    try await gatt.writeWithoutResponse(handle: handle, value: chunk)
                case let .peripheral(handle):
                    guard try await host.notify(chunk, of: handle, to: connection) else {
                        throw LinkError(.connectionLost, "\(peer) no longer subscribes")
                    }
                }
            } catch {
                throw LinkError(.connectionLost, "sending to \(peer) failed: \(error)")
            }
        }
    }
}
