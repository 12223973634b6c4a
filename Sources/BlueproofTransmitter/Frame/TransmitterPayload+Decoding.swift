import Foundation

extension TransmitterPayload {
    /// Reads the payload encoding (docs/transmitter.md, "Payload encoding") back; the inverse of
    /// `encoded()`. Offsets in the error are within `bytes`.
    public static func decode(_ bytes: [UInt8]) throws(FrameError) -> TransmitterPayload {
        var reader = FrameReader(bytes)
        let version = try reader.u8()
        guard version == formatVersion else { throw FrameError(offset: 0, reason: .unknownVersion(version)) }
        let flags = try reader.u8()
        guard flags & ~(flagDictionary | flagBinary) == 0 else {
            throw FrameError(offset: 1, reason: .invalidField("unknown payload flags \(flags)"))
        }
        var dictionary: [String: TransmitterValue]?
        var binary: Data?
        if flags & flagDictionary != 0 {
            let length = Int(try reader.u32())
            let start = reader.offset
            let json = Array(try reader.take(length))
            do throws(TransmitterJSONReader.Failure) {
                dictionary = try TransmitterJSONReader.readObject(json)
            } catch {
                throw FrameError(offset: start + error.offset, reason: .invalidField("dictionary JSON: \(error.reason)"))
            }
        }
        if flags & flagBinary != 0 {
            binary = Data(try reader.take(Int(try reader.u32())))
        }
        guard reader.remaining == 0 else {
            throw FrameError(offset: reader.offset, reason: .lengthMismatch(declared: reader.offset, actual: bytes.count))
        }
        do throws(TransmitterError) {
            return try TransmitterPayload(dictionary: dictionary, data: binary)
        } catch {
            throw FrameError(offset: 2, reason: .invalidField("payload refused: \(error)"))
        }
    }
}
