import ArgumentParser
import BlueproofCapture
import BlueproofCheck
import BlueproofConformance
import BlueproofWire
import Foundation

struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Run the capture-level conformance checks on captures recorded anywhere.",
        discussion: """
        Each capture is one node's view of its host/controller boundary: pcap or pcapng (link \
        types 201, 187, 254) or btsnoop (btmon, Android). For each capture, one line per check:

          VERDICT  ID  TITLE: REASON [frames N, ...]

        Verdicts: pass, fail, inconclusive (the capture does not show enough to judge: no \
        buffer size read, no notification stream). Frames are 1-based record numbers, as \
        Wireshark numbers frames (btmon's notes and index records included).

        Checks: CBT/FLOW/BI-01 ACL packets in flight never exceed the controller's buffers; \
        CAP/CONN/BV-01 no ACL data outside a connection; CAP/ACL/BV-01 sent fragments fit the \
        ACL data packet length; CAP/ATT/BV-01 ATT PDUs fit ATT_MTU and values ATT_MTU - 3; \
        CBT/CHUNK/BV-01 chunks fill min(ATT_MTU - 3, 512); CBT/CHUNK/BV-02 streams end with \
        EOM; CBT/GATT/BV-03 the receiver enabled notifications (CCCD write) before the first \
        chunk; with --payload, CAP/XFER/BV-01 a message equals the file; with --plaintext, \
        BFT/SEC/BV-04 the bytes never appear in ACL data.

        With --output (or --profile), the catalogue cases among these checks (CBT/FLOW/BI-01, \
        CBT/CHUNK/BV-01, CBT/CHUNK/BV-02, CBT/GATT/BV-03) are also judged over all the captures \
        together and written as the same four reports `blueproof run` writes, into \
        DIR/<run-id>/ (docs/runner.md).

        A capture cut short (a killed run) is checked up to its last complete packet and says \
        so. Exit status: 0 nothing failed, 1 a check failed, 2 usage error or a file that is \
        not a capture; with --output or --profile, as for `blueproof run`: 4 when nothing \
        failed but a catalogue case stayed inconclusive or none was judged.

        Examples:
          blueproof check Captures/demo-node0.pcap Captures/demo-node1.pcap
          blueproof check --payload payload.bin Captures/demo-node0.pcap
          blueproof check --plaintext 48656c6c6f btsnoop_hci.log
          blueproof check --plaintext @secret.bin --json btsnoop_hci.log | jq '.[].checks[] | select(.verdict == "fail")'
        """
    )

    @Argument(help: "The capture files (pcap, pcapng or btsnoop).")
    var captures: [String]

    @Option(name: .long, help: ArgumentHelp("The payload the transfer carried; adds the byte-exact payload check.",
                                            valueName: "FILE"))
    var payload: String?

    @Option(name: .long, help: ArgumentHelp("Bytes that must never appear in clear: hexadecimal, or @FILE for a file's bytes.",
                                            valueName: "HEX|@FILE"))
    var plaintext: String?

    @Flag(name: .long, help: "Print the verdicts as JSON.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("The profile the cases read (default: Conformance/profiles/bridgefy-ios.yaml).",
                                            valueName: "yaml"))
    var profile: String?

    @Option(name: .long, help: ArgumentHelp("Write the run reports of the capture cases into DIR/<run-id>/ (default with --profile: Reports).",
                                            valueName: "dir"))
    var output: String?

    func validate() throws {
        guard !captures.isEmpty else { throw ValidationError("give at least one capture file") }
    }

    func run() async throws {
        let options = CheckOptions(payload: try payload.map { try Self.readFile($0, option: "--payload") },
                                   plaintext: try plaintext.map(Self.plaintextBytes))
        // The run reports judge the records again, so only they keep the records in memory;
        // the checks themselves take one record at a time.
        let keepsRecords = output != nil || profile != nil
        // With reports to write, a reader that leaves ends the output, not the reports.
        if keepsRecords { Console.whenOutputCloses = .keepRunning }
        var reports: [CheckReport] = []
        var files: [CaptureFile] = []
        var unreadable = false
        for path in captures {
            let stream: CaptureStream
            do {
                stream = try CaptureReader.open(path: path)
            } catch {
                Console.error("\(error)")
                unreadable = true
                continue
            }
            var analyser = CaptureAnalyser(options: options)
            var records: [CaptureRecord] = []
            var noteFrames: [Int] = []
            while let entry = stream.nextEntry() {
                guard case let .packet(record) = entry else {
                    analyser.skipRecord()  // a note or index record still takes a frame number
                    if keepsRecords { noteFrames.append(stream.frameNumber) }
                    continue
                }
                analyser.consume(record)
                if keepsRecords { records.append(record) }
            }
            if keepsRecords { files.append(CaptureFile(stream, records: records, noteFrames: noteFrames)) }
            let report = CheckReport(stream: stream, checks: analyser.checks())
            if !json { report.printLines() }
            reports.append(report)
        }
        if json { try Console.json(reports) }
        if output != nil || profile != nil {
            let (loadedProfile, catalogue) = try ConformanceInputs.load(profile: profile)
            let run = CaptureRun.report(captures: files, catalogue: catalogue, profile: loadedProfile, options: options)
            let folder = "\(output ?? "Reports")/\(run.runID)"
            try ReportWriter(folder: folder).write(run)
            Console.progress("\(run.summaryLine); reports in \(folder)/")
            if run.failed { throw ExitCode(unreadable ? 2 : 1) }
            if unreadable { throw ExitCode(2) }
            // As for `blueproof run`: cases the captures could not judge are not a pass.
            if run.result == .unjudged { throw ExitCode(run.result.exitStatus) }
        }
        if unreadable { throw ExitCode(2) }
        if reports.contains(where: { $0.checks.contains { $0.verdict == .fail } }) { throw ExitCode(1) }
    }

    static func plaintextBytes(_ text: String) throws -> [UInt8] {
        let bytes: [UInt8]
        if text.hasPrefix("@") {
            bytes = try readFile(String(text.dropFirst()), option: "--plaintext")
        } else {
            guard let parsed = BlueproofWire.bytes(fromHex: text) else {
                throw ValidationError("--plaintext: expected hexadecimal bytes or @FILE, got \(text)")
            }
            bytes = parsed
        }
        guard !bytes.isEmpty else { throw ValidationError("--plaintext: the byte string is empty") }
        return bytes
    }

    static func readFile(_ path: String, option: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("\(option): cannot read \(path)")
        }
        return Array(data)
    }
}

/// The verdicts on one capture, as `blueproof check` prints them.
struct CheckReport: Encodable {
    var file: String
    var format: String
    var packetCount: Int
    var skipped: Int
    /// True when the file has an interface of link type 187: directions are guessed.
    var directionGuessed: Bool
    var truncated: String?
    var checks: [CaptureCheck]

    /// The report on `stream`, read to its end.
    init(stream: CaptureStream, checks: [CaptureCheck]) {
        file = stream.path
        format = stream.format.rawValue
        packetCount = stream.packetCount
        skipped = stream.skipped
        directionGuessed = stream.directionSource == .inferredFromPacketType
        truncated = stream.truncated?.description
        self.checks = checks
    }

    func printLines() {
        var header = "\(file): \(format), \(packetCount) packet(s)"
        if skipped > 0 { header += ", \(skipped) other record(s) (notes, index records; numbered as frames)" }
        if directionGuessed { header += "; " + InspectCommand.guessedDirectionNote.dropFirst("note: ".count) }
        if let truncated { header += "; truncated, checked up to its last complete packet: \(truncated)" }
        Console.line(header)
        for check in checks {
            let frames = check.frames.isEmpty ? "" : " [frames \(check.frames.map(String.init).joined(separator: ", "))]"
            let verdict = check.verdict.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)
            Console.line("  \(verdict) \(check.id.padding(toLength: 15, withPad: " ", startingAt: 0)) \(check.title): \(check.reason)\(frames)")
        }
    }
}
