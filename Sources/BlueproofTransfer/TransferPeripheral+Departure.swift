import BlueproofAsync
import BlueproofHost
import BlueproofWire

extension TransferPeripheral {
    /// Once the transfer is done the sample's peripheral stays: its central writes back, turns
    /// notifications off and disconnects (docs/corebluetooth-transfer-sample.md, "When the
    /// Central Receives the Data": `writeData()`, then `cleanup()`), and the peripheral never
    /// disconnects it. Reports each step as it comes (``TransferDeparture``) and returns the
    /// first write-back once the connection ended. Bounded by the profile's idle timeout:
    /// a central still connected then fails the transfer with
    /// ``TransferError/peerStayed(awaited:limit:)``, and the caller's cleanup disconnects it.
    func awaitDeparture(of link: Link, events: AsyncStream<GATTServerEvent>,
                        emit: @escaping Emit) async throws(TransferError) -> [UInt8]? {
        let watch = Shared(TransferDeparture(connection: link.connection, valueHandle: link.valueHandle))
        let (host, connection, limit) = (self.host, link.connection, profile.idleTimeout)
        let ended = try? await withTimeout(limit, clock: clock, what: "the central's departure") { () async -> HCIStatus?? in
            await withTaskGroup(of: HCIStatus??.self) { group in
                group.addTask { .some(await host.waitForDisconnection(connection)) }
                group.addTask {
                    for await event in events {
                        if let note = watch.withLock({ $0.take(event) }) { emit(note) }
                    }
                    // The host stopped serving: nothing more will come.
                    return .none
                }
                defer { group.cancelAll() }
                while let next = await group.next() {
                    if let ended = next { return ended }
                }
                return .none
            }
        }
        guard case let .some(.some(reason)) = ended else {
            throw .peerStayed(awaited: watch.current.awaited, limit: limit)
        }
        emit(.disconnected(reason: reason))
        return watch.current.reply
    }
}
