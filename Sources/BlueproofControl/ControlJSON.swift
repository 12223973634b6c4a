import BlueproofTransmitter
import Foundation

/// A dictionary value on the control protocol: JSON as is, binary data as
/// `{"$binary": "<base64>"}` (docs/control-protocol.md, "Values").
struct ControlJSON: Codable, Sendable, Equatable {
    var value: TransmitterValue

    init(_ value: TransmitterValue) { self.value = value }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = .null
        } else if let bool = try? container.decode(Bool.self) {
            value = .bool(bool)
        } else if let integer = try? container.decode(Int64.self) {
            value = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            value = .number(number)
        } else if let string = try? container.decode(String.self) {
            value = .string(string)
        } else if let array = try? container.decode([ControlJSON].self) {
            value = .array(array.map(\.value))
        } else {
            let object = try container.decode([String: ControlJSON].self)
            if object.count == 1, case .string(let text)? = object[Self.binaryKey]?.value {
                guard let data = Data(base64Encoded: text) else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "$binary is not base64")
                }
                value = .binary(data)
            } else {
                value = .object(object.mapValues(\.value))
            }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch value {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .integer(let integer): try container.encode(integer)
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array.map(ControlJSON.init))
        case .object(let object): try container.encode(object.mapValues(ControlJSON.init))
        case .binary(let data): try container.encode([Self.binaryKey: data.base64EncodedString()])
        }
    }

    static let binaryKey = "$binary"

    static func wrap(_ dictionary: [String: TransmitterValue]?) -> [String: ControlJSON]? {
        dictionary?.mapValues(ControlJSON.init)
    }

    static func unwrap(_ dictionary: [String: ControlJSON]?) -> [String: TransmitterValue]? {
        dictionary?.mapValues(\.value)
    }
}

/// A `TransmitterError` on the wire: code, name, summary and detail.
struct ControlError: Codable, Sendable, Equatable {
    var code: Int
    var name: String
    var summary: String
    var detail: String?

    init(_ error: TransmitterError) {
        code = error.code
        name = error.name
        summary = error.summary
        detail = error.detail
    }

    /// The error with its known origin when the code is one of ours; otherwise the device's own.
    var transmitterError: TransmitterError {
        if var known = TransmitterError.all.first(where: { $0.code == code }) {
            known.detail = detail
            return known
        }
        return TransmitterError(code: code, name: name, summary: summary,
                                origin: .inferred(reason: "reported by the implementation under test"), detail: detail)
    }
}

extension TransmitterError {
    /// The control channel to an implementation under test failed (closed, timed out, or
    /// answered something that is not the protocol). Code 0: it is not the transmitter's.
    public static func controlChannel(_ detail: String) -> TransmitterError {
        .controlProtocol(code: 0, name: "controlChannel", summary: "the control channel to the implementation failed", detail: detail)
    }

    /// An error the control protocol defines (docs/control-protocol.md), not a source document.
    static func controlProtocol(code: Int, name: String, summary: String, detail: String? = nil) -> TransmitterError {
        TransmitterError(code: code, name: name, summary: summary, origin: .inferred(reason: "docs/control-protocol.md"), detail: detail)
    }
}
