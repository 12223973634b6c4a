/// What a capture has revealed of one connection's ATT bearer (Core Vol 3, Part F; GATT
/// discovery, Vol 3, Part G §4): its ATT_MTU, the type of each attribute handle discovery
/// returned, the last request each side sent, and a long value being read in parts.
struct ATTConnectionState: Sendable {
    /// ATT_MTU: 23 until an exchange settles it (Vol 3, Part F §3.2.8).
    var mtu = 23
    /// Client Rx MTU asked, by the side that sent the request (true: host to controller).
    var asked: [Bool: UInt16] = [:]
    /// Attribute handle → what discovery said it is: `service 180D`, a characteristic value's
    /// UUID, a descriptor's UUID.
    var labels: [UInt16: String] = [:]
    var lastRequest: [Bool: ATTPDU] = [:]
    /// A value read with Read Request then Read Blob Requests, by the reading side.
    var longRead: [Bool: (attribute: UInt16, value: [UInt8])] = [:]
    /// The application protocol, and its characteristic's value handle once discovered.
    var application: (any ATTValueDescriber)?
    var applicationHandle: UInt16?

    /// Whether a PDU about `attribute` names nothing here: no label, not the application's
    /// characteristic. Mutating only so that a caller reaches the state in place through
    /// `Dictionary.Values` instead of copying its dictionaries per packet.
    mutating func namesNothing(about attribute: UInt16) -> Bool {
        labels[attribute] == nil && (application == nil || attribute != applicationHandle)
    }

    /// Learns from `pdu` (sent by the host when `sent`) and returns the fields it adds.
    mutating func learn(_ pdu: ATTPDU, sent: Bool) -> [HCIPacketDescription.Field] {
        var fields: [HCIPacketDescription.Field] = []
        if let attribute = pdu.attributeHandle, let label = labels[attribute] {
            fields.append(.init("attribute_type", label))
        }
        let request = lastRequest[!sent]
        switch pdu {
        case let .exchangeMTURequest(mtu):
            asked[sent] = mtu
        case let .exchangeMTUResponse(server):
            if let client = asked[!sent] {
                mtu = max(23, Int(min(client, server)))
                fields.append(.init("att_mtu", "\(mtu)"))
            }
        case let .readByGroupTypeResponse(response):
            fields.append(.init("services", response.entries.map { entry in
                let uuid = (try? BluetoothUUID(littleEndian: entry.value))?.description ?? hex(entry.value)
                label(entry.attributeHandle, "service \(uuid)")
                return "0x\(hex(entry.attributeHandle))-0x\(hex(entry.endGroupHandle)) \(uuid)"
            }.joined(separator: "; ")))
        case let .readByTypeResponse(response):
            guard case let .readByTypeRequest(_, _, type)? = request, type == .characteristic else { break }
            let found = response.entries.compactMap { entry -> String? in
                guard let declaration = try? GATTCharacteristicDeclaration(bytes: entry.value) else { return nil }
                label(declaration.valueHandle, declaration.uuid.description)
                if declaration.uuid == application?.characteristic { applicationHandle = declaration.valueHandle }
                return "0x\(hex(declaration.valueHandle)) \(declaration.uuid)"
            }
            fields.append(.init("characteristics", found.joined(separator: "; ")))
        case let .findInformationResponse(response):
            for entry in response.entries { label(entry.handle, entry.type.description) }
            fields.append(.init("descriptors", response.entries.map { "0x\(hex($0.handle)) \($0.type)" }.joined(separator: "; ")))
        case let .readResponse(value):
            guard case let .readRequest(attribute)? = request else { break }
            if let label = labels[attribute] { fields.append(.init("attribute_type", label)) }
            // A full response may be the first part of a longer value (Vol 3, Part G §4.8.3).
            if value.count == mtu - 1 { longRead[!sent] = (attribute, value) }
        case let .readBlobResponse(part):
            guard var read = longRead[!sent] else { break }
            read.value += part.prefix(max(0, TraceDecoder.maximumJoinedValue - read.value.count))
            if part.count < mtu - 1 || read.value.count >= TraceDecoder.maximumJoinedValue {
                longRead[!sent] = nil
                if let label = labels[read.attribute] { fields.append(.init("attribute_type", label)) }
                fields += [.init("joined_attribute", "0x\(hex(read.attribute))"),
                           .init("joined_length", "\(read.value.count)"), .init("joined_value", hex(read.value))]
            } else {
                longRead[!sent] = read
            }
        case let .writeRequest(attribute, value), let .writeCommand(attribute, value),
             let .handleValueNotification(attribute, value), let .handleValueIndication(attribute, value):
            if attribute == applicationHandle, application != nil {
                fields += application?.describe(value, sent: sent) ?? []
            }
        default:
            break
        }
        if pdu.opcode.kind == .request { lastRequest[sent] = pdu }
        return fields
    }

    private mutating func label(_ handle: UInt16, _ text: String) {
        guard labels[handle] != nil || labels.count < TraceDecoder.maximumAttributes else { return }
        labels[handle] = text
    }
}

extension ATTPDU {
    /// The attribute handle a request, command, notification or indication names.
    var attributeHandle: UInt16? {
        switch self {
        case let .readRequest(handle), let .readBlobRequest(handle, _), let .writeRequest(handle, _),
             let .writeCommand(handle, _), let .handleValueNotification(handle, _), let .handleValueIndication(handle, _),
             let .errorResponse(_, handle, _):
            handle
        default:
            nil
        }
    }
}
