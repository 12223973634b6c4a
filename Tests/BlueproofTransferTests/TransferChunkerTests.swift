import BlueproofTransfer
import Foundation
import Testing

@Suite("TransferChunker")
struct TransferChunkerTests {
    let eom: [UInt8] = Array("EOM".utf8)

    @Test("chunks are ATT_MTU - 3 bytes (at most 512), then EOM", arguments: [(23, 20), (185, 182), (515, 512), (517, 512)])
    func chunkSizeFollowsMTU(mtu: Int, expected: Int) throws {
        let size = TransferChunker.chunkSize(forATTMTU: mtu)
        #expect(size == expected)
        let payload = (0..<(size * 3 + 7)).map { UInt8($0 % 251) }
        let chunks = Array(try TransferChunker(payload: payload, chunkSize: size))
        #expect(chunks.map(\.count) == [size, size, size, 7, 3])
        #expect(chunks.last == eom)
        #expect(Array(chunks.dropLast().joined()) == payload)
        #expect(try TransferChunker(payload: payload, chunkSize: size).count == chunks.count)
    }

    @Test("a 0-byte payload is the marker alone")
    func empty() throws {
        #expect(Array(try TransferChunker(payload: [], chunkSize: 20)) == [eom])
    }

    @Test("the payload EOM is sent as EO, M, EOM")
    func payloadIsMarker() throws {
        let chunker = try TransferChunker(payload: eom, chunkSize: 20)
        #expect(Array(chunker) == [Array("EO".utf8), Array("M".utf8), eom])
        #expect(chunker.count == 3)
    }

    @Test("a last chunk of exactly EOM is split; EOM inside a chunk is left alone")
    func lastChunkIsMarker() throws {
        let payload = [UInt8](repeating: 0x41, count: 20) + eom
        let chunks = Array(try TransferChunker(payload: payload, chunkSize: 20))
        #expect(chunks == [[UInt8](repeating: 0x41, count: 20), Array("EO".utf8), Array("M".utf8), eom])
        let inside = Array("xxEOMxx".utf8) + eom + Array("EOM".utf8) + [0x42]
        let plain = Array(try TransferChunker(payload: inside, chunkSize: 20))
        #expect(plain == [inside, eom])
    }

    @Test("a chunk size below 3 cannot carry the marker")
    func tooSmall() {
        #expect(throws: TransferError.chunkSizeTooSmall(2)) { try TransferChunker(payload: [1], chunkSize: 2) }
    }

    @Test("chunker and reassembler round-trip every length around the marker", arguments: [3, 4, 20, 182])
    func roundTrip(size: Int) throws {
        for length in 0..<(size * 3 + 4) {
            for tail in [[UInt8](repeating: 0x7A, count: 0), eom] {
                let payload = Array((0..<length).map { UInt8($0 % 7 + 0x41) } + tail)
                var reassembler = TransferReassembler()
                var result: [UInt8]?
                for value in try TransferChunker(payload: payload, chunkSize: size) {
                    #expect(value.count <= size)
                    if case let .complete(whole) = try reassembler.receive(value) { result = whole }
                }
                #expect(result == payload, "length \(length) + \(tail.count), chunk \(size)")
            }
        }
    }
}

@Suite("TransferReassembler")
struct TransferReassemblerTests {
    @Test("appends until EOM, then starts over")
    func reassembles() throws {
        var reassembler = TransferReassembler()
        #expect(try reassembler.receive(Array("Hello, ".utf8)) == .data(total: 7))
        #expect(try reassembler.receive(Array("EOMs".utf8)) == .data(total: 11))
        #expect(try reassembler.receive(Array("EOM".utf8)) == .complete(Array("Hello, EOMs".utf8)))
        #expect(reassembler.chunks == 2 && reassembler.largestChunk == 7)
        #expect(try reassembler.receive(Array("EOM".utf8)) == .complete([]))
    }

    @Test("data past the limit throws payloadTooLarge")
    func limit() throws {
        var reassembler = TransferReassembler(limit: 10)
        #expect(try reassembler.receive([UInt8](repeating: 1, count: 10)) == .data(total: 10))
        #expect(throws: TransferError.payloadTooLarge(limit: 10)) { try reassembler.receive([1]) }
        #expect(TransferReassembler.defaultLimit == 64 * 1024 * 1024)
    }
}

@Suite("RSSIGate")
struct RSSIGateTests {
    @Test("the sample's gate: -50 passes, -51 fails, not available fails")
    func sample() {
        let gate = TransferProfile().gate
        #expect(gate.decide(rssi: -50).passed)
        #expect(gate.decide(rssi: -20).passed)
        #expect(!gate.decide(rssi: -51).passed)
        #expect(!gate.decide(rssi: nil).passed)
        #expect(gate.decide(rssi: -51).reason.contains("-51"))
    }

    @Test("not available passes only when the profile allows it")
    func unavailableAllowed() {
        let gate = RSSIGate(minimum: -50, allowUnavailable: true)
        #expect(gate.decide(rssi: nil).passed)
        #expect(!gate.decide(rssi: -51).passed)
        #expect(RSSIGate(minimum: -70).decide(rssi: -65).passed)
    }

    /// RSSI readings are 0 dBm at most (the sample's "Discover Bluetooth Peripherals and
    /// Connect to Them"); the gate used to let +1 through since it is ≥ -50.
    @Test("an RSSI above the 0 dBm maximum is no reading: refused")
    func aboveMaximum() {
        let gate = TransferProfile().gate
        #expect(gate.decide(rssi: 0).passed)
        #expect(!gate.decide(rssi: 1).passed)
        #expect(!gate.decide(rssi: 20).passed)
        #expect(gate.decide(rssi: 1).reason.contains("not a reading"))
    }
}

@Suite("SHA256")
struct SHA256Tests {
    @Test("FIPS 180-4 vectors")
    func vectors() {
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("updates in pieces give the same digest")
    func pieces() {
        let bytes = (0..<1000).map { UInt8($0 % 251) }
        var hash = SHA256()
        for piece in stride(from: 0, to: bytes.count, by: 37) { hash.update(Array(bytes[piece..<min(piece + 37, bytes.count)])) }
        let whole = SHA256.hex(bytes)
        #expect(hash.finalize().map { String(format: "%02x", $0) }.joined() == whole)
    }
}
