import BlueproofCapture

extension CaptureAnalyser {
    /// ATT PDUs fit the ATT_MTU; notification and Write Command values fit ATT_MTU - 3.
    func attSizes() -> CaptureCheck {
        let id = "CAP/ATT/BV-01", title = "ATT PDUs fit ATT_MTU; notification and Write Command values fit ATT_MTU - 3"
        guard attPDUs > 0 else {
            return CaptureCheck(id: id, title: title, verdict: .inconclusive, reason: "no ATT PDU in the capture")
        }
        let offending = Set(attOversize + valueOversize).sorted()
        if !offending.isEmpty {
            return CaptureCheck(id: id, title: title, verdict: .fail,
                                reason: "\(attOversize.count) PDU(s) over ATT_MTU, \(valueOversize.count) value(s) over ATT_MTU - 3",
                                frames: offending)
        }
        let mtus = negotiatedMTUs.sorted().map(String.init).joined(separator: ", ")
        return CaptureCheck(id: id, title: title, verdict: .pass,
                            reason: "\(attPDUs) ATT PDU(s), \(valueCount) value(s); ATT_MTU \(mtus.isEmpty ? "23 (default)" : mtus)")
    }

    /// CBT/CHUNK/BV-01: every chunk but the last is exactly min(ATT_MTU - 3, 512).
    func chunkSizes() -> CaptureCheck {
        let id = "CBT/CHUNK/BV-01", title = "Chunks fill min(ATT_MTU - 3, 512) bytes, all but the last"
        let messages = TransferMessage.messages(in: streams)
        guard !messages.isEmpty else { return noTransfer(id: id, title: title) }
        let frames = messages.flatMap(\.underfilledFrames)
        if !frames.isEmpty {
            return CaptureCheck(id: id, title: title, verdict: .fail,
                                reason: "\(frames.count) chunk(s) not of the chunk size in force", frames: frames)
        }
        let chunks = messages.reduce(0) { $0 + $1.chunks.count }
        let sizes = Set(messages.flatMap { $0.chunks.map { TransferMessage.chunkSize(mtu: $0.mtu) } })
        return CaptureCheck(id: id, title: title, verdict: .pass,
                            reason: "\(chunks) chunk(s) in \(messages.count) message(s), chunk size \(sizes.sorted().map(String.init).joined(separator: ", "))")
    }

    /// CBT/CHUNK/BV-02: every chunked stream ends with the "EOM" marker.
    func endOfMessage() -> CaptureCheck {
        let id = "CBT/CHUNK/BV-02", title = "A chunked stream ends with the EOM marker"
        let messages = TransferMessage.messages(in: streams)
        guard !messages.isEmpty else { return noTransfer(id: id, title: title) }
        let unended = messages.filter { $0.marker == nil }
        if !unended.isEmpty {
            return CaptureCheck(id: id, title: title, verdict: .fail,
                                reason: "\(unended.count) stream(s) end with \(unended.reduce(0) { $0 + $1.chunks.count }) value(s) after the last EOM",
                                frames: unended.flatMap { $0.chunks.map(\.frame) })
        }
        return CaptureCheck(id: id, title: title, verdict: .pass,
                            reason: "\(messages.count) message(s), each ended by EOM (frames \(messages.compactMap { $0.marker?.frame }.map(String.init).joined(separator: ", ")))")
    }

    /// CAP/XFER/BV-01: a message reassembled from the capture equals the given payload.
    func payloadMatch() -> CaptureCheck {
        let id = "CAP/XFER/BV-01", title = "A chunked message reassembles to the payload, byte-exact"
        let messages = TransferMessage.messages(in: streams).filter { $0.marker != nil }
        guard let payload = options.payload else {
            return CaptureCheck(id: id, title: title, verdict: .inconclusive, reason: "no payload given")
        }
        guard !messages.isEmpty else { return noTransfer(id: id, title: title) }
        if let match = messages.first(where: { $0.bytes == payload }) {
            return CaptureCheck(id: id, title: title, verdict: .pass,
                                reason: "\(payload.count) byte(s) in \(match.chunks.count) chunk(s), EOM in frame \(match.marker?.frame ?? 0)")
        }
        let lengths = messages.map { String($0.bytes.count) }.joined(separator: ", ")
        return CaptureCheck(id: id, title: title, verdict: .fail,
                            reason: "no message equals the \(payload.count)-byte payload (message length(s): \(lengths))",
                            frames: messages.compactMap { $0.marker?.frame })
    }

    private func noTransfer(id: String, title: String) -> CaptureCheck {
        let reason = valueCount == 0
            ? "no notification or Write Command in the capture"
            : "\(valueCount) notification/Write Command value(s) on \(streams.count) stream(s), none exactly EOM"
        return CaptureCheck(id: id, title: title, verdict: .inconclusive, reason: reason)
    }
}
