import BlueproofBluenet
import BlueproofBluenetHost
import BlueproofTransmitter

// issue 18: Bluenet
/// What serves the Bluenet commands of a server (control protocol 6): a fresh library for each
/// `bluenetStart`, whose publications the server sends every client as `bluenetPublished`.
public protocol ControlBluenetHost: Sendable {
    func library() async throws -> any BluenetControl
}

/// The library a server holds, the task passing its publications on, and which `bluenetStart`
/// made it (a relay of an earlier one sends nothing more).
struct ControlBluenetState {
    var library: (any BluenetControl)?
    var relay: Task<Void, Never>?
    var generation = 0

    /// Takes the library and its relay out (to be ended with ``end(_:)``) and starts a new generation.
    mutating func retire() -> (library: (any BluenetControl)?, relay: Task<Void, Never>?) {
        defer { (library, relay, generation) = (nil, nil, generation + 1) }
        return (library, relay)
    }

    /// Ends what ``retire()`` took out: the relay first, over before this returns (nothing of
    /// the library reaches a client after it), then the library.
    static func end(_ held: (library: (any BluenetControl)?, relay: Task<Void, Never>?)) async {
        held.relay?.cancel()
        await held.relay?.value
        await held.library?.stop()
    }
}

extension ControlServer {
    /// Code of a refusal by the Bluenet library (a call that threw, e.g. a fingerprint call in
    /// the wrong collection state).
    static let bluenetRefusalCode = 61_001
    /// `bluenetStart` on an implementation without the Bluenet library: its BLN cases are
    /// not-applicable. Any other refusal of `bluenetStart` makes them errors.
    static let bluenetUnsupported: TransmitterError = .controlProtocol(code: 61_002, name: "bluenetUnsupported", summary: "this implementation has no Bluenet library")

    func performBluenet(_ request: ControlRequest) async -> ControlResponse {
        do {
            return try await bluenet(request)
        } catch let error as TransmitterError {
            return .refusal(id: request.id, error)
        } catch {
            return .refusal(id: request.id, .controlProtocol(code: Self.bluenetRefusalCode, name: "bluenetRefused", summary: "the Bluenet call was refused", detail: "\(error)"))
        }
    }

    private func bluenet(_ request: ControlRequest) async throws -> ControlResponse {
        var response = ControlResponse(id: request.id)
        switch request.command {
        case .bluenetStart:
            guard let bluenetHost else { throw Self.bluenetUnsupported }
            await closeBluenet()
            await startBluenet(try await bluenetHost.library())
            return response
        case .bluenetStop:
            await closeBluenet()
            return response
        default: break
        }
        guard let library = bluenetState.withLock({ $0.library }) else {
            throw TransmitterError.controlChannel("\(request.command.rawValue) before bluenetStart")
        }
        func group() throws(TransmitterError) -> String { try request.need(request.groupId, "groupId") }
        func location() throws(TransmitterError) -> String { try request.need(request.locationId, "locationId") }
        switch request.command {
        case .bluenetIsReady: await library.isReady()
        case .bluenetStartScanning: try await library.startScanning(try ControlBluenetFilter.filter(request.filter, uuid: request.uuid))
        case .bluenetStopScanning: await library.stopScanning()
        case .bluenetOn:
            guard let text = request.topic, let topic = BluenetTopic(rawValue: text) else {
                throw TransmitterError.controlChannel("bluenetOn needs topic, one of \(BluenetTopic.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            response.subscription = await library.on(topic)
        case .bluenetOff:
            let subscription = try request.need(request.subscription, "subscription")
            response.existed = await library.off(subscription)
        case .bluenetTrackUUID: try await library.trackUUID(try request.need(request.uuid, "uuid"), groupId: try group())
        case .bluenetConnect:
            let handle = try request.need(request.handle, "handle")
            response.outcome = ControlBluenetOutcome(await library.connect(handle))
        case .bluenetDisconnect: response.outcome = ControlBluenetOutcome(await library.disconnect())
        case .bluenetSetSwitchState:
            let state = try request.need(request.state, "state")
            response.outcome = ControlBluenetOutcome(await library.setSwitchState(state))
        case .bluenetStartCollectingFingerprint: try await library.startCollectingFingerprint()
        case .bluenetPauseCollectingFingerprint: try await library.pauseCollectingFingerprint()
        case .bluenetResumeCollectingFingerprint: try await library.resumeCollectingFingerprint()
        case .bluenetAbortCollectingFingerprint: await library.abortCollectingFingerprint()
        case .bluenetFinalizeFingerprint: try await library.finalizeFingerprint(groupId: try group(), locationId: try location())
        case .bluenetLoadFingerprint:
            try await library.loadFingerprint(groupId: try group(), locationId: try location(), fingerprint: try request.need(request.fingerprint, "fingerprint"))
        case .bluenetGetFingerprint:
            let (groupId, locationId) = (try group(), try location())
            response.fingerprint = await library.getFingerprint(groupId: groupId, locationId: locationId)
        default: throw TransmitterError.controlChannel("\(request.command.rawValue) is not a Bluenet command")
        }
        return response
    }

    /// Holds `library` as the current one and passes its publications to every client while it
    /// is; a library another client started meanwhile is ended.
    private func startBluenet(_ library: any BluenetControl) async {
        let (generation, superseded) = bluenetState.withLock { state in
            let old = state.retire()
            state.library = library
            return (state.generation, old)
        }
        await ControlBluenetState.end(superseded)
        let relay = Task { [weak self] in
            await library.publications.follow { publication in
                guard let self, self.bluenetState.withLock({ $0.generation == generation }),
                      let line = try? Self.boundedEventLine(named: ControlBluenetEvent.name, { () throws(TransmitterError) in
                          try ControlBluenetEvent.line(publication)
                      }) else { return }
                self.broadcast(line: line)
            }
        }
        let current = bluenetState.withLock { state in
            guard state.generation == generation else { return false }
            state.relay = relay
            return true
        }
        if !current { relay.cancel() }
    }

    /// Ends the Bluenet library, as the server does when it closes.
    func closeBluenet() async {
        await ControlBluenetState.end(bluenetState.withLock { $0.retire() })
    }
}
