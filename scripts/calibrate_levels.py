#!/usr/bin/env python3
"""Calibrate Chariot's strength levels by playing games (README, "Calibration").

Plays pairings with the match referee (referee.py, from the shared tools: it
checks every move and adjudicates by the Xiangqi rules), appends one row per
pairing to a TSV file, and prints the calibration table in Markdown.

Pairings:
  ladder    each rank against the rank below it (the gaps the ratings claim)
  span      wider gaps (1100-1500, 1500-1900, 2200-2600): the scale's slope
            with fewer games than a chain of neighbours
  anchors   some ranks against fixed references: full-strength Chariot at a
            fixed node count, Fairy-Stockfish with its Skill Level, MaxQi, Sjaak II
  all       all three

Pairings already in the output file are skipped (a run can be resumed).

Games have fixed limits, not clocks, so the results do not depend on the
machine's load: level against level with `go depth 60`, which does not bind
(each level stops at its own node budget); a level against a reference with
the reference's limit, which the referee sends to both engines, chosen so
that it does not bind the level either (`go nodes N` with N at least the
level's budget, or a depth the level does not reach). Everything runs under
`nice -n 19`, one game at a time.

    python3 scripts/calibrate_levels.py run --pairs ladder --games 20 --out calib.tsv
    python3 scripts/calibrate_levels.py table calib.tsv
"""

import argparse
import math
import os
import re
import subprocess
import sys

TOOLS = "/work/shared/tools"
RANKS = [
    ("caomin", "草民", 0), ("xiancheng", "县丞", 1100), ("xianling", "县令", 1200),
    ("duwei", "都尉", 1300), ("xiaowei", "校尉", 1400), ("changshi", "常侍", 1500),
    ("zhonglangjiang", "中郎将", 1600), ("taishou", "太守", 1700), ("cishi", "刺史", 1800),
    ("jiangjun", "将军", 1900), ("taiwei", "太尉", 2200), ("dajiangjun", "大将军", 2400),
    ("wang", "王", 2600),
]
NOMINAL = {p: elo for p, _, elo in RANKS}
CHINESE = {p: c for p, c, _ in RANKS}
# A level's own node budget binds long before this depth.
LEVEL_DEPTH = 60

# Anchor pairings: (level, reference, limit mode, limit). Full-strength
# Chariot at a node count, Fairy-Stockfish with a Skill Level at a node count,
# MaxQi and Sjaak II (xboard: no node limit) at a depth the levels tested
# against them do not reach (about 3 for 县丞, 4 for 常侍).
ANCHORS = [
    ("caomin", "chariot", "nodes", 2000), ("xiancheng", "chariot", "nodes", 2000),
    ("wang", "chariot", "nodes", 50000),
    ("xiancheng", "fsf-skill0", "nodes", 50000), ("changshi", "fsf-skill0", "nodes", 50000),
    ("jiangjun", "fsf-skill5", "nodes", 50000), ("wang", "fsf-skill10", "nodes", 50000),
    ("xiancheng", "maxqi", "depth", 5), ("changshi", "maxqi", "depth", 5),
    ("xiancheng", "sjaak", "depth", 5), ("changshi", "sjaak", "depth", 5),
]
SPAN = [("changshi", "xiancheng"), ("jiangjun", "changshi"), ("wang", "taiwei")]


def level_engine(chariot, level):
    return ["name=%s" % level, "cmd=%s" % chariot, "proto=uci", "opt:Level=%s" % level]


def reference_engine(chariot, ref):
    if ref == "chariot":
        return ["name=%s" % ref, "cmd=%s" % chariot, "proto=uci"]
    if ref.startswith("maxqi"):
        return ["name=%s" % ref, "cmd=/usr/games/maxqi", "proto=xboard"]
    if ref.startswith("sjaak"):
        return ["name=%s" % ref, "cmd=/usr/games/sjaakii", "proto=xboard", "fen_letters=he"]
    if ref.startswith("fsf-skill"):
        skill = ref[len("fsf-skill"):]
        return ["name=%s" % ref, "cmd=/usr/games/fairy-stockfish", "proto=uci", "opt:Skill Level=%s" % skill,
                "opt:Threads=1", "opt:Hash=16"]
    raise SystemExit("unknown reference %s" % ref)


def play(args, first, second, mode, limit):
    """Plays one pairing; returns (wins, draws, losses) of the first engine."""
    cmd = ["nice", "-n", "19", sys.executable, args.referee,
           "--engine", *first, "--engine", *second,
           "--" + mode, str(limit), "--games", str(args.games), "--openings", args.openings,
           "--concurrency", "1"]
    if args.pgn:
        cmd += ["--pgn", args.pgn]
    print("$ " + " ".join(cmd), file=sys.stderr, flush=True)
    out = subprocess.run(cmd, capture_output=True, text=True)
    m = re.search(r"^FINAL .*?: W (\d+) D (\d+) L (\d+) \((\d+) games\)", out.stdout, re.M)
    if not m:
        sys.stderr.write(out.stdout[-2000:] + out.stderr[-2000:])
        raise SystemExit("no FINAL line from the referee")
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


def to_elo(score):
    return -400 * math.log10(1 / score - 1)


def elo_diff(w, d, l):
    """Elo difference from a score with a 95% interval (trinomial, normal
    approximation). A clean sweep has no finite estimate: the text gives the
    bound from the rule of three (the other side scores under 3/n)."""
    n = w + d + l
    s = (w + d / 2) / n
    if s >= 1 or s <= 0:
        bound = to_elo(1 - 3 / n) if n > 3 else 0
        return (bound if s >= 1 else -bound), ("> %+.0f (all won)" if s >= 1 else "< %+.0f (all lost)") % (
            bound if s >= 1 else -bound)
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2) / n / n
    sd = math.sqrt(var)
    clip = lambda x: min(max(x, 0.5 / n), 1 - 0.5 / n)
    e, lo, hi = to_elo(s), to_elo(clip(s - 1.96 * sd)), to_elo(clip(s + 1.96 * sd))
    return e, "%+.0f [%+.0f, %+.0f]" % (e, lo, hi)


def run(args):
    pairs = []
    if args.pairs in ("ladder", "all"):
        for lower, upper in zip(RANKS, RANKS[1:]):
            pairs.append((upper[0], lower[0], "depth", LEVEL_DEPTH))
    if args.pairs in ("span", "all"):
        pairs += [(a, b, "depth", LEVEL_DEPTH) for a, b in SPAN]
    if args.pairs in ("anchors", "all"):
        pairs += ANCHORS
    done = set()
    if os.path.exists(args.out):
        with open(args.out) as f:
            done = {tuple(line.split("\t")[:4]) for line in f if line.strip()}
    pairs = [p for p in pairs if tuple(map(str, p)) not in done]
    if args.only:
        wanted = set(args.only.split(","))
        pairs = [p for p in pairs if p[0] in wanted or p[1] in wanted]
    for level, other, mode, limit in pairs:
        first = level_engine(args.chariot, level)
        second = level_engine(args.chariot, other) if other in NOMINAL else reference_engine(args.chariot, other)
        w, d, l = play(args, first, second, mode, limit)
        row = "\t".join(map(str, (level, other, mode, limit, w + d + l, w, d, l)))
        with open(args.out, "a") as f:
            f.write(row + "\n")
        print(row, flush=True)


def table(args):
    rows = []
    with open(args.tsv) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                level, other, mode, limit, n, w, d, l = line.split("\t")
                rows.append((level, other, mode, int(limit), int(n), int(w), int(d), int(l)))
    # Rows of the same pairing add up.
    merged = {}
    for level, other, mode, limit, n, w, d, l in rows:
        key = (level, other, mode, limit)
        a = merged.get(key, (0, 0, 0, 0))
        merged[key] = (a[0] + n, a[1] + w, a[2] + d, a[3] + l)
    print("| level | opponent | games | W-D-L | score | measured Elo difference (95%) | nominal gap |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    chain = {}
    for (level, other, mode, limit), (n, w, d, l) in merged.items():
        e, text = elo_diff(w, d, l)
        score = 100 * (w + d / 2) / n
        nominal = "%+d" % (NOMINAL[level] - NOMINAL[other]) if other in NOMINAL else "-"
        opp = "%s %s" % (CHINESE[other], other) if other in NOMINAL else "%s, %s %d" % (other, mode, limit)
        print("| %s %s | %s | %d | %d-%d-%d | %.0f%% | %s | %s |" % (
            CHINESE[level], level, opp, n, w, d, l, score, text, nominal))
        if other in NOMINAL:
            # A clean sweep has no finite difference: the chain stops there.
            chain[(other, level)] = e if 0 < w + d / 2 < n else None
    # The ladder as one scale: each rank's rating from the one below it,
    # anchored at 县丞 = 1100.
    names = [p for p, _, _ in RANKS]
    if all(chain.get((a, b)) is not None for a, b in zip(names[1:], names[2:])):
        print()
        print("| rank | nominal | measured (ladder, 县丞 = 1100) |")
        print("| --- | --- | --- |")
        rating = {"xiancheng": 1100.0}
        if chain.get(("caomin", "xiancheng")) is not None:
            rating["caomin"] = 1100.0 - chain[("caomin", "xiancheng")]
        for a, b in zip(names[1:], names[2:]):
            rating[b] = rating[a] + chain[(a, b)]
        for p, c, elo in RANKS:
            if p in rating:
                print("| %s %s | %d | %.0f |" % (c, p, elo, rating[p]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="play pairings and append results to a TSV file")
    r.add_argument("--chariot", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "chariot"))
    r.add_argument("--referee", default=os.path.join(TOOLS, "referee.py"))
    r.add_argument("--openings", default=os.path.join(TOOLS, "openings", "dev-openings.txt"))
    r.add_argument("--pairs", choices=["ladder", "span", "anchors", "all"], default="ladder")
    r.add_argument("--only", help="comma-separated level or reference names to restrict the pairings")
    r.add_argument("--games", type=int, default=20, help="games per pairing (openings x 2 colours)")
    r.add_argument("--out", default="calibration.tsv")
    r.add_argument("--pgn")
    t = sub.add_parser("table", help="print the Markdown calibration table from a TSV file")
    t.add_argument("tsv")
    args = ap.parse_args()
    args.chariot = os.path.abspath(args.chariot) if args.command == "run" else None
    (run if args.command == "run" else table)(args)


if __name__ == "__main__":
    main()
