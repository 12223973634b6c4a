import Testing
import BlueproofTransmitter

/// Every one of the 64 option bit sets, with a dictionary payload, the receiver named (none for
/// broadcast shapes) and in range, encryption possible. The expected outcome comes from two
/// hand-written tables: one for the 16 transmission-bit shapes, one for the 4 encryption-bit
/// shapes (choices C4–C6 in docs/transmitter.md), combined by the documented rule order:
/// conflicting encryption first, then the transmission shape, then broadcast + encrypted.
@Suite("Sending option shapes")
struct OptionShapeTests {
    enum Shape: Sendable, Equatable {
        case valid(TransmissionMode)
        case invalid(Int)
    }

    /// Transmission bits (direct, mesh, full, broadcast) -> shape. Written by hand.
    static let transmissionShapes: [(SendingOptions, Shape)] = [
        ([], .invalid(50010)),
        ([.directTransmission], .valid(.direct)),
        ([.meshTransmission], .valid(.mesh)),
        ([.fullTransmission], .valid(.full)),
        ([.broadcastReceiver], .valid(.broadcast)),
        ([.directTransmission, .meshTransmission], .invalid(50008)),
        ([.directTransmission, .fullTransmission], .invalid(50008)),
        ([.meshTransmission, .fullTransmission], .invalid(50008)),
        ([.directTransmission, .meshTransmission, .fullTransmission], .invalid(50008)),
        ([.broadcastReceiver, .directTransmission], .invalid(50007)),
        ([.broadcastReceiver, .meshTransmission], .valid(.broadcast)),
        ([.broadcastReceiver, .fullTransmission], .valid(.broadcast)),
        ([.broadcastReceiver, .directTransmission, .meshTransmission], .invalid(50007)),
        ([.broadcastReceiver, .directTransmission, .fullTransmission], .invalid(50007)),
        ([.broadcastReceiver, .meshTransmission, .fullTransmission], .valid(.broadcast)),
        ([.broadcastReceiver, .directTransmission, .meshTransmission, .fullTransmission], .invalid(50007)),
    ]

    /// Encryption bits -> encrypted (true/false) or a refusal code. Written by hand.
    static let encryptionShapes: [(SendingOptions, Result<Bool, TransmitterError>)] = [
        ([], .success(false)),
        ([.noEncrypted], .success(false)),
        ([.encrypted], .success(true)),
        ([.encrypted, .noEncrypted], .failure(.conflictingEncryptionOptions)),
    ]

    struct Row: Sendable, CustomTestStringConvertible {
        let options: SendingOptions
        let expected: Expectation
        var testDescription: String { "options 0x\(String(options.rawValue, radix: 16)) -> \(expected)" }
    }

    static let rows: [Row] = transmissionShapes.flatMap { transmission, shape in
        encryptionShapes.map { encryption, encrypted in
            let expected: Expectation
            switch (encrypted, shape) {
            case (.failure(let error), _): expected = .refuse(error.code)
            case (.success, .invalid(let code)): expected = .refuse(code)
            case (.success(true), .valid(.broadcast)): expected = .refuse(50001)
            case (.success(let enc), .valid(let mode)):
                expected = .accept(mode, encrypted: enc, firstHop: mode == .direct || mode == .full ? .direct : .mesh)
            }
            return Row(options: transmission.union(encryption), expected: expected)
        }
    }

    @Test("all 64 option sets are covered")
    func coversAll() {
        #expect(Set(Self.rows.map(\.options.rawValue)) == Set(0..<64))
    }

    @Test("option shape", arguments: rows)
    func shape(_ row: Row) {
        let request = SendRequest(
            options: row.options, dictionarySize: 100, binarySize: nil,
            hasReceiver: !row.options.contains(.broadcastReceiver), receiverInRange: true, canEncryptToReceiver: true)
        let verdict = SendValidator().validate(request)
        #expect(row.expected.matches(verdict), "got \(verdict)")
    }
}
