/// Why a controller backend could not be started or used. Every case says what to do.
public enum BackendError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A program or library the backend needs is not installed.
    case componentMissing(component: String, install: String)
    /// The backend process could not be started at all.
    case spawnFailed(program: String, reason: String)
    /// The backend process exited before it was ready; `log` holds its last lines.
    case exitedBeforeReady(program: String, exit: String, log: String)
    /// The backend did not announce its socket in time.
    case notReady(program: String, waited: String, log: String)
    /// The backend cannot give more controllers than this.
    case controllerLimit(backend: String, limit: Int, requested: Int)
    /// The backend name is not one this tool knows.
    case unknownBackend(String)
    /// Connecting to a controller of a running backend failed.
    case openFailed(endpoint: String, reason: String)

    public var description: String {
        switch self {
        case let .componentMissing(component, install):
            "\(component) is missing; install it with: \(install)"
        case let .spawnFailed(program, reason):
            "could not start \(program): \(reason)"
        case let .exitedBeforeReady(program, exit, log):
            "\(program) \(exit) before it was ready" + (log.isEmpty ? "" : "; its last output:\n\(log)")
        case let .notReady(program, waited, log):
            "\(program) did not open its controller socket within \(waited)" + (log.isEmpty ? "" : "; its last output:\n\(log)")
        case let .controllerLimit(backend, limit, requested):
            "\(backend) gives at most \(limit) controller(s); \(requested) were requested"
        case let .unknownBackend(name):
            "unknown controller '\(name)': use btvirt, rootcanal, hciN, unix:PATH, tcp:HOST:PORT or serial:DEVICE[@BAUD]"
        case let .openFailed(endpoint, reason):
            "could not open a controller at \(endpoint): \(reason)"
        }
    }
}
