#!/usr/bin/env python3
"""Fit the friendly mode's formula from average centipawn loss to Elo
(docs/levels.md, "Friendly mode").

Makes test positions by playing the openings of scripts/openings/ on with
full-strength Chariot (depth 5), lets every level choose a move in each, and has Chariot's
own friendly-mode judgement (the same code the mode uses, read from its
`info string adaptive: ... average loss X cp`) measure what each move lost.
Then fits  elo = A - B * ln(1 + loss / 10)  to the levels' ratings by least
squares and prints the per-level averages and A, B.

Needs only a release build of Chariot (`cargo build --release`).

    python3 scripts/fit_friendly.py --openings 40 --out friendly.tsv
"""

import argparse
import math
import os
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
LEVELS = [("caomin", 0), ("xiancheng", 1100), ("xianling", 1200), ("duwei", 1300), ("xiaowei", 1400),
          ("changshi", 1500), ("zhonglangjiang", 1600), ("taishou", 1700), ("cishi", 1800),
          ("jiangjun", 1900), ("taiwei", 2200), ("dajiangjun", 2400), ("wang", 2600)]


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen(["nice", "-n", "19", path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.until("uciok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        out = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("chariot ended")
            line = line.strip()
            out.append(line)
            if line.startswith(prefix):
                return out

    def best(self, setup, go):
        self.send(setup)
        self.send("go " + go)
        out = self.until("bestmove")
        return out[-1].split()[1], out


def positions(engine, openings_file, count, plies):
    """FENs of the openings played on to each of `plies`."""
    lines = [l.split("#")[0].split()[1:] for l in open(openings_file) if l.startswith("moves")]
    result = []
    for moves in lines[:count]:
        moves = list(moves)
        for target in plies:
            while len(moves) < target:
                m, _ = engine.best("position startpos moves " + " ".join(moves), "depth 5")
                moves.append(m)
            engine.send("position startpos moves " + " ".join(moves))
            engine.send("d")
            fen = [l for l in engine.until("Fen: ") if l.startswith("Fen: ")][0][5:]
            result.append(fen)
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chariot", default=os.path.join(HERE, "..", "target", "release", "chariot"),
                    help="the Chariot build (default: target/release/chariot)")
    ap.add_argument("--openings-file", default=os.path.join(HERE, "openings", "dev-openings.txt"),
                    help="lines `moves m1 m2 ...` (ICCS) from the start position")
    ap.add_argument("--openings", type=int, default=40, help="how many of them to use")
    ap.add_argument("--out", default="friendly.tsv")
    args = ap.parse_args()
    chariot = os.path.abspath(args.chariot)
    if not os.access(chariot, os.X_OK):
        raise SystemExit("no Chariot build at %s: run `cargo build --release` (or give --chariot)" % chariot)
    maker = Engine(chariot)
    test_positions = positions(maker, args.openings_file, args.openings, (16, 26, 36))
    player = Engine(chariot)
    judge = Engine(chariot)
    judge.send("setoption name Friendly value true")
    averages = []
    with open(args.out, "w") as out:
        for level, elo in LEVELS:
            player.send("setoption name Level value " + level)
            losses = []
            for fen in test_positions:
                player.send("ucinewgame")
                m, _ = player.best("position fen " + fen, "depth 60")
                # The judge sees one opponent move: the level's.
                judge.send("ucinewgame")
                _, lines = judge.best("position fen %s moves %s" % (fen, m), "depth 1")
                stats = loss_stats(lines)
                if stats and stats[0] == 1:
                    losses.append(stats[1])
            avg = sum(losses) / max(1, len(losses))
            averages.append((level, elo, avg, len(losses)))
            out.write("%s\t%d\t%.1f\t%d\n" % (level, elo, avg, len(losses)))
            print("%-15s %5d  average loss %6.1f cp over %d moves" % (level, elo, avg, len(losses)), flush=True)
    # Least squares of elo on x = ln(1 + loss/10), levels above 草民.
    pts = [(math.log(1 + avg / 10), elo) for _, elo, avg, n in averages if elo > 0 and n]
    n = len(pts)
    mx = sum(x for x, _ in pts) / n
    my = sum(y for _, y in pts) / n
    b = -sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)
    a = my + b * mx
    print("fit: elo = %.0f - %.0f * ln(1 + loss / 10)" % (a, b))


def loss_stats(lines):
    """(moves, average loss) from the adaptive info string, or None."""
    for line in lines:
        m = re.search(r"from (\d+) moves \(average loss (\d+) cp\)", line)
        if m:
            return int(m.group(1)), float(m.group(2))
        if "no opponent moves judged yet" in line:
            return 0, 0.0
    return None


if __name__ == "__main__":
    main()
