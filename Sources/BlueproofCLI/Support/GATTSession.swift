import BlueproofHost
import BlueproofWire
import Foundation

/// The actions of one `blueproof gatt` run on one connection, in the documented order. A
/// failed GATT operation throws ``GATTFailure`` with status 1 and the reason.
struct GATTSession {
    let command: GATTCommand
    let host: LEHost
    let connection: LEConnection
    let client: GATTClient

    /// The peer's services and characteristics, once discovered (with descriptors after
    /// `--discover`).
    private var database: [(service: GATTRemoteService, characteristics: [GATTRemoteCharacteristic])]?
    private var descriptors: [UInt16: [GATTRemoteDescriptor]] = [:]

    init(command: GATTCommand, host: LEHost, connection: LEConnection) {
        self.command = command
        self.host = host
        self.connection = connection
        client = host.gattClient(for: connection)
    }

    private var noAction: Bool {
        command.mtu == nil && command.read.isEmpty && command.write.isEmpty && command.writeCommand.isEmpty
            && command.subscribe.isEmpty
    }

    mutating func run() async throws {
        if let mtu = command.mtu {
            var event = GATTEvent("mtu")
            event.mtu = try await attempt("MTU exchange") { try await client.exchangeMTU(mtu) }
            command.emit(event)
        }
        if command.discover || noAction {
            try await discoverAll()
        }
        for target in command.read {
            let (handle, uuid) = try await resolve(target, for: "read")
            let value = try await attempt("read \(target)", handle: handle, uuid: uuid) { try await client.read(handle: handle) }
            var event = GATTEvent("read")
            (event.uuid, event.handle) = (uuid?.description, Int(handle))
            event.set(value: value)
            command.emit(event)
        }
        for (writes, withResponse) in [(command.write, true), (command.writeCommand, false)] {
            for write in writes {
                let (handle, uuid) = try await resolve(write.target, for: withResponse ? "write" : "write-command")
                try await attempt("\(withResponse ? "write" : "write-command") \(write.target)", handle: handle, uuid: uuid) {
                    if withResponse {
                        try await client.write(handle: handle, value: write.value)
                    } else {
                        try await client.writeWithoutResponse(handle: handle, value: write.value)
                    }
                }
                var event = GATTEvent("write")
                (event.uuid, event.handle, event.withResponse) = (uuid?.description, Int(handle), withResponse)
                event.set(value: write.value)
                command.emit(event)
            }
        }
        if !command.subscribe.isEmpty {
            try await subscribeAndPrint()
        }
    }

    // MARK: Discovery

    /// Discovers every service, characteristic and descriptor and prints the tree.
    private mutating func discoverAll() async throws {
        try await loadDatabase()
        var tree: [GATTTreeService] = []
        for (service, characteristics) in database ?? [] {
            var entries: [GATTTreeCharacteristic] = []
            for characteristic in characteristics {
                let found = try await attempt("descriptor discovery of \(characteristic.uuid)") {
                    try await client.discoverDescriptors(of: characteristic)
                }
                descriptors[characteristic.valueHandle] = found
                entries.append(GATTTreeCharacteristic(
                    uuid: "\(characteristic.uuid)", declarationHandle: Int(characteristic.declarationHandle),
                    valueHandle: Int(characteristic.valueHandle), properties: characteristic.properties.words,
                    descriptors: found.map { GATTTreeDescriptor(uuid: "\($0.uuid)", handle: Int($0.handle)) }))
            }
            tree.append(GATTTreeService(uuid: "\(service.uuid)", startHandle: Int(service.startHandle),
                                        endHandle: Int(service.endHandle), characteristics: entries))
        }
        var event = GATTEvent("services")
        event.services = tree
        command.emit(event)
    }

    /// Discovers the primary services and their characteristics, once.
    private mutating func loadDatabase() async throws {
        guard database == nil else { return }
        let services = try await attempt("service discovery") { try await client.discoverPrimaryServices() }
        var loaded: [(GATTRemoteService, [GATTRemoteCharacteristic])] = []
        for service in services {
            let characteristics = try await attempt("characteristic discovery of \(service.uuid)") {
                try await client.discoverCharacteristics(of: service)
            }
            loaded.append((service, characteristics))
        }
        database = loaded
    }

    private var characteristics: [GATTRemoteCharacteristic] { (database ?? []).flatMap(\.characteristics) }

    /// The handle to read or write, and the UUID behind it when known. A UUID needs discovery;
    /// a handle is used as given.
    private mutating func resolve(_ target: GATTTarget, for operation: String) async throws -> (UInt16, BluetoothUUID?) {
        switch target {
        case let .handle(handle):
            let uuid = characteristics.first { $0.valueHandle == handle }?.uuid
                ?? descriptors.values.joined().first { $0.handle == handle }?.uuid
            return (handle, uuid)
        case let .uuid(uuid):
            let characteristic = try await characteristic(uuid, for: operation)
            return (characteristic.valueHandle, uuid)
        }
    }

    /// The characteristic `target` names: by UUID, or by its value or declaration handle.
    private mutating func characteristic(for target: GATTTarget, operation: String) async throws -> GATTRemoteCharacteristic {
        switch target {
        case let .uuid(uuid):
            return try await characteristic(uuid, for: operation)
        case let .handle(handle):
            try await loadDatabase()
            guard let found = characteristics.first(where: { $0.valueHandle == handle || $0.declarationHandle == handle }) else {
                throw GATTFailure(status: 1, "\(operation) 0x\(hex(handle)): no characteristic has that value or declaration handle on the peer")
            }
            return found
        }
    }

    private mutating func characteristic(_ uuid: BluetoothUUID, for operation: String) async throws -> GATTRemoteCharacteristic {
        try await loadDatabase()
        let matches = characteristics.filter { $0.uuid == uuid }
        guard let first = matches.first else {
            let count = database?.count ?? 0
            throw GATTFailure(status: 1, "\(operation) \(uuid): the peer has no such characteristic "
                              + "(\(count) service(s) discovered; --discover lists them)")
        }
        if matches.count > 1 {
            Console.progress("\(matches.count) characteristics are \(uuid); using the one at 0x\(hex(first.valueHandle)) "
                             + "(name a handle to choose another: "
                             + matches.map { "0x\(hex($0.valueHandle))" }.joined(separator: ", ") + ")")
        }
        return first
    }

    // MARK: Notifications

    private enum Stop: Sendable { case counted, elapsed, ended }

    private mutating func subscribeAndPrint() async throws {
        // Listening before the first CCCD write: a server may notify before it answers it.
        let notifications = await host.notifications(on: connection)
        var subscribed: [GATTRemoteCharacteristic] = []
        for target in command.subscribe {
            let characteristic = try await characteristic(for: target, operation: "subscribe")
            let indications: Bool
            switch (characteristic.properties.contains(.notify), characteristic.properties.contains(.indicate)) {
            case (true, true): indications = command.indicate
            case (true, false): indications = false
            case (false, true): indications = true
            case (false, false):
                throw GATTFailure(status: 1, "subscribe \(target): characteristic \(characteristic.uuid) at "
                                  + "0x\(hex(characteristic.valueHandle)) neither notifies nor indicates "
                                  + "(properties: \(characteristic.properties.words.joined(separator: " ")))")
            }
            try await attempt("subscribe \(target)", handle: characteristic.valueHandle, uuid: characteristic.uuid) {
                try await client.subscribe(characteristic, indications: indications)
            }
            subscribed.append(characteristic)
            var event = GATTEvent("subscribed")
            (event.uuid, event.handle, event.indication) = ("\(characteristic.uuid)", Int(characteristic.valueHandle), indications)
            command.emit(event)
        }
        let uuids = Dictionary(subscribed.map { ($0.valueHandle, $0.uuid) }, uniquingKeysWith: { first, _ in first })
        let (count, duration, json) = (command.count, command.duration, command.json)
        if count == nil && duration == nil { Console.progress("printing notifications until interrupted") }

        let (stop, received) = await withTaskGroup(of: (Stop, Int).self) { group in
            group.addTask {
                var received = 0
                for await notification in notifications {
                    guard let uuid = uuids[notification.handle] else { continue }
                    var event = GATTEvent("notification")
                    (event.uuid, event.handle, event.indication) = ("\(uuid)", Int(notification.handle), notification.isIndication)
                    event.set(value: notification.value)
                    if json { Console.jsonLine(event) } else { Console.line(event.line) }
                    received += 1
                    if let count, received >= count { return (.counted, received) }
                }
                return (.ended, received)
            }
            if let duration {
                group.addTask {
                    try? await Task.sleep(for: .seconds(duration))
                    return (.elapsed, 0)
                }
            }
            var stop: Stop?
            var received = 0
            for await (reason, number) in group {
                if stop == nil {
                    stop = reason
                    group.cancelAll()
                }
                received = max(received, number)
            }
            return (stop ?? .ended, received)
        }

        if stop == .ended || connection.endReason != nil {
            let reason = connection.endReason.map { ": \($0)" } ?? ""
            throw GATTFailure(status: 1, "the connection ended after \(received) notification(s)\(reason)")
        }
        for characteristic in subscribed {
            try await attempt("unsubscribe \(characteristic.uuid)", handle: characteristic.valueHandle, uuid: characteristic.uuid) {
                try await client.unsubscribe(characteristic)
            }
            var event = GATTEvent("unsubscribed")
            (event.uuid, event.handle) = ("\(characteristic.uuid)", Int(characteristic.valueHandle))
            command.emit(event)
        }
        if let count, stop == .elapsed, received < count {
            throw GATTFailure(status: 1, "\(received) of \(count) notification(s) within \(duration ?? 0) s")
        }
    }

    // MARK: Errors

    /// Runs one GATT operation; its failure becomes a ``GATTFailure`` (status 1) that names the
    /// operation and, for an ATT Error Response, the error and the handle. With --json an
    /// `error` event is printed too.
    private func attempt<T>(_ operation: String, handle: UInt16? = nil, uuid: BluetoothUUID? = nil,
                            _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            var event = GATTEvent("error")
            event.operation = operation
            event.uuid = uuid?.description
            event.handle = handle.map(Int.init)
            let reason: String
            switch error {
            case let GATTError.att(code, attributeHandle):
                event.attError = code.name ?? code.description
                event.attErrorCode = Int(code.rawValue)
                event.handle = Int(attributeHandle)
                reason = "\(code.name ?? code.description) (ATT error 0x\(hex(code.rawValue))) at handle 0x\(hex(attributeHandle))"
            case GATTError.valueTooLong:
                reason = "\(error) (a larger --mtu allows longer writes)"
            default:
                reason = "\(error)"
            }
            event.reason = reason
            if command.json { command.emit(event) }
            throw GATTFailure(status: 1, "\(operation) failed: \(reason)")
        }
    }
}
