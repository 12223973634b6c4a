import Testing
@testable import BlueproofWire

/// One event as bytes and as a value, with what a one-byte truncation must report.
struct EventVector: Sendable, CustomTestStringConvertible {
    var name: String
    /// The event packet after the H4 indicator: code, length, parameters.
    var hex: String
    var event: HCIEvent
    /// Offset (from the event code) of the field the last byte belongs to.
    var truncatedOffset: Int
    /// Width of that field.
    var truncatedField: Int
    /// Part of the error context naming that field.
    var truncatedFieldName: String
    var testDescription: String { name }

    var payload: [UInt8] { hexBytes(hex) }
}

let address1 = address("00:AA:01:00:00:23")
let address2 = address("01:02:03:04:05:06")
let address3 = address("66:55:44:33:22:11")

let eventVectors: [EventVector] = [
    EventVector(
        name: "Disconnection Complete", hex: "0504 00 4000 13",
        event: .disconnectionComplete(.init(status: .success, connectionHandle: 0x0040, reason: .remoteUserTerminated)),
        truncatedOffset: 5, truncatedField: 1, truncatedFieldName: "reason"),
    EventVector(
        name: "Command Complete", hex: "0e07 01 0220 00 1b00 14",
        event: .commandComplete(.init(numHCICommandPackets: 1, commandOpcode: HCIOpcode(rawValue: 0x2002),
                                      returnParameters: [0x00, 0x1B, 0x00, 0x14])),
        // Return parameters are opaque here: cutting them still decodes, so cut into the opcode.
        truncatedOffset: 3, truncatedField: 2, truncatedFieldName: "command opcode"),
    EventVector(
        name: "Command Status", hex: "0f04 00 01 0d20",
        event: .commandStatus(.init(status: .success, numHCICommandPackets: 1, commandOpcode: HCIOpcode(rawValue: 0x200D))),
        truncatedOffset: 4, truncatedField: 2, truncatedFieldName: "command opcode"),
    EventVector(
        name: "Hardware Error", hex: "1001 07",
        event: .hardwareError(.init(hardwareCode: 0x07)),
        truncatedOffset: 2, truncatedField: 1, truncatedFieldName: "hardware code"),
    EventVector(
        name: "Number Of Completed Packets", hex: "1309 02 4000 0300 4100 0100",
        event: .numberOfCompletedPackets(.init(handles: [
            .init(connectionHandle: 0x0040, numCompletedPackets: 3),
            .init(connectionHandle: 0x0041, numCompletedPackets: 1),
        ])),
        truncatedOffset: 9, truncatedField: 2, truncatedFieldName: "num completed packets[1]"),
    EventVector(
        name: "Data Buffer Overflow", hex: "1a01 01",
        event: .dataBufferOverflow(.init(linkType: .acl)),
        truncatedOffset: 2, truncatedField: 1, truncatedFieldName: "link type"),
    EventVector(
        name: "LE Connection Complete",
        hex: "3e13 01 00 4000 01 01 230000 01aa00 2800 0000 c800 05",
        event: .le(.connectionComplete(.init(
            status: .success, connectionHandle: 0x0040, role: .peripheral, peerAddressType: .randomDevice,
            peerAddress: address1, connectionInterval: .init(rawValue: 40), peripheralLatency: 0,
            supervisionTimeout: .init(rawValue: 200), centralClockAccuracy: .ppm50))),
        truncatedOffset: 20, truncatedField: 1, truncatedFieldName: "central clock accuracy"),
    EventVector(
        name: "LE Enhanced Connection Complete",
        hex: "3e1f 0a 00 4100 00 00 060504030201 000000000000 112233445566 1800 0100 4800 01",
        event: .le(.enhancedConnectionComplete(.init(
            status: .success, connectionHandle: 0x0041, role: .central, peerAddressType: .publicDevice,
            peerAddress: address2, localResolvablePrivateAddress: .zero, peerResolvablePrivateAddress: address3,
            connectionInterval: .init(rawValue: 24), peripheralLatency: 1,
            supervisionTimeout: .init(rawValue: 72), centralClockAccuracy: .ppm250))),
        truncatedOffset: 32, truncatedField: 1, truncatedFieldName: "central clock accuracy"),
    EventVector(
        name: "LE Advertising Report (two reports)",
        hex: "3e19 02 02 00 01 c6a5b4332211 03 020106 c4 04 00 060504030201 00 7f",
        event: .le(.advertisingReport(.init(reports: [
            .init(eventType: .advInd, addressType: .randomDevice, address: address("11:22:33:B4:A5:C6"),
                  data: [0x02, 0x01, 0x06], rawRSSI: -60),
            .init(eventType: .scanRsp, addressType: .publicDevice, address: address2, data: [], rawRSSI: 127),
        ]))),
        truncatedOffset: 26, truncatedField: 1, truncatedFieldName: "RSSI[1]"),
    EventVector(
        name: "LE Connection Update Complete", hex: "3e0a 03 00 4000 1800 0000 2c01",
        event: .le(.connectionUpdateComplete(.init(
            status: .success, connectionHandle: 0x0040, connectionInterval: .init(rawValue: 24),
            peripheralLatency: 0, supervisionTimeout: .init(rawValue: 300)))),
        truncatedOffset: 10, truncatedField: 2, truncatedFieldName: "supervision timeout"),
    EventVector(
        name: "LE Read Remote Features Complete", hex: "3e0c 04 00 4000 ff49010000000000",
        event: .le(.readRemoteFeaturesComplete(.init(status: .success, connectionHandle: 0x0040,
                                                     leFeatures: HCILEFeatures(rawValue: 0x0000_0000_0001_49FF)))),
        truncatedOffset: 6, truncatedField: 8, truncatedFieldName: "LE features"),
    EventVector(
        name: "LE Data Length Change", hex: "3e0b 07 4000 fb00 4808 1b00 4801",
        event: .le(.dataLengthChange(.init(connectionHandle: 0x0040, maxTXOctets: 251, maxTXTime: .init(rawValue: 2120),
                                           maxRXOctets: 27, maxRXTime: .init(rawValue: 328)))),
        truncatedOffset: 11, truncatedField: 2, truncatedFieldName: "max RX time"),
    EventVector(
        name: "LE Extended Advertising Report (legacy ADV_IND)",
        hex: "3e1d 0d 01 1300 01 c6a5b4332211 01 00 ff 7f 7f 0000 00 000000000000 03 020106",
        event: .le(.extendedAdvertisingReport(.init(reports: [
            .init(eventType: .legacyAdvInd, addressType: .randomDevice, address: address("11:22:33:B4:A5:C6"),
                  rawRSSI: 127, data: [0x02, 0x01, 0x06]),
        ]))),
        truncatedOffset: 28, truncatedField: 3, truncatedFieldName: "data[0]"),
    EventVector(
        name: "LE Enhanced Connection Complete [v2]",
        hex: "3e22 29 00 4100 00 00 060504030201 000000000000 112233445566 1800 0100 4800 01 02 ffff",
        event: .le(.enhancedConnectionCompleteV2(.init(
            .init(status: .success, connectionHandle: 0x0041, role: .central, peerAddressType: .publicDevice,
                  peerAddress: address2, localResolvablePrivateAddress: .zero, peerResolvablePrivateAddress: address3,
                  connectionInterval: .init(rawValue: 24), peripheralLatency: 1,
                  supervisionTimeout: .init(rawValue: 72), centralClockAccuracy: .ppm250),
            advertisingHandle: 2, syncHandle: 0xFFFF))),
        truncatedOffset: 34, truncatedField: 2, truncatedFieldName: "sync handle"),
    // issue 16: the classic Connection Complete, so `check` sees BR/EDR links.
    EventVector(
        name: "Connect Complete", hex: "030b 00 0b00 7c9a1c21a0c8 01 00",
        event: .connectionComplete(.init(status: .success, connectionHandle: 0x000B,
                                         address: BDAddress(littleEndian: [0x7C, 0x9A, 0x1C, 0x21, 0xA0, 0xC8]),
                                         linkType: .acl)),
        truncatedOffset: 12, truncatedField: 1, truncatedFieldName: "encryption enabled"),
]

/// `payload` with its parameters changed by `edit` and the length byte fixed.
func reframed(_ payload: [UInt8], _ edit: (inout [UInt8]) -> Void) -> [UInt8] {
    var parameters = Array(payload.dropFirst(2))
    edit(&parameters)
    return [payload[0], UInt8(parameters.count)] + parameters
}

func decodeFailure(_ payload: [UInt8]) -> WireError? {
    do {
        _ = try HCIEvent(payload: payload)
        return nil
    } catch {
        return error
    }
}

@Suite("HCI events: byte vectors")
struct HCIEventTests {
    @Test("bytes decode to the event", arguments: eventVectors)
    func decodes(_ vector: EventVector) throws {
        #expect(vector.payload.count >= 3)
        let decoded = try HCIEvent(payload: vector.payload)
        #expect(decoded == vector.event)
        #expect(decoded.code == vector.payload[0])
    }

    @Test("the event encodes to the bytes", arguments: eventVectors)
    func encodes(_ vector: EventVector) {
        #expect(vector.event.packet.packet.payload == vector.payload)
        #expect(vector.event.packet.packet.h4Bytes == [0x04] + vector.payload)
    }

    @Test("the typed event decodes from its packet alone", arguments: eventVectors)
    func typedDecode(_ vector: EventVector) throws {
        let packet = try HCIEventPacket(payload: vector.payload)
        switch vector.event {
        case let .connectionComplete(event): #expect(try HCIConnectionCompleteEvent(packet) == event)
        case let .disconnectionComplete(event): #expect(try HCIDisconnectionCompleteEvent(packet) == event)
        case let .commandComplete(event): #expect(try HCICommandCompleteEvent(packet) == event)
        case let .commandStatus(event): #expect(try HCICommandStatusEvent(packet) == event)
        case let .hardwareError(event): #expect(try HCIHardwareErrorEvent(packet) == event)
        case let .numberOfCompletedPackets(event): #expect(try HCINumberOfCompletedPacketsEvent(packet) == event)
        case let .dataBufferOverflow(event): #expect(try HCIDataBufferOverflowEvent(packet) == event)
        case let .le(.connectionComplete(event)): #expect(try HCILEConnectionCompleteEvent(packet) == event)
        case let .le(.enhancedConnectionComplete(event)): #expect(try HCILEEnhancedConnectionCompleteEvent(packet) == event)
        case let .le(.advertisingReport(event)): #expect(try HCILEAdvertisingReportEvent(packet) == event)
        case let .le(.connectionUpdateComplete(event)): #expect(try HCILEConnectionUpdateCompleteEvent(packet) == event)
        case let .le(.readRemoteFeaturesComplete(event)): #expect(try HCILEReadRemoteFeaturesCompleteEvent(packet) == event)
        case let .le(.dataLengthChange(event)): #expect(try HCILEDataLengthChangeEvent(packet) == event)
        case let .le(.extendedAdvertisingReport(event)):
            #expect(try HCILEExtendedAdvertisingReportEvent(packet) == event)
        case let .le(.enhancedConnectionCompleteV2(event)):
            #expect(try HCILEEnhancedConnectionCompleteV2Event(packet) == event)
        case .le(.unknown), .unknown: Issue.record("vector \(vector.name) is not a known event")
        }
    }

    @Test("one byte short throws truncated at the last field, offset from the event code", arguments: eventVectors)
    func truncated(_ vector: EventVector) throws {
        let short: [UInt8]
        if case .commandComplete = vector.event {
            short = Array(vector.payload.prefix(4)).with(length: 2)
        } else {
            short = reframed(vector.payload) { $0.removeLast() }
        }
        let error = try #require(decodeFailure(short))
        #expect(error.offset == vector.truncatedOffset)
        #expect(error.reason == .truncated(needed: vector.truncatedField, available: vector.truncatedField - 1))
        #expect(error.context.hasSuffix(": " + vector.truncatedFieldName))
    }

    @Test("every shorter prefix of the parameters throws truncated", arguments: eventVectors)
    func everyPrefix(_ vector: EventVector) {
        let full = vector.payload.count - 2
        let minimum = if case .commandComplete = vector.event { 3 } else { full }
        for kept in 0..<minimum {
            let short = reframed(vector.payload) { $0.removeLast(full - kept) }
            guard let error = decodeFailure(short) else {
                Issue.record("\(vector.name) decoded from \(kept) of \(full) parameter bytes")
                continue
            }
            guard case .truncated = error.reason else {
                Issue.record("\(vector.name) with \(kept) bytes: \(error)")
                continue
            }
            #expect(error.offset >= 2 && error.offset <= kept + 2, "\(vector.name) with \(kept) bytes: \(error)")
        }
    }

    @Test("a trailing byte throws length mismatch, except in Command Complete", arguments: eventVectors)
    func trailing(_ vector: EventVector) throws {
        let long = reframed(vector.payload) { $0.append(0xAA) }
        if case let .commandComplete(event) = vector.event {
            var expected = event
            expected.returnParameters.append(0xAA)
            #expect(try HCIEvent(payload: long) == .commandComplete(expected))
        } else {
            let error = try #require(decodeFailure(long))
            #expect(error.offset == vector.payload.count)
            #expect(error.reason == .lengthMismatch(declared: vector.payload.count - 1, actual: vector.payload.count - 2))
        }
    }

    @Test func unknownEventRoundTrips() throws {
        let payload: [UInt8] = [0xFE, 0x04, 0x00, 0x40, 0x00, 0x01] // no event of Core 5.4
        let event = try HCIEvent(payload: payload)
        #expect(event == .unknown(code: 0xFE, parameters: [0x00, 0x40, 0x00, 0x01]))
        #expect(event.packet.packet.payload == payload)
        #expect(event.name == "Unknown Event (0xfe)")
        #expect(try HCIEvent(payload: [0xFF, 0x00]) == .unknown(code: 0xFF, parameters: []))
    }

    @Test func unknownLESubeventRoundTrips() throws {
        let payload: [UInt8] = [0x3E, 0x03, 0x7F, 0x01, 0x02]
        let event = try HCIEvent(payload: payload)
        #expect(event == .le(.unknown(subevent: 0x7F, parameters: [0x01, 0x02])))
        #expect(event.packet.packet.payload == payload)
        #expect(event.name == "Unknown LE Subevent (0x7f)")
    }

    @Test func leMetaWithoutSubeventThrows() throws {
        let error = try #require(decodeFailure([0x3E, 0x00]))
        #expect(error.offset == 2)
        #expect(error.reason == .truncated(needed: 1, available: 0))
    }

    @Test func typedDecodeRefusesAnotherEvent() throws {
        let packet = HCIEventPacket(code: 0x10, parameters: [0x01])
        #expect(throws: WireError.self) { try HCIHardwareErrorEvent(HCIEventPacket(code: 0x11, parameters: [1])) }
        #expect(try HCIHardwareErrorEvent(packet).hardwareCode == 1)
        let update = HCIEventPacket(code: 0x3E, parameters: [0x03, 0x00, 0x40, 0x00, 0x18, 0x00, 0x00, 0x00, 0x2C, 0x01])
        do {
            _ = try HCILEConnectionCompleteEvent(update)
            Issue.record("a Connection Update Complete decoded as a Connection Complete")
        } catch {
            #expect(error.offset == 2)
        }
    }

    @Test func unitsAndOpenSets() throws {
        guard case let .le(.connectionComplete(event)) = try HCIEvent(payload: eventVectors[6].payload) else {
            Issue.record("not a connection complete")
            return
        }
        #expect(event.connectionInterval.duration == .milliseconds(50))
        #expect(event.supervisionTimeout.duration == .seconds(2))
        #expect(event.centralClockAccuracy.partsPerMillion == 50)
        #expect(LEClockAccuracy(rawValue: 9).partsPerMillion == nil)
        #expect(HCIConnectionRole(rawValue: 7).description == "0x07")
        #expect(HCILinkType(rawValue: 0).description == "SCO (0x00)")
        #expect(LEPacketTime(rawValue: 2120).duration == .microseconds(2120))
    }
}

extension Array where Element == UInt8 {
    /// This event payload with its length byte set to `length`.
    func with(length: UInt8) -> [UInt8] {
        var copy = self
        if copy.count > 1 { copy[1] = length }
        return copy
    }
}
