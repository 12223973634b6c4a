import BlueproofWire

/// Why a command sent through ``HCIController`` gave no usable result.
public enum HCICommandError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The controller answered with a status other than success.
    case failed(command: String, status: HCIStatus)
    /// No Command Complete or Command Status came in time.
    case timedOut(command: String, limit: Duration)
    /// The link to the controller ended (socket closed, controller process died, malformed stream).
    case controllerGone(reason: String)
    /// The return parameters did not decode.
    case malformedReturn(command: String, error: WireError)
    /// An expected event did not come in time.
    case eventTimedOut(what: String, limit: Duration)
    /// The task waiting for the answer was cancelled first (the command may still have run).
    case cancelled(command: String)

    public var description: String {
        switch self {
        case let .failed(command, status): "\(command) failed: \(status)"
        case let .timedOut(command, limit): "\(command): no answer from the controller within \(limit)"
        case let .controllerGone(reason): "controller gone: \(reason)"
        case let .malformedReturn(command, error): "\(command): malformed return parameters: \(error)"
        case let .eventTimedOut(what, limit): "no \(what) within \(limit)"
        case let .cancelled(command): "\(command): stopped waiting for the answer (cancelled)"
        }
    }
}
