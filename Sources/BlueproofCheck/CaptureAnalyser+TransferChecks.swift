import BlueproofCapture

extension CaptureAnalyser {
    /// The streams carrying chunked messages (at least one EOM), first value first, each with
    /// its open message judged as the capture leaves it.
    var chunkedStreams: [(key: StreamKey, stream: ValueStream)] {
        streams.filter(\.value.isChunked).map { ($0.key, $0.value.closed) }.sorted { $0.stream.firstFrame < $1.stream.firstFrame }
    }

    /// ATT PDUs fit the ATT_MTU; notification and Write Command values fit ATT_MTU - 3.
    func attSizes() -> CaptureCheck {
        let id = "CAP/ATT/BV-01", title = "ATT PDUs fit ATT_MTU; notification and Write Command values fit ATT_MTU - 3"
        guard attPDUs > 0 else {
            return CaptureCheck(id: id, title: title, verdict: .inconclusive, reason: "no ATT PDU in the capture")
        }
        let unknown = attUnknownMTU.count
        let note = unknown > 0 ? "; \(unknown) PDU(s) on connection(s) the capture joined mid-way, ATT_MTU unknown, not judged" : ""
        if !attOversize.isEmpty || !valueOversize.isEmpty {
            return CaptureCheck(id: id, title: title, verdict: .fail,
                                reason: "\(attOversize.count) PDU(s) over ATT_MTU, \(valueOversize.count) value(s) over ATT_MTU - 3" + note,
                                frames: Set(attOversize.kept + valueOversize.kept).sorted())
        }
        guard unknown < attPDUs else {
            return CaptureCheck(id: id, title: title, verdict: .inconclusive,
                                reason: "\(attPDUs) ATT PDU(s), all on connection(s) that began before the capture with no "
                                    + "MTU exchange seen (started mid-connection?): ATT_MTU unknown",
                                frames: attUnknownMTU.kept)
        }
        let mtus = negotiatedMTUs.sorted().map(String.init).joined(separator: ", ")
        return CaptureCheck(id: id, title: title, verdict: .pass,
                            reason: "\(attPDUs - unknown) ATT PDU(s), \(valueCount) value(s); ATT_MTU \(mtus.isEmpty ? "23 (default)" : mtus)" + note)
    }

    /// CBT/CHUNK/BV-01: every chunk but the last is exactly min(ATT_MTU - 3, 512).
    func chunkSizes() -> CaptureCheck {
        let id = "CBT/CHUNK/BV-01", title = "Chunks fill min(ATT_MTU - 3, 512) bytes, all but the last"
        let chunked = chunkedStreams.map(\.stream)
        guard !chunked.isEmpty else { return noTransfer(id: id, title: title) }
        let underfilled = chunked.reduce(0) { $0 + $1.underfilled.count }
        if underfilled > 0 {
            return CaptureCheck(id: id, title: title, verdict: .fail,
                                reason: "\(underfilled) chunk(s) not of the chunk size in force",
                                frames: chunked.flatMap(\.underfilled.kept))
        }
        let chunks = chunked.reduce(0) { $0 + $1.chunks }
        let messages = chunked.reduce(0) { $0 + $1.messageCount }
        let sizes = chunked.reduce(into: Set<Int>()) { $0.formUnion($1.chunkSizes) }
        return CaptureCheck(id: id, title: title, verdict: .pass,
                            reason: "\(chunks) chunk(s) in \(messages) message(s), chunk size \(sizes.sorted().map(String.init).joined(separator: ", "))"
                                + untrackedNote)
    }

    /// CBT/CHUNK/BV-02: every chunked stream ends with the "EOM" marker.
    func endOfMessage() -> CaptureCheck {
        let id = "CBT/CHUNK/BV-02", title = "A chunked stream ends with the EOM marker"
        let chunked = chunkedStreams.map(\.stream)
        guard !chunked.isEmpty else { return noTransfer(id: id, title: title) }
        let unended = chunked.filter { !$0.openFrames.isEmpty }
        if !unended.isEmpty {
            return CaptureCheck(id: id, title: title, verdict: .fail,
                                reason: "\(unended.count) stream(s) end with \(unended.reduce(0) { $0 + $1.openFrames.count }) value(s) after the last EOM",
                                frames: unended.flatMap(\.openFrames.kept))
        }
        let markers = chunked.reduce(0) { $0 + $1.markers.count }
        return CaptureCheck(id: id, title: title, verdict: .pass,
                            reason: "\(markers) message(s), each ended by EOM (frames \(Self.listed(chunked.map(\.markers))))"
                                + untrackedNote)
    }

    /// CAP/XFER/BV-01: a message reassembled from the capture equals the given payload.
    func payloadMatch() -> CaptureCheck {
        let id = "CAP/XFER/BV-01", title = "A chunked message reassembles to the payload, byte-exact"
        guard let payload = options.payload else {
            return CaptureCheck(id: id, title: title, verdict: .inconclusive, reason: "no payload given")
        }
        let chunked = chunkedStreams.map(\.stream)
        guard !chunked.isEmpty else { return noTransfer(id: id, title: title) }
        if let match = chunked.lazy.compactMap(\.match).first {
            return CaptureCheck(id: id, title: title, verdict: .pass,
                                reason: "\(payload.count) byte(s) in \(match.chunks) chunk(s), EOM in frame \(match.marker)")
        }
        return CaptureCheck(id: id, title: title, verdict: .fail,
                            reason: "no message equals the \(payload.count)-byte payload (message length(s): \(Self.listed(chunked.map(\.lengths))))"
                                + untrackedNote,
                            frames: chunked.flatMap(\.markers.kept))
    }

    private func noTransfer(id: String, title: String) -> CaptureCheck {
        let reason = valueCount == 0
            ? "no notification or Write Command in the capture"
            : "\(valueCount) notification/Write Command value(s) on \(streams.count) stream(s), none exactly EOM"
        return CaptureCheck(id: id, title: title, verdict: .inconclusive, reason: reason + untrackedNote)
    }

    /// What the stream checks leave out, when they do: values on streams past the limit.
    var untrackedNote: String {
        untrackedValues == 0 ? "" : "; \(untrackedValues) value(s) on streams past the first \(Self.maximumStreams) not judged"
    }

    /// The first ``CaptureCheck/maximumFrames`` entries of `lists`, in order, comma-separated,
    /// and how many there are in all when that is more.
    static func listed(_ lists: [BoundedList]) -> String {
        let shown = lists.flatMap(\.kept).prefix(CaptureCheck.maximumFrames).map(String.init)
        let all = lists.reduce(0) { $0 + $1.count }
        return (shown + (all > shown.count ? ["… (\(all) in all)"] : [])).joined(separator: ", ")
    }
}
