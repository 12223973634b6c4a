import BlueproofBluenetHost
import BlueproofControl

// issue 18: Bluenet
extension DUTTransmitterProvider {
    /// The implementation's Bluenet library over the control protocol's Bluenet commands
    /// (version 6, docs/control-protocol.md, "Bluenet"): the one at `--dut`, connected afresh for
    /// the case, or the `--dut-exec` program started as `bluenet` on node 0. As with Spark
    /// (`DUTSparkProvider`), one that speaks an older protocol, answers `bluenetUnsupported` or
    /// does not play the role makes the case not-applicable only until it has started a library
    /// once in the run; after that, declining is an error. One that does not answer is an error.
    public func bluenet(on node: Int, for context: CaseContext) async throws -> any BluenetControl {
        guard node == 0 else { throw TransmitterUnavailable("the implementation under test plays node 0 of a BLN case, not \(node)") }
        if case .address = subject, context.radio != nil {
            throw TransmitterUnavailable("the case puts its subject behind the radio proxy (RSSI, held-back or dropped events); a device at --dut has its own controller outside it: use --dut-exec")
        }
        return try await bluenetStarts.start("a Bluenet library") { () async throws -> any BluenetControl in
            let client = try await subject.control(as: .bluenet, for: context)
            let version = await client.protocolVersion
            guard version >= controlProtocolBluenet else {
                await client.close()
                throw TransmitterUnavailable("the implementation speaks control protocol \(version): the Bluenet commands need \(controlProtocolBluenet)")
            }
            do {
                // A promise settles on the library's own timers: it is answered within them and 30 s more.
                let limit = max(context.bluenetConnectTimeout, context.bluenetDisconnectTimeout) + .seconds(30)
                let library = try await Self.library(over: client, clock: context.clock, promiseLimit: limit)
                context.log.note("Bluenet library \(subject.name)")
                return library
            } catch let refused as BluenetStartRefused {
                await client.close()
                throw TransmitterUnavailable("the implementation offers no Bluenet library: \(refused)")
            } catch {
                await client.close()
                throw DeviceUnreachable(reason: "the implementation did not start a Bluenet library: \(error)")
            }
        }
    }

    private static func library(over client: ControlClient, clock: some Clock<Duration>, promiseLimit: Duration) async throws -> any BluenetControl {
        try await ControlBluenetSubject.start(client, clock: clock, promiseLimit: promiseLimit)
    }
}
