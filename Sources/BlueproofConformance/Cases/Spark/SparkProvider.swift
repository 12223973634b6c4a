import BlueproofSpark
import Foundation

/// Where a Spark case (SPK) gets its subject: the reference on node 0 of the case, a broken
/// variant of it, or (later) an implementation under test over the control protocol.
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
