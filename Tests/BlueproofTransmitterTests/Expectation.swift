import BlueproofTransmitter

/// What a test row expects from `SendValidator`, written by hand from the document's rules.
enum Expectation: Sendable, Equatable, CustomStringConvertible {
    /// Accepted with this mode, encryption flag and first hop.
    case accept(TransmissionMode, encrypted: Bool, firstHop: AcceptedSend.FirstHop)
    /// Refused with this code.
    case refuse(Int)

    var description: String {
        switch self {
        case .accept(let mode, let encrypted, let hop): "accept \(mode)\(encrypted ? "+enc" : "") via \(hop)"
        case .refuse(let code): "refuse \(code)"
        }
    }

    /// Whether `verdict` matches this expectation.
    func matches(_ verdict: SendVerdict) -> Bool {
        switch (self, verdict) {
        case (.accept(let mode, let encrypted, let hop), .accepted(let send)):
            send.mode == mode && send.encrypted == encrypted && send.firstHop == hop
        case (.refuse(let code), .refused(let error)):
            error.code == code
        default:
            false
        }
    }
}

/// The payload of a matrix cell.
enum CellPayload: String, Sendable, CaseIterable {
    case none, dictionary, binary, both

    var dictionarySize: Int? { self == .dictionary || self == .both ? 100 : nil }
    var binarySize: Int? { self == .binary || self == .both ? 100 : nil }
}
