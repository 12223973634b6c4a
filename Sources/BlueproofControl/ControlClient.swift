import BlueproofAsync
import BlueproofBluenetHost
import BlueproofSpark
import BlueproofTransmitter
import BlueproofTransport
import Foundation

/// Drives an implementation under test over the control protocol (docs/control-protocol.md):
/// a `TransmitterControl` whose every call is a command line and its answer.
///
/// A channel failure (closed, timed out, malformed line) ends the client: throwing calls throw
/// `TransmitterError.controlChannel`, the others return their empty value, and `failure` says
/// what happened so a runner can call the case an error rather than trust those values.
public actor ControlClient: TransmitterControl {
    private let socket: StreamSocket
    private let timeout: Duration
    private var nextID = 1
    /// The id the next command gets.
    var nextCommandID: Int { nextID }
    private var pending: [Int: CheckedContinuation<ControlResponse, any Error>] = [:]
    private var subscribers: [UUID: AsyncStream<TransmitterEvent>.Continuation] = [:]
    private var reader: Task<Void, Never>?
    private let hello = OneShot<Result<ControlEvent, TransmitterError>>()
    /// Why the channel ended, once it has.
    public private(set) var failure: TransmitterError?
    /// Where Spark events go (control protocol 5), once a Spark subject was started.
    var sparkLog: SparkEventLog?
    /// Bytes of `spark…` event lines read so far, against `maxSparkEventBytes`.
    private var sparkEventBytes = 0
    /// The most `spark…` event lines a client reads, in bytes, before it ends the channel: a
    /// bound on what an implementation's events can make the runner hold (the event log bounds
    /// their count, this their size; the SPK cases move a few MiB).
    public static let maxSparkEventBytes = 256 << 20
    // issue 18: Bluenet
    /// Where Bluenet publications go (control protocol 6), once a library was started.
    var bluenetSink: (@Sendable (BluenetPublication) -> Void)?
    /// The sink of a `bluenetStart` waiting for its answer, by the command's id.
    var bluenetSinkOnAnswer: [Int: @Sendable (BluenetPublication) -> Void] = [:]
    /// Bytes of `bluenetPublished` lines read so far, against `maxBluenetEventBytes`.
    private var bluenetEventBytes = 0
    /// The most `bluenetPublished` lines a client reads, in bytes, before it ends the channel
    /// (the subject's log bounds their count, this their size).
    public static let maxBluenetEventBytes = 64 << 20
    /// The protocol version the implementation's `hello` named.
    public private(set) var protocolVersion = controlProtocolVersion
    /// How the implementation's `hello` named it.
    public private(set) var implementation: String?

    private func greeted(version: Int, implementation: String?) {
        protocolVersion = version
        self.implementation = implementation
    }

    /// Log lines come as `log` events from version 2 on.
    public func reportsLogLines() async -> Bool { protocolVersion >= 2 }
    /// Raw log levels, unencodable values and licences come from version 3 on.
    public func takesHarnessCalls() async -> Bool { protocolVersion >= 3 }

    /// Connects and waits for the server's `hello` (up to `helloTimeout`, by default the
    /// commands' `timeout`).
    public static func connect(to spec: TransportSpec, timeout: Duration = .seconds(30),
                               helloTimeout: Duration? = nil) async throws(TransmitterError) -> ControlClient {
        let socket: StreamSocket
        do {
            socket = try StreamSocket.connect(to: spec)
        } catch {
            throw .controlChannel("cannot connect to \(spec): \(error)")
        }
        let client = ControlClient(socket: socket, timeout: timeout)
        await client.startReading()
        let greeting: ControlEvent
        do {
            greeting = try await withTimeout(helloTimeout ?? timeout, what: "the hello of \(spec)") {
                guard let result = await client.hello.wait() else { throw CancellationError() }
                return try result.get()
            }
        } catch {
            await client.close()
            throw .controlChannel("no hello from \(spec): \(error)")
        }
        guard let version = greeting.protocol, controlProtocolVersions.contains(version) else {
            await client.close()
            throw .controlChannel("\(spec) speaks protocol \(greeting.protocol.map(String.init) ?? "?"), this runner "
                                  + "\(controlProtocolVersions.lowerBound) to \(controlProtocolVersions.upperBound)")
        }
        await client.greeted(version: version, implementation: greeting.implementation)
        return client
    }

    private init(socket: StreamSocket, timeout: Duration) {
        self.socket = socket
        self.timeout = timeout
    }

    private func startReading() {
        let incoming = socket.incoming
        reader = Task { [weak self] in
            var splitter = LineSplitter()
            do {
                for try await bytes in incoming {
                    for line in try splitter.feed(bytes) where !line.isEmpty {
                        await self?.handle(line)
                    }
                }
                await self?.end(.controlChannel("the implementation closed the control channel"))
            } catch let error as TransmitterError {
                await self?.end(error)
            } catch {
                await self?.end(.controlChannel("control channel failed: \(error)"))
            }
        }
    }

    /// Closes the channel.
    public func close() {
        socket.close()
        end(.controlChannel("closed by the runner"))
    }

    private func handle(_ line: [UInt8]) {
        do {
            if let response = try? ControlCoding.decode(ControlResponse.self, from: line) {
                guard response.id != -1 else {
                    throw TransmitterError.controlChannel("the implementation could not read a command: \(response.error?.detail ?? "")")
                }
                // A started library's publications are its own from the answer on, before any later line.
                if let sink = bluenetSinkOnAnswer.removeValue(forKey: response.id), response.ok { bluenetSink = sink }
                pending.removeValue(forKey: response.id)?.resume(returning: response)
                return
            }
            let event: ControlEvent
            do {
                event = try ControlCoding.decode(ControlEvent.self, from: line)
            } catch {
                // A bluenetPublished line holds its data as JSON, where the other events hold text.
                guard (try? ControlCoding.decode(ControlEventName.self, from: line))?.event == ControlBluenetEvent.name else { throw error }
                return try bluenetPublished(line)
            }
            if event.event == ControlBluenetEvent.name {
                try bluenetPublished(line)
            } else if event.event == "hello" {
                hello.resolve(.success(event))
            } else if event.event.hasPrefix("spark") {
                sparkEventBytes += line.count
                guard sparkEventBytes <= Self.maxSparkEventBytes else {
                    throw TransmitterError.controlChannel("the implementation's Spark events passed \(Self.maxSparkEventBytes) bytes (maxSparkEventBytes)")
                }
                do {
                    let spark = try ControlCoding.decode(ControlSparkEvent.self, from: line).sparkEvent()
                    sparkLog?.append(spark)
                } catch let error as ControlSparkDecoding {
                    throw TransmitterError.controlChannel("a Spark event the runner cannot read: \(error)")
                }
            } else if let transmitterEvent = try event.transmitterEvent() {
                for subscriber in subscribers.values { subscriber.yield(transmitterEvent) }
            }
        } catch let error as TransmitterError {
            end(error)
        } catch {
            end(.controlChannel("\(error)"))
        }
    }

    /// Passes a `bluenetPublished` line on as a publication (stamped by its receiver).
    private func bluenetPublished(_ line: [UInt8]) throws(TransmitterError) {
        bluenetEventBytes += line.count
        guard bluenetEventBytes <= Self.maxBluenetEventBytes else {
            throw .controlChannel("the implementation's Bluenet events passed \(Self.maxBluenetEventBytes) bytes (maxBluenetEventBytes)")
        }
        do throws(ControlBluenetDecoding) {
            let read = try ControlBluenetEvent.read(line)
            bluenetSink?(BluenetPublication(at: .zero, topic: read.topic, object: read.object, stringified: read.stringified,
                                            subscription: read.subscription))
        } catch {
            throw .controlChannel("a Bluenet event the runner cannot read: \(error)")
        }
    }

    /// Ends the channel: over its failure, or an answer the runner cannot read.
    func end(_ reason: TransmitterError) {
        guard failure == nil else { return }
        failure = reason
        socket.close()
        for continuation in pending.values { continuation.resume(throwing: reason) }
        pending.removeAll()
        for subscriber in subscribers.values { subscriber.finish() }
        subscribers.removeAll()
        hello.resolve(.failure(reason))
    }

    /// Sends `request` and waits for its answer; throws the implementation's error if it refused.
    private func call(_ build: (inout ControlRequest) -> Void, _ command: ControlCommand) async throws(TransmitterError) -> ControlResponse {
        let response = try await answer(build, command)
        if !response.ok { throw response.refusal(of: command) }
        return response
    }

    /// Sends `request` and waits for its answer, refusal or not, `limit` at most (the client's
    /// timeout unless given); throws when the channel fails.
    func answer(_ build: (inout ControlRequest) -> Void, _ command: ControlCommand, within limit: Duration? = nil) async throws(TransmitterError) -> ControlResponse {
        if let failure { throw failure }
        var request = ControlRequest(id: nextID, command: command)
        nextID += 1
        build(&request)
        let id = request.id
        let line = try ControlCoding.line(request)
        guard line.count - 1 <= LineSplitter.maxLineBytes else {
            throw .controlChannel("the \(command.rawValue) line is \(line.count - 1) bytes, more than the limit of \(LineSplitter.maxLineBytes) bytes (maxLineBytes)")
        }
        let response: ControlResponse
        do {
            response = try await withTimeout(limit ?? timeout, what: "the answer to \(command.rawValue)") {
                try await self.exchange(id: id, line: line)
            }
        } catch let error as TransmitterError {
            throw error
        } catch is CancellationError {
            // The caller stopped waiting (a case gave up on a promise): the channel stays up and
            // the answer, if it comes, is dropped.
            throw .controlChannel("the runner stopped waiting for the answer to \(command.rawValue)")
        } catch {
            end(.controlChannel("\(error)"))
            throw .controlChannel("\(error)")
        }
        return response
    }

    /// The answer to `command`, refusal or not, from an implementation that speaks protocol
    /// `version` or later (`feature` names what needs it); throws when the channel fails.
    func answer(_ command: ControlCommand, since version: Int, for feature: String, within limit: Duration? = nil,
                _ build: @Sendable (inout ControlRequest) -> Void) async throws -> ControlResponse {
        guard protocolVersion >= version else {
            throw TransmitterError.controlChannel("the implementation speaks control protocol \(protocolVersion): \(feature) needs \(version)")
        }
        return try await answer(build, command, within: limit)
    }

    private func exchange(id: Int, line: [UInt8]) async throws -> ControlResponse {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard !Task.isCancelled else { return continuation.resume(throwing: CancellationError()) }
                pending[id] = continuation
                do {
                    try socket.send(line)
                } catch {
                    pending.removeValue(forKey: id)?.resume(throwing: TransmitterError.controlChannel("cannot send: \(error)"))
                }
            }
        } onCancel: {
            Task { await self.abandon(id) }
        }
    }

    /// Stops waiting for the answer to `id`.
    private func abandon(_ id: Int) { pending.removeValue(forKey: id)?.resume(throwing: CancellationError()) }

    private func quietly<T>(_ fallback: T, _ body: () async throws(TransmitterError) -> T) async -> T {
        do { return try await body() } catch { return fallback }
    }

    // MARK: TransmitterControl

    public func events() -> AsyncStream<TransmitterEvent> {
        let (stream, continuation) = AsyncStream<TransmitterEvent>.makeStream()
        guard failure == nil else {
            continuation.finish()
            return stream
        }
        let key = UUID()
        subscribers[key] = continuation
        continuation.onTermination = { [weak self] _ in Task { await self?.unsubscribe(key) } }
        return stream
    }

    private func unsubscribe(_ key: UUID) { subscribers.removeValue(forKey: key) }

    public func start(mode: ConnectionMode) async throws(TransmitterError) {
        _ = try await call({ $0.mode = mode.rawValue }, .start)
    }

    /// `start` without `mode`: the implementation's default.
    public func startInDefaultMode() async throws(TransmitterError) {
        _ = try await call({ _ in }, .start)
    }

    // issue 14: BFT/SIZE with an Android peer
    /// `wifiPeerToPeer` (version 4): adds `peers` (`HOST:PORT`) for the implementation's Wi-Fi
    /// peer-to-peer link to dial; returns where that link listens (nil before it started).
    public func wifiPeerToPeer(adding peers: [String]) async throws(TransmitterError) -> String? {
        try await call({ $0.peers = peers }, .wifiPeerToPeer).address
    }

    public func setLicence(_ certificate: String?) async {
        await quietly(()) { () throws(TransmitterError) in _ = try await call({ $0.licence = certificate }, .setLicence) }
    }

    public func backgroundModeEnabled() async -> Bool {
        await quietly(false) { () throws(TransmitterError) in try await call({ _ in }, .getBackgroundMode).enabled ?? false }
    }

    public func setBackgroundModeEnabled(_ enabled: Bool) async throws(TransmitterError) {
        _ = try await call({ $0.enabled = enabled }, .setBackgroundMode)
    }

    public func declareBackgroundModes(_ modes: [String]) async {
        await quietly(()) { () throws(TransmitterError) in _ = try await call({ $0.modes = modes }, .declareBackgroundModes) }
    }

    public func appMovedToBackground() async {
        await quietly(()) { () throws(TransmitterError) in _ = try await call({ _ in }, .enterBackground) }
    }

    public func appMovedToForeground() async {
        await quietly(()) { () throws(TransmitterError) in _ = try await call({ _ in }, .enterForeground) }
    }

    public func stop() async { await quietly(()) { () throws(TransmitterError) in _ = try await call({ _ in }, .stop) } }

    /// The `user` field as the implementation sent it, UUID or not.
    public func localUserText() async -> String? {
        await quietly(nil) { () throws(TransmitterError) in try await call({ _ in }, .localUser).user }
    }

    public func localUser() async -> UserID? {
        await quietly(nil) { () throws(TransmitterError) in try await call({ _ in }, .localUser).user.flatMap(UserID.init) }
    }

    public func send(dictionary: [String: TransmitterValue]?, data: Data?, to receiver: UserID?, options: SendingOptions) async throws(TransmitterError) -> PacketID {
        try Self.packetID(try await call({
            $0.dictionary = ControlJSON.wrap(dictionary)
            $0.data = data?.base64EncodedString()
            $0.to = receiver?.description
            $0.options = options.names
        }, .send), of: .send)
    }

    public func sendUnencodable(_ dictionary: [String: TransmitterValue], key: String, to receiver: UserID?,
                                options: SendingOptions) async throws(TransmitterError) -> PacketID {
        try Self.packetID(try await call({
            $0.dictionary = ControlJSON.wrap(dictionary)
            $0.key = key
            $0.to = receiver?.description
            $0.options = options.names
        }, .sendUnencodable), of: .sendUnencodable)
    }

    private static func packetID(_ response: ControlResponse, of command: ControlCommand) throws(TransmitterError) -> PacketID {
        guard let text = response.packetID, let id = UUID(uuidString: text) else {
            throw .controlChannel("\(command.rawValue) answered without a packetID")
        }
        return id
    }

    public func transmissionSize(dictionary: [String: TransmitterValue]?, data: Data?) async throws(TransmitterError) -> Int {
        let response = try await call({
            $0.dictionary = ControlJSON.wrap(dictionary)
            $0.data = data?.base64EncodedString()
        }, .transmissionSize)
        guard let size = response.size else { throw .controlChannel("transmissionSize answered without a size") }
        return size
    }

    public func connect(to user: UserID) async throws(TransmitterError) {
        _ = try await call({ $0.user = user.description }, .connect)
    }

    public func disconnect(from user: UserID) async throws(TransmitterError) {
        _ = try await call({ $0.user = user.description }, .disconnect)
    }

    public func establishSecureConnection(with user: UserID) async throws(TransmitterError) {
        _ = try await call({ $0.user = user.description }, .establishSecureConnection)
    }

    public func secureConnectionExpirationLimit() async -> Int {
        await quietly(0) { () throws(TransmitterError) in try await call({ _ in }, .getExpirationLimit).seconds ?? 0 }
    }

    public func setSecureConnectionExpirationLimit(_ seconds: Int) async throws(TransmitterError) {
        _ = try await call({ $0.seconds = seconds }, .setExpirationLimit)
    }

    public func localPublicKey() async throws(TransmitterError) -> String {
        guard let key = try await call({ _ in }, .localPublicKey).key else {
            throw .controlChannel("localPublicKey answered without a key")
        }
        return key
    }

    public func savePublicKey(_ key: String, forUser user: UserID) async throws(TransmitterError) {
        _ = try await call({
            $0.key = key
            $0.user = user.description
        }, .savePublicKey)
    }

    public func existsKey(forUser user: UserID) async -> Bool {
        await quietly(false) { () throws(TransmitterError) in try await call({ $0.user = user.description }, .existsKey).exists ?? false }
    }

    public func hasSession() async -> Bool {
        await quietly(false) { () throws(TransmitterError) in try await call({ _ in }, .hasSession).exists ?? false }
    }

    public func destroySession() async throws(TransmitterError) {
        _ = try await call({ _ in }, .destroySession)
    }

    public func setLogLevel(_ level: TransmitterLogLevel) async {
        await quietly(()) { () throws(TransmitterError) in _ = try await call({ $0.level = level.name }, .setLogLevel) }
    }

    public func setLogLevel(raw: Int) async -> Bool {
        await quietly(false) { () throws(TransmitterError) in try await call({ $0.raw = raw }, .setLogLevel).accepted ?? false }
    }

    public func saveState() async throws(TransmitterError) {
        _ = try await call({ _ in }, .saveState)
    }
}
