import BlueproofCapture
import BlueproofTransmitterLinks
import BlueproofWire

/// The part of an `inspect` line that the packet's decoding decides, rendered once as UTF-8:
/// in text ` Name field=value …  [malformed: …]`, in JSON `"fields":{…},"malformed":…,"name":…,`
/// (the keys between `direction` and `number`). Only the forms the run prints are made.
struct InspectBody {
    var text: [UInt8] = []
    var json: [UInt8] = []

    /// Which forms a run needs: text for text output and for `--grep`, JSON for `--json`.
    struct Forms {
        var text: Bool
        var json: Bool
    }

    init() {}

    init(_ description: HCIPacketDescription, forms: Forms) {
        let malformed = description.malformed?.description
        if forms.text {
            text.reserveCapacity(160)
            text.append(0x20)
            text.appendUTF8(description.name)
            for field in description.fields {
                text.append(0x20)
                text.appendUTF8(field.name)
                text.append(0x3D)  // "="
                text.appendUTF8(field.value)
            }
            if let malformed { text.appendUTF8("  [malformed: " + malformed + "]") }
        }
        if forms.json { json = Self.json(fields: description.fields, malformed: malformed, name: description.name) }
    }

    /// A record that holds no packet: its text after the name, its detail as the one field.
    init(_ note: CaptureNote, forms: Forms) {
        if forms.text {
            text = Array((" " + note.name + (note.detail.isEmpty ? "" : " " + note.detail)).utf8)
        }
        if forms.json {
            json = Self.json(fields: note.detail.isEmpty ? [] : [.init("detail", note.detail)], malformed: nil, name: note.name)
        }
    }

    /// Keys sorted; of a repeated field name, the first in wire order is kept (the sort is stable).
    private static func json(fields: [HCIPacketDescription.Field], malformed: String?, name: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(160)
        out.append(static: #""fields":{"#)
        var previous: String?
        for field in fields.sorted(by: { $0.name < $1.name }) where field.name != previous {
            if previous != nil { out.append(0x2C) }
            JSONText.append(field.name, to: &out)
            out.append(0x3A)
            JSONText.append(field.value, to: &out)
            previous = field.name
        }
        out.append(static: "},")
        if let malformed {
            out.append(static: #""malformed":"#)
            JSONText.append(malformed, to: &out)
            out.append(0x2C)
        }
        out.append(static: #""name":"#)
        JSONText.append(name, to: &out)
        out.append(0x2C)
        return out
    }
}

/// Every packet of a capture through the capture's ``TraceDecoder``, the rendered decoding of
/// HCI commands and events kept by their bytes: a command's or event's description depends on
/// its bytes alone, and a long capture repeats the same few (Number Of Completed Packets, a
/// polled command and its Command Complete) thousands of times. ACL data is decoded every
/// time, since its description depends on the connection's state: the bulk of a transfer
/// through ``TraceDecoder/plainATT(_:sent:)``, without a `String`.
///
/// Bounded: at most ``maximumEntries`` bodies of packets of at most ``maximumKeyLength``
/// octets; when full, the cache starts afresh.
struct InspectDescriber {
    static let maximumEntries = 1024
    static let maximumKeyLength = 64

    private var decoder = TraceDecoder.withTransmitterFrames()
    private let forms: InspectBody.Forms
    private var commands: [[UInt8]: InspectBody] = [:]
    private var events: [[UInt8]: InspectBody] = [:]
    /// The last event described and its body: a transfer alternates data with the same
    /// Number Of Completed Packets, found here without hashing.
    private var lastEvent: (payload: [UInt8], body: InspectBody)?

    init(forms: InspectBody.Forms) {
        self.forms = forms
    }

    /// The body of `record`, which must be the next packet of the capture.
    mutating func body(of record: CaptureRecord) -> InspectBody {
        let packet = record.packet
        let cacheable = (packet.type == .command || packet.type == .event) && packet.payload.count <= Self.maximumKeyLength
        guard cacheable else { return InspectBody(decoder.describe(packet, sent: record.direction == .sent), forms: forms) }
        if packet.type == .event, lastEvent?.payload == packet.payload, let body = lastEvent?.body {
            decoder.observe(event: packet)
            return body
        }
        if let body = packet.type == .command ? commands[packet.payload] : events[packet.payload] {
            decoder.observe(event: packet)
            if packet.type == .event { lastEvent = (packet.payload, body) }
            return body
        }
        let body = InspectBody(decoder.describe(packet, sent: record.direction == .sent), forms: forms)
        if packet.type == .command {
            if commands.count >= Self.maximumEntries { commands.removeAll(keepingCapacity: true) }
            commands[packet.payload] = body
        } else {
            if events.count >= Self.maximumEntries { events.removeAll(keepingCapacity: true) }
            events[packet.payload] = body
            lastEvent = (packet.payload, body)
        }
        return body
    }

    /// The fields of `record` straight from the decoder when it is the bulk of a transfer
    /// (see ``TraceDecoder/plainATT(_:sent:)``); nil, changing nothing, for any other
    /// packet: take its ``body(of:)`` then.
    mutating func plain(_ record: CaptureRecord) -> TraceDecoder.PlainATT? {
        decoder.plainATT(record.packet, sent: record.direction == .sent)
    }

    /// Feeds `record` to the decoder without rendering it (a packet not printed).
    mutating func skip(_ record: CaptureRecord) {
        if record.packet.type == .event {
            decoder.observe(event: record.packet)
        } else if record.packet.type != .command {
            _ = decoder.describe(record.packet, sent: record.direction == .sent)
        }
    }
}
