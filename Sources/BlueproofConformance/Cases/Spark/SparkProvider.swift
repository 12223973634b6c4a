import BlueproofControl
import BlueproofSpark
import Foundation
import Synchronization

/// Where a Spark case (SPK) gets its subject: the reference on node 0 of the case, a broken
/// variant of it, or an implementation under test over the control protocol.
public protocol SparkProvider: Sendable {
    /// A name for reports: `reference`, `reference with Spark defects ...`.
    var name: String { get }
    /// The subject for one case, running `application`, with registration id `registrationID`.
    func subject(_ application: SparkApplication, registrationID: UInt64, for context: CaseContext) async throws -> any SparkControl
}

/// The reference Spark core on the case's node 0 (`SparkChannelNode`), built with `defects`
/// (none for the reference; one for a broken variant). Its files live in a folder of its own
/// under the temporary folder, removed when the case ends.
public struct ReferenceSparkProvider: SparkProvider {
    public let defects: SparkDefects

    public init(defects: SparkDefects = []) { self.defects = defects }

    public var name: String { defects.isEmpty ? "reference" : "reference with Spark defects \(defects.names.joined(separator: ", "))" }

    public func subject(_ application: SparkApplication, registrationID: UInt64, for context: CaseContext) async throws -> any SparkControl {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("blueproof-spark-\(context.folder)-\(UInt32.random(in: 0...UInt32.max))").path
        return try ReferenceSparkControl(host: try context.host(0), application: application, registrationID: registrationID,
                                         folder: folder, defects: defects)
    }
}

// issue 17: Spark data connections
/// An implementation under test as the Spark subject, over the control protocol's Spark
/// commands (version 5, docs/control-protocol.md, "Spark data connections"): the one at
/// `--dut`, connected afresh for each case, or the `--dut-exec` program started for each case
/// as `spark` on node 0. One that speaks an older protocol, answers `sparkStart` with
/// `sparkUnsupported` or does not play the role (status 77) makes the case not-applicable, but
/// only until it has started a subject once in the run: after that, declining a case is an
/// error, so an implementation cannot pick the cases it is judged on. One that does not answer
/// is an error.
public struct DUTSparkProvider: SparkProvider {
    public let target: DUTTransmitterProvider.Subject
    let starts: DUTStarts

    init(_ target: DUTTransmitterProvider.Subject, starts: DUTStarts) {
        self.target = target
        self.starts = starts
    }

    public var name: String { target.name }

    public func subject(_ application: SparkApplication, registrationID: UInt64, for context: CaseContext) async throws -> any SparkControl {
        try await starts.start("a Spark subject") { () async throws -> any SparkControl in
            let client = try await target.control(as: .spark, for: context)
            let version = await client.protocolVersion
            guard version >= controlProtocolSpark else {
                await client.close()
                throw TransmitterUnavailable("the implementation speaks control protocol \(version): the Spark commands need \(controlProtocolSpark)")
            }
            do {
                return try await ControlSparkSubject.start(client, application: application, registration: registrationID)
            } catch let refused as SparkStartRefused {
                await client.close()
                throw TransmitterUnavailable("the implementation offers no Spark data connections: \(refused)")
            } catch {
                await client.close()
                throw DeviceUnreachable(reason: "the implementation did not start a Spark subject: \(error)")
            }
        }
    }
}

/// Whether an implementation has started a subject of one kind (a Spark subject, a Bluenet
/// library) in this run: one `DUTTransmitterProvider` holds one per kind for all its cases.
final class DUTStarts: Sendable {
    let started = Atomic<Bool>(false)

    /// The subject `make` starts. Declining (`TransmitterUnavailable`: an older protocol, the
    /// role or the kind not offered) makes a case not-applicable only until a subject of this
    /// kind started in the run; after that it is `DeviceUnreachable`, an error, so an
    /// implementation cannot pick the cases it is judged on.
    func start<Subject: Sendable>(_ kind: String, _ make: @Sendable () async throws -> Subject) async throws -> Subject {
        do {
            let subject = try await make()
            started.store(true, ordering: .relaxed)
            return subject
        } catch let declined as TransmitterUnavailable where started.load(ordering: .relaxed) {
            throw DeviceUnreachable(reason: "the implementation started \(kind) earlier in this run, then declined this case: \(declined)")
        }
    }
}
