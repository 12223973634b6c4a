import BlueproofWire

/// Probes controllers before a run (`blueproof probe`): resets each, reads what it is and
/// what it claims, checks that the commands the host needs work, measures the command round
/// trip, and proves that consecutive controllers see and connect to each other.
public struct ControllerProbe: Sendable {
    /// Read Local Version Information round trips measured per controller.
    public var roundTripSamples = 50
    /// How long to wait for an advertising report or a connection.
    public var linkTimeout: Duration = .seconds(5)

    public init() {}

    public func run(_ controllers: [HCIController]) async -> ProbeReport {
        let start = ContinuousClock.now
        let recorders = controllers.map { _ in CommandRecorder() }
        var probed: [ProbedController] = []
        for (index, controller) in controllers.enumerated() {
            probed.append(await profile(controller, index: index, commands: recorders[index]))
        }
        var links: [LinkCheck] = []
        for index in controllers.indices.dropLast() {
            links.append(await LinkProbe(timeout: linkTimeout).run(
                advertiser: (index, controllers[index], probed[index].profile.address, recorders[index]),
                initiator: (index + 1, controllers[index + 1], recorders[index + 1])))
        }
        var profiles: [ControllerProfile] = []
        for (index, controller) in probed.enumerated() {
            profiles.append(controller.finished(results: await recorders[index].results))
        }
        return ProbeReport(controllers: profiles, links: links,
                           durationMilliseconds: milliseconds(ContinuousClock.now - start))
    }

    /// Resets a controller, reads its identity, buffers, features and command mask.
    func profile(_ controller: HCIController, index: Int, commands: CommandRecorder) async -> ProbedController {
        var profile = ControllerProfile(index: index, endpoint: controller.endpoint)
        var mask: HCISupportedCommands?
        func attempt<C: HCICommand>(_ command: C) async -> C.ReturnParameters? {
            try? await commands.run(command, on: controller)
        }

        guard await attempt(HCIReset()) != nil else {
            profile.problems.append("Reset: \(await commands.results[HCIOpcode.reset] ?? "failed"); nothing else was tried")
            return ProbedController(profile: profile, mask: nil)
        }
        _ = await attempt(HCISetEventMask(eventMask: [.default, .leMeta]))
        _ = await attempt(HCILESetEventMask(leEventMask: [
            .default, .dataLengthChange, .enhancedConnectionComplete,
        ]))
        if let version = await attempt(HCIReadLocalVersionInformation()) {
            profile.hciVersion = versionName(version.hciVersion) + " (subversion 0x\(hex(version.hciSubversion)))"
            profile.lmpVersion = versionName(version.lmpVersion) + " (subversion 0x\(hex(version.lmpSubversion)))"
            profile.manufacturer = "0x\(hex(version.companyIdentifier))"
        }
        if let address = await attempt(HCIReadBDADDR()) { profile.address = address.bdAddr.description }
        mask = await attempt(HCIReadLocalSupportedCommands())?.supportedCommands
        if let mask {
            profile.supportedCommandCount = mask.supportedOpcodes.count
            profile.knownCommandCount = HCISupportedCommands.positions.count
            profile.extendedAdvertising = mask.supportsExtendedAdvertising
            profile.extendedScanning = mask.supportsExtendedScanning
        }
        _ = await attempt(HCIReadLocalSupportedFeatures())
        if let buffers = await attempt(HCIReadBufferSize()) {
            profile.aclBuffers = BufferSize(length: Int(buffers.aclDataPacketLength),
                                            count: Int(buffers.totalNumACLDataPackets), source: "Read Buffer Size")
        }
        // Core Vol 4, Part E §7.8.2: an LE length of 0 means LE shares the BR/EDR buffers.
        var le: (length: Int, count: Int, source: String)?
        if mask?.supports(.leReadBufferSizeV2) == true, let v2 = await attempt(HCILEReadBufferSizeV2()) {
            le = (Int(v2.leACLDataPacketLength), Int(v2.totalNumLEACLDataPackets), "LE Read Buffer Size v2")
        } else if let v1 = await attempt(HCILEReadBufferSize()) {
            le = (Int(v1.leACLDataPacketLength), Int(v1.totalNumLEACLDataPackets), "LE Read Buffer Size")
        }
        if let le, le.length > 0, le.count > 0 {
            profile.leACLBuffers = BufferSize(length: le.length, count: le.count, source: le.source)
        } else if let acl = profile.aclBuffers {
            profile.leACLBuffers = BufferSize(length: acl.length, count: acl.count,
                                              source: "Read Buffer Size (the LE size was 0: shared buffers)")
        } else {
            profile.problems.append("no ACL buffer size: the host cannot send data")
        }
        if let features = await attempt(HCILEReadLocalSupportedFeatures()) {
            profile.leFeatures = features.leFeatures.names
        }
        let random = BDAddress(littleEndian: [0x01, 0x00, 0x00, 0x00, UInt8(index & 0xFF), 0xC0])
        _ = await attempt(HCILESetRandomAddress(randomAddress: random))
        profile.commandRoundTrip = await roundTrip(controller)
        return ProbedController(profile: profile, mask: mask)
    }

    /// Times Read Local Version Information from send to Command Complete.
    func roundTrip(_ controller: HCIController) async -> RoundTrip? {
        var samples: [Double] = []
        for _ in 0..<roundTripSamples {
            let start = ContinuousClock.now
            guard (try? await controller.send(HCIReadLocalVersionInformation())) != nil else { return nil }
            samples.append(microseconds(ContinuousClock.now - start))
        }
        samples.sort()
        guard let first = samples.first else { return nil }
        return RoundTrip(samples: samples.count, minimumMicroseconds: first,
                         medianMicroseconds: samples[samples.count / 2],
                         p95Microseconds: samples[min(samples.count - 1, samples.count * 95 / 100)])
    }
}

/// The commands this host needs from a controller (Core Vol 4, Part E §7).
let requiredCommands: [HCIOpcode] = [
    .reset, .setEventMask, .leSetEventMask, .readLocalVersionInformation, .readBDADDR,
    .readLocalSupportedCommands, .readLocalSupportedFeatures, .readBufferSize, .leReadBufferSize,
    .leReadLocalSupportedFeatures, .leSetRandomAddress, .leSetAdvertisingParameters, .leSetAdvertisingData,
    .leSetScanResponseData, .leSetAdvertisingEnable, .leSetScanParameters, .leSetScanEnable,
    .leCreateConnection, .leCreateConnectionCancel, .disconnect, .leConnectionUpdate, .readRSSI,
]

/// Results of the commands one controller ran, by opcode: `ok` once a command has worked,
/// otherwise how it last failed (`failed: <status>`, `no answer`, ...).
actor CommandRecorder {
    private(set) var results: [HCIOpcode: String] = [:]

    /// Sends `command` through `controller`, records how it went, and returns the result.
    @discardableResult
    func run<C: HCICommand>(_ command: C, on controller: HCIController) async throws -> C.ReturnParameters {
        do {
            let result = try await controller.send(command)
            results[C.opcode] = "ok"
            return result
        } catch {
            if results[C.opcode] != "ok" { results[C.opcode] = outcome(of: error) }
            throw error
        }
    }

    /// Replaces the recorded result of `opcode` once the caller has judged it in context.
    func override(_ opcode: HCIOpcode, with result: String) {
        results[opcode] = result
    }
}

/// A controller while it is probed: its profile so far and its mask.
struct ProbedController {
    var profile: ControllerProfile
    var mask: HCISupportedCommands?

    /// The profile with one check per required command and its problems: a command that
    /// failed although the mask does not deny it, and one that worked although the mask denies
    /// it. A command both the mask and the controller refuse is reported, not a problem.
    func finished(results: [HCIOpcode: String]) -> ControllerProfile {
        var profile = self.profile
        profile.commands = requiredCommands.map { opcode in
            CommandCheck(name: HCICommandCatalogue.name(of: opcode) ?? opcode.description, opcode: opcode.description,
                         claimed: mask?.supports(opcode), result: results[opcode] ?? "not exercised")
        }
        for check in profile.commands where check.result != "ok" && check.result != "not exercised" && check.claimed != false {
            profile.problems.append("\(check.name): \(check.result)" + (check.claimed == true ? " (the mask claims it)" : ""))
        }
        for check in profile.commands where check.result == "ok" && check.claimed == false {
            profile.problems.append("\(check.name) works but the supported-commands mask denies it")
        }
        return profile
    }
}

func outcome(of error: Error) -> String {
    switch error {
    case let HCICommandError.failed(_, status): "failed: \(status)"
    case HCICommandError.timedOut: "no answer"
    default: "error: \(error)"
    }
}

func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

func milliseconds(_ duration: Duration) -> Double { (microseconds(duration) / 10).rounded() / 100 }

/// "5.2" for version 11, the number in hex when it is not a known Core version.
func versionName(_ version: UInt8) -> String {
    bluetoothCoreVersionName(version) ?? "0x\(hex(version))"
}
