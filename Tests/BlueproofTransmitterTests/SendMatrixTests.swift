import Testing
import BlueproofTransmitter

/// The option x payload matrix (bridgefy-ios-sdk-readme.md, "Sending options", "Mesh",
/// "Broadcast messages", "4. Send data"). Context held favourable: automatic mode, receiver named
/// (none for broadcast) and in range, encryption possible, BLE, 100-byte parts.
@Suite("Send option x payload matrix")
struct SendMatrixTests {
    struct Cell: Sendable, CustomTestStringConvertible {
        let transmission: SendingOptions
        let encrypted: Bool
        let payload: CellPayload
        let expected: Expectation
        var testDescription: String {
            "\(Self.name(transmission)) \(encrypted ? "encrypted" : "noEncrypted") \(payload.rawValue) -> \(expected)"
        }
        static func name(_ options: SendingOptions) -> String {
            switch options {
            case .directTransmission: "direct"
            case .meshTransmission: "mesh"
            case .fullTransmission: "full"
            default: "broadcast"
            }
        }
    }

    static let D = SendingOptions.directTransmission
    static let M = SendingOptions.meshTransmission
    static let F = SendingOptions.fullTransmission
    static let B = SendingOptions.broadcastReceiver

    /// Written by hand, one line per cell: 4 transmissions x 2 encryption flags x 4 payloads.
    static let cells: [Cell] = [
        Cell(transmission: D, encrypted: true, payload: .none, expected: .refuse(50000)),
        Cell(transmission: D, encrypted: true, payload: .dictionary, expected: .accept(.direct, encrypted: true, firstHop: .direct)),
        Cell(transmission: D, encrypted: true, payload: .binary, expected: .accept(.direct, encrypted: true, firstHop: .direct)),
        Cell(transmission: D, encrypted: true, payload: .both, expected: .accept(.direct, encrypted: true, firstHop: .direct)),
        Cell(transmission: D, encrypted: false, payload: .none, expected: .refuse(50000)),
        Cell(transmission: D, encrypted: false, payload: .dictionary, expected: .accept(.direct, encrypted: false, firstHop: .direct)),
        Cell(transmission: D, encrypted: false, payload: .binary, expected: .accept(.direct, encrypted: false, firstHop: .direct)),
        Cell(transmission: D, encrypted: false, payload: .both, expected: .accept(.direct, encrypted: false, firstHop: .direct)),

        Cell(transmission: M, encrypted: true, payload: .none, expected: .refuse(50000)),
        Cell(transmission: M, encrypted: true, payload: .dictionary, expected: .accept(.mesh, encrypted: true, firstHop: .mesh)),
        Cell(transmission: M, encrypted: true, payload: .binary, expected: .refuse(50002)),
        Cell(transmission: M, encrypted: true, payload: .both, expected: .refuse(50002)),
        Cell(transmission: M, encrypted: false, payload: .none, expected: .refuse(50000)),
        Cell(transmission: M, encrypted: false, payload: .dictionary, expected: .accept(.mesh, encrypted: false, firstHop: .mesh)),
        Cell(transmission: M, encrypted: false, payload: .binary, expected: .refuse(50002)),
        Cell(transmission: M, encrypted: false, payload: .both, expected: .refuse(50002)),

        Cell(transmission: F, encrypted: true, payload: .none, expected: .refuse(50000)),
        Cell(transmission: F, encrypted: true, payload: .dictionary, expected: .accept(.full, encrypted: true, firstHop: .direct)),
        Cell(transmission: F, encrypted: true, payload: .binary, expected: .refuse(50002)),
        Cell(transmission: F, encrypted: true, payload: .both, expected: .refuse(50002)),
        Cell(transmission: F, encrypted: false, payload: .none, expected: .refuse(50000)),
        Cell(transmission: F, encrypted: false, payload: .dictionary, expected: .accept(.full, encrypted: false, firstHop: .direct)),
        Cell(transmission: F, encrypted: false, payload: .binary, expected: .refuse(50002)),
        Cell(transmission: F, encrypted: false, payload: .both, expected: .refuse(50002)),

        Cell(transmission: B, encrypted: true, payload: .none, expected: .refuse(50000)),
        Cell(transmission: B, encrypted: true, payload: .dictionary, expected: .refuse(50001)),
        Cell(transmission: B, encrypted: true, payload: .binary, expected: .refuse(50001)),
        Cell(transmission: B, encrypted: true, payload: .both, expected: .refuse(50001)),
        Cell(transmission: B, encrypted: false, payload: .none, expected: .refuse(50000)),
        Cell(transmission: B, encrypted: false, payload: .dictionary, expected: .accept(.broadcast, encrypted: false, firstHop: .mesh)),
        Cell(transmission: B, encrypted: false, payload: .binary, expected: .refuse(50006)),
        Cell(transmission: B, encrypted: false, payload: .both, expected: .refuse(50006)),
    ]

    @Test("the table covers every cell once")
    func tableIsComplete() {
        #expect(Self.cells.count == 32)
        let keys = Set(Self.cells.map { "\($0.transmission.rawValue)-\($0.encrypted)-\($0.payload.rawValue)" })
        #expect(keys.count == 32)
    }

    @Test("matrix cell", arguments: cells)
    func cell(_ cell: Cell) {
        let request = SendRequest(
            options: cell.transmission.union(cell.encrypted ? .encrypted : .noEncrypted),
            dictionarySize: cell.payload.dictionarySize,
            binarySize: cell.payload.binarySize,
            hasReceiver: cell.transmission != Self.B,
            receiverInRange: true,
            canEncryptToReceiver: true)
        let verdict = SendValidator().validate(request)
        #expect(cell.expected.matches(verdict), "got \(verdict)")
    }
}
