/// K-frames of LE credit-based flow control mode (Core Vol 3, Part A §3.4): B-frames on a
/// dynamic channel whose first frame of each SDU starts with a 2-octet SDU length (§3.4.3).
/// The MPS bounds a K-frame's information payload, SDU length field included.
public enum L2CAPKFrame {
    /// The SDU length field of the first K-frame of an SDU.
    public static let sduLengthFieldSize = 2

    /// The information payloads carrying `sdu` in K-frames of at most `mps` octets: the first
    /// starts with the SDU length. Throws when the SDU is longer than 65535 octets or `mps`
    /// cannot carry the SDU length field.
    public static func segment(sdu: [UInt8], mps: Int) throws(WireError) -> [[UInt8]] {
        guard sdu.count <= Int(UInt16.max) else {
            throw WireError(offset: 0, context: "K-frame: SDU length",
                            reason: .invalidValue("\(sdu.count) octets, at most 65535 fit"))
        }
        guard mps >= sduLengthFieldSize else {
            throw WireError(offset: 0, context: "K-frame: MPS",
                            reason: .invalidValue("MPS \(mps) cannot carry the SDU length field"))
        }
        var writer = ByteWriter(capacity: sdu.count + 2)
        writer.u16(UInt16(sdu.count))
        writer.append(sdu)
        let stream = writer.bytes
        return stride(from: 0, to: stream.count, by: mps).map { start in
            Array(stream[start..<min(start + mps, stream.count)])
        }
    }

    /// The K-frames carrying `sdu` on the peer's channel `destination`.
    public static func frames(sdu: [UInt8], destination: L2CAPChannelID, mps: Int) throws(WireError) -> [L2CAPBasicFrame] {
        try segment(sdu: sdu, mps: mps).map { L2CAPBasicFrame(channelID: destination, payload: $0) }
    }

    /// Reads the SDU length at the start of a first K-frame's payload and returns it with the
    /// octets that follow.
    public static func splitFirst(_ payload: [UInt8]) throws(WireError) -> (sduLength: Int, data: [UInt8]) {
        var reader = ByteReader(payload, context: "K-frame")
        let length = Int(try reader.u16("SDU length"))
        return (length, reader.rest())
    }
}
