import BlueproofConformance
import Testing

@Suite("Case selection: shards and filters")
struct SelectionTests {
    let ids: [CaseID]

    init() throws { ids = try Fixtures.catalogue().entries.map(\.id) }

    @Test("shards of the whole catalogue are disjoint and together hold every case", arguments: [1, 2, 3, 5, 8])
    func partition(count: Int) throws {
        let shards = try (1...count).map { try Shard(index: $0, count: count) }
        var seen: [CaseID: Int] = [:]
        for shard in shards {
            for id in ids where shard.contains(id) { seen[id, default: 0] += 1 }
        }
        #expect(seen.count == ids.count, "every case in some shard")
        #expect(seen.values.allSatisfy { $0 == 1 }, "no case in two shards")
        if count > 1 {
            // Each shard gets a share, not everything or nothing.
            for shard in shards { #expect(ids.contains { shard.contains($0) }, "shard \(shard) is empty") }
        }
    }

    @Test("the shard of an id is fixed: FNV-1a, not Swift's per-process Hasher")
    func stable() throws {
        #expect(Shard.fnv1a("") == 0xcbf2_9ce4_8422_2325)
        #expect(Shard.fnv1a("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Shard.fnv1a("foobar") == 0x85944171f73967e8)
        let shard = try Shard(parsing: "1/4")
        let members = ids.filter { shard.contains($0) }
        #expect(members == ids.filter { Int(Shard.fnv1a($0.rawValue) % 4) == 0 })
    }

    @Test("bad shard texts are refused", arguments: ["0/3", "4/3", "1/0", "a/b", "1", "1/2/3", "-1/2"])
    func badShard(text: String) {
        #expect(throws: ShardError.self) { try Shard(parsing: text) }
    }

    @Test("globs match ids; * crosses /; several globs are a union; none selects all")
    func filters() {
        #expect(CaseFilter(["CBT/GATE/*"]).matches("CBT/GATE/BI-01"))
        #expect(!CaseFilter(["CBT/GATE/*"]).matches("CBT/CHUNK/BV-01"))
        #expect(CaseFilter(["*/BI-*"]).matches("CBT/GATE/BI-02"))
        #expect(CaseFilter(["CBT/*"]).matches("CBT/FLOW/BI-01"))
        #expect(!CaseFilter(["CBT/*/BV-0?"]).matches("CBT/FLOW/BI-01"))
        #expect(CaseFilter(["CBT/CHUNK/BV-0[12]"]).matches("CBT/CHUNK/BV-02"))
        #expect(!CaseFilter(["CBT/CHUNK/BV-0[12]"]).matches("CBT/CHUNK/BV-03"))
        #expect(CaseFilter(["BFT/*", "CBT/ROLE/*"]).matches("CBT/ROLE/BV-01"))
        #expect(CaseFilter([]).matches("BLN/SCAN/BV-01"))
        let selected = ids.filter(CaseFilter(["CBT/GATE/*"]).matches)
        #expect(selected.count == 9)
    }
}
