import BlueproofCapture
import BlueproofWire

/// One line of `blueproof inspect`, written as UTF-8 into the caller's buffer: the hot path
/// of `inspect`, so no per-line `String` is made.
struct InspectedPacket {
    var number: Int
    var timestampMicros: Int64
    /// Since the first packet; nil when out of range.
    var seconds: Double?
    /// True host to controller, false controller to host; nil for a record that holds no
    /// packet (type `note`).
    var sent: Bool?
    var controllerIndex: UInt16?
    var type: String
    /// ` type` padded to 7 columns, for the packet types: the text line's column without a `String`.
    private var paddedType: StaticString?
    /// Empty until the caller decodes the packet (the plain path writes no body).
    var body = InspectBody()
    /// Microseconds since the first packet; nil when out of range.
    private var spanMicros: Int64?
    /// The packet's H4 bytes, with `--hex`.
    var bytes: [UInt8]?

    /// `start` is the time of the capture's first packet with a time in range, nil when none
    /// has one yet. The ``body`` is the caller's to set, from ``InspectDescriber``.
    init(number: Int, record: CaptureRecord, start: Int64?, hex showHex: Bool) {
        self.number = number
        timestampMicros = record.timestampMicros
        spanMicros = Self.span(from: start, to: record.timestampMicros)
        seconds = spanMicros.map { Double($0) / 1e6 }
        sent = record.direction == .sent
        controllerIndex = record.controllerIndex
        type = record.packet.type.description
        paddedType = Self.paddedType(record.packet.type)
        bytes = showHex ? record.packet.h4Bytes : nil
    }

    /// A record that holds no HCI packet (a btmon note or index record, ...): type `note`.
    init(number: Int, note: CaptureNote, start: Int64?, forms: InspectBody.Forms) {
        self.number = number
        timestampMicros = note.timestampMicros
        spanMicros = Self.span(from: start, to: note.timestampMicros)
        seconds = spanMicros.map { Double($0) / 1e6 }
        controllerIndex = note.controllerIndex
        type = "note"
        body = InspectBody(note, forms: forms)
    }

    /// ` type` padded to 7 columns as the text line prints it; nil for a type without a name.
    private static func paddedType(_ type: H4PacketType) -> StaticString? {
        switch type {
        case .command: " command"
        case .event: " event  "
        case .acl: " acl    "
        case .sco: " sco    "
        case .iso: " iso    "
        default: nil
        }
    }

    /// Microseconds from `start` to `micros`; nil when the record's time is out of range or
    /// the span does not fit in 64-bit microseconds.
    static func span(from start: Int64?, to micros: Int64) -> Int64? {
        guard let start, micros != .max, micros != .min else { return nil }
        let (span, overflowed) = micros.subtractingReportingOverflow(start)
        return overflowed ? nil : span
    }

    /// `span` µs as `%.6f` seconds, right-aligned in `width` columns (`%11.6f` for 11), without
    /// Foundation's formatter.
    static func appendSeconds(_ span: Int64, width: Int, to out: inout [UInt8]) {
        // Sign, digits (a UInt64 has at most 20, at least 7 here) and point: backwards into 32 bytes.
        var field: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &field) { raw in
            var value = span.magnitude
            var first = raw.count
            var count = 0
            repeat {
                if count == 6 {
                    first -= 1
                    raw[first] = 0x2E  // "."
                }
                first -= 1
                raw[first] = 0x30 + UInt8(truncatingIfNeeded: value % 10)
                value /= 10
                count += 1
            } while value != 0 || count < 7
            if span < 0 {
                first -= 1
                raw[first] = 0x2D  // "-"
            }
            while raw.count - first < width, first > 0 {  // at most 22 bytes are taken: room for width 10 more
                first -= 1
                raw[first] = 0x20
            }
            out.appendSpaces(width - (raw.count - first))
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[first...]))
        }
    }

    /// `   0.000140 > [0] event   Command Complete ncmd=1 ...` and a newline; the body from
    /// `plain` when the packet's fields came from ``TraceDecoder/plainATT(_:sent:)``.
    func appendLine(_ plain: TraceDecoder.PlainATT? = nil, to out: inout [UInt8]) {
        appendLineStart(to: &out)
        if let plain { plain.appendText(to: &out) } else { out += body.text }
        appendLineEnd(to: &out)
    }

    /// The line up to its body: time, direction, controller, type.
    private func appendLineStart(to out: inout [UInt8]) {
        if let spanMicros { Self.appendSeconds(spanMicros, width: 11, to: &out) } else { out.append(static: "out of range") }
        switch sent {
        case true?: out.append(static: " <")
        case false?: out.append(static: " >")
        case nil: out.append(static: " =")
        }
        if let controllerIndex {
            out.append(static: " [")
            out.appendDecimal(Int(controllerIndex))
            out.append(0x5D)  // "]"
        }
        if let paddedType {
            out.append(static: paddedType)
        } else {
            out.append(0x20)
            out.appendUTF8(type)
            out.appendSpaces(7 - type.utf8.count)
        }
    }

    /// The line after its body: the bytes with `--hex`, the newline.
    private func appendLineEnd(to out: inout [UInt8]) {
        if let bytes {
            out.append(static: "\n            ")
            out.appendHex(bytes[...])
        }
        out.append(0x0A)
    }

    /// The text line, for `--grep`.
    var line: String {
        var out: [UInt8] = []
        appendLine(to: &out)
        out.removeLast()
        return String(decoding: out, as: UTF8.self)
    }

    /// The packet as one compact JSON object, keys sorted, and a newline; JSONEncoder costs
    /// more than decoding the packet.
    /// The body from `plain` when the packet's fields came from ``TraceDecoder/plainATT(_:sent:)``.
    func appendJSON(_ plain: TraceDecoder.PlainATT? = nil, to out: inout [UInt8]) {
        appendJSONStart(to: &out)
        if let plain { Self.appendJSONBody(plain, to: &out) } else { out += body.json }
        appendJSONEnd(to: &out)
    }

    /// The fields and name of a plain packet, keys sorted as ``InspectBody`` sorts them.
    private static func appendJSONBody(_ plain: TraceDecoder.PlainATT, to out: inout [UInt8]) {
        out.append(static: #""fields":{"attribute":"0x"#)
        plain.appendAttribute(to: &out)
        out.append(static: #"","bc":"#)
        JSONText.append(plain.broadcast, to: &out)
        out.append(static: #","cid":"0x0004","dlen":""#)
        out.appendDecimal(plain.dataLength)
        out.append(static: #"","handle":""#)
        out.appendDecimal(plain.handle)
        out.append(static: #"","l2cap_len":""#)
        out.appendDecimal(plain.l2capLength)
        out.append(static: #"","layer":"att","pb":"#)
        JSONText.append(plain.boundary, to: &out)
        out.append(static: #","pdu":"#)
        JSONText.append(plain.pduName, to: &out)
        if plain.hasValue {
            out.append(static: #","value":""#)
            plain.appendValue(to: &out)
            out.append(0x22)
        }
        out.append(static: #"},"name":"ACL Data","#)
    }

    /// The object up to its body: `{`, the bytes, the controller, the direction.
    private func appendJSONStart(to out: inout [UInt8]) {
        out.append(0x7B)  // "{"
        if let bytes {
            out.append(static: #""bytes":""#)
            out.appendHex(bytes[...])
            out.append(static: #"","#)
        }
        if let controllerIndex {
            out.append(static: #""controllerIndex":"#)
            out.appendDecimal(Int(controllerIndex))
            out.append(0x2C)
        }
        switch sent {
        case true?: out.append(static: #""direction":"sent","#)
        case false?: out.append(static: #""direction":"received","#)
        case nil: break
        }
    }

    /// The object after its body: number, seconds, time, type, `}` and a newline.
    private func appendJSONEnd(to out: inout [UInt8]) {
        out.append(static: #""number":"#)
        out.appendDecimal(number)
        out.append(0x2C)
        if let spanMicros {
            out.append(static: #""seconds":"#)
            Self.appendSeconds(spanMicros, width: 0, to: &out)
            out.append(0x2C)
        }
        out.append(static: #""timestampMicros":"#)
        out.appendDecimal(Int(timestampMicros))
        out.append(static: #","type":"#)
        JSONText.append(type, to: &out)
        out.append(static: "}\n")
    }
}

/// JSON text written by hand.
enum JSONText {
    /// `text` as a JSON string: quotes, backslashes and control characters escaped (RFC 8259 §7).
    static func append(_ text: String, to out: inout [UInt8]) {
        append(text.utf8, to: &out)
    }

    /// UTF-8 `text` as a JSON string.
    static func append(_ text: some Sequence<UInt8>, to out: inout [UInt8]) {
        out.append(0x22)
        for byte in text {
            switch byte {
            case 0x22: out.append(static: #"\""#)
            case 0x5C: out.append(static: #"\\"#)
            case 0x0A: out.append(static: #"\n"#)
            case 0x09: out.append(static: #"\t"#)
            case 0x0D: out.append(static: #"\r"#)
            case ..<0x20:
                out.append(static: #"\u00"#)
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0x0F))
            default: out.append(byte)
            }
        }
        out.append(0x22)
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x57 + nibble }
}
