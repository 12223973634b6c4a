import BlueproofConformance
import BlueproofTestSupport
import Foundation
import Testing

/// Every example the documentation shows is a command line that works: each `Examples:` line
/// of every command's help, and each blueproof line of the README's code blocks. They run with
/// BLUEPROOF_PARSE_ONLY=1 (parsed and validated, as the real command would be, then nothing
/// runs: many need a device, a file or minutes); the ones a user meets first also run for real
/// in EverydayCLITests.
extension Integration {
    @Suite("Documented examples")
    struct HelpExamplesTests {
        @Test("every help example parses and validates", .requires(.cli))
        func helpExamples() throws {
            let cli = try RequiredComponent.require(.cli)[0]
            var examples: [[String]] = []
            var pending: [[String]] = [[]]
            while let path = pending.popLast() {
                // Wide, so no example is wrapped onto two lines.
                let help = try run(cli, ["help"] + path, environment: ["COLUMNS": "400"])
                #expect(help.status == 0, "help \(path): \(help.stderr)")
                pending += Self.subcommands(in: help.stdout).map { path + [$0] }
                examples += Self.examples(in: help.stdout)
            }
            #expect(examples.count >= 30, "examples found: \(examples.count)")
            #expect(examples.contains { $0.contains("--ibeacon") }, "advertise's beacon example is among them")
            for example in examples { try Self.expectParses(example, cli: cli) }
        }

        @Test("every blueproof line of the README parses and validates", .requires(.cli))
        func readmeExamples() throws {
            let cli = try RequiredComponent.require(.cli)[0]
            let root = try #require(ConformanceFiles.root())
            let readme = try String(contentsOfFile: "\(root)/README.md", encoding: .utf8)
            var inBlock = false
            var examples: [[String]] = []
            for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
                // Shell blocks only (```sh); the layout block is prose.
                if line.hasPrefix("```") { inBlock = !inBlock && line == "```sh"; continue }
                guard inBlock, let start = line.range(of: "blueproof ") else { continue }
                examples.append(Self.words(String(line[start.lowerBound...])))
            }
            #expect(!examples.isEmpty)
            for example in examples { try Self.expectParses(example, cli: cli) }
        }

        static func expectParses(_ example: [String], cli: String) throws {
            let result = try run(cli, Array(example.dropFirst()), environment: ["BLUEPROOF_PARSE_ONLY": "1"])
            #expect(result.status == 0, "\(example.joined(separator: " ")): \(result.stderr)")
        }

        /// The names under SUBCOMMANDS: in a help text.
        static func subcommands(in help: String) -> [String] {
            var names: [String] = []
            var inside = false
            for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("SUBCOMMANDS:") { inside = true; continue }
                guard inside else { continue }
                // An entry is indented two spaces; its description's next lines, more; a blank ends the list.
                if line.isEmpty { break }
                guard line.hasPrefix("  "), !line.hasPrefix("   ") else { continue }
                let name = line.split(separator: " ").first.map(String.init) ?? ""
                if !name.isEmpty, name != "help" { names.append(name) }
            }
            return names
        }

        /// The command lines under `Example(s):`, continuation lines joined, a trailing
        /// comment (after three spaces) and a pipe into another program left out.
        static func examples(in help: String) -> [[String]] {
            var result: [[String]] = []
            var inside = false
            var pending = ""
            for raw in help.split(separator: "\n", omittingEmptySubsequences: false) {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if line == "Examples:" || line == "Example:" { inside = true; continue }
                guard inside else { continue }
                if !pending.isEmpty {
                    pending += " " + line
                } else if line.hasPrefix("blueproof ") {
                    pending = line
                } else if line.isEmpty || line.hasPrefix("#") {
                    continue
                } else {
                    inside = false
                    continue
                }
                if pending.hasSuffix("\\") {
                    pending.removeLast()
                    continue
                }
                var text = pending
                pending = ""
                if let pipe = text.range(of: " | ") { text = String(text[..<pipe.lowerBound]) }
                if let comment = text.range(of: "   ") { text = String(text[..<comment.lowerBound]) }
                result.append(words(text))
            }
            return result
        }

        /// Shell words: blanks separate, single and double quotes group.
        static func words(_ text: String) -> [String] {
            var words: [String] = []
            var current = ""
            var quote: Character?
            var inWord = false
            for character in text {
                if let open = quote {
                    if character == open { quote = nil } else { current.append(character) }
                } else if character == "'" || character == "\"" {
                    quote = character
                    inWord = true
                } else if character == " " {
                    if inWord { words.append(current) }
                    current = ""
                    inWord = false
                } else {
                    current.append(character)
                    inWord = true
                }
            }
            if inWord { words.append(current) }
            return words
        }
    }
}

/// `run` with extra environment variables.
func run(_ executable: String, _ arguments: [String], environment: [String: String]) throws
    -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Parsing prints a line or two: neither pipe can fill before the program ends.
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}
