import BlueproofWire
import BlueproofYAML
import Foundation
import Yams

extension RadioScenario {
    /// Reads a scenario file (docs/radio-proxy.md); the file is checked as `SafeYAML.read` says.
    public static func load(path: String) throws(RadioScenarioError) -> RadioScenario {
        let text: String
        do throws(SafeYAMLError) {
            text = try SafeYAML.read(path: path)
        } catch {
            throw RadioScenarioError(file: path, line: nil, column: nil, reason: "cannot read the scenario: \(error.reason)")
        }
        return try load(yaml: text, file: path)
    }

    /// Parses a scenario; anything unknown, mistyped, out of range or missing is refused with its
    /// place, and so are anchors, aliases and deep nesting (`SafeYAML.compose`).
    public static func load(yaml: String, file: String = "<scenario>") throws(RadioScenarioError) -> RadioScenario {
        let root: Node?
        do throws(SafeYAMLError) {
            root = try SafeYAML.compose(yaml)
        } catch {
            throw RadioScenarioError(file: file, line: error.line, column: error.column, reason: error.reason)
        }
        guard let root else { throw RadioScenarioError(file: file, line: 1, column: 1, reason: "the file is empty") }
        var reader = ScenarioReader(fields: YAMLFields(file: file))
        return try reader.scenario(root)
    }
}

/// Turns the YAML tree of a scenario into a ``RadioScenario``.
struct ScenarioReader {
    let fields: YAMLFields
    var names: [String] = []

    init(fields: YAMLFields) { self.fields = fields }

    mutating func scenario(_ root: Node) throws(RadioScenarioError) -> RadioScenario {
        let top = try fields.mapping(root, "scenario", required: ["nodes"],
                                     optional: ["seed", "sensitivity", "advertising-interval", "rssi", "links", "faults"])
        var scenario = RadioScenario()
        var paths: [Int: RadioPath] = [:]
        for (index, entry) in try fields.sequence(top["nodes"]!, "nodes").enumerated() {
            let what = "nodes[\(index)]"
            let node = try fields.mapping(entry, what, required: ["name"], optional: ["position", "path"])
            let name = try fields.string(node["name"]!, "\(what).name")
            guard !names.contains(name) else { throw fields.error(node["name"], "\(what).name: \"\(name)\" is used twice") }
            names.append(name)
            if node["position"] != nil || node["path"] != nil {
                let key = try fields.oneOf(["position", "path"], in: node, at: entry, what)
                paths[index] = key == "position"
                    ? RadioPath(at: try position(node["position"]!, "\(what).position"))
                    : try path(node["path"]!, "\(what).path")
            }
        }
        guard !names.isEmpty else { throw fields.error(top["nodes"], "nodes: the list is empty") }
        scenario.nodeNames = names
        scenario.model.paths = paths
        if let seed = top["seed"] { scenario.model.seed = UInt64(try fields.integer(seed, "seed", in: 0...Int.max)) }
        if let value = top["sensitivity"] { scenario.model.sensitivity = try fields.rssi(value, "sensitivity") }
        if let value = top["advertising-interval"] {
            scenario.advertisingInterval = try fields.duration(value, "advertising-interval")
            guard scenario.advertisingInterval >= ScenarioLimits.minAdvertisingInterval else {
                throw fields.error(value, "advertising-interval: must be at least 1 ms (minAdvertisingInterval)")
            }
        }
        if let value = top["rssi"] { scenario.model.defaultLink = try link(value, "rssi", extra: []).model }
        if let value = top["links"] {
            for (index, entry) in try fields.sequence(value, "links").enumerated() {
                let (model, pair) = try link(entry, "links[\(index)]", extra: ["between"])
                guard let pair else { throw fields.error(entry, "links[\(index)]: missing \"between\"") }
                scenario.model.links[pair] = model
            }
        }
        if let value = top["faults"] {
            scenario.faults = try fields.sequence(value, "faults").enumerated().map { index, entry throws(RadioScenarioError) in
                try fault(entry, "faults[\(index)]")
            }
        }
        return scenario
    }

    /// A node by name or index.
    func node(_ value: Node, _ what: String) throws(RadioScenarioError) -> Int {
        let text = try fields.string(value, what)
        if let index = names.firstIndex(of: text) { return index }
        if let index = Int(text), names.indices.contains(index) { return index }
        throw fields.error(value, "\(what): no node \"\(text)\" (nodes: \(names.joined(separator: ", ")))")
    }

    func position(_ value: Node, _ what: String) throws(RadioScenarioError) -> RadioPosition {
        let items = try fields.sequence(value, what)
        guard items.count == 2 else { throw fields.error(value, "\(what): expected [x, y] in metres") }
        return RadioPosition(x: try fields.double(items[0], "\(what)[0]", in: ScenarioLimits.coordinate, unit: " m"),
                             y: try fields.double(items[1], "\(what)[1]", in: ScenarioLimits.coordinate, unit: " m"))
    }

    func path(_ value: Node, _ what: String) throws(RadioScenarioError) -> RadioPath {
        var waypoints: [RadioPath.Waypoint] = []
        for (index, entry) in try fields.sequence(value, what).enumerated() {
            let point = try fields.mapping(entry, "\(what)[\(index)]", required: ["at", "position"])
            waypoints.append(.init(at: try fields.duration(point["at"]!, "\(what)[\(index)].at"),
                                   position: try position(point["position"]!, "\(what)[\(index)].position")))
        }
        guard let path = RadioPath(waypoints: waypoints) else {
            throw fields.error(value, "\(what): needs at least one waypoint, in increasing time order")
        }
        return path
    }

    /// An RSSI model (`fixed`, `schedule` or `path-loss`), with the pair when `between` is allowed.
    func link(_ value: Node, _ what: String, extra: [String]) throws(RadioScenarioError) -> (model: RadioLinkModel, pair: RadioPair?) {
        let entry = try fields.mapping(value, what, optional: extra + ["fixed", "schedule", "path-loss"])
        var pair: RadioPair?
        if let between = entry["between"] {
            let items = try fields.sequence(between, "\(what).between")
            guard items.count == 2 else { throw fields.error(between, "\(what).between: expected two nodes") }
            let (a, b) = (try node(items[0], "\(what).between[0]"), try node(items[1], "\(what).between[1]"))
            guard a != b else { throw fields.error(between, "\(what).between: a node and itself") }
            pair = RadioPair(a, b)
        }
        switch try fields.oneOf(["fixed", "schedule", "path-loss"], in: entry, at: value, what) {
        case "fixed":
            if (try? fields.string(entry["fixed"]!, "\(what).fixed")) == "not-available" { return (.unmeasured, pair) }
            return (.fixed(try fields.rssi(entry["fixed"]!, "\(what).fixed")), pair)
        case "schedule":
            var steps: [RadioLinkModel.Step] = []
            let list = entry["schedule"]!
            for (index, item) in try fields.sequence(list, "\(what).schedule").enumerated() {
                let step = try fields.mapping(item, "\(what).schedule[\(index)]", required: ["at", "rssi"])
                let at = try fields.duration(step["at"]!, "\(what).schedule[\(index)].at")
                if let last = steps.last, at <= last.at {
                    throw fields.error(step["at"], "\(what).schedule[\(index)].at: times must increase")
                }
                steps.append(.init(at: at, rssi: try fields.rssi(step["rssi"]!, "\(what).schedule[\(index)].rssi")))
            }
            guard !steps.isEmpty else { throw fields.error(list, "\(what).schedule: the list is empty") }
            return (.schedule(steps), pair)
        default:
            return (.pathLoss(try pathLoss(entry["path-loss"]!, "\(what).path-loss")), pair)
        }
    }

    func pathLoss(_ value: Node, _ what: String) throws(RadioScenarioError) -> RadioLinkModel.PathLoss {
        let entry = try fields.mapping(value, what, optional: ["tx-power", "exponent", "noise"])
        var model = RadioLinkModel.PathLoss()
        if let power = entry["tx-power"] { model.txPower = try fields.rssi(power, "\(what).tx-power") }
        if let exponent = entry["exponent"] {
            model.exponent = try fields.double(exponent, "\(what).exponent", in: ScenarioLimits.exponent)
            guard model.exponent > 0 else { throw fields.error(exponent, "\(what).exponent: must be more than 0") }
        }
        if let noise = entry["noise"] {
            let kinds = try fields.mapping(noise, "\(what).noise", optional: ["gaussian", "uniform"])
            let kind = try fields.oneOf(["gaussian", "uniform"], in: kinds, at: noise, "\(what).noise")
            let amount = try fields.double(kinds[kind]!, "\(what).noise.\(kind)", in: ScenarioLimits.noise, unit: " dB")
            model.noise = kind == "gaussian" ? .gaussian(sigma: amount) : .uniform(amplitude: amount)
        }
        return model
    }

    /// The event names this project decodes, as ``HCIEvent/name`` gives them.
    static let eventNames: [String] = {
        let events = (0...0xFF).map { HCIEvent.name(ofCode: UInt8($0)) }
        let subevents = (0...0xFF).map { HCILEMetaEvent.name(ofSubevent: UInt8($0)) }
        return (events + subevents).filter { !$0.hasPrefix("Unknown") && $0 != "LE Meta Event" }
    }()

    static let faultKinds = ["drop", "delay", "withhold-credits", "buffer-size", "disconnect", "hardware-error"]

    func fault(_ value: Node, _ what: String) throws(RadioScenarioError) -> RadioFault {
        let entry = try fields.mapping(value, what, required: ["node"], optional: Self.faultKinds)
        let target = try node(entry["node"]!, "\(what).node")
        let kind = try fields.oneOf(Self.faultKinds, in: entry, at: value, what)
        let body = entry[kind]!
        let place = "\(what).\(kind)"
        switch kind {
        case "drop", "delay":
            let spec = try fields.mapping(body, place, required: kind == "delay" ? ["event", "by"] : ["event"],
                                          optional: ["from", "until", "count"])
            let match = try event(spec["event"]!, "\(place).event")
            let window = RadioWindow(from: try spec["from"].map { node throws(RadioScenarioError) in try fields.duration(node, "\(place).from") },
                                     until: try spec["until"].map { node throws(RadioScenarioError) in try fields.duration(node, "\(place).until") })
            let count = try spec["count"].map { node throws(RadioScenarioError) in try fields.integer(node, "\(place).count", in: ScenarioLimits.count) }
            if kind == "drop" { return RadioFault(node: target, action: .drop(match, window: window, count: count)) }
            let delay = try fields.duration(spec["by"]!, "\(place).by")
            return RadioFault(node: target, action: .delay(match, by: delay, window: window, count: count))
        case "withhold-credits":
            let spec = try fields.mapping(body, place, required: ["from", "for"], optional: ["since"])
            return RadioFault(node: target, action: .withholdCredits(from: try fields.duration(spec["from"]!, "\(place).from"),
                                                                     for: try fields.duration(spec["for"]!, "\(place).for")),
                              origin: try origin(spec["since"], "\(place).since"))
        case "buffer-size":
            let spec = try fields.mapping(body, place, optional: ["length", "count"])
            guard !spec.isEmpty else { throw fields.error(body, "\(place): needs length, count or both") }
            let length = try spec["length"].map { node throws(RadioScenarioError) in UInt16(try fields.integer(node, "\(place).length", in: 1...0xFFFF)) }
            let count = try spec["count"].map { node throws(RadioScenarioError) in UInt8(try fields.integer(node, "\(place).count", in: 1...0xFF)) }
            return RadioFault(node: target, action: .bufferSize(length: length, count: count))
        case "disconnect":
            let spec = try fields.mapping(body, place, required: ["at"], optional: ["reason", "since"])
            let reason = try spec["reason"].map { node throws(RadioScenarioError) in
                HCIStatus(rawValue: UInt8(try fields.integer(node, "\(place).reason", in: 1...0xFF)))
            } ?? .connectionTimeout
            return RadioFault(node: target, action: .disconnect(at: try fields.duration(spec["at"]!, "\(place).at"), reason: reason),
                              origin: try origin(spec["since"], "\(place).since"))
        default:
            let spec = try fields.mapping(body, place, required: ["at"], optional: ["code", "since"])
            let code = try spec["code"].map { node throws(RadioScenarioError) in UInt8(try fields.integer(node, "\(place).code", in: 0...0xFF)) } ?? 0
            return RadioFault(node: target, action: .hardwareError(at: try fields.duration(spec["at"]!, "\(place).at"), code: code),
                              origin: try origin(spec["since"], "\(place).since"))
        }
    }

    /// `since: start` (the default) or `since: connection`.
    func origin(_ value: Node?, _ what: String) throws(RadioScenarioError) -> RadioFault.Origin {
        guard let value else { return .start }
        let text = try fields.string(value, what)
        guard let origin = RadioFault.Origin(rawValue: text) else {
            throw fields.error(value, "\(what): \"\(text)\" is neither start nor connection")
        }
        return origin
    }

    func event(_ value: Node, _ what: String) throws(RadioScenarioError) -> RadioEventMatch {
        let text = try fields.string(value, what)
        if text.lowercased().hasPrefix("0x") { return .code(UInt8(try fields.integer(value, what, in: 0...0xFF))) }
        guard let name = Self.eventNames.first(where: { $0.lowercased() == text.lowercased() }) else {
            throw fields.error(value, "\(what): no event \"\(text)\" (known: \(Self.eventNames.joined(separator: ", ")), or a code such as 0x13)")
        }
        return .name(name)
    }
}
