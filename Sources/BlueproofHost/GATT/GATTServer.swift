import BlueproofWire

/// A GATT server over a ``GATTDatabase`` (Core Vol 3, Part G §4 server side; ATT requests of
/// Vol 3, Part F §3.4), sans I/O.
///
/// One value per attribute serves every connection; Client Characteristic Configuration
/// values are kept per connection (Vol 3, Part G §3.3.3.3). Feed each request or command in
/// with the connection it came from and that connection's ATT_MTU; carry out the actions.
/// Exchange MTU belongs to ``ATTBearer``; the server only answers it for callers without one.
///
/// Values are never cut where the Core spec does not cut them: a notification or indication
/// longer than ATT_MTU – 3 is refused (``GATTValueTooLong``), a write longer than 512 octets is
/// Invalid Attribute Value Length. Only reads return part of a value, as §3.4.4 prescribes:
/// Read Response the first ATT_MTU – 1 octets (the client goes on with Read Blob), Read By
/// Type and Read By Group Type the first ATT_MTU – 4 / – 6 octets (253 / 251 at most).
public struct GATTServer: Sendable {
    public private(set) var database: GATTDatabase
    /// Connection handle → configuration descriptor handle → value.
    private var configurations: [UInt16: [UInt16: GATTClientCharacteristicConfiguration]] = [:]

    /// Longest attribute value ATT allows (Vol 3, Part F §3.2.9).
    public static let maximumValueLength = 512
    /// Smallest ATT_MTU on LE (Vol 3, Part F §3.2.8); smaller `mtu` arguments count as this.
    public static let minimumMTU = 23

    public init(database: GATTDatabase) {
        self.database = database
    }

    /// Replaces a value the application owns (a characteristic value or descriptor);
    /// false when no attribute has this handle.
    @discardableResult
    public mutating func setValue(_ value: [UInt8], of handle: UInt16) -> Bool {
        database.setValue(value, of: handle)
    }

    /// What a connection asked of a characteristic (by value handle) in its configuration
    /// descriptor; empty when it never wrote one.
    public func configuration(of characteristic: UInt16, for connection: UInt16) -> GATTClientCharacteristicConfiguration {
        guard let handle = database.characteristic(valueHandle: characteristic)?.configurationHandle else { return [] }
        return configurations[connection]?[handle] ?? []
    }

    /// Forgets a connection's configuration (it went away, and this host does not bond).
    public mutating func disconnected(_ connection: UInt16) {
        configurations[connection] = nil
    }

    // MARK: - Requests

    /// Handles one PDU from a client. Requests always produce exactly one `respond`;
    /// commands never do; other kinds of PDU are ignored.
    public mutating func handle(_ request: ATTPDU, from connection: UInt16, mtu: Int) -> [Action] {
        let mtu = max(mtu, Self.minimumMTU)
        switch request {
        case .exchangeMTURequest:
            return [.respond(.exchangeMTUResponse(serverRxMTU: UInt16(clamping: mtu)))]
        case let .findInformationRequest(start, end):
            return [.respond(findInformation(start, end, mtu: mtu))]
        case let .findByTypeValueRequest(start, end, type, value):
            return [.respond(findByTypeValue(start, end, type: type, value: value, mtu: mtu))]
        case let .readByTypeRequest(start, end, type):
            return [.respond(readByType(start, end, type: type, connection: connection, mtu: mtu))]
        case let .readByGroupTypeRequest(start, end, type):
            return [.respond(readByGroupType(start, end, type: type, mtu: mtu))]
        case let .readRequest(handle):
            return [.respond(read(handle, connection: connection, mtu: mtu))]
        case let .readBlobRequest(handle, offset):
            return [.respond(readBlob(handle, offset: offset, connection: connection, mtu: mtu))]
        case let .writeRequest(handle, value):
            switch write(handle, value: value, connection: connection, withResponse: true) {
            case let .success(actions): return [.respond(.writeResponse)] + actions
            case let .failure(failure):
                return [.respond(Self.error(.writeRequest, handle, failure.code)),
                        .writeRefused(handle: handle, length: value.count, withResponse: true, error: failure.code)]
            }
        case let .writeCommand(handle, value):
            // Commands are never answered, not even with an error (Vol 3, Part F §3.4.5.3): the
            // caller learns of the refusal, the client does not.
            switch write(handle, value: value, connection: connection, withResponse: false) {
            case let .success(actions): return actions
            case let .failure(failure):
                return [.writeRefused(handle: handle, length: value.count, withResponse: false, error: failure.code)]
            }
        default:
            // Unknown and unsupported requests (Vol 3, Part F §3.4.1.1); anything else that is
            // not a request (unknown commands, stray responses, confirmations) is ignored.
            guard request.kind == .request else { return [] }
            return [.respond(Self.error(request.opcode, 0x0000, .requestNotSupported))]
        }
    }

    private static func error(_ opcode: ATTOpcode, _ handle: UInt16, _ code: ATTErrorCode) -> ATTPDU {
        .errorResponse(requestOpcodeInError: opcode, attributeHandleInError: handle, errorCode: code)
    }

    /// Starting handle 0x0000 or greater than the ending handle (Vol 3, Part F §3.4.3.1 and
    /// the same rule in every ranged request).
    private static func invalidRange(_ start: UInt16, _ end: UInt16) -> Bool { start == 0 || start > end }

    /// The value a connection sees: configuration descriptors are per connection.
    private func value(of attribute: GATTAttribute, for connection: UInt16) -> [UInt8] {
        guard attribute.type == .clientCharacteristicConfiguration,
              database.characteristic(configurationHandle: attribute.handle) != nil else { return attribute.value }
        return (configurations[connection]?[attribute.handle] ?? []).bytes
    }

    /// Vol 3, Part F §3.4.3.1–2: handle-UUID pairs of one UUID size, as many as fit.
    private func findInformation(_ start: UInt16, _ end: UInt16, mtu: Int) -> ATTPDU {
        let opcode = ATTOpcode.findInformationRequest
        guard !Self.invalidRange(start, end) else { return Self.error(opcode, start, .invalidHandle) }
        let found = database.attributes(from: start, through: end)
        guard let first = found.first else { return Self.error(opcode, start, .attributeNotFound) }
        let format: ATTFindInformationFormat = first.type.uuid16 != nil ? .uuid16 : .uuid128
        let fit = (mtu - 2) / (2 + format.uuidLength)
        let entries = found.prefix { ($0.type.uuid16 != nil) == (format == .uuid16) }
            .prefix(fit).map { ATTFindInformationEntry(handle: $0.handle, type: $0.type) }
        return .findInformationResponse(ATTFindInformationResponse(format: format, entries: entries))
    }

    /// Vol 3, Part F §3.4.3.3–4: attributes of a 16-bit type with exactly this value; a service
    /// declaration's value matches the same UUID in either size.
    private func findByTypeValue(_ start: UInt16, _ end: UInt16, type: UInt16, value: [UInt8], mtu: Int) -> ATTPDU {
        let opcode = ATTOpcode.findByTypeValueRequest
        guard !Self.invalidRange(start, end) else { return Self.error(opcode, start, .invalidHandle) }
        let wanted = BluetoothUUID(uuid16: type)
        let asUUID = (value.count == 2 || value.count == 16) ? try? BluetoothUUID(littleEndian: value) : nil
        let matches = database.attributes(from: start, through: end).filter { attribute in
            guard attribute.type == wanted else { return false }
            if attribute.groupEndHandle != nil, let asUUID {
                return (try? BluetoothUUID(littleEndian: attribute.value)) == asUUID
            }
            return attribute.value == value
        }
        guard !matches.isEmpty else { return Self.error(opcode, start, .attributeNotFound) }
        let list = matches.prefix((mtu - 1) / 4).map {
            ATTHandlesInformation(foundAttributeHandle: $0.handle, groupEndHandle: $0.groupEndHandle ?? $0.handle)
        }
        return .findByTypeValueResponse(list)
    }

    /// Vol 3, Part F §3.4.4.1–2: readable attributes of a type, all with values of the first
    /// one's length (each cut to ATT_MTU – 4), as many as fit.
    private func readByType(_ start: UInt16, _ end: UInt16, type: BluetoothUUID, connection: UInt16, mtu: Int) -> ATTPDU {
        let opcode = ATTOpcode.readByTypeRequest
        guard !Self.invalidRange(start, end) else { return Self.error(opcode, start, .invalidHandle) }
        let found = database.attributes(from: start, through: end).filter { $0.type == type }
        guard let first = found.first else { return Self.error(opcode, start, .attributeNotFound) }
        guard first.permissions.contains(.readable) else { return Self.error(opcode, first.handle, .readNotPermitted) }
        let limit = min(mtu - 4, ATTReadByTypeResponse.maximumValueLength)
        var entries: [ATTHandleValue] = []
        var length: Int?
        for attribute in found {
            guard attribute.permissions.contains(.readable) else { break }
            let value = Array(value(of: attribute, for: connection).prefix(limit))
            guard length == nil || length == value.count else { break }
            length = value.count
            guard 2 + (entries.count + 1) * (2 + value.count) <= mtu else { break }
            entries.append(ATTHandleValue(handle: attribute.handle, value: value))
        }
        return .readByTypeResponse(ATTReadByTypeResponse(entries: entries))
    }

    /// Vol 3, Part F §3.4.4.9–10: service declarations of one kind, all with values of the
    /// first one's length (each cut to ATT_MTU – 6), as many as fit.
    private func readByGroupType(_ start: UInt16, _ end: UInt16, type: BluetoothUUID, mtu: Int) -> ATTPDU {
        let opcode = ATTOpcode.readByGroupTypeRequest
        guard !Self.invalidRange(start, end) else { return Self.error(opcode, start, .invalidHandle) }
        // GATT's only grouping attributes are service declarations (Vol 3, Part G §2.5.3).
        guard type == .primaryService || type == .secondaryService else {
            return Self.error(opcode, start, .unsupportedGroupType)
        }
        let found = database.attributes(from: start, through: end).filter { $0.type == type }
        guard !found.isEmpty else { return Self.error(opcode, start, .attributeNotFound) }
        let limit = min(mtu - 6, ATTReadByGroupTypeResponse.maximumValueLength)
        var entries: [ATTGroupData] = []
        var length: Int?
        for attribute in found {
            let value = Array(attribute.value.prefix(limit))
            guard length == nil || length == value.count else { break }
            length = value.count
            guard 2 + (entries.count + 1) * (4 + value.count) <= mtu else { break }
            entries.append(ATTGroupData(attributeHandle: attribute.handle,
                                        endGroupHandle: attribute.groupEndHandle ?? attribute.handle, value: value))
        }
        return .readByGroupTypeResponse(ATTReadByGroupTypeResponse(entries: entries))
    }

    /// Vol 3, Part F §3.4.4.3–4: the value's first ATT_MTU – 1 octets.
    private func read(_ handle: UInt16, connection: UInt16, mtu: Int) -> ATTPDU {
        guard let attribute = database.attribute(handle) else { return Self.error(.readRequest, handle, .invalidHandle) }
        guard attribute.permissions.contains(.readable) else { return Self.error(.readRequest, handle, .readNotPermitted) }
        return .readResponse(attributeValue: Array(value(of: attribute, for: connection).prefix(mtu - 1)))
    }

    /// Vol 3, Part F §3.4.4.5–6: up to ATT_MTU – 1 octets from an offset. An offset past the
    /// end is Invalid Offset; a value a Read Response carries whole is Attribute Not Long.
    private func readBlob(_ handle: UInt16, offset: UInt16, connection: UInt16, mtu: Int) -> ATTPDU {
        let opcode = ATTOpcode.readBlobRequest
        guard let attribute = database.attribute(handle) else { return Self.error(opcode, handle, .invalidHandle) }
        guard attribute.permissions.contains(.readable) else { return Self.error(opcode, handle, .readNotPermitted) }
        let value = value(of: attribute, for: connection)
        let offset = Int(offset)
        guard offset <= value.count else { return Self.error(opcode, handle, .invalidOffset) }
        guard value.count > mtu - 1 else { return Self.error(opcode, handle, .attributeNotLong) }
        return .readBlobResponse(partAttributeValue: Array(value[offset..<min(value.count, offset + mtu - 1)]))
    }

    /// Vol 3, Part F §3.4.5.1–3 and Vol 3, Part G §3.3.3.3 for configuration descriptors.
    private mutating func write(
        _ handle: UInt16, value: [UInt8], connection: UInt16, withResponse: Bool
    ) -> Result<[Action], WriteFailure> {
        guard let attribute = database.attribute(handle) else { return .failure(.invalidHandle) }
        guard attribute.permissions.contains(.writable) else { return .failure(.writeNotPermitted) }
        // A characteristic value is written only the ways its declaration offers (Vol 3,
        // Part G §3.3.1.1): a Write Request needs Write, a Write Command Write Without
        // Response. Refused with Write Not Permitted (Vol 3, Part F §3.4.1.1, error 0x03).
        if let characteristic = database.characteristic(valueHandle: handle),
           !characteristic.properties.contains(withResponse ? .write : .writeWithoutResponse) {
            return .failure(.writeNotPermitted)
        }
        guard value.count <= Self.maximumValueLength else { return .failure(.invalidAttributeValueLength) }
        if attribute.type == .clientCharacteristicConfiguration,
           let characteristic = database.characteristic(configurationHandle: handle) {
            guard let configuration = try? GATTClientCharacteristicConfiguration(bytes: value) else {
                return .failure(.invalidAttributeValueLength)
            }
            let old = configurations[connection]?[handle] ?? []
            configurations[connection, default: [:]][handle] = configuration
            guard old != configuration else { return .success([]) }
            return .success([.subscriptionChanged(
                connection: connection, characteristic: characteristic.valueHandle,
                notify: configuration.contains(.notification) && characteristic.properties.contains(.notify),
                indicate: configuration.contains(.indication) && characteristic.properties.contains(.indicate))])
        }
        database.setValue(value, of: handle)
        return .success([.written(handle: handle, uuid: attribute.type, value: value, withResponse: withResponse)])
    }

    private struct WriteFailure: Error {
        var code: ATTErrorCode
        static let invalidHandle = WriteFailure(code: .invalidHandle)
        static let writeNotPermitted = WriteFailure(code: .writeNotPermitted)
        static let invalidAttributeValueLength = WriteFailure(code: .invalidAttributeValueLength)
    }

    // MARK: - Server-initiated

    /// Handle Value Notifications of a characteristic (by value handle) for every connection
    /// that enabled them, in connection order; empty when the characteristic does not notify.
    /// A notification carries at most ATT_MTU – 3 octets of value (Vol 3, Part F §3.4.7.1):
    /// a longer value is refused with ``GATTValueTooLong`` naming that limit, never cut.
    public func notifications(for characteristic: UInt16, value: [UInt8], mtu: Int) throws(GATTValueTooLong) -> [Outbound] {
        try notifications(for: characteristic, value: value, mtu: { _ in mtu })
    }

    /// As ``notifications(for:value:mtu:)-(_,_,Int)``, with each connection's own ATT_MTU.
    public func notifications(for characteristic: UInt16, value: [UInt8], mtu: (UInt16) -> Int) throws(GATTValueTooLong) -> [Outbound] {
        try outbound(characteristic, .notification, .notify, value: value, mtu: mtu) {
            .handleValueNotification(attributeHandle: characteristic, attributeValue: value)
        }
    }

    /// Handle Value Indications of a characteristic (by value handle) for every connection
    /// that enabled them, in connection order; a value longer than ATT_MTU – 3 is refused with
    /// ``GATTValueTooLong`` (Vol 3, Part F §3.4.7.2). Each must go through that connection's
    /// ``ATTBearer`` (one outstanding at a time).
    public func indications(for characteristic: UInt16, value: [UInt8], mtu: Int) throws(GATTValueTooLong) -> [Outbound] {
        try indications(for: characteristic, value: value, mtu: { _ in mtu })
    }

    /// As ``indications(for:value:mtu:)-(_,_,Int)``, with each connection's own ATT_MTU.
    public func indications(for characteristic: UInt16, value: [UInt8], mtu: (UInt16) -> Int) throws(GATTValueTooLong) -> [Outbound] {
        try outbound(characteristic, .indication, .indicate, value: value, mtu: mtu) {
            .handleValueIndication(attributeHandle: characteristic, attributeValue: value)
        }
    }

    private func outbound(
        _ valueHandle: UInt16,
        _ bit: GATTClientCharacteristicConfiguration,
        _ property: GATTCharacteristicProperties,
        value: [UInt8],
        mtu: (UInt16) -> Int,
        pdu: () -> ATTPDU
    ) throws(GATTValueTooLong) -> [Outbound] {
        guard let characteristic = database.characteristic(valueHandle: valueHandle),
              characteristic.properties.contains(property),
              let handle = characteristic.configurationHandle else { return [] }
        var outbound: [Outbound] = []
        for connection in configurations.keys.sorted() where configurations[connection]?[handle]?.contains(bit) == true {
            let maximum = min(max(mtu(connection), Self.minimumMTU) - 3, Self.maximumValueLength)
            guard value.count <= maximum else {
                throw GATTValueTooLong(length: value.count, maximum: maximum, connection: connection)
            }
            outbound.append(Outbound(connection: connection, pdu: pdu()))
        }
        return outbound
    }
}

/// A notification or indication value longer than the connection can carry: ATT_MTU – 3
/// octets (Core Vol 3, Part F §3.4.7.1–2), and never more than an attribute value's 512
/// (§3.2.9). Refused whole rather than cut, so a sender cannot lose bytes silently.
public struct GATTValueTooLong: Error, Hashable, Sendable, CustomStringConvertible {
    public var length: Int
    public var maximum: Int
    public var connection: UInt16

    public init(length: Int, maximum: Int, connection: UInt16) {
        self.length = length
        self.maximum = maximum
        self.connection = connection
    }

    public var description: String {
        "a \(length)-byte value does not fit connection 0x\(hex(connection)): at most \(maximum) bytes (ATT_MTU - 3, Vol 3, Part F §3.4.7)"
    }
}
