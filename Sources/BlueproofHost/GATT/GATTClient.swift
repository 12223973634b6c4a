import BlueproofWire

/// GATT client procedures (Core Vol 3, Part G §4) over an ``ATTRequester``.
///
/// Each procedure is a sequence of ATT requests; an Error Response the procedure does not
/// expect throws ``GATTError/att(_:handle:)``. Errors of the requester itself (a timeout, a
/// link that went away) pass through unchanged.
public struct GATTClient: Sendable {
    public let requester: any ATTRequester

    /// Longest attribute value (Vol 3, Part F §3.2.9); long reads stop there.
    public static let maximumValueLength = 512

    public init(requester: any ATTRequester) {
        self.requester = requester
    }

    // MARK: - Server configuration (§4.3)

    /// Exchange MTU (Vol 3, Part G §4.3.1): offers `mtu` as this side's receive MTU and returns
    /// the ATT_MTU now in force, the smaller of both offers and never below 23.
    public func exchangeMTU(_ mtu: Int) async throws -> Int {
        guard (ATTBearer.defaultMTU...Int(UInt16.max)).contains(mtu) else {
            throw GATTError.invalidArgument("an ATT_MTU lies in 23...65535, not \(mtu)")
        }
        let response = try await ask(.exchangeMTURequest(clientRxMTU: UInt16(mtu)))
        guard case let .exchangeMTUResponse(serverRxMTU) = response else { throw GATTError.unexpectedResponse(response) }
        return max(ATTBearer.defaultMTU, min(mtu, Int(serverRxMTU)))
    }

    // MARK: - Primary service discovery (§4.4)

    /// Discover All Primary Services (Vol 3, Part G §4.4.1): Read By Group Type over the
    /// whole handle range until Attribute Not Found or the last group ends at 0xFFFF.
    public func discoverPrimaryServices() async throws -> [GATTRemoteService] {
        var services: [GATTRemoteService] = []
        var start: UInt16 = 0x0001
        while true {
            let response: ATTPDU
            do {
                response = try await ask(.readByGroupTypeRequest(
                    startingHandle: start, endingHandle: 0xFFFF, attributeGroupType: .primaryService))
            } catch GATTError.att(.attributeNotFound, _) {
                break
            }
            guard case let .readByGroupTypeResponse(list) = response else { throw GATTError.unexpectedResponse(response) }
            for entry in list.entries {
                guard entry.attributeHandle >= start, entry.endGroupHandle >= entry.attributeHandle else {
                    throw GATTError.invalidResponse("service group 0x\(hex(entry.attributeHandle))-0x\(hex(entry.endGroupHandle)) out of order")
                }
                let uuid = try Self.uuid(entry.value, at: entry.attributeHandle)
                services.append(GATTRemoteService(uuid: uuid, startHandle: entry.attributeHandle,
                                                  endHandle: entry.endGroupHandle))
                start = entry.endGroupHandle
            }
            guard start < 0xFFFF else { break }
            start += 1
        }
        return services
    }

    /// Discover Primary Service by Service UUID (Vol 3, Part G §4.4.2): Find By Type Value
    /// over the whole handle range; every instance of the service, in handle order.
    public func discoverPrimaryService(uuid: BluetoothUUID) async throws -> [GATTRemoteService] {
        var services: [GATTRemoteService] = []
        var start: UInt16 = 0x0001
        while true {
            let response: ATTPDU
            do {
                response = try await ask(.findByTypeValueRequest(
                    startingHandle: start, endingHandle: 0xFFFF, attributeType: 0x2800,
                    attributeValue: uuid.littleEndianBytes))
            } catch GATTError.att(.attributeNotFound, _) {
                break
            }
            guard case let .findByTypeValueResponse(list) = response else { throw GATTError.unexpectedResponse(response) }
            for entry in list {
                guard entry.foundAttributeHandle >= start, entry.groupEndHandle >= entry.foundAttributeHandle else {
                    throw GATTError.invalidResponse("service group 0x\(hex(entry.foundAttributeHandle))-0x\(hex(entry.groupEndHandle)) out of order")
                }
                services.append(GATTRemoteService(uuid: uuid, startHandle: entry.foundAttributeHandle,
                                                  endHandle: entry.groupEndHandle))
                start = entry.groupEndHandle
            }
            guard start < 0xFFFF else { break }
            start += 1
        }
        return services
    }

    // MARK: - Characteristic discovery (§4.6)

    /// Discover All Characteristics of a Service (Vol 3, Part G §4.6.1): Read By Type of
    /// «Characteristic» over the service's range.
    public func discoverCharacteristics(of service: GATTRemoteService) async throws -> [GATTRemoteCharacteristic] {
        var declarations: [(handle: UInt16, GATTCharacteristicDeclaration)] = []
        var start = service.startHandle
        while start <= service.endHandle {
            let response: ATTPDU
            do {
                response = try await ask(.readByTypeRequest(
                    startingHandle: start, endingHandle: service.endHandle, attributeType: .characteristic))
            } catch GATTError.att(.attributeNotFound, _) {
                break
            }
            guard case let .readByTypeResponse(list) = response else { throw GATTError.unexpectedResponse(response) }
            for entry in list.entries {
                guard entry.handle >= start, entry.handle <= service.endHandle else {
                    throw GATTError.invalidResponse("declaration at 0x\(hex(entry.handle)) outside 0x\(hex(start))-0x\(hex(service.endHandle))")
                }
                do {
                    declarations.append((entry.handle, try GATTCharacteristicDeclaration(bytes: entry.value)))
                } catch {
                    throw GATTError.invalidResponse("declaration at 0x\(hex(entry.handle)): \(error)")
                }
                start = entry.handle
            }
            guard start < 0xFFFF else { break }
            start += 1
        }
        return declarations.enumerated().map { index, item in
            let end = index + 1 < declarations.count ? declarations[index + 1].handle - 1 : service.endHandle
            return GATTRemoteCharacteristic(uuid: item.1.uuid, properties: item.1.properties,
                                            declarationHandle: item.handle, valueHandle: item.1.valueHandle,
                                            endHandle: end)
        }
    }

    // MARK: - Characteristic descriptor discovery (§4.7)

    /// Discover All Characteristic Descriptors (Vol 3, Part G §4.7.1): Find Information from
    /// the handle after the value to the characteristic's end.
    public func discoverDescriptors(of characteristic: GATTRemoteCharacteristic) async throws -> [GATTRemoteDescriptor] {
        var descriptors: [GATTRemoteDescriptor] = []
        guard characteristic.valueHandle < characteristic.endHandle else { return [] }
        var start = characteristic.valueHandle + 1
        while start <= characteristic.endHandle {
            let response: ATTPDU
            do {
                response = try await ask(.findInformationRequest(startingHandle: start, endingHandle: characteristic.endHandle))
            } catch GATTError.att(.attributeNotFound, _) {
                break
            }
            guard case let .findInformationResponse(information) = response else {
                throw GATTError.unexpectedResponse(response)
            }
            for entry in information.entries {
                guard entry.handle >= start, entry.handle <= characteristic.endHandle else {
                    throw GATTError.invalidResponse("descriptor at 0x\(hex(entry.handle)) outside 0x\(hex(start))-0x\(hex(characteristic.endHandle))")
                }
                descriptors.append(GATTRemoteDescriptor(uuid: entry.type, handle: entry.handle))
                start = entry.handle
            }
            guard start < 0xFFFF else { break }
            start += 1
        }
        return descriptors
    }

    // MARK: - Reading (§4.8)

    /// Read Characteristic Value (Vol 3, Part G §4.8.1), continued as Read Long
    /// Characteristic Values (§4.8.3) with Read Blob while the response fills ATT_MTU – 1
    /// octets. Attribute Not Long on a Read Blob ends the value.
    public func read(handle: UInt16) async throws -> [UInt8] {
        let mtu = await requester.mtu
        let response = try await ask(.readRequest(attributeHandle: handle))
        guard case var .readResponse(value) = response else { throw GATTError.unexpectedResponse(response) }
        var part = value.count
        while part >= mtu - 1, value.count < Self.maximumValueLength, value.count <= Int(UInt16.max) {
            let blob: ATTPDU
            do {
                blob = try await ask(.readBlobRequest(attributeHandle: handle, valueOffset: UInt16(value.count)))
            } catch GATTError.att(.attributeNotLong, _) {
                break
            }
            guard case let .readBlobResponse(more) = blob else { throw GATTError.unexpectedResponse(blob) }
            value += more
            part = more.count
        }
        return value
    }

    // MARK: - Writing (§4.9)

    /// Write Characteristic Value (Vol 3, Part G §4.9.3): a Write Request, answered by a
    /// Write Response. Values longer than ATT_MTU – 3 throw (no long writes).
    public func write(handle: UInt16, value: [UInt8]) async throws {
        try await checkLength(value)
        let response = try await ask(.writeRequest(attributeHandle: handle, attributeValue: value))
        guard case .writeResponse = response else { throw GATTError.unexpectedResponse(response) }
    }

    /// Write Without Response (Vol 3, Part G §4.9.1): a Write Command. Values longer than
    /// ATT_MTU – 3 throw.
    public func writeWithoutResponse(handle: UInt16, value: [UInt8]) async throws {
        try await checkLength(value)
        try await requester.command(.writeCommand(attributeHandle: handle, attributeValue: value))
    }

    // MARK: - Notifications and indications (§4.10, §4.11)

    /// Enables notifications, or indications, by writing the characteristic's Client
    /// Characteristic Configuration descriptor (Vol 3, Part G §4.12.3, §3.3.3.3).
    public func subscribe(_ characteristic: GATTRemoteCharacteristic, indications: Bool = false) async throws {
        let needed: GATTCharacteristicProperties = indications ? .indicate : .notify
        guard characteristic.properties.contains(needed) else {
            throw GATTError.notPermitted("characteristic \(characteristic.uuid) does not \(indications ? "indicate" : "notify")")
        }
        let value: GATTClientCharacteristicConfiguration = indications ? .indication : .notification
        try await write(handle: try await configurationHandle(of: characteristic), value: value.bytes)
    }

    /// Disables notifications and indications by writing 0x0000 to the characteristic's
    /// Client Characteristic Configuration descriptor.
    public func unsubscribe(_ characteristic: GATTRemoteCharacteristic) async throws {
        try await write(handle: try await configurationHandle(of: characteristic),
                        value: GATTClientCharacteristicConfiguration().bytes)
    }

    // MARK: - Helpers

    private func configurationHandle(of characteristic: GATTRemoteCharacteristic) async throws -> UInt16 {
        let descriptors = try await discoverDescriptors(of: characteristic)
        guard let cccd = descriptors.first(where: { $0.uuid == .clientCharacteristicConfiguration }) else {
            throw GATTError.notFound("Client Characteristic Configuration of \(characteristic.uuid)")
        }
        return cccd.handle
    }

    private func checkLength(_ value: [UInt8]) async throws {
        let maximum = await requester.mtu - 3
        guard value.count <= maximum else { throw GATTError.valueTooLong(length: value.count, maximum: maximum) }
    }

    /// Sends a request; an Error Response throws.
    private func ask(_ pdu: ATTPDU) async throws -> ATTPDU {
        let response = try await requester.request(pdu)
        if case let .errorResponse(opcode, handle, code) = response {
            guard opcode == pdu.opcode else { throw GATTError.unexpectedResponse(response) }
            throw GATTError.att(code, handle: handle)
        }
        return response
    }

    private static func uuid(_ value: [UInt8], at handle: UInt16) throws -> BluetoothUUID {
        guard value.count == 2 || value.count == 16, let uuid = try? BluetoothUUID(littleEndian: value) else {
            throw GATTError.invalidResponse("service UUID at 0x\(hex(handle)) has \(value.count) octets")
        }
        return uuid
    }
}
