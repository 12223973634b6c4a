/// A record of a capture that holds no HCI packet but still takes a frame number, as
/// Wireshark numbers frames: btmon's index, note and logging records (BlueZ monitor opcodes,
/// btsnoop 2001 and pcap 254), and records no HCI packet could be read from.
public struct CaptureNote: Hashable, Sendable {
    /// Microseconds since the Unix epoch.
    public var timestampMicros: Int64
    /// The controller the record is about (btmon's index), when it names one.
    public var controllerIndex: UInt16?
    /// What kind of record it is: "New Index", "System Note", "User Logging", ...
    public var name: String
    /// What it says, in `name=value` words or its text; empty when it says nothing more.
    public var detail: String

    public init(timestampMicros: Int64, controllerIndex: UInt16?, name: String, detail: String) {
        self.timestampMicros = timestampMicros
        self.controllerIndex = controllerIndex
        self.name = name
        self.detail = detail
    }
}

extension CaptureNote {
    /// The longest text a note keeps; longer text is cut and says so.
    static let maximumText = 512

    /// The note for a BlueZ monitor record of `opcode` (BlueZ src/shared/btsnoop.h and
    /// monitor/packet.c), or nil for the opcodes that carry an HCI packet.
    static func monitor(opcode: UInt16, index: UInt16, data: ArraySlice<UInt8>, timestampMicros: Int64) -> CaptureNote? {
        let bytes = Array(data)
        let detail: String
        let name: String
        switch opcode {
        case 0:
            name = "New Index"
            // type, bus, bdaddr (6, little-endian), name (8, NUL-padded)
            guard bytes.count >= 16 else { detail = "(\(bytes.count) bytes, expected 16)"; break }
            let types = [0: "Primary", 1: "AMP"]
            detail = "type=\(types[Int(bytes[0])] ?? "0x" + hexByte(bytes[0])) bus=\(bytes[1]) "
                + "address=\(address(bytes[2..<8])) name=\(text(bytes[8..<16]))"
        case 1: name = "Delete Index"; detail = ""
        case 8: name = "Open Index"; detail = ""
        case 9: name = "Close Index"; detail = ""
        case 10:
            name = "Index Info"
            guard bytes.count >= 8 else { detail = "(\(bytes.count) bytes, expected 8)"; break }
            detail = "address=\(address(bytes[0..<6])) manufacturer=\(UInt16(bytes[6]) | UInt16(bytes[7]) << 8)"
        case 11: name = "Vendor Diagnostic"; detail = "\(bytes.count) bytes"
        case 12: name = "System Note"; detail = text(bytes[...])
        case 13:
            name = "User Logging"
            // priority, identifier length, identifier (NUL-terminated), message
            guard bytes.count >= 2, bytes.count >= 2 + Int(bytes[1]) else { detail = text(bytes[...]); break }
            let ident = text(bytes[2..<(2 + Int(bytes[1]))])
            detail = "priority=\(bytes[0]) \(ident): \(text(bytes[(2 + Int(bytes[1]))...]))"
        case 14: name = "Control Open"; detail = ""
        case 15: name = "Control Close"; detail = ""
        case 16: name = "Control Command"; detail = "\(bytes.count) bytes"
        case 17: name = "Control Event"; detail = "\(bytes.count) bytes"
        default:
            guard CaptureReader.monitorPacket(opcode) == nil else { return nil }
            name = "Monitor Opcode \(opcode)"
            detail = "\(bytes.count) bytes"
        }
        return CaptureNote(timestampMicros: timestampMicros, controllerIndex: index == 0xFFFF ? nil : index,
                           name: name, detail: detail)
    }

    /// Printable text of NUL-terminated or NUL-padded bytes, cut at ``maximumText`` characters.
    static func text(_ bytes: ArraySlice<UInt8>) -> String {
        let kept = bytes.prefix { $0 != 0 }
        let printable = String(decoding: kept.prefix(maximumText), as: UTF8.self)
            .unicodeScalars.map { $0.properties.generalCategory == .control ? "." : String($0) }.joined()
        let trimmed = printable.hasSuffix("\n") ? String(printable.dropLast()) : printable
        return kept.count > maximumText ? trimmed + "… (\(kept.count) bytes)" : trimmed
    }

    /// `AA:BB:CC:DD:EE:FF` from six little-endian bytes.
    static func address(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.reversed().map(hexByte).joined(separator: ":")
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
