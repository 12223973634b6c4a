import BlueproofTransmitter
import Foundation
import Testing
@testable import BlueproofControl

@Suite("Control protocol coding")
struct ControlCodingTests {
    @Test("dictionary values survive the line: integers stay integers, binary becomes $binary and back")
    func values() throws {
        let dictionary: [String: TransmitterValue] = [
            "text": .string("hello"), "count": .integer(42), "ratio": .number(0.5), "flag": .bool(true),
            "nothing": .null, "list": .array([.integer(1), .string("two")]),
            "nested": .object(["image": .binary(Data([0, 1, 2, 255]))]),
        ]
        var request = ControlRequest(id: 7, command: .send)
        request.dictionary = ControlJSON.wrap(dictionary)
        let line = try ControlCoding.line(request)
        #expect(line.last == 0x0A)
        #expect(!line.dropLast().contains(0x0A))
        let text = String(decoding: line, as: UTF8.self)
        #expect(text.contains(#"{"$binary":"AAEC/w=="}"#))
        let decoded = try ControlCoding.decode(ControlRequest.self, from: Array(line.dropLast()))
        #expect(ControlJSON.unwrap(decoded.dictionary) == dictionary)
        #expect(decoded.command == .send && decoded.id == 7)
    }

    @Test("every transmitter event survives the line")
    func events() throws {
        let user = UserID.random()
        let packet = UUID()
        let events: [TransmitterEvent] = [
            .started(.onDemand), .alreadyStarted, .startFailed(.licenceExpired.with(detail: "2020")), .bluetoothUnavailable, .licenceNeedsNetwork,
            .stopped, .nearbyUser(user), .connected(user), .disconnected(user), .secureConnection(user), .keyConflict(user),
            .sentDirect(packet), .addedToMesh(packet), .fellBackToMesh(packet), .failed(packet, .directReceiverNotInRange),
            .discarded(packet, reason: "expired"), .rejectedBySize(packet, size: 1025, limit: 1024),
            .received(ReceivedPacket(packetID: packet, sender: user, dictionary: ["a": .integer(1)], data: Data([9]),
                                     broadcast: true, mesh: true, encrypted: false)),
        ]
        for event in events {
            let line = try ControlCoding.line(ControlEvent(event))
            let back = try ControlCoding.decode(ControlEvent.self, from: Array(line.dropLast())).transmitterEvent()
            #expect(back == event, "\(event)")
        }
        if case .startFailed(let error)? = try ControlEvent(.startFailed(.licenceExpired.with(detail: "2020"))).transmitterEvent() {
            #expect(error.detail == "2020" && error.name == "licenceExpired")
        } else {
            Issue.record("startFailed lost its error")
        }
    }

    @Test("an unknown event name is ignored, a malformed known event is an error")
    func unknownEvents() throws {
        #expect(try ControlEvent(event: "somethingNewer").transmitterEvent() == nil)
        var broken = ControlEvent(event: "connected")
        broken.user = "not-a-uuid"
        #expect(throws: TransmitterError.controlChannel("")) { try broken.transmitterEvent() }
    }

    @Test("options by name, refusing unknown names")
    func options() throws {
        let options: SendingOptions = [.fullTransmission, .encrypted]
        #expect(options.names == ["FullTransmission", "Encrypted"])
        #expect(SendingOptions(names: ["Encrypted", "FullTransmission"]) == options)
        #expect(SendingOptions(names: ["Teleport"]) == nil)
    }

    @Test("errors of unknown codes keep their code, name and detail")
    func foreignErrors() {
        var wire = ControlError(.binaryInMesh)
        #expect(wire.transmitterError == .binaryInMesh)
        #expect(wire.transmitterError.origin == TransmitterError.binaryInMesh.origin)
        wire = ControlError(TransmitterError(code: 61000, name: "vendorThing", summary: "s", origin: .inferred(reason: "x"), detail: "d"))
        #expect(wire.transmitterError.code == 61000 && wire.transmitterError.name == "vendorThing" && wire.transmitterError.detail == "d")
    }

    @Test("lines are cut at newlines across reads; a partial line waits")
    func lines() throws {
        var splitter = LineSplitter()
        #expect(try splitter.feed(Array("{\"a\":1}\n{\"b\"".utf8)) == [Array("{\"a\":1}".utf8)])
        #expect(try splitter.feed(Array(":2}\n\n".utf8)) == [Array("{\"b\":2}".utf8), []])
        #expect(try splitter.feed([]) == [])
    }

    @Test("a value JSON cannot hold is an error, never a {} line")
    func unencodable() {
        let packet = ReceivedPacket(packetID: UUID(), sender: .random(), dictionary: ["x": .number(.infinity)], data: nil,
                                    broadcast: false, mesh: false, encrypted: false)
        #expect(throws: TransmitterError.self) { try ControlCoding.line(ControlEvent(.received(packet))) }
    }

    @Test("a 4 MiB line fed in 1 KiB reads is cut once, each byte examined once")
    func longLineIsLinear() throws {
        var splitter = LineSplitter(limit: 8 << 20)
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 1024)
        for _ in 0..<4096 { #expect(try splitter.feed(chunk).isEmpty) }
        let lines = try splitter.feed([0x0A] + Array("{}".utf8))
        #expect(lines.map(\.count) == [4 << 20])
        #expect(splitter.examined == (4 << 20) + 3)
        #expect(try splitter.feed([0x0A]) == [Array("{}".utf8)])
    }

    @Test("a line over the limit is refused naming it, whether its newline has come or not")
    func overLongLine() throws {
        let limit = LineSplitter.maxLineBytes
        var complete = LineSplitter()
        let error = #expect(throws: TransmitterError.self) {
            try complete.feed(Array(repeating: 0x61, count: limit + 1) + [0x0A])
        }
        #expect(error?.detail?.contains("\(limit) bytes") == true)
        var partial = LineSplitter()
        #expect(try partial.feed(Array(repeating: 0x61, count: limit)).isEmpty)
        #expect(throws: TransmitterError.self) { try partial.feed([0x61]) }
        var exact = LineSplitter()
        #expect(try exact.feed(Array(repeating: 0x61, count: limit) + [0x0A]).map(\.count) == [limit])
    }

    @Test("a command line that is not JSON is answered with id -1 and the reason")
    func garbage() throws {
        #expect(throws: TransmitterError.self) { try ControlCoding.decode(ControlRequest.self, from: Array("start".utf8)) }
        var request = ControlRequest(id: 1, command: .start)
        request.mode = "sometimes"
        let text = String(decoding: try ControlCoding.line(request), as: UTF8.self)
        #expect(text.contains("\"command\":\"start\""))
    }
}
