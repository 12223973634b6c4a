import BlueproofCapture

extension CaptureAnalyser {
    /// How far after a characteristic's value handle its CCCD is looked for: the descriptor
    /// follows the value, usually at once (Core Vol 3, Part G §3.3).
    static let descriptorReach: UInt16 = 3

    /// CBT/GATT/BV-03: a chunked notification stream starts only after the receiver wrote the
    /// characteristic's Client Characteristic Configuration with notifications on.
    func subscribedFirst() -> CaptureCheck {
        let id = "CBT/GATT/BV-03", title = "The central subscribes to notifications before any chunk is sent"
        let keys = Set(TransferMessage.messages(in: streams).map(\.key)).filter { $0.opcode == ATTCode.handleValueNotification }
        guard !keys.isEmpty else {
            return CaptureCheck(id: id, title: title, verdict: .inconclusive,
                                reason: "no chunked notification stream (values ending in EOM) in the capture")
        }
        var early: [Int] = []
        for key in keys.sorted(by: { (streams[$0]?.values.first?.frame ?? 0) < (streams[$1]?.values.first?.frame ?? 0) }) {
            guard let first = streams[key]?.values.first?.frame else { continue }
            let subscriber = Way(handle: key.handle, direction: key.direction == .sent ? .received : .sent)
            let range = (Int(key.attribute) + 1)...(Int(key.attribute) + Int(Self.descriptorReach))
            let subscribed = subscriptions[subscriber, default: []].contains { range.contains(Int($0.attribute)) && $0.frame < first }
            if !subscribed { early.append(first) }
        }
        if !early.isEmpty {
            return CaptureCheck(id: id, title: title, verdict: .fail,
                                reason: "\(early.count) stream(s) start with no notification-enabling CCCD write before them",
                                frames: early)
        }
        return CaptureCheck(id: id, title: title, verdict: .pass,
                            reason: "\(keys.count) notification stream(s), each after a CCCD write enabling notifications")
    }
}
