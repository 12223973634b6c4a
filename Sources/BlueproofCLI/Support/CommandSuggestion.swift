import ArgumentParser

/// A subcommand name that is not one: `blueproof rn` names the nearest (`run`) and lists the
/// others, instead of ArgumentParser's bare "Unexpected argument".
enum CommandSuggestion {
    /// The message for the first word of `arguments` (after the program name) that should
    /// name a subcommand and does not; nil when every such word does.
    static func message(for arguments: [String], root: any ParsableCommand.Type) -> String? {
        var command = root
        var path = [root.configuration.commandName ?? "blueproof"]
        var words = arguments[...]
        // `blueproof help X` names commands the same way.
        if words.first == "help" { words = words.dropFirst() }
        for word in words {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, !word.hasPrefix("-") else { return nil }
            let names = subcommands.map { $0._commandName }
            if let index = names.firstIndex(of: word) {
                command = subcommands[index]
                path.append(word)
                continue
            }
            if word == "help" { return nil }
            let nearest = names.min { distance(word, $0) < distance(word, $1) } ?? ""
            let suggestion = distance(word, nearest) <= max(2, nearest.count / 2) ? " Did you mean '\(nearest)'?" : ""
            return "\(path.joined(separator: " ")): no command '\(word)'.\(suggestion) "
                + "Commands: \(names.joined(separator: ", ")); see '\(path.joined(separator: " ")) --help'."
        }
        return nil
    }

    /// Levenshtein distance: insertions, deletions and substitutions.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for (i, left) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, right) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
