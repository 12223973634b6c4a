import BlueproofCapture
import BlueproofTransmitter
import BlueproofTransmitterLinks
import BlueproofWire

/// One transmitter frame in a capture (docs/transmitter-wire.md), rebuilt from the BLE link's
/// chunks in ATT writes, notifications and indications: the frame number of its last chunk
/// and the way it went.
struct CapturedTransmitterFrame: Sendable {
    var frame: Int
    var direction: CaptureDirection
    var content: TransmitterFrame
}

/// A data frame among them.
struct CapturedDataFrame: Sendable {
    var frame: Int
    var direction: CaptureDirection
    var data: DataFrame
}

extension CaptureEvidence {
    /// Every transmitter data frame the capture carries, both directions, in order.
    var transmitterDataFrames: [CapturedDataFrame] {
        transmitterFrames.compactMap { captured in
            guard case .data(let data) = captured.content else { return nil }
            return CapturedDataFrame(frame: captured.frame, direction: captured.direction, data: data)
        }
    }

    /// Every transmitter frame the capture carries, both directions, in order; chunks that do
    /// not reassemble and frames that do not decode are left out.
    var transmitterFrames: [CapturedTransmitterFrame] {
        transmitterFrameBytes.compactMap { captured in
            guard let content = try? TransmitterFrame.decode(captured.bytes) else { return nil }
            return CapturedTransmitterFrame(frame: captured.frame, direction: captured.direction, content: content)
        }
    }

    /// Every whole transmitter frame the capture carries as bytes, decodable or not (what an
    /// observer of the link reads): the frame number of its last chunk, its way, its bytes.
    var transmitterFrameBytes: [(frame: Int, direction: CaptureDirection, bytes: [UInt8])] {
        var reassemblers: [CaptureDirection: [UInt16: BLEFrameReassembler]] = [:]
        var found: [(frame: Int, direction: CaptureDirection, bytes: [UInt8])] = []
        for captured in attPDUs {
            let value: [UInt8]
            switch captured.pdu {
            case .writeRequest(_, let bytes), .writeCommand(_, let bytes),
                 .handleValueNotification(_, let bytes), .handleValueIndication(_, let bytes):
                value = bytes
            default:
                continue
            }
            // Link hellos and adopt chunks carry no frame (docs/transmitter-links.md, "Chunks").
            if let flags = value.first.map(BLEFrameChunk.Flags.init(rawValue:)), !flags.isDisjoint(with: [.hello, .adopt]) { continue }
            var reassembler = reassemblers[captured.direction]?[captured.connection] ?? BLEFrameReassembler()
            let whole = try? reassembler.receive(value)
            reassemblers[captured.direction, default: [:]][captured.connection] = reassembler
            guard let whole = whole ?? nil else { continue }
            found.append((captured.frame, captured.direction, whole))
        }
        return found
    }
}
