import BlueproofAsync
import BlueproofBackend
import BlueproofCapture
import BlueproofHost
import BlueproofWire
import Foundation
import BlueproofTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A harness killed with SIGKILL must leave no controller process behind, and its captures
/// must read back up to their last packet.
///
/// The test binary re-runs itself as the harness: the parent starts
/// `<this test binary> --testing-library swift-testing --filter HarnessKillTests/harnessChildSide`
/// with `BLUEPROOF_IT_KILL_CHILD` naming a work folder. In that child, `harnessChildSide` starts
/// a btvirt and a Rootcanal backend, sends a few commands to a controller of each (recorded to
/// `btvirt.pcap` and `rootcanal.pcap`), writes `READY <btvirt pid> <rootcanal pid> <packets>
/// <packets>` on descriptor 3, and waits to be killed. Elsewhere `harnessChildSide` is skipped.
extension Integration {
    @Suite("Harness killed")
    struct HarnessKillTests {
        static let environmentKey = "BLUEPROOF_IT_KILL_CHILD"

        @Test("child side of the harness-kill test", .childSide(of: HarnessKillTests.environmentKey))
        func harnessChildSide() async throws {
            let folder = try #require(ProcessInfo.processInfo.environment[Self.environmentKey])
            let btvirt = try await startBackend(.btvirt, workDirectory: "\(folder)/btvirt")
            let rootcanal = try await startBackend(.rootcanal, workDirectory: "\(folder)/rootcanal")
            var counts: [Int] = []
            var controllers: [HCIController] = []
            for (backend, name) in [(btvirt, "btvirt"), (rootcanal, "rootcanal")] {
                let writer = try PcapWriter(path: "\(folder)/\(name).pcap")
                let controller = HCIController(transport: try await backend.openController(capture: writer))
                await controller.start()
                try await controller.send(HCIReset())
                try await controller.send(HCIReadLocalVersionInformation())
                try await controller.send(HCIReadBDADDR())
                controllers.append(controller)
                counts.append(writer.packetCount)
            }
            let pids = [btvirt, rootcanal].map { processID(of: $0).map(String.init) ?? "?" }
            let line = "READY \(pids[0]) \(pids[1]) \(counts[0]) \(counts[1])\n"
            _ = line.utf8CString.withUnsafeBufferPointer { write(3, $0.baseAddress, line.utf8.count) }

            // Bounded, in case the parent died without killing us; ends early only if btvirt dies.
            let death = try? await withTimeout(.seconds(60), what: "btvirt's death") { await btvirt.waitForDeath() }
            Issue.record("the child harness was not killed (btvirt: \(String(describing: death)))")
            for controller in controllers { await controller.close() }
            await btvirt.shutdown()
            await rootcanal.shutdown()
        }

        @Test("SIGKILL of the harness leaves no btvirt or Rootcanal behind, and its captures read back whole",
              .requires(.btvirt, .rootcanal, .preload, .tshark),
              .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/exe"), "needs /proc/self/exe (Linux)"),
              .timeLimit(.minutes(3)))
        func killedHarness() async throws {
            try RequiredComponent.require(.btvirt, .rootcanal, .preload, .tshark)
            let folder = try WorkFolder("kill")
            defer { folder.cleanUp() }
            let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")

            var fds: [Int32] = [-1, -1]
            try #require(pipe(&fds) == 0)
            let readEnd = fds[0]
            defer { close(readEnd) }
            _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            let child: ChildProcess
            do {
                child = try ChildProcess(
                    executable: executable,
                    arguments: ["--testing-library", "swift-testing", "--filter", "HarnessKillTests/harnessChildSide"],
                    environment: [Self.environmentKey: folder.path],
                    logPath: folder.file("child.log"), passDescriptor: fds[1], ignoreSIGPIPE: false)
            } catch {
                close(fds[1])
                throw error
            }
            close(fds[1])

            let line = await readLine(from: readEnd, startingWith: "READY ", within: .seconds(30))
            guard let line else {
                kill(child.pid, SIGKILL)
                _ = await child.waitForExit()
                Issue.record("the child harness never got ready; its log:\n\(child.logTail(lines: 40))")
                return
            }
            let fields = line.split(separator: " ").dropFirst().map { Int($0) }
            try #require(fields.count == 4 && !fields.contains(nil), "child said: \(line)")
            let controllerPIDs = fields[0...1].map { pid_t($0!) }
            let packets = fields[2...3].map { $0! }

            // Watch both controllers before the kill, while they surely are alive.
            let pidfds = controllerPIDs.map(pidfdOpen)
            defer { for fd in pidfds where fd >= 0 { close(fd) } }
            try #require(!pidfds.contains(-1), "pidfd_open: \(String(cString: strerror(errno)))")
            #expect(child.exitStatus == nil, "the child harness ended before it was killed: \(child.logTail())")

            #expect(kill(child.pid, SIGKILL) == 0)
            let exit = try await withTimeout(.seconds(5), what: "the child harness to exit") { await child.waitForExit() }
            #expect(exit == .signalled(SIGKILL))

            let survivors = await waitForProcessEnds(pidfds, within: .seconds(5))
            #expect(survivors.isEmpty, "still running 5 s after the harness died: \(survivors.map { controllerPIDs[$0] })")
            for index in survivors { kill(controllerPIDs[index], SIGKILL) }

            for (name, count) in zip(["btvirt", "rootcanal"], packets) {
                let file = try checkCapture(folder.file("\(name).pcap"), expectedCount: count)
                // Reset, Read Local Version Information, Read BD_ADDR, each with its Command Complete.
                #expect(file.records.count == 6, "\(name)")
                #expect(file.records.first?.packet == H4Packet(type: .command, payload: [0x03, 0x0C, 0x00]))
                let last = try #require(file.records.last)
                #expect(last.direction == .received)
                // Command Complete (0x0E) for opcode 0x1009, Read BD_ADDR.
                #expect(last.packet.type == .event && last.packet.payload.first == 0x0E
                        && Array(last.packet.payload.dropFirst(3).prefix(2)) == [0x09, 0x10], "\(name): \(last.packet)")
            }
        }
    }
}
