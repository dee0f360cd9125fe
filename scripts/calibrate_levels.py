#!/usr/bin/env python3
"""Calibrate Chariot's strength levels by playing games (docs/levels.md, "Calibration").

Plays pairings with `chariot match` (every move checked, games judged by the
Xiangqi rules), appends one row per pairing to a TSV file, and prints the
calibration table in Markdown.

Pairings:
  ladder    each rank against the rank below it (the gaps the ratings claim)
  span      wider gaps (1100-1500, 1500-1900, 2200-2600): the scale's slope
            with fewer games than a chain of neighbours
  anchors   the ranks against fixed references: full-strength Chariot at a
            fixed node count, MaxQi and Sjaak II at a fixed depth,
            Fairy-Stockfish with its Skill Level at a fixed node count
  all       all three

Pairings already in the output file are skipped (a run can be resumed).

Games have fixed limits, not clocks, so the results do not depend on the
machine's load: a level plays at `go depth 60`, which does not bind it (it
stops at its own node budget); a reference plays at its own fixed depth or
node count (`chariot match` takes a limit per engine). Openings: the 100 of
scripts/openings/dev-openings.txt, in order, each played with both colours.
Everything runs under `nice -n 19`, one game at a time.

Needs a release build (`cargo build --release`). The anchors also need the
reference engines, Debian packages installed in /usr/games:
  apt-get install maxqi sjaakii fairy-stockfish
(or give their paths with --maxqi, --sjaakii, --fairy-stockfish). The script
stops at once, with a message, when one that the pairings need is missing.

    python3 scripts/calibrate_levels.py run --pairs ladder --games 20 --out calib.tsv
    python3 scripts/calibrate_levels.py table calib.tsv
"""

import argparse
import math
import os
import re
import shutil
import subprocess
import tempfile
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
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

# Anchor pairings: (level, reference). A reference plays at its own fixed
# limit while the level is unlimited (`go depth 60`: it stops at its own
# node budget):
#   chariot-nN   full-strength Chariot, `go nodes N`
#   maxqi-dD     MaxQi at depth D (xboard `sd D`)
#   sjaak-dD     Sjaak II at depth D
#   fsf-sS-nN    Fairy-Stockfish with Skill Level S, `go nodes N`
# Each reference is fixed (it does not change when the levels are refitted),
# and each is played by neighbouring ranks, so the gap between two ranks is
# measured a second way: as the difference of their scores against it.
ANCHORS = [
    ("caomin", "chariot-n100"),
    ("xiancheng", "chariot-n250"), ("xianling", "chariot-n250"), ("duwei", "chariot-n250"),
    ("xiaowei", "chariot-n250"),
    ("xiaowei", "chariot-n1000"), ("changshi", "chariot-n1000"), ("zhonglangjiang", "chariot-n1000"),
    ("taishou", "chariot-n1000"),
    ("taishou", "chariot-n3000"), ("cishi", "chariot-n3000"), ("jiangjun", "chariot-n3000"),
    ("taiwei", "chariot-n3000"),
    ("taiwei", "chariot-n16000"), ("dajiangjun", "chariot-n16000"), ("wang", "chariot-n16000"),
    ("xiancheng", "maxqi-d2"), ("changshi", "maxqi-d3"),
    ("xiancheng", "sjaak-d2"), ("changshi", "sjaak-d3"),
    ("changshi", "fsf-s0-n20000"), ("wang", "fsf-s10-n20000"),
    ("xiancheng", "fsf-s0-n20000"), ("jiangjun", "maxqi-d4"), ("jiangjun", "sjaak-d4"),
]
SPAN = [("changshi", "xiancheng"), ("jiangjun", "changshi"), ("wang", "taiwei")]


# The reference engines: (option, Debian package and program, what it is).
REFERENCE_PROGRAMS = {"maxqi": ("maxqi", "MaxQi, xboard"), "sjaak": ("sjaakii", "Sjaak II, xboard"),
                      "fsf": ("fairy-stockfish", "Fairy-Stockfish, UCI")}
REFERENCE = re.compile(r"(chariot|maxqi|sjaak|fsf)(?:-s(\d+))?-([nd])(\d+)")


def level_engine(chariot, level):
    return ["name=%s" % level, "cmd=%s" % chariot, "opt:Level=%s" % level, "depth=%d" % LEVEL_DEPTH]


def reference_engine(args, ref):
    """The `chariot match` engine spec of a reference named as in ANCHORS."""
    m = REFERENCE.fullmatch(ref)
    if not m:
        raise SystemExit("unknown reference %s" % ref)
    engine, skill, kind, limit = m.groups()
    limit = "%s=%s" % ("nodes" if kind == "n" else "depth", limit)
    if engine == "chariot":
        return ["name=%s" % ref, "cmd=%s" % args.reference_chariot, limit]
    if engine in ("maxqi", "sjaak"):
        # xboard engines take a depth (`sd`) and no node limit.
        return ["name=%s" % ref, "cmd=%s" % args.programs[engine], "proto=xboard", limit]
    return ["name=%s" % ref, "cmd=%s" % args.programs[engine], "opt:Skill Level=%s" % skill,
            "opt:Threads=1", "opt:Hash=16", limit]


def find_programs(args, pairs):
    """The path of every reference engine the pairings need; stops with a
    message naming the Debian package when one is missing."""
    if not os.access(args.chariot, os.X_OK):
        raise SystemExit("no Chariot build at %s: run `cargo build --release` (or give --chariot)" % args.chariot)
    args.programs = {}
    for _, other, _, _ in pairs:
        m = REFERENCE.fullmatch(other)
        if not m or m.group(1) == "chariot" or m.group(1) in args.programs:
            continue
        engine = m.group(1)
        package, what = REFERENCE_PROGRAMS[engine]
        given = getattr(args, package.replace("-", "_"))
        path = given or shutil.which(package) or os.path.join("/usr/games", package)
        if not os.access(path, os.X_OK):
            raise SystemExit("%s (%s) is needed for the pairing against %s and was not found%s.\n"
                             "Install it with `apt-get install %s` (Debian puts it in /usr/games), or give "
                             "its path with --%s." % (package, what, other, " at " + given if given else "",
                                                    package, package))
        args.programs[engine] = path


def play(args, first, second):
    """Plays one pairing; returns (wins, draws, losses) of the first engine."""
    if args.games % 2:
        raise SystemExit("--games must be even (each opening is played with both colours)")
    # `chariot match` appends only to a PGN file it is resuming, so each
    # pairing writes its own and the games are added to --pgn afterwards.
    pgn = tempfile.NamedTemporaryFile(suffix=".pgn", delete=False).name if args.pgn else None
    if pgn:
        os.unlink(pgn)
    cmd = ["nice", "-n", "19", args.chariot, "match",
           "--engine", *first, "--engine", *second,
           "--openings", args.openings, "--rounds", str(args.games // 2), "--games", "2",
           "--max-plies", "400", "--concurrency", "1"]
    if pgn:
        cmd += ["--pgn", pgn]
    print("$ " + " ".join(cmd), file=sys.stderr, flush=True)
    out = subprocess.run(cmd, capture_output=True, text=True)
    if pgn and os.path.exists(pgn):
        with open(pgn) as src, open(args.pgn, "a") as dst:
            dst.write(src.read())
        os.unlink(pgn)
    # The results table: `engine opponent games W D L ...`.
    name = first[0].split("=", 1)[1]
    for line in out.stdout.splitlines():
        words = line.split()
        if len(words) >= 6 and words[0] == name and words[2].isdigit():
            return int(words[3]), int(words[4]), int(words[5])
    sys.stderr.write(out.stdout[-2000:] + out.stderr[-2000:])
    raise SystemExit("chariot match gave no result (exit code %d)" % out.returncode)


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
        pairs += [(level, ref, "depth", LEVEL_DEPTH) for level, ref in ANCHORS]
    # Shards split the full list, so a resumed run keeps its share.
    if args.shard:
        k, n = map(int, args.shard.split("/"))
        pairs = pairs[k - 1::n]
    done = set()
    if os.path.exists(args.out):
        with open(args.out) as f:
            done = {tuple(line.split("\t")[:4]) for line in f if line.strip()}
    pairs = [p for p in pairs if tuple(map(str, p)) not in done]
    if args.only:
        wanted = set(args.only.split(","))
        pairs = [p for p in pairs if p[0] in wanted or p[1] in wanted]
    if args.first_opening > 1:
        # Later openings of the set, for more games of the same pairings
        # (the table adds the rows up).
        lines = [l for l in open(args.openings) if l.strip() and not l.startswith("#")]
        subset = os.path.join(tempfile.gettempdir(), "openings-from-%d-%d.txt" % (args.first_opening, os.getpid()))
        with open(subset, "w") as f:
            f.writelines(lines[args.first_opening - 1:])
        args.openings = subset
    find_programs(args, pairs)
    for level, other, mode, limit in pairs:
        first = level_engine(args.chariot, level)
        second = level_engine(args.chariot, other) if other in NOMINAL else reference_engine(args, other)
        w, d, l = play(args, first, second)
        row = "\t".join(map(str, (level, other, mode, limit, w + d + l, w, d, l)))
        with open(args.out, "a") as f:
            f.write(row + "\n")
        print(row, flush=True)


def describe_reference(ref):
    m = REFERENCE.fullmatch(ref)
    if not m:
        return ref
    engine, skill, kind, limit = m.groups()
    name = {"chariot": "Chariot (full strength)", "maxqi": "MaxQi", "sjaak": "Sjaak II",
            "fsf": "Fairy-Stockfish Skill %s" % skill}[engine]
    return "%s, %s %s" % (name, "nodes" if kind == "n" else "depth", limit)


def fitted_scale(merged, fixed=None):
    """Every rank's and every reference's rating from the pairings at once:
    weighted least squares on `rating(first) - rating(second) = measured
    difference`, each pairing weighted by the inverse variance of its
    difference (so a near-sweep, whose difference is very uncertain, counts
    little), with 县丞 fixed at 1100, or the ratings in `fixed` (Gauss-Seidel
    iterations). Clean sweeps and ranks or references joined to a fixed one
    by no pairing are left out."""
    edges = []
    for (level, other, mode, limit), (n, w, d, l) in merged.items():
        if 0 < w + d / 2 < n:
            ref = other if other in NOMINAL or (mode, limit) == ("depth", LEVEL_DEPTH) else "%s-%s%d" % (other, mode, limit)
            s = (w + d / 2) / n
            var_score = max((w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2) / n / n, 0.25 / n / n)
            slope = 400 / math.log(10) / (s * (1 - s))
            edges.append((level, ref, elo_diff(w, d, l)[0], 1 / (var_score * slope * slope)))
    fixed = fixed or {"xiancheng": 1100.0}
    rating = dict(fixed)
    for _ in range(500):
        for node in {x for e in edges for x in e[:2]} - set(fixed):
            terms = [(rating[b] + diff, wt) for a, b, diff, wt in edges if a == node and b in rating]
            terms += [(rating[a] - diff, wt) for a, b, diff, wt in edges if b == node and a in rating]
            if terms:
                rating[node] = sum(v * wt for v, wt in terms) / sum(wt for _, wt in terms)
    return rating


def anchor_gaps(merged):
    """Ranks that played the same reference: the gap between them measured
    as the difference of their results against it."""
    by_ref = {}
    for (level, other, mode, limit), (n, w, d, l) in merged.items():
        if other not in NOMINAL and (mode, limit) == ("depth", LEVEL_DEPTH) and 0 < w + d / 2 < n:
            by_ref.setdefault(other, []).append((NOMINAL[level], level, elo_diff(w, d, l)[0]))
    rows = []
    for ref, levels in by_ref.items():
        levels.sort()
        for (na, a, ea), (nb, b, eb) in zip(levels, levels[1:]):
            rows.append((describe_reference(ref), a, b, eb - ea, nb - na))
    if rows:
        print()
        print("| reference | ranks | gap measured through the reference | nominal gap |")
        print("| --- | --- | --- | --- |")
        for ref, a, b, gap, nominal in rows:
            print("| %s | %s %s - %s %s | %+.0f | %+d |" % (ref, CHINESE[b], b, CHINESE[a], a, gap, nominal))


def table(args):
    rows = []
    for path in args.tsv:
        with open(path) as f:
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
        if other in NOMINAL:
            opp = "%s %s" % (CHINESE[other], other)
        elif (mode, limit) == ("depth", LEVEL_DEPTH):
            opp = describe_reference(other)
        else:
            opp = "%s, %s %d for both" % (other, mode, limit)
        print("| %s %s | %s | %d | %d-%d-%d | %.0f%% | %s | %s |" % (
            CHINESE[level], level, opp, n, w, d, l, score, text, nominal))
        if other in NOMINAL:
            # A clean sweep has no finite difference: the chain stops there.
            chain[(other, level)] = e if 0 < w + d / 2 < n else None
    anchor_gaps(merged)
    # Each rank's rating three ways: from the games between ranks only, from
    # the games against full-strength Chariot at fixed node counts only, and
    # from both. Other engines are not used to fit the ranks (results across
    # engine families are not transitive: a weak level exploits a
    # Skill-Level Fairy-Stockfish better than its rating says); they are
    # placed on the scale afterwards, as a reading aid.
    ladder = {k: v for k, v in merged.items() if k[1] in NOMINAL}
    chariot = {k: v for k, v in merged.items() if k[1].startswith("chariot-n")}
    if args.pin:
        # The references' ratings from an earlier calibration: the ranks are
        # placed against them alone.
        pins = {name: float(r) for name, r in (p.split("=") for p in args.pin.split(","))}
        scale = fitted_scale(chariot, fixed=pins)
        print()
        print("| rank | nominal | fitted against the pinned references | difference |")
        print("| --- | --- | --- | --- |")
        for p, c, elo in RANKS:
            if p in scale:
                print("| %s %s | %d | %.0f | %+.0f |" % (c, p, elo, scale[p], scale[p] - elo))
        return
    scales = [("ranks against ranks", fitted_scale(ladder)), ("against Chariot at fixed nodes", fitted_scale(chariot)),
              ("both", fitted_scale({**ladder, **chariot}))]
    scales = [(name, r) for name, r in scales if len(r) > 1]
    if len(scales) == 2:
        scales = scales[:1]  # "both" is the one kind there is
    if scales:
        print()
        print("| rank | nominal | " + " | ".join("fitted: %s" % name for name, _ in scales) + " |")
        print("| --- | --- |" + " --- |" * len(scales))
        for p, c, elo in RANKS:
            if any(p in r for _, r in scales):
                cells = ["%.0f" % r[p] if p in r else "-" for _, r in scales]
                print("| %s %s | %d | %s |" % (c, p, elo, " | ".join(cells)))
        ranks = {n: r for n, r in scales[-1][1].items() if n in NOMINAL}
        placed = fitted_scale(merged, fixed=ranks)
        refs = sorted((r, n) for n, r in placed.items() if n not in NOMINAL)
        if refs:
            print()
            print("The references on the last scale: " +
                  ", ".join("%s %.0f" % (describe_reference(n), r) for r, n in refs))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="play pairings and append results to a TSV file")
    r.add_argument("--chariot", default=os.path.join(HERE, "..", "target", "release", "chariot"),
                   help="the build whose levels play, and that runs the matches (default: target/release/chariot)")
    r.add_argument("--reference-chariot",
                   help="the build that plays the chariot-nN references (default: --chariot). Pin it to one build "
                        "(docs/levels.md names it) so that the references stay fixed while the engine changes")
    for package, what in REFERENCE_PROGRAMS.values():
        r.add_argument("--" + package, help="the %s program (default: %s on the PATH, else /usr/games/%s)"
                       % (what, package, package))
    r.add_argument("--openings", default=os.path.join(HERE, "openings", "dev-openings.txt"))
    r.add_argument("--pairs", choices=["ladder", "span", "anchors", "all"], default="ladder")
    r.add_argument("--only", help="comma-separated level or reference names to restrict the pairings")
    r.add_argument("--first-opening", type=int, default=1,
                   help="start at this opening of the set: more games of the same pairings on new openings, "
                        "written to another --out file (the table adds the files up)")
    r.add_argument("--shard", help="K/N: play only every Nth pairing from the Kth (to run N side by side)")
    r.add_argument("--games", type=int, default=20, help="games per pairing (openings x 2 colours)")
    r.add_argument("--out", default="calibration.tsv")
    r.add_argument("--pgn")
    t = sub.add_parser("table", help="print the Markdown calibration table from a TSV file")
    t.add_argument("tsv", nargs="+", help="result files; rows of the same pairing add up")
    t.add_argument("--pin", help="reference=rating,...: fit the ranks against references whose ratings are fixed "
                                 "(those of an earlier calibration), instead of 县丞 = 1100")
    args = ap.parse_args()
    if args.command == "run":
        args.chariot = os.path.abspath(args.chariot)
        args.reference_chariot = os.path.abspath(args.reference_chariot or args.chariot)
    (run if args.command == "run" else table)(args)


if __name__ == "__main__":
    main()
