import Testing

/// Runs `tshark -r path -T fields -e …` and returns one array of fields per frame; `options`
/// go before the rest (e.g. `-X lua_script:…`, `-o pref:value`).
public func tsharkFields(_ tshark: String, _ path: String, _ fields: [String], filter: String? = nil,
                         options: [String] = []) throws -> [[String]] {
    var arguments = options + ["-r", path, "-T", "fields"]
    for field in fields { arguments += ["-e", field] }
    if let filter { arguments += ["-Y", filter] }
    let result = try run(tshark, arguments)
    guard result.status == 0 else {
        Issue.record("tshark failed with status \(result.status): \(result.stderr)")
        return []
    }
    return result.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
}

/// The numbers of the frames that pass `filter` (every frame without one).
public func frameNumbers(_ tshark: String, _ path: String, filter: String? = nil) throws -> [String] {
    try tsharkFields(tshark, path, ["frame.number"], filter: filter).map { $0.joined() }
}

/// Frame numbers tshark marks as malformed (`_ws.malformed`).
public func malformedFrames(_ tshark: String, _ path: String) throws -> [String] {
    try frameNumbers(tshark, path, filter: "_ws.malformed")
}
