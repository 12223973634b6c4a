import BlueproofCapture

/// ATT opcodes the checks read (Core Vol 3, Part F §3.4.8).
enum ATTCode {
    static let exchangeMTURequest: UInt8 = 0x02
    static let exchangeMTUResponse: UInt8 = 0x03
    static let handleValueNotification: UInt8 = 0x1B
    static let writeCommand: UInt8 = 0x52
    static let writeRequest: UInt8 = 0x12
    /// The default and least ATT_MTU on LE (§3.2.8).
    static let defaultMTU = 23
}

extension CaptureAnalyser {
    /// One ATT PDU rebuilt on `way`; `firstFrame` is the frame of its first fragment, the
    /// current frame its last.
    mutating func attPDU(_ pdu: [UInt8], way: Way, firstFrame: Int) {
        guard let opcode = pdu.first else { return }
        attPDUs += 1
        // A connection the capture saw start begins at the default; one it did not may have
        // exchanged a larger ATT_MTU before the capture began.
        let mtuKnown = attMTU[way.handle] != nil || everConnected.contains(way.handle)
        let mtu = attMTU[way.handle] ?? ATTCode.defaultMTU
        if !mtuKnown {
            attUnknownMTU.append(frame)
        } else if pdu.count > mtu {
            attOversize.append(frame)
        }
        switch opcode {
        case ATTCode.exchangeMTURequest where pdu.count == 3:
            mtuRequest[way] = Int(pdu[1]) | Int(pdu[2]) << 8
        case ATTCode.exchangeMTUResponse where pdu.count == 3:
            // The response answers the request that went the other way (§3.4.2.2): both
            // sides use the smaller of the two, and never less than the default.
            let opposite = Way(handle: way.handle, direction: way.direction == .sent ? .received : .sent)
            let requested = mtuRequest.removeValue(forKey: opposite) ?? ATTCode.defaultMTU
            let answered = Int(pdu[1]) | Int(pdu[2]) << 8
            let settled = max(ATTCode.defaultMTU, min(requested, answered))
            attMTU[way.handle] = settled
            negotiatedMTUs.insert(settled)
        case ATTCode.handleValueNotification, ATTCode.writeCommand:
            guard pdu.count >= 3 else { return }
            let value = pdu[3...]
            valueCount += 1
            if mtuKnown, value.count > mtu - 3 { valueOversize.append(frame) }
            let key = StreamKey(handle: way.handle, direction: way.direction,
                                attribute: UInt16(pdu[1]) | UInt16(pdu[2]) << 8, opcode: opcode)
            if streams[key] == nil {
                guard streams.count < Self.maximumStreams else {
                    untrackedValues += 1
                    return
                }
                streams[key] = ValueStream(firstFrame: frame, subscribedFirst: subscribed(before: key))
            }
            streams[key]?.take(value, frame: frame, mtu: mtu, payload: options.payload)
        case ATTCode.writeRequest where pdu.count >= 5 && pdu[3] & 0x01 != 0:
            guard subscriptions.count < Self.maximumStreams else { return }
            subscriptions.insert(Subscription(way: way, attribute: UInt16(pdu[1]) | UInt16(pdu[2]) << 8))
        default:
            return
        }
    }
}
