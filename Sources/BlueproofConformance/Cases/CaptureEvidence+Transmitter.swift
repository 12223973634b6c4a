import BlueproofCapture
import BlueproofTransmitter
import BlueproofTransmitterLinks
import BlueproofWire

/// One transmitter data frame in a capture (docs/transmitter-wire.md), rebuilt from the BLE
/// link's chunks in ATT writes, notifications and indications: the frame number of its last
/// chunk and the way it went.
struct CapturedDataFrame: Sendable {
    var frame: Int
    var direction: CaptureDirection
    var data: DataFrame
}

extension CaptureEvidence {
    /// Every transmitter data frame the capture carries, both directions, in order; chunks that
    /// do not reassemble and frames that do not decode are left out.
    var transmitterDataFrames: [CapturedDataFrame] {
        var reassemblers: [CaptureDirection: [UInt16: BLEFrameReassembler]] = [:]
        var found: [CapturedDataFrame] = []
        for captured in attPDUs {
            let value: [UInt8]
            switch captured.pdu {
            case .writeRequest(_, let bytes), .writeCommand(_, let bytes),
                 .handleValueNotification(_, let bytes), .handleValueIndication(_, let bytes):
                value = bytes
            default:
                continue
            }
            var reassembler = reassemblers[captured.direction]?[captured.connection] ?? BLEFrameReassembler()
            let whole = try? reassembler.receive(value)
            reassemblers[captured.direction, default: [:]][captured.connection] = reassembler
            guard let whole = whole ?? nil, case .data(let data)? = try? TransmitterFrame.decode(whole) else { continue }
            found.append(CapturedDataFrame(frame: captured.frame, direction: captured.direction, data: data))
        }
        return found
    }
}
