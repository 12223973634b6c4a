import BlueproofBluenet
import BlueproofBluenetHost
import BlueproofTransmitter

// issue 18: Bluenet
/// A Bluenet library under test driven over the control protocol (version 6,
/// docs/control-protocol.md, "Bluenet"): every ``BluenetControl`` call is a `bluenet…` command,
/// and every `bluenetPublished` event a publication, stamped on `clock` as it arrives. A call
/// the library refused is thrown as the refusal. The calls that cannot fail (they do not throw;
/// a promise ends in an outcome) return their empty value when the channel fails, and a refusal
/// of one, or an answer without its result, ends the channel: ``harnessFailure()`` then says
/// why, for the case to be an error rather than judged on those values.
public final class ControlBluenetSubject<C: Clock>: BluenetControl where C.Duration == Duration {
    public let client: ControlClient
    /// At most `BluenetPublication.maximumPerLibrary` kept, as the reference keeps.
    public let publications = BluenetPublicationLog(limit: BluenetPublication.maximumPerLibrary)

    /// How long a promise (connect, disconnect, setSwitchState) may take to be answered: the
    /// library settles it on its own timers, which a profile may make longer than the client's.
    private let promiseLimit: Duration

    private init(client: ControlClient, promiseLimit: Duration) {
        self.client = client
        self.promiseLimit = promiseLimit
    }

    /// `bluenetStart`: the implementation's library for one case, whose promises are answered
    /// within `promiseLimit`. One that answers `bluenetUnsupported` throws
    /// ``BluenetStartRefused``; any other refusal, a channel error.
    public static func start(_ client: ControlClient, clock: C, promiseLimit: Duration = .seconds(30)) async throws -> ControlBluenetSubject {
        let subject = ControlBluenetSubject(client: client, promiseLimit: promiseLimit)
        let (log, origin) = (subject.publications, clock.now)
        // From the answer on: nothing an earlier library of the implementation published is this one's.
        let response = try await client.startBluenet { publication in
            var stamped = publication
            stamped.at = origin.duration(to: clock.now)
            log.record(stamped)
        }
        guard response.ok else {
            let error = response.refusal(of: .bluenetStart)
            guard error.name == ControlServer.bluenetUnsupported.name else { throw TransmitterError.controlChannel("bluenetStart refused: \(error)") }
            throw BluenetStartRefused(error: error)
        }
        return subject
    }

    public func isReady() async { _ = await unrefused(.bluenetIsReady, { _ in }) { _ in () } }

    public func startScanning(_ filter: BluenetScanFilter) async throws {
        let (name, uuid) = ControlBluenetFilter.fields(filter)
        _ = try await client.bluenet(.bluenetStartScanning) {
            $0.filter = name
            $0.uuid = uuid
        }
    }

    public func stopScanning() async { _ = await unrefused(.bluenetStopScanning, { _ in }) { _ in () } }

    /// The library's id; `Int.min` (an id no library hands out) when the call failed.
    public func on(_ topic: BluenetTopic) async -> Int {
        await unrefused(.bluenetOn, { $0.topic = topic.rawValue }, \.subscription) ?? Int.min
    }

    public func off(_ id: Int) async -> Bool { await unrefused(.bluenetOff, { $0.subscription = id }, \.existed) ?? false }

    public func trackUUID(_ uuid: String, groupId: String) async throws {
        _ = try await client.bluenet(.bluenetTrackUUID) {
            $0.uuid = uuid
            $0.groupId = groupId
        }
    }

    public func connect(_ handle: String) async -> BluenetOutcome { await promise(.bluenetConnect) { $0.handle = handle } }
    public func disconnect() async -> BluenetOutcome { await promise(.bluenetDisconnect) { _ in } }
    public func setSwitchState(_ state: Double) async -> BluenetOutcome { await promise(.bluenetSetSwitchState) { $0.state = state } }

    public func startCollectingFingerprint() async throws { _ = try await client.bluenet(.bluenetStartCollectingFingerprint) { _ in } }
    public func pauseCollectingFingerprint() async throws { _ = try await client.bluenet(.bluenetPauseCollectingFingerprint) { _ in } }
    public func resumeCollectingFingerprint() async throws { _ = try await client.bluenet(.bluenetResumeCollectingFingerprint) { _ in } }
    public func abortCollectingFingerprint() async { _ = await unrefused(.bluenetAbortCollectingFingerprint, { _ in }) { _ in () } }

    public func finalizeFingerprint(groupId: String, locationId: String) async throws {
        _ = try await client.bluenet(.bluenetFinalizeFingerprint) {
            $0.groupId = groupId
            $0.locationId = locationId
        }
    }

    public func loadFingerprint(groupId: String, locationId: String, fingerprint: String) async throws {
        _ = try await client.bluenet(.bluenetLoadFingerprint) {
            $0.groupId = groupId
            $0.locationId = locationId
            $0.fingerprint = fingerprint
        }
    }

    /// The stringified fingerprint; nil when there is none (the answer without `fingerprint`).
    public func getFingerprint(groupId: String, locationId: String) async -> String? {
        let answer = await unrefused(.bluenetGetFingerprint, {
            $0.groupId = groupId
            $0.locationId = locationId
        }) { .some($0.fingerprint) }
        return answer ?? nil
    }

    /// `bluenetStop` while the testers are still there, then the channel; the log ends. Sent
    /// even when the case was cancelled (its timeout): a device at `--dut` outlives the case
    /// and must not go on scanning into the next one.
    public func stop() async {
        let client = client
        if await client.failure == nil { await Task { _ = try? await client.bluenet(.bluenetStop) { _ in } }.value }
        await client.close()
        publications.end()
    }

    public func harnessFailure() async -> String? {
        guard let failure = await client.failure else { return nil }
        return "the control channel to the Bluenet library failed: \(failure.detail ?? failure.summary)"
    }

    /// A promise's outcome as the implementation reports it, or `failed` when the channel
    /// failed or the runner stopped waiting. A refusal (a promise ends in an outcome, never in
    /// an error) or an outcome the document does not give ends the channel.
    private func promise(_ command: ControlCommand, _ build: @escaping @Sendable (inout ControlRequest) -> Void) async -> BluenetOutcome {
        let outcome = await unrefused(command, within: promiseLimit, build) { response in
            Result { () throws(ControlBluenetDecoding) -> BluenetOutcome in
                guard let outcome = response.outcome else { throw ControlBluenetDecoding("answered without outcome") }
                return try outcome.outcome()
            }
        }
        switch outcome {
        case .success(let outcome)?: return outcome
        case .failure(let unreadable)?:
            await client.end(.controlChannel("\(command.rawValue): \(unreadable)"))
            return .rejected(.connection(.failed("\(command.rawValue): \(unreadable)")))
        case nil: return .rejected(.connection(.failed("\(command.rawValue): no answer over the control protocol")))
        }
    }

    /// The answer to a call the library cannot refuse, as `result` reads it; nil when the
    /// channel failed or the runner stopped waiting. A refusal, or an answer `result` finds
    /// nothing in, ends the channel (the case is then an error).
    private func unrefused<T>(_ command: ControlCommand, within limit: Duration? = nil, _ build: @escaping @Sendable (inout ControlRequest) -> Void,
                              _ result: (ControlResponse) -> T?) async -> T? {
        guard let response = try? await client.bluenetAnswer(command, within: limit, build) else { return nil }
        guard response.ok else {
            await client.end(.controlChannel("\(command.rawValue) was refused, a call the library cannot refuse: \(response.refusal(of: command))"))
            return nil
        }
        guard let value = result(response) else {
            await client.end(.controlChannel("\(command.rawValue) answered without its result"))
            return nil
        }
        return value
    }
}

/// The implementation answered `bluenetStart` with `bluenetUnsupported`: it offers no Bluenet library.
public struct BluenetStartRefused: Error, CustomStringConvertible {
    public var error: TransmitterError
    public var description: String { "\(error)" }
}

extension ControlClient {
    /// `bluenetStart`, answered or refused: once answered, every publication read after the
    /// answer goes to `sink` (switched as the answer is read, before any later line).
    func startBluenet(into sink: @escaping @Sendable (BluenetPublication) -> Void) async throws -> ControlResponse {
        // The id `answer` gives the command: nothing suspends between this line and its taking it.
        let id = nextCommandID
        bluenetSinkOnAnswer[id] = sink
        defer { bluenetSinkOnAnswer[id] = nil }
        return try await bluenetAnswer(.bluenetStart) { _ in }
    }

    /// A Bluenet command's answer, refusal or not; throws when the channel fails.
    func bluenetAnswer(_ command: ControlCommand, within limit: Duration? = nil, _ build: @Sendable (inout ControlRequest) -> Void) async throws -> ControlResponse {
        try await answer(command, since: controlProtocolBluenet, for: "Bluenet", within: limit, build)
    }

    /// A Bluenet command's answer; a refusal is thrown as the implementation's error.
    func bluenet(_ command: ControlCommand, _ build: @Sendable (inout ControlRequest) -> Void) async throws -> ControlResponse {
        let response = try await bluenetAnswer(command, build)
        guard response.ok else { throw response.refusal(of: command) }
        return response
    }
}
