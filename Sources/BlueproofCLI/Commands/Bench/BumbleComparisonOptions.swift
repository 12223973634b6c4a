import ArgumentParser
import BlueproofBackend
import Foundation

/// What `bench transfer` and `bench spark` share: the backend (one Bumble can join too), the
/// rounds, the work folder and the output.
struct BumbleComparisonOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("btvirt (default), rootcanal, unix:PATH or tcp:HOST:PORT.", valueName: "backend"))
    var controller: String = "btvirt"

    @Option(name: .long, help: "Rounds; each figure is the median over them.")
    var `repeat`: Int = 1

    @Flag(name: .long, help: "Keep the pcaps of the capture runs (in the work folder).")
    var keepCaptures = false

    @Option(name: .long, help: ArgumentHelp("Folder for logs and captures (default: a new folder under /tmp).", valueName: "path"))
    var workDir: String?

    @Option(name: .long, help: "Seconds one measurement may take (default: 60 plus 1 s per 20 kB).")
    var timeout: Double?

    @Option(name: .long, help: "Log level on standard error: error, warning, info, debug, trace.")
    var logLevel: LogLevelOption = .warning

    @Flag(name: .long, help: "Print the result as JSON.")
    var json = false

    func validate() throws {
        guard (1...25).contains(`repeat`) else { throw ValidationError("--repeat must be 1...25") }
        if let timeout { guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be positive") } }
        let spec: BackendSpec
        do { spec = try BackendSpec(parsing: controller) } catch { throw ValidationError("--controller: \(error)") }
        if case let .transport(transport) = spec {
            switch transport {
            case .unix, .tcp: break
            default: throw ValidationError("--controller: Bumble's bench needs a backend it can join too (btvirt, rootcanal, unix:, tcp:)")
            }
        }
    }

    var spec: BackendSpec { (try? BackendSpec(parsing: controller)) ?? .btvirt }

    /// How long one measurement of `size` bytes may take.
    func limit(size: Int) -> Duration { .milliseconds(Int64((timeout ?? 60 + Double(size) / 20_000) * 1000)) }

    /// Bumble's bench script and venv; exits 3 when missing.
    func bumble() throws -> ComponentLocator.BumbleBench {
        do {
            return try ComponentLocator.bumbleBench()
        } catch {
            Console.error("\(error)")
            throw ExitCode(3)
        }
    }

    /// `--work-dir`, or a new folder under /tmp, made and standardized.
    func makeWorkDirectory() throws -> String {
        let path = workDir ?? "\(NSTemporaryDirectory())/blueproof-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
