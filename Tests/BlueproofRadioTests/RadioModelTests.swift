@testable import BlueproofRadio
import Testing

@Suite("Radio model")
struct RadioModelTests {
    @Test("a fixed RSSI is the same at every time; range follows the sensitivity")
    func fixed() {
        let model = RadioModel(sensitivity: -90, defaultLink: .fixed(-45))
        #expect(model.rssi(observer: 0, advertiser: 1, at: .zero) == -45)
        #expect(model.rssi(observer: 1, advertiser: 0, at: .seconds(3600)) == -45)
        #expect(model.inRange(0, 1, at: .seconds(5)))
        #expect(model.nextRangeChange(0, 1, after: .zero) == nil)
        #expect(!RadioModel(sensitivity: -90, defaultLink: .fixed(-91)).inRange(0, 1, at: .zero))
    }

    @Test("fixed: not-available is always in range and reports 127; the scenario text reads it, and a misspelling is refused")
    func unmeasured() throws {
        let model = RadioModel(sensitivity: -20, defaultLink: .unmeasured)
        #expect(model.rssi(observer: 0, advertiser: 1, at: .seconds(7)) == 127)
        #expect(model.inRange(0, 1, at: .zero))
        #expect(model.nextRangeChange(0, 1, after: .zero) == nil)
        let yaml = "nodes:\n  - name: a\n  - name: b\nrssi:\n  fixed: not-available\n"
        #expect(try RadioScenario.load(yaml: yaml, file: "t.yaml").model.defaultLink == .unmeasured)
        #expect(throws: RadioScenarioError.self) {
            try RadioScenario.load(yaml: yaml.replacingOccurrences(of: "not-available", with: "unavailable"), file: "t.yaml")
        }
    }

    @Test("a schedule steps at its times, and its range changes are found exactly")
    func schedule() {
        let steps: [RadioLinkModel.Step] = [.init(at: .zero, rssi: -50), .init(at: .seconds(2), rssi: -51), .init(at: .seconds(4), rssi: -50)]
        let model = RadioModel(sensitivity: -50.5, links: [RadioPair(0, 1): .schedule(steps)])
        #expect(model.rssi(observer: 0, advertiser: 1, at: .milliseconds(1999)) == -50)
        #expect(model.rssi(observer: 1, advertiser: 0, at: .seconds(2)) == -51)
        #expect(model.rssi(observer: 0, advertiser: 1, at: .seconds(5)) == -50)
        #expect(model.nextRangeChange(0, 1, after: .zero) == .seconds(2))
        #expect(model.nextRangeChange(0, 1, after: .seconds(2)) == .seconds(4))
        #expect(model.nextRangeChange(0, 1, after: .seconds(4)) == nil)
        // Pairs not named use the default model.
        #expect(model.rssi(observer: 0, advertiser: 2, at: .zero) == -39, "-59 dBm at 1 m, 0.1 m apart at most")
    }

    @Test("path loss: -59 dBm at 1 m falls by 20 dB per decade with exponent 2")
    func pathLoss() {
        let paths: [Int: RadioPath] = [0: RadioPath(at: .origin), 1: RadioPath(at: RadioPosition(x: 10, y: 0)),
                                      2: RadioPath(at: RadioPosition(x: 0, y: 100))]
        let model = RadioModel(paths: paths, defaultLink: .pathLoss(.init(txPower: -59, exponent: 2)))
        #expect(model.rssi(observer: 0, advertiser: 1, at: .zero) == -79)
        #expect(model.rssi(observer: 0, advertiser: 2, at: .zero) == -99)
        #expect(!model.inRange(0, 2, at: .zero), "sensitivity -90 by default")
    }

    @Test("seeded noise: the same seed gives the same values in any order; its spread is sigma")
    func noise() {
        let link = RadioLinkModel.pathLoss(.init(txPower: -59, exponent: 2, noise: .gaussian(sigma: 2)))
        let paths: [Int: RadioPath] = [1: RadioPath(at: RadioPosition(x: 10, y: 0))]
        let model = RadioModel(seed: 42, paths: paths, defaultLink: link)
        let times = (0..<2000).map { Duration.milliseconds(100 * $0) }
        let forward = times.map { model.rssi(observer: 0, advertiser: 1, at: $0) }
        let backward = times.reversed().map { model.rssi(observer: 0, advertiser: 1, at: $0) }
        #expect(forward == backward.reversed())
        #expect(forward == times.map { RadioModel(seed: 42, paths: paths, defaultLink: link).rssi(observer: 0, advertiser: 1, at: $0) })
        #expect(forward != times.map { RadioModel(seed: 43, paths: paths, defaultLink: link).rssi(observer: 0, advertiser: 1, at: $0) })
        let values = times.map { model.meanRSSI(0, 1, at: $0) + RadioNoise.gaussian(sigma: 2).sample(seed: 42, observer: 0, advertiser: 1, at: $0) }
        let mean = values.reduce(0, +) / Double(values.count)
        let deviation = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
        #expect(abs(mean - -79) < 0.2, "mean \(mean)")
        #expect(abs(deviation - 2) < 0.15, "standard deviation \(deviation)")
        let uniform = times.map { RadioNoise.uniform(amplitude: 3).sample(seed: 7, observer: 1, advertiser: 0, at: $0) }
        #expect(uniform.allSatisfy { abs($0) <= 3 } && uniform.contains { $0 > 2.5 } && uniform.contains { $0 < -2.5 })
        // Range ignores noise: it does not flicker.
        #expect(times.allSatisfy { model.inRange(0, 1, at: $0) })
    }

    @Test("a node walking in from 20 m enters range at the exact millisecond the mean RSSI reaches the sensitivity")
    func walkIn() throws {
        let walk = try #require(RadioPath(waypoints: [.init(at: .zero, position: RadioPosition(x: 20, y: 0)),
                                                      .init(at: .seconds(10), position: RadioPosition(x: 1, y: 0))]))
        let model = RadioModel(sensitivity: -80, paths: [1: walk], defaultLink: .pathLoss(.init(txPower: -59, exponent: 2)))
        #expect(!model.inRange(0, 1, at: .zero))
        let change = try #require(model.nextRangeChange(0, 1, after: .zero))
        #expect(change == .milliseconds(4621))
        #expect(!model.inRange(0, 1, at: .milliseconds(4620)))
        #expect(model.inRange(0, 1, at: change))
        #expect(model.nextRangeChange(0, 1, after: change) == nil, "it stays at 1 m")
        #expect(model.nextRangeChange(among: [0, 1, 2], after: .zero) == change)

        // And walking away again leaves range just after the same distance.
        let away = try #require(RadioPath(waypoints: [.init(at: .zero, position: RadioPosition(x: 1, y: 0)),
                                                      .init(at: .seconds(10), position: RadioPosition(x: 20, y: 0))]))
        let leaving = RadioModel(sensitivity: -80, paths: [1: away], defaultLink: .pathLoss(.init(txPower: -59, exponent: 2)))
        let out = try #require(leaving.nextRangeChange(0, 1, after: .zero))
        #expect(leaving.inRange(0, 1, at: out - .milliseconds(1)) && !leaving.inRange(0, 1, at: out))
        #expect(out == .milliseconds(5380))
    }
}
