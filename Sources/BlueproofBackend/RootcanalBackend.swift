import BlueproofTransport
import Foundation

/// Android's Rootcanal 1.10.0, started by the harness from the project's virtual environment.
/// Every TCP connection to its HCI port is a new controller.
///
/// Its four ports are chosen free on loopback for this run, so concurrent runs never meet;
/// the preload library announces when the HCI port listens. If another process takes a port
/// between the choice and Rootcanal's bind, Rootcanal exits and the start is tried once more.
enum RootcanalBackend {
    static func start(workDirectory: String) async throws -> ProcessBackend {
        let executable = try ComponentLocator.rootcanal()
        try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
        var lastError: Error = BackendError.notReady(program: "rootcanal", waited: "10 s", log: "")
        for _ in 0..<2 {
            do {
                return try await startOnce(executable: executable, workDirectory: workDirectory)
            } catch let error as BackendError {
                guard case .exitedBeforeReady = error else { throw error }
                lastError = error
            }
        }
        throw lastError
    }

    private static func startOnce(executable: String, workDirectory: String) async throws -> ProcessBackend {
        let ports = try freeLoopbackPorts(4)
        let process = try await ChildProcess.launchController(
            "rootcanal", executable: executable,
            arguments: ["--hci_port=\(ports[0])", "--link_port=\(ports[1])",
                        "--link_ble_port=\(ports[2])", "--test_port=\(ports[3])"],
            environment: [:], logPath: "\(workDirectory)/rootcanal.log", announcement: "tcp \(ports[0])")
        return ProcessBackend(name: "rootcanal", controllerLimit: nil, endpoint: .tcp(host: "127.0.0.1", port: ports[0]),
                              process: process, facts: [
            BackendFact("backend", "rootcanal 1.10.0 (\(executable)), pid \(process.pid)"),
            BackendFact("hci port", "tcp:127.0.0.1:\(ports[0])"),
            BackendFact("log", process.logPath),
        ])
    }
}

/// Ports the kernel reports free on 127.0.0.1 right now (bound to port 0, then released).
func freeLoopbackPorts(_ count: Int) throws(BackendError) -> [UInt16] {
    var sockets: [Int32] = []
    defer { sockets.forEach { close($0) } }
    var ports: [UInt16] = []
    for _ in 0..<count {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .spawnFailed(program: "rootcanal", reason: "socket: \(errnoText(errno))") }
        sockets.append(fd)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else { throw .spawnFailed(program: "rootcanal", reason: "no free port: \(errnoText(errno))") }
        ports.append(UInt16(bigEndian: address.sin_port))
    }
    return ports
}
