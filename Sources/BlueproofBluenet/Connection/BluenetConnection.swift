/// The connect, disconnect and setSwitchState rules of Bluenet, sans I/O (bluenet-lib-ios
/// README, "Methods"):
///
/// - `connect(uuid)` aborts a pending connection request and disconnects a connected device
///   first; its timeout (3 s) runs from the actual start of the attempt, after that disconnection
///   or once the host has given up the aborted attempt;
/// - `disconnect()` times out after 2 s, and fulfils at once when nothing is connected (a
///   pending connection attempt is aborted);
/// - `setSwitchState(state)` takes 0 or 1 only; values between (dimming) are refused.
///
/// Calls return a request id; the host's events and ``tick(now:)`` produce
/// ``BluenetConnectionAction``s (commands for the host, and completions), drained with
/// ``drainActions()``. Time is the caller's.
public struct BluenetConnection {
    public struct Configuration: Hashable, Sendable {
        public var connectTimeout: Duration = .seconds(3)
        public var disconnectTimeout: Duration = .seconds(2)
        /// A deliberate fault (variant `bluenetConnectTimeoutFromCall`): the connect timeout runs
        /// from the call, ignoring ``BluenetConnection/attemptStarted(_:now:)``.
        public var connectTimeoutFromCall = false
        public init() {}
    }

    public enum State: Hashable, Sendable {
        case idle
        case connecting(handle: String, request: Int, deadline: Duration)
        /// Disconnecting `current` before connecting to `target` (request `request`); `waiting`
        /// are disconnect requests to fulfil with it.
        case switchingDevice(current: String, target: String, request: Int, waiting: [Int], deadline: Duration)
        case connected(handle: String)
        case disconnecting(handle: String, requests: [Int], deadline: Duration)
    }

    public let configuration: Configuration
    public private(set) var state: State = .idle
    /// The switch write awaiting the host's answer.
    public private(set) var pendingWrite: (request: Int, handle: String)?
    private var actions: [BluenetConnectionAction] = []
    private var lastRequest = 0

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The actions produced since the last drain, in order.
    public mutating func drainActions() -> [BluenetConnectionAction] {
        defer { actions = [] }
        return actions
    }

    // MARK: Calls

    public mutating func connect(_ handle: String, now: Duration) -> Int {
        let request = nextRequest()
        guard !handle.isEmpty, handle.count <= BluenetLimits.identifierMaximum else {
            reject(request, .identifier("a handle of \(handle.count) characters (1 to \(BluenetLimits.identifierMaximum))"))
            return request
        }
        abortPendingWrite()
        switch state {
        case .idle:
            startConnecting(handle, request: request, now: now)
        case let .connecting(pending, pendingRequest, _):
            actions.append(.cancelConnect(handle: pending))
            reject(pendingRequest, .connection(.aborted))
            // The attempt starts once the host has given up the aborted one, which its own
            // connect timeout bounds: until ``attemptStarted(_:now:)`` the deadline allows both.
            let provisional = configuration.connectTimeoutFromCall ? configuration.connectTimeout : configuration.connectTimeout * 2
            startConnecting(handle, request: request, now: now, timeout: provisional)
        case let .switchingDevice(current, _, pendingRequest, waiting, deadline):
            reject(pendingRequest, .connection(.aborted))
            state = .switchingDevice(current: current, target: handle, request: request, waiting: waiting, deadline: deadline)
        case let .connected(current):
            actions.append(.disconnect(handle: current))
            state = .switchingDevice(current: current, target: handle, request: request, waiting: [],
                                     deadline: now + configuration.disconnectTimeout)
        case let .disconnecting(current, requests, deadline):
            state = .switchingDevice(current: current, target: handle, request: request, waiting: requests, deadline: deadline)
        }
        return request
    }

    public mutating func disconnect(now: Duration) -> Int {
        let request = nextRequest()
        switch state {
        case .idle:
            fulfil(request)
        case let .connecting(pending, pendingRequest, _):
            actions.append(.cancelConnect(handle: pending))
            reject(pendingRequest, .connection(.aborted))
            state = .idle
            fulfil(request)
        case let .switchingDevice(current, _, pendingRequest, waiting, deadline):
            reject(pendingRequest, .connection(.aborted))
            state = .disconnecting(handle: current, requests: waiting + [request], deadline: deadline)
        case let .connected(current):
            abortPendingWrite()
            actions.append(.disconnect(handle: current))
            state = .disconnecting(handle: current, requests: [request], deadline: now + configuration.disconnectTimeout)
        case let .disconnecting(current, requests, deadline):
            state = .disconnecting(handle: current, requests: requests + [request], deadline: deadline)
        }
        return request
    }

    /// Switches the connected Crownstone on (1) or off (0); anything else is refused.
    public mutating func setSwitchState(_ value: Double) -> Int {
        let request = nextRequest()
        guard value == 0 || value == 1 else {
            reject(request, .connection(.switchStateUnsupported(value)))
            return request
        }
        guard case let .connected(handle) = state else {
            reject(request, .connection(.notConnected))
            return request
        }
        guard pendingWrite == nil else {
            reject(request, .connection(.failed("a switch state write is still pending")))
            return request
        }
        pendingWrite = (request, handle)
        actions.append(.writeSwitchState(handle: handle, on: value == 1))
        return request
    }

    // MARK: Host events

    /// The link to `handle` is up.
    public mutating func connected(_ handle: String) {
        guard case let .connecting(pending, request, _) = state, pending == handle else {
            // A connection nobody waits for any more (cancelled or timed out): drop it.
            actions.append(.disconnect(handle: handle))
            return
        }
        state = .connected(handle: handle)
        fulfil(request)
    }

    /// The host began the attempt at `handle`, once any attempt it was still giving up had
    /// ended: the connect timeout runs from here ("from the actual start of the attempt").
    public mutating func attemptStarted(_ handle: String, now: Duration) {
        guard !configuration.connectTimeoutFromCall, case let .connecting(pending, request, _) = state, pending == handle else { return }
        state = .connecting(handle: handle, request: request, deadline: now + configuration.connectTimeout)
    }

    /// The attempt to connect to `handle` failed.
    public mutating func connectFailed(_ handle: String, reason: String) {
        guard case let .connecting(pending, request, _) = state, pending == handle else { return }
        state = .idle
        reject(request, .connection(.failed(String(reason.prefix(200)))))
    }

    /// The link to `handle` is down (asked for or not).
    public mutating func disconnected(_ handle: String, now: Duration) {
        switch state {
        case let .connected(current) where current == handle:
            abortPendingWrite()
            state = .idle
        case let .disconnecting(current, requests, _) where current == handle:
            state = .idle
            requests.forEach { fulfil($0) }
        case let .switchingDevice(current, target, request, waiting, _) where current == handle:
            waiting.forEach { fulfil($0) }
            startConnecting(target, request: request, now: now)
        default:
            break
        }
    }

    /// The switch write to `handle` ended; `failure` is nil on success.
    public mutating func switchStateWritten(_ handle: String, failure: String? = nil) {
        guard let pending = pendingWrite, pending.handle == handle else { return }
        pendingWrite = nil
        if let failure {
            reject(pending.request, .connection(.failed(String(failure.prefix(200)))))
        } else {
            fulfil(pending.request)
        }
    }

    /// Advances time: a connection attempt or a disconnection past its deadline fails.
    public mutating func tick(now: Duration) {
        switch state {
        case let .connecting(handle, request, deadline) where now >= deadline:
            actions.append(.cancelConnect(handle: handle))
            state = .idle
            reject(request, .connection(.connectTimeout(seconds: Self.seconds(configuration.connectTimeout))))
        case let .disconnecting(_, requests, deadline) where now >= deadline:
            state = .idle
            requests.forEach { reject($0, .connection(.disconnectTimeout(seconds: Self.seconds(configuration.disconnectTimeout)))) }
        case let .switchingDevice(_, _, request, waiting, deadline) where now >= deadline:
            state = .idle
            let timeout = BluenetError.connection(.disconnectTimeout(seconds: Self.seconds(configuration.disconnectTimeout)))
            (waiting + [request]).forEach { reject($0, timeout) }
        default:
            break
        }
    }

    // MARK: Internals

    private mutating func startConnecting(_ handle: String, request: Int, now: Duration, timeout: Duration? = nil) {
        actions.append(.connect(handle: handle))
        state = .connecting(handle: handle, request: request, deadline: now + (timeout ?? configuration.connectTimeout))
    }

    private mutating func abortPendingWrite() {
        guard let pending = pendingWrite else { return }
        pendingWrite = nil
        reject(pending.request, .connection(.aborted))
    }

    private mutating func nextRequest() -> Int {
        lastRequest += 1
        return lastRequest
    }

    private mutating func fulfil(_ request: Int) { actions.append(.complete(request: request, .fulfilled)) }
    private mutating func reject(_ request: Int, _ error: BluenetError) { actions.append(.complete(request: request, .rejected(error))) }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
