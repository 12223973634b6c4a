import BlueproofCapture

extension CaptureAnalyser {
    /// How far after a characteristic's value handle its CCCD is looked for: the descriptor
    /// follows the value, usually at once (Core Vol 3, Part G §3.3).
    static let descriptorReach: UInt16 = 3

    /// Whether the receiver of `key`'s stream has enabled notifications so far: a CCCD write
    /// going the other way, to a handle just after the stream's attribute.
    func subscribed(before key: StreamKey) -> Bool {
        let subscriber = Way(handle: key.handle, direction: key.direction == .sent ? .received : .sent)
        let range = (Int(key.attribute) + 1)...(Int(key.attribute) + Int(Self.descriptorReach))
        return subscriptions.contains { $0.way == subscriber && range.contains(Int($0.attribute)) }
    }

    /// CBT/GATT/BV-03: a chunked notification stream starts only after the receiver wrote the
    /// characteristic's Client Characteristic Configuration with notifications on.
    func subscribedFirst() -> CaptureCheck {
        let id = "CBT/GATT/BV-03", title = "The central subscribes to notifications before any chunk is sent"
        let notified = chunkedStreams.filter { $0.key.opcode == ATTCode.handleValueNotification }
        guard !notified.isEmpty else {
            return CaptureCheck(id: id, title: title, verdict: .inconclusive,
                                reason: "no chunked notification stream (values ending in EOM) in the capture" + untrackedNote)
        }
        let early = notified.filter { !$0.stream.subscribedFirst }.map(\.stream.firstFrame)
        if !early.isEmpty {
            return CaptureCheck(id: id, title: title, verdict: .fail,
                                reason: "\(early.count) stream(s) start with no notification-enabling CCCD write before them",
                                frames: early)
        }
        return CaptureCheck(id: id, title: title, verdict: .pass,
                            reason: "\(notified.count) notification stream(s), each after a CCCD write enabling notifications"
                                + untrackedNote)
    }
}
