import Foundation

/// BlueZ's `btvirt -s`, started by the harness. Every connection to its LE server socket is a
/// new emulated LE controller, at most 16 per process (docs/design.md, "Controllers").
///
/// Its socket paths are fixed (`/tmp/bt-server-*`); the preload library moves them into this
/// run's own folder so concurrent runs never meet. When the kernel lacks AF_ALG, the preload
/// library also fakes the crypto socket btvirt insists on, and the facts say so.
enum BTVirtBackend {
    /// Measured (docs/transmitter-links.md, "Known limits"): with three or more links on one
    /// controller, a peer's LE Create Connection towards it sometimes completes on the peer
    /// only, under the preload's handle translation, and the connection never comes up.
    static let linkLimit = (links: 2, reason: "btvirt's handle translation loses connections to a controller that already has 2 links (docs/transmitter-links.md, Known limits); run it on Rootcanal")

    static func start(workDirectory: String) async throws -> ProcessBackend {
        let executable = try ComponentLocator.btvirt()
        let socketDirectory = "\(workDirectory)/btvirt"
        try FileManager.default.createDirectory(atPath: socketDirectory, withIntermediateDirectories: true)
        let afALGMissing = AFALGSupport.missingReason()
        // Blocking sends: btvirt would otherwise drop packets to a reader that falls behind.
        // Handle translation: btvirt breaks a controller's second simultaneous link otherwise
        // (docs/transmitter-links.md, Known limits).
        var environment = ["BLUEPROOF_SOCKET_DIR": socketDirectory, "BLUEPROOF_BLOCKING_SEND": "1",
                           "BLUEPROOF_BTVIRT_HANDLES": "1"]
        if afALGMissing != nil { environment["BLUEPROOF_FAKE_AF_ALG"] = "1" }
        let socketPath = "\(socketDirectory)/bt-server-le"
        let process = try await ChildProcess.launchController(
            "btvirt", executable: executable, arguments: ["-s"], environment: environment,
            logPath: "\(workDirectory)/btvirt.log", announcement: "unix \(socketPath)")

        let workaround = afALGMissing.map { "used (kernel: \($0))" } ?? "not needed (kernel has AF_ALG)"
        return ProcessBackend(name: "btvirt", controllerLimit: 16, linkLimit: linkLimit,
                              endpoint: .unix(path: socketPath), process: process, facts: [
            BackendFact("backend", "btvirt (\(executable)), pid \(process.pid)"),
            BackendFact("socket", socketPath),
            BackendFact("log", process.logPath),
            BackendFact("AF_ALG workaround", workaround),
            BackendFact("delivery", "lossless: btvirt's sends wait for a slow reader instead of dropping packets"),
            BackendFact("connection handles", "made consistent: each host sees its own controller's handle of a link (btvirt 5.66 reports the initiator's)"),
        ])
    }
}
