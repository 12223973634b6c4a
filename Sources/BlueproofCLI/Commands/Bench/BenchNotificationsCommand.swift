import ArgumentParser
import BlueproofAsync
import BlueproofHost
import BlueproofWire
import Foundation

struct BenchNotificationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications",
        abstract: "GATT notification throughput between two blueproof nodes.",
        discussion: """
        Node 0 serves a characteristic and notifies SIZE bytes in chunks of ATT_MTU - 3; node 1 \
        connects, exchanges MTU, subscribes, and counts what arrives. Prints bytes, seconds and \
        throughput, from the first notification sent to the last byte received. A run whose bytes \
        do not all arrive within the timeout reports how many came (btvirt can drop packets to a \
        slow reader) and exits 1.

        Examples:
          blueproof bench notifications                               1 MB over btvirt
          blueproof bench notifications --controller rootcanal --size 200000
        """
    )

    @OptionGroup var options: ControllerOptions

    @Option(name: .long, help: "Bytes to notify.")
    var size: Int = 1_000_000

    @Option(name: .long, help: "ATT_MTU to ask for (23...517).")
    var mtu: Int = 247

    @Option(name: .long, help: "Seconds to wait for every byte.")
    var timeout: Double = 120

    @Flag(name: .long, help: "Print the result as JSON.")
    var json = false

    static let service = BluetoothUUID("7B5C0001-2F3A-4E0B-9E43-52A0C6B1D000")!
    static let characteristic = BluetoothUUID("7B5C0002-2F3A-4E0B-9E43-52A0C6B1D000")!

    func validate() throws {
        guard size > 0 else { throw ValidationError("--size must be at least 1 byte") }
        guard (23...517).contains(mtu) else { throw ValidationError("--mtu must be 23...517") }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
    }

    func run() async throws {
        options.logLevel.bootstrap()
        let teardown = Teardown()
        defer { withExtendedLifetime(teardown) {} }
        let session = try await ControllerSession.open(options, count: 2)
        let hosts = try await session.startHosts()
        let result: NotificationBenchResult
        do {
            result = try await measure(server: hosts[0], client: hosts[1])
        } catch {
            Console.error("\(error)")
            await session.close()
            throw ExitCode(1)
        }
        await session.close()
        var output = result
        output.backend = session.backend.name
        if json { try Console.json(output) } else { Console.line(output.text) }
        if output.received < size { throw ExitCode(1) }
    }

    private func measure(server: LEHost, client: LEHost) async throws -> NotificationBenchResult {
        try await server.serve([GATTServiceDefinition(uuid: Self.service, characteristics: [
            GATTCharacteristicDefinition(uuid: Self.characteristic, properties: .notify, value: []),
        ])])
        guard let valueHandle = await server.gattDatabase?.characteristic(uuid: Self.characteristic)?.valueHandle else {
            throw ValidationError("the benchmark characteristic was not served")
        }
        let serverEvents = await server.gattServerEvents()
        let incoming = await server.incomingConnections()
        try await server.startAdvertising(LEAdvertisingParameters(
            data: try AdvertisingData([.flags(.generalDiscoverableLEOnly)]).encodedLegacy()))

        let connection = try await client.connect(to: await server.address, type: .publicDevice)
        var peripheralSide: LEConnection?
        for await accepted in incoming {
            peripheralSide = accepted
            break
        }
        guard let peripheralSide else { throw ValidationError("the server saw no connection") }
        let gatt = client.gattClient(for: connection)
        let negotiated = try await gatt.exchangeMTU(mtu)
        let notifications = await client.notifications(on: connection)
        let services = try await gatt.discoverPrimaryService(uuid: Self.service)
        guard let service = services.first,
              let characteristic = try await gatt.discoverCharacteristics(of: service).first(where: { $0.uuid == Self.characteristic })
        else { throw ValidationError("the client did not find the benchmark characteristic") }
        try await gatt.subscribe(characteristic)
        for await event in serverEvents {
            if case .subscriptionChanged(_, valueHandle, true, _) = event { break }
        }

        let size = self.size
        let chunk = min(negotiated - 3, GATTServer.maximumValueLength)
        let start = ContinuousClock.now
        let receiving = Task {
            var received = 0
            for await notification in notifications {
                received += notification.value.count
                if received >= size { break }
            }
            return (received, ContinuousClock.now)
        }
        Console.progress("notifying \(size) bytes in chunks of \(chunk)")
        var sent = 0
        while sent < size {
            let count = min(chunk, size - sent)
            try await server.notify([UInt8](repeating: UInt8(truncatingIfNeeded: sent), count: count),
                                    of: valueHandle, to: peripheralSide)
            sent += count
        }
        let timeout = Task {
            try await Task.sleep(for: .seconds(self.timeout))
            receiving.cancel()
        }
        let (received, end) = await receiving.value
        timeout.cancel()
        try? await client.disconnect(connection)
        let seconds = (end - start).seconds
        return NotificationBenchResult(backend: "", bytes: size, received: received, mtu: negotiated, chunk: chunk,
                                       seconds: seconds, bytesPerSecond: Double(received) / seconds,
                                       aclBuffers: "\(await server.aclBuffers.size) x \(await server.aclBuffers.count)")
    }
}

/// What `blueproof bench notifications` measured.
struct NotificationBenchResult: Encodable {
    var backend: String
    var bytes: Int
    var received: Int
    var mtu: Int
    var chunk: Int
    var seconds: Double
    var bytesPerSecond: Double
    var aclBuffers: String

    var text: String {
        let rate = String(format: "%.1f kB/s", bytesPerSecond / 1000)
        let time = String(format: "%.2f s", seconds)
        let lost = received < bytes ? " — only \(received) of \(bytes) bytes arrived" : ""
        return "\(backend): \(received) bytes of notifications (ATT_MTU \(mtu), \(chunk)-byte chunks, ACL buffers \(aclBuffers)) in \(time): \(rate)\(lost)"
    }
}
