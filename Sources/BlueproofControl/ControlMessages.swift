import BlueproofTransmitter
import Foundation

/// The protocol's version, sent in the server's `hello` event. 2 added the `log` event; 3 the
/// harness calls: `setLogLevel` by `raw` value, `sendUnencodable`, `setLicence`, background mode
/// (docs/control-protocol.md, "Versions"); 4 `wifiPeerToPeer`; 5 the Spark commands and events;
/// 6 the Bluenet commands and the `bluenetPublished` event.
public let controlProtocolVersion = 6

/// The first version with the Spark data-connection commands (`sparkStart`, ...).
public let controlProtocolSpark = 5

// issue 18: Bluenet
/// The first version with the Bluenet library commands (`bluenetStart`, ...).
public let controlProtocolBluenet = 6

/// The versions a client speaks: an implementation of version 1 is driven without log lines.
public let controlProtocolVersions = 1...controlProtocolVersion

/// One command line, client to server (docs/control-protocol.md, "Commands"). Arguments are
/// optional fields; each command reads the ones it documents.
struct ControlRequest: Codable, Sendable, Equatable {
    var id: Int
    var command: ControlCommand
    var mode: String?
    var dictionary: [String: ControlJSON]?
    var data: String?
    var to: String?
    var options: [String]?
    var user: String?
    var key: String?
    var seconds: Int?
    var level: String?
    /// `setLogLevel` (version 3): the level's raw value, instead of `level`.
    var raw: Int?
    /// `setLicence` (version 3): the certificate; absent for the implementation's own.
    var licence: String?
    /// `setBackgroundMode` (3): on or off; `declareBackgroundModes` (3): the `UIBackgroundModes`.
    var enabled: Bool?
    var modes: [String]?
    // issue 14: BFT/SIZE with an Android peer
    /// `wifiPeerToPeer` (4): the Wi-Fi peer-to-peer addresses to dial, `HOST:PORT`.
    var peers: [String]?
    // issue 17: Spark data connections (version 5)
    /// `sparkStart`: `sample` or `api`, and the registration id the runner gives the subject.
    var application: String?
    var registration: UInt64?
    /// A peer's registration id (`sparkRecordKey`, `sparkStartDataConnection`).
    var peer: UInt64?
    /// `sparkLink`: the tester's public BD_ADDR.
    var address: String?
    var connection: ControlSparkConnection?
    var metadata: String?
    var description: String?
    var channel: UInt32?
    /// `sparkSetReceiveCallbacks`: whether `dataAvailableCallback` and `fileAvailableCallback` are set.
    var dataCallback: Bool?
    var fileCallback: Bool?
    /// `sparkSendFile`, `sparkPlaceFile`, `sparkRemoveFile`, `sparkReadFile`.
    var path: String?
    /// `sparkRemoveFile`: a folder takes the file's place in the same step.
    var folder: Bool?
    /// `sparkPlaceFile`: more pieces of the file follow. `sparkReadFile`: where the piece starts, its most bytes.
    var more: Bool?
    var offset: Int?
    var count: Int?
    // issue 18: Bluenet (version 6)
    /// `bluenetStartScanning`: `all`, `crownstones` or `service` (with `uuid`).
    var filter: String?
    /// `bluenetStartScanning` with `service`, `bluenetTrackUUID`: a UUID as text.
    var uuid: String?
    /// `bluenetOn`: a topic as the document names it; `bluenetOff`: the id `bluenetOn` answered.
    var topic: String?
    var subscription: Int?
    /// `bluenetConnect`: the handle the library published for the device.
    var handle: String?
    /// `bluenetSetSwitchState`: the state, a number (0 or 1; anything else is the library's to refuse).
    var state: Double?
    /// The fingerprint commands: the group and location, and (`bluenetLoadFingerprint`) the stringified fingerprint.
    var groupId: String?
    var locationId: String?
    var fingerprint: String?

    init(id: Int, command: ControlCommand) {
        self.id = id
        self.command = command
    }
}

extension ControlRequest {
    /// `value`, or the refusal saying this command needs `field`.
    func need<T>(_ value: T?, _ field: String) throws(TransmitterError) -> T {
        guard let value else { throw .controlChannel("\(command.rawValue) needs \(field)") }
        return value
    }
}

/// The commands, named as the document names the SDK's methods.
enum ControlCommand: String, Codable, Sendable, CaseIterable {
    case start, stop, localUser, send, transmissionSize, connect, disconnect
    case establishSecureConnection, getExpirationLimit, setExpirationLimit
    case localPublicKey, savePublicKey, existsKey, hasSession, destroySession, setLogLevel, saveState
    /// Version 3: a send whose dictionary holds, under `key`, a value with no JSON form.
    case sendUnencodable
    /// Version 3: the licence certificate the application holds, for the next start.
    case setLicence
    /// Version 3: "Background mode", and the application around the transmitter.
    case getBackgroundMode, setBackgroundMode, declareBackgroundModes, enterBackground, enterForeground
    // issue 14: BFT/SIZE with an Android peer
    /// Version 4: peers to dial over Wi-Fi peer-to-peer; answers where the implementation listens.
    case wifiPeerToPeer
    // issue 17: Spark data connections
    /// Version 5: the Spark data-connection API ("Spark data connections").
    case sparkStart, sparkRecordKey, sparkLink, sparkListen, sparkStartDataConnection, sparkAccept, sparkDecline, sparkEnd
    case sparkSetReceiveCallbacks, sparkCreateDataChannel, sparkCloseDataChannel, sparkSendStream, sparkSendData, sparkSendFile
    case sparkPlaceFile, sparkRemoveFile, sparkReadFile
    /// Ends the subject: its data connections, its LE links, its files.
    case sparkStop
    // issue 18: Bluenet
    /// Version 6: the Bluenet library ("Bluenet", docs/control-protocol.md), one per `bluenetStart`.
    case bluenetStart, bluenetIsReady, bluenetStartScanning, bluenetStopScanning, bluenetOn, bluenetOff, bluenetTrackUUID
    case bluenetConnect, bluenetDisconnect, bluenetSetSwitchState
    case bluenetStartCollectingFingerprint, bluenetPauseCollectingFingerprint, bluenetResumeCollectingFingerprint
    case bluenetAbortCollectingFingerprint, bluenetFinalizeFingerprint, bluenetLoadFingerprint, bluenetGetFingerprint
    /// Ends the library: its scan, its ranging, its connection.
    case bluenetStop

    /// Commands answered when the library's promise settles (isReady, connect, disconnect,
    /// setSwitchState): the server reads the next lines meanwhile, so their answers may come
    /// after later commands' (by id), as a second connect must abort a pending first.
    var answeredWhenSettled: Bool {
        switch self {
        case .bluenetIsReady, .bluenetConnect, .bluenetDisconnect, .bluenetSetSwitchState: true
        default: false
        }
    }
}

/// One answer line, server to client: `ok` with the result fields, or the error.
struct ControlResponse: Codable, Sendable, Equatable {
    var id: Int
    var ok: Bool
    var error: ControlError?
    var packetID: String?
    var size: Int?
    var user: String?
    var key: String?
    var exists: Bool?
    var seconds: Int?
    /// `setLogLevel` by `raw` value: whether the value named a level.
    var accepted: Bool?
    /// `getBackgroundMode`: whether background mode is on.
    var enabled: Bool?
    /// `wifiPeerToPeer` (4): where the implementation's Wi-Fi peer-to-peer link listens, `HOST:PORT`.
    /// `sparkListen` (5): the subject's public BD_ADDR, where it advertises and takes channels.
    var address: String?
    // issue 17: Spark data connections (version 5)
    /// `sparkStart`: the subject's key id (base64) and the folder its received files go to.
    var keyID: String?
    var cacheFolder: String?
    /// `sparkLink`: the registration id of the peer's hello.
    var peer: UInt64?
    var connection: ControlSparkConnection?
    var channel: UInt32?
    /// A send's id, which its `sparkSendProgress` events name.
    var send: UInt64?
    /// `sparkRemoveFile` with `folder`: true once a folder stands at the path (an implementation
    /// that ignored the field would only have removed the file).
    var folder: Bool?
    /// `sparkPlaceFile`: where the file is. `sparkReadFile`: a piece (base64), absent when there is no file.
    var path: String?
    var data: String?
    /// A Spark refusal: the `SparkError` case and its fields, beside `error`.
    var spark: ControlSparkFields?
    // issue 18: Bluenet (version 6)
    /// `bluenetOn`: the subscription's id; `bluenetOff`: whether there was one.
    var subscription: Int?
    var existed: Bool?
    /// `bluenetConnect`, `bluenetDisconnect`, `bluenetSetSwitchState`: how the promise ended.
    var outcome: ControlBluenetOutcome?
    /// `bluenetGetFingerprint`: the stringified fingerprint, absent when there is none.
    var fingerprint: String?

    init(id: Int, ok: Bool = true) {
        self.id = id
        self.ok = ok
    }

    /// The refusal of command `id` (-1: a line that is not a command) with `error`.
    static func refusal(id: Int, _ error: TransmitterError) -> ControlResponse {
        var response = ControlResponse(id: id, ok: false)
        response.error = ControlError(error)
        return response
    }
}

extension ControlResponse {
    /// The error of a refusal of `command`, or one saying it came without any.
    func refusal(of command: ControlCommand) -> TransmitterError {
        error?.transmitterError ?? .controlChannel("\(command.rawValue) failed without an error")
    }
}

/// One event line, server to client: the name of a `TransmitterEvent` case and its fields.
struct ControlEvent: Codable, Sendable, Equatable {
    var event: String
    var mode: String?
    var user: String?
    var packetID: String?
    var error: ControlError?
    var reason: String?
    var size: Int?
    var limit: Int?
    var sender: String?
    var dictionary: [String: ControlJSON]?
    var data: String?
    var broadcast: Bool?
    var mesh: Bool?
    var encrypted: Bool?
    var `protocol`: Int?
    var implementation: String?
    /// `log`: the level name and the line.
    var level: String?
    var line: String?

    init(event: String) { self.event = event }
}

/// Lines in and out: one JSON object per line, UTF-8, ending in a newline.
enum ControlCoding {
    /// The value's line. Fails only for values JSON cannot hold (a non-finite number in a
    /// dictionary an implementation reports, nesting beyond Foundation's 512 levels); the
    /// failure is returned, never hidden behind a placeholder line.
    static func line<T: Encodable>(_ value: T) throws(TransmitterError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(value)) + [0x0A]
        } catch {
            throw .controlChannel("cannot write a \(T.self) line: \(error)")
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, from line: [UInt8]) throws(TransmitterError) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(line))
        } catch {
            throw .controlChannel("not a \(type) line: \(error)")
        }
    }

    static func userID(_ text: String?, field: String) throws(TransmitterError) -> UserID {
        guard let text, let user = UserID(text) else {
            throw .controlChannel("\(field) must be a user id (UUID), got \(text.map { "\"\($0)\"" } ?? "nothing")")
        }
        return user
    }

    static func binary(_ text: String?) throws(TransmitterError) -> Data? {
        guard let text else { return nil }
        guard let data = Data(base64Encoded: text) else { throw .controlChannel("data is not base64") }
        return data
    }
}

/// Cuts a byte stream into lines (without their newline), examining each byte once: a read
/// scans only its own bytes, never the part of a long line already held.
struct LineSplitter: Sendable {
    /// The longest line either side accepts, without its newline: 1 MiB. The largest
    /// legitimate line is a `send` of binary data at a profile's largest size (512 KiB,
    /// `ProfileRanges`), about 700 KB once base64'd; the documented 120 KB limit needs 160 KB.
    /// A longer line is refused before more of it is held.
    static let maxLineBytes = 1 << 20

    let limit: Int
    private var pending: [UInt8] = []
    /// Bytes of `pending` already searched for a newline.
    private var searched = 0
    /// Bytes examined so far, for tests: the work grows with the input, not its square.
    private(set) var examined = 0

    init(limit: Int = maxLineBytes) { self.limit = limit }

    /// The lines `bytes` completes. Throws when a line, complete or not, exceeds `limit`.
    mutating func feed(_ bytes: [UInt8]) throws(TransmitterError) -> [[UInt8]] {
        pending.append(contentsOf: bytes)
        var lines: [[UInt8]] = []
        var start = 0
        while let end = pending[searched...].firstIndex(of: 0x0A) {
            examined += end + 1 - searched
            guard end - start <= limit else { throw tooLong() }
            lines.append(Array(pending[start..<end]))
            start = end + 1
            searched = start
        }
        examined += pending.count - searched
        guard pending.count - start <= limit else { throw tooLong() }
        // What stays is the tail of this read: moved once, then only appended to.
        pending.removeFirst(start)
        searched = pending.count
        return lines
    }

    private mutating func tooLong() -> TransmitterError {
        pending = []
        searched = 0
        return .controlChannel("a line is longer than the limit of \(limit) bytes (maxLineBytes)")
    }
}
