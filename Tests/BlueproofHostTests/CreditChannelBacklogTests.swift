import BlueproofHost
import BlueproofWire
import Testing

/// issue 17: a peer may speak on a credit-based channel before the application asks for its
/// SDUs (the Spark listener's hello); the host keeps up to 16 and replays them in order.
@Suite("Credit-based channel backlog")
struct CreditChannelBacklogTests {
    @Test("SDUs before incomingSDUs are kept (16 at most, then dropped and logged) and replayed in order")
    func backlogReplayed() async throws {
        try await withRig { rig in
            let channel = try await rig.acceptChannel()
            for index in 0..<17 {
                rig.controller.injectL2CAP(handle: LEHostRobustnessTests.handle, channel: channel.local.cid, payload: [0x01, 0x00, UInt8(index)])
            }
            #expect(await rig.log.line(containing: "SDU dropped, no reader and 16 waiting", level: .debug) != nil)
            let sdus = await rig.host.incomingSDUs(on: channel)
            rig.controller.injectL2CAP(handle: LEHostRobustnessTests.handle, channel: channel.local.cid, payload: [0x01, 0x00, 99])
            var received: [[UInt8]] = []
            for await sdu in sdus {
                received.append(sdu)
                if received.count == 17 { break }
            }
            #expect(received == (0..<16).map { [UInt8($0)] } + [[99]])
        }
    }

    @Test("stopListening ends the stream of accepted channels, refuses later requests (SPSM not supported) and keeps open ones open")
    func stopListening() async throws {
        try await withRig { rig in
            let channel = try await rig.acceptChannel()
            await rig.host.stopListening(spsm: L2CAPSPSM(0x0080))
            let request = L2CAPLECreditBasedConnectionRequest(spsm: L2CAPSPSM(0x0080), sourceCID: L2CAPChannelID(0x0042), mtu: 100,
                                                              mps: 23, initialCredits: 5)
            rig.controller.injectL2CAP(handle: LEHostRobustnessTests.handle, channel: .leSignaling, payload: L2CAPSignal(
                identifier: 0x08, command: .leCreditBasedConnectionRequest(request)).encoded)
            let refused = try L2CAPSignal(payload: #require(await rig.controller.pdu(1)?.frame).payload)
            #expect(refused == L2CAPSignal(identifier: 0x08, command: .leCreditBasedConnectionResponse(.refused(.spsmNotSupported))))
            let other = await rig.host.listen(spsm: L2CAPSPSM(0x0082))
            await rig.host.stopListening(spsm: L2CAPSPSM(0x0082))
            var accepted = other.makeAsyncIterator()
            #expect(await accepted.next() == nil, "the stream of accepted channels did not end")
            try await rig.host.send([0x61], on: channel)
            #expect(await rig.controller.pdu(2)?.frame?.channelID == channel.remote.cid, "the channel open before stopListening closed")
        }
    }
}

extension Rig {
    /// Listens on SPSM 0x0080 (MTU 100, MPS 23, 64 credits), opens the link, and has the peer
    /// (CID 0x0041, identifier 7) open a channel to it; returns that channel.
    func acceptChannel() async throws -> L2CAPChannel {
        let spsm = L2CAPSPSM(0x0080)
        let servers = await host.listen(spsm: spsm, mtu: 100, mps: 23, credits: 64)
        _ = try await open()
        let request = L2CAPLECreditBasedConnectionRequest(spsm: spsm, sourceCID: L2CAPChannelID(0x0041), mtu: 100,
                                                          mps: 23, initialCredits: 5)
        controller.injectL2CAP(handle: LEHostRobustnessTests.handle, channel: .leSignaling, payload: L2CAPSignal(
            identifier: 0x07, command: .leCreditBasedConnectionRequest(request)).encoded)
        return try #require(await servers.first { _ in true })
    }
}
