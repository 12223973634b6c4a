"""Results (one JSON object a line) and the mutation score.

score = killed / (generated - stillborn - judged equivalent); a timeout counts as killed.
"""

import json
import os

KILLED = ("killed", "timeout")
FINAL = ("killed", "timeout", "survived", "stillborn", "equivalent")


def read_results(path):
    """The last record of every mutant id in the file (a resumed run may repeat one), in order,
    and the run headers. A line cut short by an interruption is ignored."""
    records, headers = {}, []
    if not os.path.exists(path):
        return records, headers
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if record.get("kind") == "run":
                headers.append(record)
            elif record.get("kind") == "mutant" and record.get("status") in FINAL:
                records[record["id"]] = record
    return records, headers


def module_of(path):
    """`Sources/BlueproofTransmitter/Security/Licence.swift` -> `BlueproofTransmitter/Security`."""
    parts = path.split("/")
    if parts and parts[0] == "Sources":
        parts = parts[1:]
    return "/".join(parts[:-1]) or path


def classify(records, equivalent):
    """Each record's final class, with survivors listed in `equivalent` (id -> reason) moved there."""
    out = []
    for record in records:
        status = record["status"]
        if status == "survived" and record["id"] in equivalent:
            status = "equivalent"
        out.append((status, record))
    return out


def tally(classified):
    counts = {"generated": 0, "killed": 0, "timeout": 0, "survived": 0, "stillborn": 0, "equivalent": 0}
    for status, _ in classified:
        counts["generated"] += 1
        counts[status] += 1
    judged = counts["generated"] - counts["stillborn"] - counts["equivalent"]
    caught = counts["killed"] + counts["timeout"]
    counts["judged"] = judged
    counts["score"] = (caught / judged) if judged else None
    return counts


def percent(score):
    return "n/a" if score is None else f"{100 * score:.1f}%"


def summary(records, equivalent, out):
    """Prints the score, per module, the survivors with their diffs, the stillborn and the
    judged-equivalent mutants. Returns the totals."""
    classified = classify(records, equivalent)
    total = tally(classified)
    caught = total["killed"] + total["timeout"]
    print(f"mutation score: {percent(total['score'])} ({caught} killed of {total['judged']}: "
          f"{total['generated']} generated - {total['stillborn']} stillborn - {total['equivalent']} equivalent; "
          f"{total['timeout']} of the killed by timeout)", file=out)
    modules = {}
    for status, record in classified:
        modules.setdefault(module_of(record["path"]), []).append((status, record))
    if modules:
        print("\nper module:", file=out)
        width = max(len(name) for name in modules)
        for name in sorted(modules):
            counts = tally(modules[name])
            print(f"  {name:<{width}}  {percent(counts['score']):>6}  killed {counts['killed'] + counts['timeout']:>3}"
                  f"  survived {counts['survived']:>3}  stillborn {counts['stillborn']:>3}"
                  f"  equivalent {counts['equivalent']:>3}", file=out)
    survivors = [record for status, record in classified if status == "survived"]
    print(f"\nsurvivors ({len(survivors)}):", file=out)
    for record in survivors:
        where = record.get("location") or (f"{record['path']}:{record['line']}" if record.get("line") else None) or ", ".join(record.get("files", [record["path"]]))
        judges = " ".join(record.get("groups", [])) or "no group"
        note = f" [{record['note']}]" if record.get("note") else ""
        shown = record["id"] if record["id"].startswith(f"{where}:") else f"{where}  {record['id']}"
        print(f"\n  {shown}  (judged by {judges}){note}", file=out)
        for line in record.get("diff", "").splitlines():
            print("    " + line, file=out)
    equivalents = [record for status, record in classified if status == "equivalent"]
    if equivalents:
        print(f"\njudged equivalent ({len(equivalents)}), not in the score:", file=out)
        for record in equivalents:
            print(f"  {record['id']}\n      {equivalent.get(record['id'], record.get('reason', ''))}", file=out)
    stillborn = [record for status, record in classified if status == "stillborn"]
    if stillborn:
        print(f"\nstillborn ({len(stillborn)}, did not compile), not in the score:", file=out)
        for record in stillborn:
            print(f"  {record['id']}", file=out)
    return total
