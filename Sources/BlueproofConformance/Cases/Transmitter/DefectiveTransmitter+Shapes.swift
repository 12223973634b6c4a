import BlueproofTransmitter
import Foundation

/// The faults of issue 14's BFT/PAY, BFT/CON and BFT/LOG variants: payloads changed on their
/// way out or in, connection events hidden or misnamed, raw log levels misread, a level that
/// does not hold. Each breaks one rule and leaves the transmitter underneath working.
extension DefectiveTransmitter {
    /// The defects that change or hide events on their way to a caller.
    static let eventFaults: Set<Defect> = [
        .receivedDictionaryNeverNil, .receivedDataNeverNil, .connectionUnreported, .connectedUserMisnamed, .disconnectionUnreported,
        .networkNeedUnreported,
    ]

    /// `event` as the faults in `defects` report it; nil: hidden.
    static func altered(_ event: TransmitterEvent, by defects: Set<Defect>) -> TransmitterEvent? {
        switch event {
        case .connected where defects.contains(.connectionUnreported): return nil
        case .connected(let user) where defects.contains(.connectedUserMisnamed): return .connected(alias(of: user))
        case .disconnected where defects.contains(.disconnectionUnreported): return nil
        case .licenceNeedsNetwork where defects.contains(.networkNeedUnreported): return nil
        case .received(var packet):
            if defects.contains(.receivedDictionaryNeverNil), packet.dictionary == nil { packet.dictionary = [:] }
            if defects.contains(.receivedDataNeverNil), packet.data == nil { packet.data = Data() }
            return .received(packet)
        default: return event
        }
    }

    /// ``Defect/connectedUserMisnamed``: another id, the same for the same user.
    static func alias(of user: UserID) -> UserID { UserID(bytes: user.bytes.reversed()) ?? user }

    /// The dictionary as ``Defect/floatsSentAsIntegers`` and ``Defect/binaryValuesSentAsText`` send it.
    nonisolated func sentForm(of dictionary: [String: TransmitterValue]?) -> [String: TransmitterValue]? {
        dictionary?.mapValues { value in
            switch value {
            case .number(let number) where defects.contains(.floatsSentAsIntegers): .integer(Int64(number))
            case .binary(let data) where defects.contains(.binaryValuesSentAsText): .string(data.base64EncodedString())
            default: value
            }
        }
    }

    /// ``Defect/logDefaultInfo``: info unless a caller set a level; ``Defect/restartResetsLogLevel``:
    /// every start after the first puts error back; ``Defect/startClearsBackgroundMode``.
    func logFaultsBeforeStart() async {
        if startedUnasked, starts == 0 { await inner.stop() }
        if defects.contains(.startClearsBackgroundMode) { try? await inner.setBackgroundModeEnabled(false) }
        if defects.contains(.logDefaultInfo), !levelSetByCaller { await inner.setLogLevel(.info) }
        if defects.contains(.restartResetsLogLevel), starts > 0 { await inner.setLogLevel(.error) }
        starts += 1
    }

    public func takesHarnessCalls() async -> Bool { await inner.takesHarnessCalls() }

    /// ``Defect/rawLogLevelsReversed``: raw r is taken as 3 - r; ``Defect/rawLogLevelUnbounded``:
    /// a raw value outside 0-3 is taken as the nearest level.
    public func setLogLevel(raw: Int) async -> Bool {
        levelSetByCaller = true
        let levels = 0...TransmitterLogLevel.trace.rawValue
        var taken = raw
        if defects.contains(.rawLogLevelUnbounded) { taken = min(max(raw, levels.lowerBound), levels.upperBound) }
        if defects.contains(.rawLogLevelsReversed), levels.contains(taken) { taken = levels.upperBound - taken }
        return await inner.setLogLevel(raw: taken)
    }

    /// ``Defect/unencodableValueDropped``: the value without a JSON form is left out, the rest sent.
    public func sendUnencodable(_ dictionary: [String: TransmitterValue], key: String, to receiver: UserID?,
                                options: SendingOptions) async throws(TransmitterError) -> PacketID {
        if defects.contains(.unencodableValueDropped) {
            return try await send(dictionary: dictionary, data: nil, to: receiver, options: options)
        }
        do {
            return try await inner.sendUnencodable(dictionary, key: key, to: receiver, options: options)
        } catch {
            throw misreported(error)
        }
    }
}
