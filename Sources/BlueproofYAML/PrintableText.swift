/// Text quoted from input, made safe to print: a hostile file must not drive the terminal.
public enum PrintableText {
    /// `text` with every control, format, private-use, unassigned or separator character
    /// written as `\u{…}`; letters, marks, symbols and spaces stay as they are.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .privateUse, .unassigned, .surrogate, .lineSeparator, .paragraphSeparator:
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
