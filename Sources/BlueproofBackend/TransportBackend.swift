import BlueproofAsync
import BlueproofCapture
import BlueproofTransport

/// A controller the user runs: an adapter (`hci0`), a UART, or a socket of a btvirt or
/// Rootcanal started by hand. Sockets give a new controller per connection; an adapter or a
/// UART is one controller, so only one can be open at a time.
public struct TransportBackend: ControllerBackend {
    public let spec: TransportSpec
    public let name: String
    /// Never resolved: nothing of ours can die here, so waiting ends only by cancellation.
    private let death = OneShot<String>()

    public init(spec: TransportSpec, name: String) {
        self.spec = spec
        self.name = name
    }

    public var facts: [BackendFact] { [BackendFact("backend", "\(name) (started outside the harness)")] }

    public var controllerLimit: Int? {
        switch spec {
        case .unix, .tcp: nil
        default: 1
        }
    }

    public var sharedEndpoint: TransportSpec? { controllerLimit == nil ? spec : nil }

    public func openController(capture: (any CaptureSink)?) async throws -> any HCITransport {
        try openTransport(spec, capture: capture)
    }

    public func shutdown() async {}

    public func waitForDeath() async -> String? {
        await death.wait()
    }
}
