import BlueproofCapture
import BlueproofTransport

/// A source of HCI controllers: a process the harness started (btvirt, Rootcanal) or a
/// transport the user named (an adapter, a socket, a UART).
public protocol ControllerBackend: Sendable {
    /// As the user named it: `btvirt`, `rootcanal`, `hci0`, `unix:/path`, ...
    var name: String { get }
    /// Facts for the run's report: version, socket, log, whether the AF_ALG workaround was used.
    var facts: [BackendFact] { get }
    /// How many controllers ``openController(capture:)`` can give at once, nil when unbounded.
    var controllerLimit: Int? { get }
    /// How many simultaneous LE links one of its controllers carries reliably, nil when no limit
    /// is known, and why.
    var linkLimit: (links: Int, reason: String)? { get }
    /// Where other programs reach this backend for controllers of their own (a Bumble peer, a
    /// second blueproof); nil when it gives only one controller (an adapter, a UART).
    var sharedEndpoint: TransportSpec? { get }
    /// Opens a new controller; every packet it carries is recorded to `capture`.
    func openController(capture: (any CaptureSink)?) async throws -> any HCITransport
    /// Stops whatever the backend started. Idempotent.
    func shutdown() async
    /// Returns when the backend process dies (never for backends without a process).
    func waitForDeath() async -> String?
}

extension ControllerBackend {
    public var linkLimit: (links: Int, reason: String)? { nil }
}

/// One line of a backend's report, e.g. `("AF_ALG workaround", "used: socket(AF_ALG): ...")`.
public struct BackendFact: Hashable, Sendable, Codable {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// What `--controller` names.
public enum BackendSpec: Hashable, Sendable, CustomStringConvertible {
    /// `btvirt`: BlueZ's emulator, started by the harness (the default).
    case btvirt
    /// `rootcanal`: Android's virtual controller, started by the harness from the project venv.
    case rootcanal
    /// Anything else: a transport spec (`hci0`, `unix:`, `tcp:`, `serial:`).
    case transport(TransportSpec)

    public init(parsing text: String) throws {
        switch text {
        case "btvirt": self = .btvirt
        case "rootcanal": self = .rootcanal
        default:
            guard text.contains(":") || text.hasPrefix("hci") else { throw BackendError.unknownBackend(text) }
            self = .transport(try TransportSpec(parsing: text))
        }
    }

    public var description: String {
        switch self {
        case .btvirt: "btvirt"
        case .rootcanal: "rootcanal"
        case let .transport(spec): "\(spec)"
        }
    }
}

/// Starts the backend `spec` names; its process logs go into `workDirectory`.
public func startBackend(_ spec: BackendSpec, workDirectory: String) async throws -> any ControllerBackend {
    switch spec {
    case .btvirt: try await BTVirtBackend.start(workDirectory: workDirectory)
    case .rootcanal: try await RootcanalBackend.start(workDirectory: workDirectory)
    case let .transport(transport): TransportBackend(spec: transport, name: spec.description)
    }
}
