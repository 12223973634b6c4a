/// Encoding (docs/spark-wire.md): refuses, with the same typed errors a decoder gives, any
/// frame the other side would refuse.
extension SparkEnvelope {
    public func encoded() throws(SparkWireError) -> [UInt8] {
        var body: [UInt8] = []
        func refuse(_ reason: SparkWireError.Reason?) throws(SparkWireError) {
            if let reason { throw SparkWireError(offset: 0, reason: reason, header: header) }
        }
        func appendName(_ text: String, isFileName: Bool) throws(SparkWireError) {
            try refuse(SparkRules.name(text, isFileName: isFileName))
            body.append(UInt8(text.utf8.count))
            body.append(contentsOf: text.utf8)
        }
        switch frame {
        case .hello(let registrationID):
            body.appendU64(registrationID)
        case .offer(let offer):
            try refuse(SparkRules.metadata(offer.metadata))
            try refuse(offer.callerKey.count == SparkRules.keyBytes ? nil : .invalidField("caller key is not \(SparkRules.keyBytes) bytes"))
            body.appendU64(offer.caller)
            body.appendU64(offer.callee)
            body.append(contentsOf: offer.callerKey)
            body.appendU16(UInt16(offer.metadata.utf8.count))
            body.append(contentsOf: offer.metadata.utf8)
        case .accept:
            break
        case .decline(let reason), .end(let reason):
            body.append(reason.rawValue)
        case .channelOpen(let channel, let description):
            body.appendU32(channel)
            try appendName(description, isFileName: false)
        case .channelClose(let channel):
            body.appendU32(channel)
        case .streamBlock(let channel, let bytes):
            try refuse(bytes.isEmpty ? .invalidField("empty stream block") : nil)
            body.appendU32(channel)
            body.append(contentsOf: bytes)
        case .transferHeader(let header):
            try refuse(SparkRules.size(header.size, kind: header.kind))
            try refuse(header.sha256.count == SparkRules.digestBytes ? nil : .invalidField("SHA-256 is not \(SparkRules.digestBytes) bytes"))
            body.appendU32(header.transfer)
            body.append(header.kind.rawValue)
            body.appendU64(header.size)
            body.append(contentsOf: header.sha256)
            try appendName(header.name, isFileName: header.kind == .file)
        case .chunk(let transfer, let bytes):
            try refuse(bytes.isEmpty ? .invalidField("empty chunk") : nil)
            body.appendU32(transfer)
            body.append(contentsOf: bytes)
        case .done(let transfer):
            body.appendU32(transfer)
        case .error(let transfer, let failure):
            body.appendU32(transfer)
            body.append(failure.rawValue)
        }
        let total = Self.headerBytes + body.count
        try refuse(total > SparkLimits.maxFrameBytes ? .frameTooLarge(bytes: total, limit: SparkLimits.maxFrameBytes) : nil)
        var bytes: [UInt8] = [SparkLimits.version, frame.kind, origin.rawValue]
        bytes.reserveCapacity(total)
        bytes.appendU32(connection)
        bytes.appendU16(UInt16(body.count))
        bytes.append(contentsOf: body)
        return bytes
    }
}
