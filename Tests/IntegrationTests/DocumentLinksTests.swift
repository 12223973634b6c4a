import BlueproofConformance
import Foundation
import Testing

/// Everything the README points to is in the repository: each Markdown document it names (and
/// each one those name, transitively) exists, and none lies outside the checkout.
extension Integration {
    @Suite("Document links")
    struct DocumentLinksTests {
        /// Named as citations (docs/design.md, "Sources"), not shipped: never a link.
        static let sourceDocuments: Set<String> = [
            "bridgefy-ios-sdk-readme.md", "corebluetooth-transfer-sample.md", "bluenet-lib-ios-readme.md",
            "spark-data-transfer-readme.md", "bridgefy-chat-app-tutorial.md",
        ]

        @Test("every .md the README and its documents name exists inside the repository")
        func links() throws {
            let root = try #require(ConformanceFiles.root())
            let rootURL = URL(fileURLWithPath: root).standardizedFileURL
            var pending = ["README.md"]
            var visited: Set<String> = []
            while let document = pending.popLast() {
                guard visited.insert(document).inserted else { continue }
                let text = try String(contentsOfFile: "\(root)/\(document)", encoding: .utf8)
                let folder = rootURL.appendingPathComponent(document).deletingLastPathComponent()
                for target in Self.targets(in: text) where !Self.sourceDocuments.contains(target) {
                    // A backticked path reads from the root, a link from the document's folder.
                    let candidates = [rootURL.appendingPathComponent(target), folder.appendingPathComponent(target)]
                        .map(\.standardizedFileURL)
                    let inside = candidates.filter { $0.path.hasPrefix(rootURL.path + "/") }
                    #expect(!inside.isEmpty, "\(document) points outside the repository: \(target)")
                    let found = inside.first { FileManager.default.fileExists(atPath: $0.path) }
                    #expect(found != nil, "\(document) names \(target), which is not in the repository")
                    if let found {
                        pending.append(String(found.path.dropFirst(rootURL.path.count + 1)))
                    }
                }
            }
            #expect(visited.contains("docs/design.md") && visited.contains("docs/captures.md"), "\(visited.sorted())")
        }

        /// `` `folder/path.md` `` (a bare `summary.md` is a file name, not a link) and
        /// `](path.md)` targets, anchors dropped.
        static func targets(in text: String) -> [String] {
            var found: [String] = []
            for pattern in [#"`([^`\s]*/[^`\s]*\.md)`"#, #"\]\(([^)\s#]+\.md)(#[^)]*)?\)"#] {
                let expression = try? NSRegularExpression(pattern: pattern)
                let range = NSRange(text.startIndex..., in: text)
                for match in expression?.matches(in: text, range: range) ?? [] {
                    if let group = Range(match.range(at: 1), in: text) { found.append(String(text[group])) }
                }
            }
            return found
        }
    }
}
