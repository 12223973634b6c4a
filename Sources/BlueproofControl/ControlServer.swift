import BlueproofTransmitter
import BlueproofTransport
import Foundation
import Logging
import Synchronization

/// Serves a transmitter over the control protocol (docs/control-protocol.md): every accepted
/// connection gets a `hello` event, then the transmitter's events as they happen, and an
/// answer per command line, commands taken in the order they arrive. A line longer than
/// `LineSplitter.maxLineBytes` is answered with an error and its connection closed; the other
/// connections are served on.
public final class ControlServer: Sendable {
    private let transmitter: any TransmitterControl
    /// The implementation's Wi-Fi peer-to-peer link, if it has one (`wifiPeerToPeer`).
    private let wifi: (any ControlWiFi)?
    /// What serves the Spark commands, if the implementation has data connections (version 5).
    let sparkHost: (any ControlSparkHost)?
    let sparkState = Mutex(ControlSparkState())
    /// What serves the Bluenet commands, if the implementation has the library (version 6).
    let bluenetHost: (any ControlBluenetHost)?
    let bluenetState = Mutex(ControlBluenetState())
    private let listener: StreamListener
    private let clients = Mutex<[ObjectIdentifier: StreamSocket]>([:])
    private let logger = Logger(label: "blueproof.control")

    /// Where clients connect (the bound address, with the chosen port for `tcp:HOST:0`).
    public var address: TransportSpec { listener.address }

    public init(transmitter: any TransmitterControl, listeningOn spec: TransportSpec, wifi: (any ControlWiFi)? = nil,
                spark: (any ControlSparkHost)? = nil, bluenet: (any ControlBluenetHost)? = nil) throws(TransportError) {
        self.transmitter = transmitter
        self.wifi = wifi
        sparkHost = spark
        bluenetHost = bluenet
        self.listener = try StreamListener(listeningOn: spec)
    }

    /// Serves until `close()`; each connection is served until its client closes it.
    public func run() async {
        await withDiscardingTaskGroup { group in
            for await socket in listener.connections {
                group.addTask { await self.serve(socket) }
            }
        }
    }

    /// Stops listening and closes every client connection, as a server process that exits would.
    public func close() {
        listener.close()
        for socket in clients.withLock({ $0.values }) { socket.close() }
    }

    /// Ends what the server still holds (the Spark subject, the Bluenet library) once it stopped serving.
    public func shutDown() async {
        await closeSpark()
        await closeBluenet()
    }

    /// Sends a Spark event to every client: the subject belongs to the server, not to one client.
    func broadcast(_ event: ControlSparkEvent) {
        guard let line = try? Self.eventLine(event, named: event.event) else { return }
        broadcast(line: line)
    }

    /// Sends an event line to every client.
    func broadcast(line: [UInt8]) {
        for socket in clients.withLock({ Array($0.values) }) { try? socket.send(line) }
    }

    private func serve(_ socket: StreamSocket) async {
        clients.withLock { $0[ObjectIdentifier(socket)] = socket }
        logger.info("control client connected", metadata: ["endpoint": "\(socket.endpoint)"])
        var hello = ControlEvent(event: "hello")
        hello.protocol = controlProtocolVersion
        hello.implementation = "blueproof reference transmitter"
        try? socket.send(ControlCoding.line(hello))
        let events = await transmitter.events()
        let pump = Task {
            for await event in events {
                do { try socket.send(Self.line(for: event)) } catch { break }
            }
        }
        defer {
            pump.cancel()
            socket.close()
            clients.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(socket)) }
        }
        // Commands answered when their promise settles (issue 18) run beside the reading, and
        // end with the connection.
        await withDiscardingTaskGroup { settling in
            defer { settling.cancelAll() }
            var splitter = LineSplitter()
            do {
                for try await bytes in socket.incoming {
                    let lines: [[UInt8]]
                    do throws(TransmitterError) {
                        lines = try splitter.feed(bytes)
                    } catch {
                        // Refused and closed: the rest of the line cannot be told from a next command.
                        logger.info("control client refused", metadata: ["reason": "\(error)"])
                        try? socket.send(ControlCoding.line(ControlResponse.refusal(id: -1, error)))
                        return
                    }
                    for line in lines where !line.isEmpty {
                        guard let request = try? ControlCoding.decode(ControlRequest.self, from: line) else {
                            try socket.send(ControlCoding.line(await answer(line)))  // the refusal that says why
                            continue
                        }
                        if request.command.answeredWhenSettled {
                            settling.addTask { try? socket.send(ControlCoding.line(await self.answer(request))) }
                        } else {
                            try socket.send(ControlCoding.line(await answer(request)))
                        }
                    }
                }
            } catch {
                logger.info("control client gone", metadata: ["reason": "\(error)"])
            }
        }
    }

    /// The line for `event`.
    static func line(for event: TransmitterEvent) throws(TransmitterError) -> [UInt8] {
        let message = ControlEvent(event)
        return try eventLine(message, named: message.event)
    }

    /// The line for an event. One the protocol cannot hold (see `ControlCoding.line`), or one
    /// longer than `LineSplitter.maxLineBytes` (a Spark data block of more than about 750 KB),
    /// becomes an `error` event naming it, so the client learns that an event was lost.
    static func eventLine<E: Encodable>(_ message: E, named name: String) throws(TransmitterError) -> [UInt8] {
        try boundedEventLine(named: name) { () throws(TransmitterError) in try ControlCoding.line(message) }
    }

    /// The line `make` writes for the event `name`, or the `error` event that says it was lost.
    static func boundedEventLine(named name: String, _ make: () throws(TransmitterError) -> [UInt8]) throws(TransmitterError) -> [UInt8] {
        do throws(TransmitterError) {
            let line = try make()
            guard line.count - 1 <= LineSplitter.maxLineBytes else {
                throw .controlChannel("the line is \(line.count - 1) bytes, more than the limit of \(LineSplitter.maxLineBytes) bytes (maxLineBytes)")
            }
            return line
        } catch {
            var report = ControlEvent(event: "error")
            report.error = ControlError(.controlChannel("cannot write the \(name) event: \(error.detail ?? "")"))
            return try ControlCoding.line(report)
        }
    }

    /// The answer to one command line; a line that is not a command gets `id` -1 and the error.
    func answer(_ line: [UInt8]) async -> ControlResponse {
        let request: ControlRequest
        do {
            request = try ControlCoding.decode(ControlRequest.self, from: line)
        } catch {
            return .refusal(id: -1, error)
        }
        return await answer(request)
    }

    /// The answer to one command.
    func answer(_ request: ControlRequest) async -> ControlResponse {
        do {
            return try await perform(request)
        } catch {
            return .refusal(id: request.id, error)
        }
    }

    private func perform(_ request: ControlRequest) async throws(TransmitterError) -> ControlResponse {
        var response = ControlResponse(id: request.id)
        func user() throws(TransmitterError) -> UserID { try ControlCoding.userID(request.user, field: "user") }
        func receiver() throws(TransmitterError) -> UserID? {
            try request.to.map { text throws(TransmitterError) in try ControlCoding.userID(text, field: "to") }
        }
        func options() throws(TransmitterError) -> SendingOptions { try Self.options(request.options ?? []) }
        switch request.command {
        case .sparkStart, .sparkRecordKey, .sparkLink, .sparkListen, .sparkStartDataConnection, .sparkAccept, .sparkDecline, .sparkEnd,
             .sparkSetReceiveCallbacks, .sparkCreateDataChannel, .sparkCloseDataChannel, .sparkSendStream, .sparkSendData,
             .sparkSendFile, .sparkPlaceFile, .sparkRemoveFile, .sparkReadFile, .sparkStop:
            return await performSpark(request)
        case .bluenetStart, .bluenetIsReady, .bluenetStartScanning, .bluenetStopScanning, .bluenetOn, .bluenetOff, .bluenetTrackUUID,
             .bluenetConnect, .bluenetDisconnect, .bluenetSetSwitchState, .bluenetStartCollectingFingerprint,
             .bluenetPauseCollectingFingerprint, .bluenetResumeCollectingFingerprint, .bluenetAbortCollectingFingerprint,
             .bluenetFinalizeFingerprint, .bluenetLoadFingerprint, .bluenetGetFingerprint, .bluenetStop:
            return await performBluenet(request)  // issue 18
        case .start:
            let text = request.mode ?? ConnectionMode.automatic.rawValue
            guard let mode = ConnectionMode(rawValue: text) else {
                throw .controlChannel("mode must be automatic or onDemand, got \"\(text)\"")
            }
            try await transmitter.start(mode: mode)
        case .stop:
            await transmitter.stop()
        case .localUser:
            response.user = await transmitter.localUserText()
        case .send:
            response.packetID = try await transmitter.send(
                dictionary: ControlJSON.unwrap(request.dictionary), data: try ControlCoding.binary(request.data),
                to: try receiver(), options: try options()).uuidString
        case .transmissionSize:
            response.size = try await transmitter.transmissionSize(
                dictionary: ControlJSON.unwrap(request.dictionary), data: try ControlCoding.binary(request.data))
        case .connect:
            try await transmitter.connect(to: try user())
        case .disconnect:
            try await transmitter.disconnect(from: try user())
        case .establishSecureConnection:
            try await transmitter.establishSecureConnection(with: try user())
        case .getExpirationLimit:
            response.seconds = await transmitter.secureConnectionExpirationLimit()
        case .setExpirationLimit:
            guard let seconds = request.seconds else { throw .controlChannel("setExpirationLimit needs seconds") }
            try await transmitter.setSecureConnectionExpirationLimit(seconds)
        case .localPublicKey:
            response.key = try await transmitter.localPublicKey()
        case .savePublicKey:
            guard let key = request.key else { throw .controlChannel("savePublicKey needs key") }
            try await transmitter.savePublicKey(key, forUser: try user())
        case .existsKey:
            response.exists = await transmitter.existsKey(forUser: try user())
        case .hasSession:
            response.exists = await transmitter.hasSession()
        case .destroySession:
            try await transmitter.destroySession()
        case .setLogLevel where request.raw != nil:
            response.accepted = await transmitter.setLogLevel(raw: request.raw ?? -1)
        case .setLogLevel:
            guard let level = TransmitterLogLevel.named(request.level) else {
                throw .controlChannel("level must be one of error, info, debug, trace")
            }
            await transmitter.setLogLevel(level)
        case .saveState:
            try await transmitter.saveState()
        case .sendUnencodable:
            guard let key = request.key else { throw .controlChannel("sendUnencodable needs key") }
            response.packetID = try await transmitter.sendUnencodable(
                ControlJSON.unwrap(request.dictionary) ?? [:], key: key, to: try receiver(), options: try options()).uuidString
        case .setLicence:
            await transmitter.setLicence(request.licence)
        case .wifiPeerToPeer:  // issue 14: BFT/SIZE with an Android peer
            guard let wifi else { throw .controlChannel("this implementation has no Wi-Fi peer-to-peer link") }
            let peers = request.peers ?? []
            guard peers.count <= ControlWiFiLimits.maxPeers else {
                throw .controlChannel("wifiPeerToPeer takes at most \(ControlWiFiLimits.maxPeers) peers, got \(peers.count)")
            }
            response.address = try await wifi.peerToPeer(adding: peers)
        case .getBackgroundMode:
            response.enabled = await transmitter.backgroundModeEnabled()
        case .setBackgroundMode:
            guard let enabled = request.enabled else { throw .controlChannel("setBackgroundMode needs enabled") }
            try await transmitter.setBackgroundModeEnabled(enabled)
        case .declareBackgroundModes:
            await transmitter.declareBackgroundModes(request.modes ?? [])
        case .enterBackground:
            await transmitter.appMovedToBackground()
        case .enterForeground:
            await transmitter.appMovedToForeground()
        }
        return response
    }

    private static func options(_ names: [String]) throws(TransmitterError) -> SendingOptions {
        guard let options = SendingOptions(names: names) else {
            let known = SendingOptions.documentNames.map(\.name).joined(separator: ", ")
            throw .controlChannel("unknown sending option in \(names); known: \(known)")
        }
        return options
    }
}
