/// The "mesh-state" file `saveState` writes ("Save state" in bridgefy-ios-sdk-readme.md):
/// `u8 version (1) | u32 count | count × (u8 local | u32 length | frame bytes)`. Frames are
/// stored as they went on the wire (encrypted payloads stay sealed).
enum MeshStateFile {
    static let name = "mesh-state"
    static let version: UInt8 = 1

    static func encode(_ packets: [MeshRouter.HeldPacket]) -> [UInt8] {
        var out: [UInt8] = [version]
        out.appendU32(UInt32(packets.count))
        for packet in packets {
            let bytes = TransmitterFrame.data(packet.frame).encoded()
            out.append(packet.local ? 1 : 0)
            out.appendU32(UInt32(bytes.count))
            out.append(contentsOf: bytes)
        }
        return out
    }

    static func decode(_ bytes: [UInt8]) throws(FrameError) -> [MeshRouter.HeldPacket] {
        var reader = FrameReader(bytes)
        let found = try reader.u8()
        guard found == version else { throw FrameError(offset: 0, reason: .unknownVersion(found)) }
        let count = Int(try reader.u32())
        var packets: [MeshRouter.HeldPacket] = []
        for _ in 0..<count {
            let local = try reader.u8() != 0
            let start = reader.offset
            let frameBytes = Array(try reader.take(Int(try reader.u32())))
            guard case .data(let frame) = try TransmitterFrame.decode(frameBytes) else {
                throw FrameError(offset: start, reason: .invalidField("mesh state holds a frame that is not data"))
            }
            packets.append(MeshRouter.HeldPacket(frame: frame, offered: [], local: local))
        }
        guard reader.remaining == 0 else { throw FrameError(offset: reader.offset, reason: .lengthMismatch(declared: reader.offset, actual: bytes.count)) }
        return packets
    }
}
