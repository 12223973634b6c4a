import BlueproofWire
import Testing
@testable import BlueproofHost

/// A command whose waiting task is cancelled (a transfer role stopped mid-command) is not a
/// controller that failed to answer: no timeout is claimed, and its late answer is its own.
@Suite("HCIController: cancelled commands")
struct HCIControllerCancelTests {
    @Test("cancelled while waiting: throws cancelled at once, logs no timeout; the late answer returns the credit and is no violation")
    func cancelled() async throws {
        let controller = ScriptedController()
        controller.setAnswer(.silence, for: .leSetAdvertisingEnable)
        let log = LogRecorder()
        let hci = HCIController(transport: controller, commandTimeout: .seconds(60), logger: log.logger(label: "hci"))
        await hci.start()
        let waiting = Task { try await hci.send(HCILESetAdvertisingEnable(advertisingEnable: true)) }
        // Cancelled once the command is with the controller, which keeps silent.
        _ = await controller.command(.leSetAdvertisingEnable)
        waiting.cancel()
        do {
            _ = try await waiting.value
            Issue.record("the cancelled command returned")
        } catch let error as HCICommandError {
            #expect(error == .cancelled(command: HCILESetAdvertisingEnable.name))
        }
        controller.inject(.commandComplete(HCICommandCompleteEvent(numHCICommandPackets: 1, commandOpcode: .leSetAdvertisingEnable,
                                                                   returnParameters: [0])))
        // The credit came back with the late answer: the next command goes and is answered.
        _ = try await hci.send(HCIReadBDADDR())
        #expect(await hci.violations.isEmpty)
        #expect(!log.lines.contains { $0.message.contains("no answer") })
        await hci.close()
    }
}
