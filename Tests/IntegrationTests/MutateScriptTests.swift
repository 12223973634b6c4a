import BlueproofTestSupport
import Foundation
import Testing

/// `scripts/mutate` (docs/mutation.md) on fixture projects: where its operators apply and where
/// they must not (comments, strings and their interpolations, imports, attributes, generics),
/// the ids it gives, the map and the equivalents files it reads, and the score it computes.
/// Building and judging mutants is exercised by running the tool on the project itself.
extension Integration {
    @Suite("scripts/mutate")
    struct MutateScriptTests {
        /// A fixture project with one judged and one left-out file.
        static let rules = """
            import Foundation
            // a < b in a comment
            /* block /* nested */ a > b */
            @available(macOS 13, *)
            struct Rules<T: Equatable> {
                let result: Result<Int, Error>
                func check(_ x: Int, flag: Bool) -> Bool {
                    let text = "x > 1 \\(x + 2) and \\"q\\" \\("in" + "ner")"
                    let more = \"\"\"
                        y <= 2 \\(x * 3)
                        \"\"\"
                    emit(.sent(x))
                    if x >= 10 && !flag { return true }
                    return x == 1024
                }
            }

            enum FixtureEvent {
                case sent(Int)
                case lost(Int)
                case done
            }

            """

        static let map = """
            # fixture map
            Sources/Fixture/Ignored.swift: -
            Sources/Fixture/*: BFT/OPT BFT/SIZE

            """

        static let path = "Sources/Fixture/Rules.swift"

        func project(_ label: String, equivalent: String? = nil) throws -> WorkFolder {
            let folder = try WorkFolder("mutate-\(label)")
            try write(Self.rules, to: folder.file(Self.path))
            try write("let y = 1 < 2\n", to: folder.file("Sources/Fixture/Ignored.swift"))
            try write(Self.map, to: folder.file("Conformance/mutation/map.txt"))
            if let equivalent { try write(equivalent, to: folder.file("Conformance/mutation/equivalent.txt")) }
            return folder
        }

        func write(_ text: String, to path: String) throws {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }

        func mutate(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("scripts/mutate").path
            return try run("/usr/bin/env", ["python3", script] + arguments)
        }

        func listedIDs(_ folder: WorkFolder, _ extra: [String] = []) throws -> [String] {
            let listed = try mutate(["--root", folder.path, "--list"] + extra)
            #expect(listed.status == 0, "stderr: \(listed.stderr)")
            return listed.stdout.split(separator: "\n").map { String($0.split(separator: " ").prefix(5).joined(separator: " ")) }
        }

        @Test("every operator at its place, and nothing in comments, strings, interpolations, imports, attributes or generics")
        func positions() throws {
            let folder = try project("positions")
            defer { folder.cleanUp() }
            let listed = try mutate(["--root", folder.path, "--list"])
            #expect(listed.status == 0, "stderr: \(listed.stderr)")
            let file = Self.path
            let expected = [
                "\(file)@Rules.check#1 call emit(...) -> (removed)  at \(file):12:9",
                "\(file)@Rules.check#1 event sent -> lost  at \(file):12:15",
                "\(file)@Rules.check#1 relational >= -> <  at \(file):13:14",
                "\(file)@Rules.check#1 relational >= -> >  at \(file):13:14",
                "\(file)@Rules.check#1 constant 10 -> 10000  at \(file):13:17",
                "\(file)@Rules.check#1 constant 10 -> 11  at \(file):13:17",
                "\(file)@Rules.check#1 constant 10 -> 9  at \(file):13:17",
                "\(file)@Rules.check#1 logical && -> ||  at \(file):13:20",
                "\(file)@Rules.check#1 negation ! -> (removed)  at \(file):13:23",
                "\(file)@Rules.check#1 boolean true -> false  at \(file):13:38",
                "\(file)@Rules.check#1 relational == -> !=  at \(file):14:18",
                "\(file)@Rules.check#1 constant 1024 -> 1000  at \(file):14:21",
                "\(file)@Rules.check#1 constant 1024 -> 1023  at \(file):14:21",
                "\(file)@Rules.check#1 constant 1024 -> 1025  at \(file):14:21",
            ]
            let ids = listed.stdout.split(separator: "\n").map { line in
                String(line.components(separatedBy: "   [").first ?? "")
            }
            #expect(ids == expected)
            // The left-out file (`-` in the map) gives none; every mutant names its judges.
            #expect(!listed.stdout.contains("Ignored.swift"))
            #expect(listed.stdout.split(separator: "\n").allSatisfy { $0.hasSuffix("[BFT/OPT BFT/SIZE]") })
        }

        @Test("ids are stable: the same on every listing, untouched by edits of other files and of other declarations of the same file")
        func stableIDs() throws {
            let folder = try project("stable")
            defer { folder.cleanUp() }
            let first = try listedIDs(folder)
            #expect(try listedIDs(folder) == first)
            try write("let z = 3 + 4\n", to: folder.file("Sources/Fixture/Other.swift"))
            let after = try listedIDs(folder)
            #expect(after.filter { $0.hasPrefix(Self.path) } == first)
            #expect(after.contains { $0.hasPrefix("Sources/Fixture/Other.swift@z#1 arithmetic + -> -") })

            // Lines added above `check` (a comment, a property, a function with the same
            // mutations) move every line number but no id of `check`; the new code's mutants are
            // named by their own declarations. A second equal mutation in `check` counts on: #2.
            let edited = Self.rules
                .replacingOccurrences(of: "    let result: Result<Int, Error>\n",
                                      with: "    let result: Result<Int, Error>\n    // moved\n    static let limit = 10\n"
                                          + "    func extra(_ x: Int) -> Bool {\n        x >= 10\n    }\n")
                .replacingOccurrences(of: "        return x == 1024\n", with: "        return x == 1024 || x >= 10\n")
            try write(edited, to: folder.file(Self.path))
            let moved = try mutate(["--root", folder.path, "--list"])
            #expect(moved.status == 0, "stderr: \(moved.stderr)")
            let movedIDs = try listedIDs(folder)
            #expect(Set(first).isSubset(of: Set(movedIDs)))
            #expect(movedIDs.contains("\(Self.path)@Rules.limit#1 constant 10 -> 11"))
            #expect(movedIDs.contains("\(Self.path)@Rules.extra#1 relational >= -> >"))
            #expect(movedIDs.contains("\(Self.path)@Rules.check#2 relational >= -> >"))
            // The place for humans follows the line.
            #expect(moved.stdout.contains("\(Self.path)@Rules.check#1 relational == -> !=  at \(Self.path):19:18"))
        }

        @Test("a default value in a declaration's header belongs to it; closures and `if` blocks are transparent")
        func scopes() throws {
            let folder = try project("scopes")
            defer { folder.cleanUp() }
            try write("""
                struct Gate {
                    var minimum: Int
                    init(
                        minimum: Int = -50
                    ) {
                        self.minimum = minimum
                    }
                    func decide(_ x: Int) -> Bool {
                        let all = [x].filter { value in value >= minimum }
                        if x > 0 { return x >= minimum }
                        return !all.isEmpty
                    }
                }
                extension Array where Element == UInt8 {}
                struct Level {
                    var raw: Int
                    static func < (lhs: Level, rhs: Level) -> Bool { lhs.raw < rhs.raw }
                    init(
                        raw: Int = 2,
                        check: @escaping (Int) -> Bool = { _ in false },
                        limit: Int = 4096
                    ) {
                        self.raw = raw
                    }
                    func stream(_ x: Int)
                        -> [Int] {
                        [x + 1]
                    }
                }

                """, to: folder.file("Sources/Fixture/Gate.swift"))
            let ids = try listedIDs(folder, ["--files", "Sources/Fixture/Gate.swift"])
            let path = "Sources/Fixture/Gate.swift"
            #expect(ids.contains("\(path)@Gate.init#1 constant 50 -> 51"))
            #expect(ids.contains("\(path)@Gate.decide.all#1 relational >= -> >"))
            #expect(ids.contains("\(path)@Gate.decide#1 relational >= -> >"))
            #expect(ids.contains("\(path)@Gate.decide#1 relational > -> >="))
            #expect(ids.contains("\(path)@Gate.decide#1 negation ! -> (removed)"))
            #expect(ids.contains("\(path)@Array#1 relational == -> !="))
            // An operator function is named by its operator; a closure among default values ends
            // no statement; `-> T {` under a parameter list continues the declaration.
            #expect(ids.contains("\(path)@Level.<#1 relational < -> <="))
            #expect(ids.contains("\(path)@Level.init#1 constant 4096 -> 4097"))
            #expect(ids.contains("\(path)@Level.init#1 boolean false -> true"))
            #expect(ids.contains("\(path)@Level.stream#1 arithmetic + -> -"))
        }

        @Test("--sample N --seed S is a reproducible subset; --operators and --match narrow")
        func sampling() throws {
            let folder = try project("sample")
            defer { folder.cleanUp() }
            let all = try listedIDs(folder)
            let sample = try listedIDs(folder, ["--sample", "5", "--seed", "7"])
            #expect(sample.count == 5)
            #expect(Set(sample).isSubset(of: Set(all)))
            #expect(try listedIDs(folder, ["--sample", "5", "--seed", "7"]) == sample)
            let relational = try listedIDs(folder, ["--operators", "relational"])
            #expect(relational.count == 3)
            #expect(relational.allSatisfy { $0.contains(" relational ") })
            // --match selects by a part of the id or by the place (`path:line[:col]`, the path's
            // last components being enough), to judge survivors again.
            let matched = try listedIDs(folder, ["--match", "Rules.swift:13:14", "--match", "boolean"])
            #expect(matched == ["\(Self.path)@Rules.check#1 relational >= -> <", "\(Self.path)@Rules.check#1 relational >= -> >",
                                "\(Self.path)@Rules.check#1 boolean true -> false"])
            #expect(try listedIDs(folder, ["--match", "Fixture/Rules.swift:14"]).count == 4)
            #expect(try listedIDs(folder, ["--match", "Rules.swift:1"]).isEmpty, "a line is matched whole")
            #expect(try listedIDs(folder, ["--match", "@Rules.check#1 relational =="]) == ["\(Self.path)@Rules.check#1 relational == -> !="])
        }

        @Test("code only a deliberate fault reaches is left out: an operand beside a fault term in `&&` or a condition list, a ternary's fault branch, an `if` or `case … where` body it guards")
        func variantOnly() throws {
            let folder = try project("variant-only")
            defer { folder.cleanUp() }
            let faults = """
                struct Faults {
                    let defects: Set<Int>
                    func judge(_ x: Int, _ reason: Int) -> Int {
                        let a = defects.contains(.early) && reason == 1
                        let b = reason == 2 || defects.contains(.late)
                        let c = !(x == 3 && defects.contains(.skip))
                        let d = defects.contains(.low) ? x - 4 : x
                        if defects.contains(.twice), x > 5 { return x * 6 }
                        if !defects.contains(.kept) { return x + 7 }
                        if defects.contains(.guarded) {
                            return x / 8
                        }
                        return a || b || c ? d : 9
                    }
                    func pick(_ e: Int) -> Int {
                        switch e {
                        case 1 where defects.contains(.picked):
                            return e * 10
                        case 2:
                            return e * 20
                        default:
                            return 0
                        }
                    }
                }

                """
            try write(faults, to: folder.file("Sources/Fixture/Faults.swift"))
            let listed = try mutate(["--root", folder.path, "--list", "--files", "Sources/Fixture/Faults.swift"])
            #expect(listed.status == 0, "stderr: \(listed.stderr)")
            let lines = listed.stdout.split(separator: "\n").compactMap { line -> Int? in
                guard let place = line.components(separatedBy: "Faults.swift:").last?.split(separator: ":").first else { return nil }
                return Int(place)
            }
            // Kept: `reason == 2` (|| with a fault), `&&`/`||`/`!` themselves, the negated fault's
            // body, the last line. Left out: `reason == 1`, `x == 3`, the ternary's `x - 4`, line 8
            // whole (condition list and body), the guarded body's `x / 8` (line 11), the body of
            // `case 1 where` a fault (line 18; `case 2`'s body and `default` stay).
            #expect(Set(lines) == [4, 5, 6, 9, 13, 17, 19, 20, 22], "\(listed.stdout)")
            let kept = listed.stdout
            #expect(kept.contains("logical && -> ||  at Sources/Fixture/Faults.swift:4:"))
            #expect(!kept.contains("relational == -> !=  at Sources/Fixture/Faults.swift:4:"))
            #expect(kept.contains("relational == -> !=  at Sources/Fixture/Faults.swift:5:"))
            #expect(kept.contains("negation ! -> (removed)  at Sources/Fixture/Faults.swift:6:"))
            #expect(!kept.contains("relational == -> !=  at Sources/Fixture/Faults.swift:6:"))
            #expect(kept.contains("arithmetic + -> -  at Sources/Fixture/Faults.swift:9:"))
            #expect(kept.contains("constant 9 -> 10  at Sources/Fixture/Faults.swift:13:"))
            #expect(listed.stderr.contains("mutant(s) left out: only a deliberate fault"))
        }

        @Test("a condition list's commas bind looser than a ternary, `||` and `&&`; brackets and continued lines are read whole: only what a fault gates is left out")
        func variantOnlyPrecedence() throws {
            let folder = try project("variant-only-precedence")
            defer { folder.cleanUp() }
            let lists = """
                struct Lists {
                    let defects: Set<Int>
                    func check(_ x: Int, _ y: Int) -> Int {
                        guard x > 1 || defects.contains(.loose), y < 2 else { return 3 }
                        guard defects.contains(.tight), y == 4 || x == 5 else { return 6 }
                        if x == 7 && defects.contains(.both), y != 8 { return 9 }
                        let w = x == 10 && defects.contains(.pick) ? y : y - 11
                        let v = x > 12 ? y : y == 13 && defects.contains(.late)
                        let u = y > 14 && defects.contains(.gate) ? x * 15 : x
                        if defects.contains(.one) || defects.contains(.other) { return x % 16 }
                        if defects.contains(.indexed), [x].indices.contains(y + 18) { return 19 }
                        if defects.contains(.spread), x > 20,
                           y >= 21 { return 22 }
                        if x > 23,
                           y < 24 { return 25 }
                        if x > 26 {
                            return 27
                        } else if defects.contains(.chained) && y == 28 {
                            return 29
                        }
                        if defects.contains(.bound), let z = [x].first(where: { item in
                            item > 31
                        }) {
                            return z * 32
                        }
                        return v || x > u ? w : 17
                    }
                }

                """
            try write(lists, to: folder.file("Sources/Fixture/Lists.swift"))
            let listed = try mutate(["--root", folder.path, "--list", "--files", "Sources/Fixture/Lists.swift"])
            #expect(listed.status == 0, "stderr: \(listed.stderr)")
            let kept = listed.stdout
            func has(_ change: String, _ line: Int) -> Bool { kept.contains("\(change)  at Sources/Fixture/Lists.swift:\(line):") }
            // Line 4: the comma is not inside the `||`, so `y < 2` runs on the reference.
            #expect(has("relational < -> <=", 4) && has("relational > -> >=", 4) && has("constant 3 -> 4", 4), "\(kept)")
            // Line 5: the whole second item waits on the lone fault term; the else body runs.
            #expect(!has("relational == -> !=", 5) && !has("logical || -> &&", 5) && has("constant 6 -> 7", 5), "\(kept)")
            // Line 6: an item that is an `&&` with a fault gates the other items and the body;
            // the `&&` itself is kept.
            #expect(!has("relational != -> ==", 6) && !has("relational == -> !=", 6) && !has("constant 9 -> 10", 6) && has("logical && -> ||", 6), "\(kept)")
            // Line 7: the ternary's condition is an `&&` with a fault: `x == 10` is left out, the
            // branch it always takes is not.
            #expect(!has("relational == -> !=", 7) && has("logical && -> ||", 7) && has("arithmetic - -> +", 7), "\(kept)")
            // Line 8: a branch is judged with the same rules: `y == 13` waits on the fault.
            #expect(has("relational > -> <=", 8) && !has("relational == -> !=", 8), "\(kept)")
            // Line 9: the branch taken on an `&&` with a fault is left out, as is `y > 14`; the
            // `&&` itself is kept.
            #expect(!has("arithmetic * -> /", 9) && !has("relational > -> <=", 9) && has("logical && -> ||", 9), "\(kept)")
            // Line 10: an `||` of fault terms only is false whatever its operator: it and the
            // body are left out.
            #expect(!has("logical || -> &&", 10) && !has("arithmetic % -> *", 10), "\(kept)")
            // Line 11: a mutant in brackets is judged as its bracketed group, here an item beside
            // a lone fault term.
            #expect(!has("arithmetic + -> -", 11) && !has("constant 18 -> 19", 11), "\(kept)")
            // Lines 12-13: a condition continued on the next line is read whole; lines 14-15,
            // a condition with no fault, keep all of theirs.
            #expect(!has("relational > -> >=", 12) && !has("relational >= -> >", 13) && !has("constant 22 -> 23", 13), "\(kept)")
            #expect(has("relational > -> >=", 14) && has("relational < -> <=", 15) && has("constant 25 -> 26", 15), "\(kept)")
            // Lines 16-20: an `else if` after the brace that closes the block before is judged
            // as any condition: `y == 28` and its body wait on the fault, the `if` before does not.
            #expect(has("relational > -> >=", 16) && has("constant 27 -> 28", 17), "\(kept)")
            #expect(!has("relational == -> !=", 18) && !has("constant 28 -> 29", 18) && !has("constant 29 -> 30", 19), "\(kept)")
            // Lines 21-25: a condition holding a closure over several lines guards its body
            // (`z * 32`) as any other; the closure's own `item > 31` waits on the fault too.
            #expect(!has("arithmetic * -> /", 24) && !has("relational > -> >=", 22), "\(kept)")
            #expect(has("constant 17 -> 18", 26), "\(kept)")
        }

        @Test("mistakes are refused naming the file and the line: unmapped files, bad operators, reasonless equivalents")
        func refusals() throws {
            let folder = try project("refuse", equivalent: "\(Self.path)@Rules.check#1 relational >= -> >\n")
            defer { folder.cleanUp() }
            let reasonless = try mutate(["--root", folder.path, "--list"])
            #expect(reasonless.status == 2)
            #expect(reasonless.stderr.contains("Conformance/mutation/equivalent.txt:1: expected `ID | reason`"))
            try write("", to: folder.file("Conformance/mutation/equivalent.txt"))
            try write("let q = 1\n", to: folder.file("Elsewhere/Loose.swift"))
            try write("let q = 1\n", to: folder.file("Sources/Other/Loose.swift"))
            let unmapped = try mutate(["--root", folder.path, "--list", "--files", "Sources/Other/*"])
            #expect(unmapped.status == 2)
            #expect(unmapped.stderr.contains("Sources/Other/Loose.swift: no rule of Conformance/mutation/map.txt names it"))
            let operators = try mutate(["--root", folder.path, "--list", "--operators", "relational,bogus"])
            #expect(operators.status == 2)
            #expect(operators.stderr.contains("unknown operator bogus"))
            try write("let s = \"open\n", to: folder.file("Sources/Fixture/Broken.swift"))
            let broken = try mutate(["--root", folder.path, "--list"])
            #expect(broken.status == 2)
            #expect(broken.stderr.contains("Sources/Fixture/Broken.swift: unterminated string literal"))
        }

        @Test("score = killed / (generated - stillborn - equivalent); survivors listed with file:line and diff")
        func score() throws {
            let marked = "\(Self.path)@Rules.check#1 relational == -> !="
            let folder = try project("score", equivalent: "# judged\n\(marked) | x is never 1024 here\n"
                                         + "\(Self.path)@Rules.gone#1 relational == -> != | code since removed\n")
            defer { folder.cleanUp() }
            let listed = try mutate(["--root", folder.path, "--list"])
            #expect(listed.stdout.contains("\(marked)  at \(Self.path):14:18   [BFT/OPT BFT/SIZE]  (judged equivalent)"))
            // An equivalent line that names no mutant any more is warned about: judge it again.
            #expect(listed.stderr.contains("names \(Self.path)@Rules.gone#1 relational == -> !=, which is no mutant the tool judges"))
            #expect(!listed.stderr.contains("names \(marked)"))

            func record(_ id: Int, _ status: String, path: String = Self.path, identifier: String? = nil) -> String {
                let object: [String: Any] = [
                    "kind": "mutant", "id": identifier ?? "m\(id)", "path": path, "line": id, "operator": "relational",
                    "groups": ["BFT/OPT"], "status": status, "diff": "-old \(id)\n+new \(id)",
                ]
                let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                return String(decoding: data ?? Data(), as: UTF8.self)
            }
            var lines = [#"{"kind": "run", "mutants": 11}"#]
            lines += (1...5).map { record($0, "killed") }
            lines.append(record(6, "timeout"))
            lines.append(record(7, "survived", path: "Sources/Fixture/Other/Two.swift"))
            lines.append(record(8, "stillborn"))
            lines.append(record(9, "equivalent"))
            lines.append(record(10, "survived", identifier: marked))  // marked equivalent after the run
            lines.append(record(11, "survived"))  // superseded below by a resumed run
            lines.append(record(11, "killed"))
            lines.append(record(12, "survived"))
            lines.append(#"{"kind": "mutant", "id": "m13", "sta"#)  // cut short by an interruption
            let results = folder.file("results.jsonl")
            try write(lines.joined(separator: "\n"), to: results)

            let scored = try mutate(["--root", folder.path, "--score", "--results", results])
            // 12 generated (m11 once), 1 stillborn, 2 equivalent: 7 of 9 killed.
            #expect(scored.status == 1, "survivors make the exit status 1")
            #expect(scored.stdout.contains("mutation score: 77.8% (7 killed of 9: 12 generated - 1 stillborn - 2 equivalent; 1 of the killed by timeout)"),
                    "\(scored.stdout)")
            #expect(scored.stdout.contains("Fixture/Other  "))
            #expect(scored.stdout.contains("survivors (2):"))
            #expect(scored.stdout.contains("Sources/Fixture/Other/Two.swift:7  m7  (judged by BFT/OPT)"))
            #expect(scored.stdout.contains("-old 12\n    +new 12"))
            #expect(scored.stdout.contains("judged equivalent (2), not in the score:"))
            #expect(scored.stdout.contains("x is never 1024 here"))
            #expect(scored.stdout.contains("stillborn (1, did not compile), not in the score:\n  m8"))
        }
    }
}
