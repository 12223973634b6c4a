import BlueproofFuzzing
import Foundation
import Testing

/// Every committed fuzz input, seed and crash alike, through its target in every test run: a
/// parser that traps or hangs on one of them fails here without libFuzzer (docs/fuzzing.md).
@Suite("Fuzz corpora")
struct ReplayTests {
    static let fuzz = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz").path

    static func inputs(_ kind: String, of target: String) -> [String] {
        let folder = "\(fuzz)/\(kind)/\(target)"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.sorted().map { "\(folder)/\($0)" }
    }

    @Test("every target has seeds; every corpus and regression folder names a target")
    func foldersMatchTargets() throws {
        let names = Set(FuzzTargets.all.map(\.name))
        #expect(names.count == FuzzTargets.all.count, "target names are unique")
        for target in FuzzTargets.all {
            #expect(!Self.inputs("corpus", of: target.name).isEmpty, "no seeds for \(target.name)")
        }
        for kind in ["corpus", "regressions"] {
            let folders = try FileManager.default.contentsOfDirectory(atPath: "\(Self.fuzz)/\(kind)")
            for folder in folders { #expect(names.contains(folder), "\(kind)/\(folder) names no target") }
        }
    }

    @Test("each target returns on every seed and every recorded crash input", arguments: FuzzTargets.all.map(\.name))
    func replay(name: String) throws {
        let target = try #require(FuzzTargets.named(name))
        for path in Self.inputs("corpus", of: name) + Self.inputs("regressions", of: name) {
            let bytes = try #require(FileManager.default.contents(atPath: path), "\(path)")
            target.run([UInt8](bytes))
        }
    }
}
