import BlueproofTransmitter
import BlueproofWire

/// The transmitter's frames as `inspect` shows them in a capture of the BLE link: each value
/// on the frame characteristic is a chunk (docs/transmitter-links.md "Chunks"), put back into
/// frames by the link's own ``BLEFrameReassembler`` per direction and decoded by
/// ``TransmitterFrame/decode(_:)`` (docs/transmitter-wire.md). Bounded as the link is: frames
/// of at most ``BLEFrameChunk/defaultFrameLimit`` octets.
public struct TransmitterValueDescriber: ATTValueDescriber {
    public var characteristic: BluetoothUUID { BLELinkProfile.frameCharacteristic }
    private var reassemblers: [Bool: BLEFrameReassembler] = [:]

    public init() {}

    public func fresh() -> TransmitterValueDescriber { TransmitterValueDescriber() }

    public mutating func describe(_ value: [UInt8], sent: Bool) -> [HCIPacketDescription.Field] {
        var fields: [HCIPacketDescription.Field] = []
        if let chunk = try? BLEFrameChunk(bytes: value) {
            fields.append(.init("chunk", "seq \(chunk.sequence) index \(chunk.index)"
                + (chunk.flags.isEmpty ? "" : " " + Self.flagNames(chunk.flags))))
            // A link hello (the sender's user id) or an adopt chunk: no frame (docs/transmitter-links.md).
            if chunk.flags.contains(.hello) {
                return fields + [.init("link_hello", UserID(bytes: chunk.body)?.description ?? hex(chunk.body))]
            }
            if chunk.flags.contains(.adopt) { return fields }
        }
        do throws(BLEChunkError) {
            guard let frame = try reassemblers[sent, default: BLEFrameReassembler()].receive(value) else { return fields }
            return fields + Self.fields(ofFrame: frame)
        } catch {
            return fields + [.init("chunk_error", "\(error)")]
        }
    }

    private static func flagNames(_ flags: BLEFrameChunk.Flags) -> String {
        [(BLEFrameChunk.Flags.first, "first"), (.last, "last"), (.hello, "hello"), (.adopt, "adopt")]
            .filter { flags.contains($0.0) }.map(\.1).joined(separator: ",")
    }

    /// A whole frame's fields: its kind and what identifies it, never its keys or payload.
    static func fields(ofFrame bytes: [UInt8]) -> [HCIPacketDescription.Field] {
        let frame: TransmitterFrame
        do throws(FrameError) {
            frame = try TransmitterFrame.decode(bytes)
        } catch {
            return [.init("transmitter", "undecodable"), .init("frame_error", error.description)]
        }
        var fields: [HCIPacketDescription.Field] = [.init("transmitter", "\(frame.kind)"),
                                                    .init("frame_length", "\(bytes.count)")]
        switch frame {
        case let .hello(hello):
            fields.append(.init("user", hello.user.description))
            if let name = hello.displayName { fields.append(.init("display_name", name)) }
            if let device = hello.deviceType { fields.append(.init("device_type", device)) }
            fields.append(.init("hello", hello.proof == nil ? "challenge" : "answer"))
        case let .keyRequest(exchange), let .keyResponse(exchange):
            fields.append(.init("user", exchange.user.description))
        case let .data(data):
            fields += [
                .init("flags", "0x\(hex(data.flags.rawValue))"), .init("hops", "\(data.hopsRemaining)"),
                .init("packet", data.packetID.uuidString.lowercased()), .init("sender", data.sender?.description ?? "sealed"),
                .init("receiver", data.receiver?.description ?? "broadcast"),
                .init("payload_length", "\(data.payload.count)"),
            ]
        }
        return fields
    }
}

extension TraceDecoder {
    /// A trace decoder that also decodes the transmitter's frames on its frame characteristic:
    /// what `inspect` uses.
    public static func withTransmitterFrames() -> TraceDecoder {
        TraceDecoder(application: TransmitterValueDescriber())
    }
}
