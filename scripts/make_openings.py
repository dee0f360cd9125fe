#!/usr/bin/env python3
"""Make a set of balanced Xiangqi openings that neither the dev set nor the
built-in book has seen: the held-out set strength work is judged on.

Each opening starts with one of the usual first moves (chosen in turn, so
every family and both wings come up), then follows Fairy-Stockfish's good
moves (any of its best lines within --spread centipawns of the best, at
depth --walk-depth) for 6 to 10 plies in all. It is kept when

- Fairy-Stockfish scores the final position within --max-cp of level at
  --depth (the dev set was made with depth 15 and 80 cp);
- no position of it after ply 4 (mirror images counted as equal) occurs in
  the dev set, in another opening of this set, or in Chariot's built-in
  book (asked of `chariot book show`).

    python3 scripts/make_openings.py --count 100 --seed 1 \\
        --out scripts/openings/heldout-openings.txt

Needs Fairy-Stockfish (Debian: apt-get install fairy-stockfish) and pyffish
(pip install pyffish) for the WXF text of the comment lines; the format is
that of scripts/openings/dev-openings.txt, which `chariot match --openings`
reads.
"""

import argparse
import os
import random
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
# The usual first moves, ranks 0-9: central cannon on either wing, the
# pawn openings, the elephant openings, the horse openings, the palace
# corner and crossing-palace cannons.
FIRST_MOVES = [
    ("h2e2", "C-", "中炮 central cannon"),
    ("b2e2", "C-", "中炮 central cannon (left)"),
    ("c3c4", "P-", "仙人指路 pawn opening"),
    ("g3g4", "P-", "仙人指路 pawn opening (right)"),
    ("c0e2", "E-", "飞相局 elephant opening"),
    ("g0e2", "E-", "飞相局 elephant opening (right)"),
    ("b0c2", "H-", "起马局 horse opening"),
    ("h0g2", "H-", "起马局 horse opening (right)"),
    ("h2d2", "X-", "过宫炮 crossing-palace cannon"),
    ("b2f2", "X-", "过宫炮 crossing-palace cannon (left)"),
    ("b2d2", "S-", "士角炮 palace-corner cannon"),
    ("h2f2", "S-", "士角炮 palace-corner cannon (right)"),
]


def to_fsf(move):
    """Ranks 0-9 -> Fairy-Stockfish's UCI ranks 1-10."""
    m = re.fullmatch(r"([a-i])(\d)([a-i])(\d)", move)
    return f"{m[1]}{int(m[2]) + 1}{m[3]}{int(m[4]) + 1}"


def from_fsf(move):
    m = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", move)
    return f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}"


class Fsf:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.until("uciok")
        self.send("setoption name UCI_Variant value xiangqi")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 64")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def until(self, word):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("make_openings: Fairy-Stockfish stopped")
            lines.append(line.strip())
            if line.startswith(word):
                return lines

    def lines(self, moves, depth, multipv):
        """{move: score} for the best `multipv` moves after `moves`, side to move's view."""
        self.send(f"setoption name MultiPV value {multipv}")
        self.send("ucinewgame")
        self.send("isready")
        self.until("readyok")
        fsf_moves = " ".join(to_fsf(m) for m in moves)
        self.send(f"position startpos moves {fsf_moves}" if moves else "position startpos")
        self.send(f"go depth {depth}")
        best = {}
        for line in self.until("bestmove"):
            m = re.search(r"\bdepth (\d+) .*multipv (\d+) score (cp|mate) (-?\d+).* pv (\S+)", line)
            if m and int(m[1]) == depth:
                score = int(m[4]) if m[3] == "cp" else (100000 if int(m[4]) > 0 else -100000)
                best[from_fsf(m[5])] = score
        return best

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def board_after(moves):
    """The position after `moves` as a 10x9 board of letters (row 0 = rank 9)."""
    rows = []
    for row in START.split()[0].split("/"):
        cells = []
        for ch in row:
            cells.extend("." * int(ch) if ch.isdigit() else ch)
        rows.append(cells)
    for m in moves:
        f1, r1, f2, r2 = ord(m[0]) - 97, int(m[1]), ord(m[2]) - 97, int(m[3])
        rows[9 - r2][f2] = rows[9 - r1][f1]
        rows[9 - r1][f1] = "."
    return rows


def keys_after_four(moves):
    """The positions after plies 5.. of `moves`, each with its mirror image as one key."""
    keys = set()
    for n in range(5, len(moves) + 1):
        rows = board_after(moves[:n])
        plain = "/".join("".join(r) for r in rows) + (" b" if n % 2 else " w")
        mirror = "/".join("".join(reversed(r)) for r in rows) + (" b" if n % 2 else " w")
        keys.add(min(plain, mirror))
    return keys


def read_set(path):
    lines = []
    for line in open(path, encoding="utf-8"):
        line = line.split("#")[0].strip()
        if line.startswith("moves "):
            lines.append(line.split()[1:])
    return lines


def in_book(chariot, moves):
    """Whether any position after ply 4 of `moves` is in the built-in book."""
    for n in range(5, len(moves) + 1):
        out = subprocess.run([chariot, "book", "show", "--moves", *moves[:n]], capture_output=True, text=True).stdout
        if re.search(r"^move\s+weight", out, re.M):
            return True
    return False


def wxf(moves):
    try:
        import pyffish
    except ImportError:
        return ""
    fen = START
    texts = []
    for m in moves:
        fsf = to_fsf(m)
        texts.append(pyffish.get_san("xiangqi", fen, fsf, False, pyffish.NOTATION_XIANGQI_WXF))
        fen = pyffish.get_fen("xiangqi", fen, [fsf])
    return " ".join(texts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--depth", type=int, default=15, help="depth of the final score")
    ap.add_argument("--walk-depth", type=int, default=8)
    ap.add_argument("--spread", type=int, default=40, help="cp from the best move a walk may choose")
    ap.add_argument("--max-cp", type=int, default=80)
    ap.add_argument("--dev", default=os.path.join(HERE, "openings", "dev-openings.txt"))
    ap.add_argument("--chariot", default="target/release/chariot")
    ap.add_argument("--fairy-stockfish", default=shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish")
    args = ap.parse_args()
    if not os.path.exists(args.fairy_stockfish):
        sys.exit("make_openings: Fairy-Stockfish is needed (Debian: apt-get install fairy-stockfish)")
    if not os.path.exists(args.chariot):
        sys.exit(f"make_openings: {args.chariot} not found (cargo build --release): it checks the book")
    rng = random.Random(args.seed)
    seen = set()
    for line in read_set(args.dev):
        seen |= keys_after_four(line)
    fsf = Fsf(args.fairy_stockfish)
    kept = []
    tries = 0
    while len(kept) < args.count and tries < args.count * 20:
        first, family, name = FIRST_MOVES[tries % len(FIRST_MOVES)]
        tries += 1
        moves = [first]
        plies = rng.randint(6, 10)
        while len(moves) < plies:
            options = fsf.lines(moves, args.walk_depth, 4)
            if not options:
                break
            top = max(options.values())
            good = [m for m, s in options.items() if s >= top - args.spread]
            moves.append(rng.choice(sorted(good)))
        if len(moves) < plies:
            continue
        keys = keys_after_four(moves)
        if keys & seen or in_book(args.chariot, moves):
            continue
        final = fsf.lines(moves, args.depth, 1)
        if not final:
            continue
        score = next(iter(final.values()))
        red_score = score if len(moves) % 2 == 0 else -score
        if abs(red_score) > args.max_cp:
            continue
        seen |= keys
        kept.append((moves, family, name, red_score))
        print(f"{len(kept)}/{args.count} (tried {tries}): {' '.join(moves)}  fsf {red_score:+d} cp", flush=True)
    fsf.quit()
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(f"# held-out set: {len(kept)} balanced Xiangqi openings, UCCI notation (files a-i, ranks 0-9,\n")
        out.write("# rank 0 = Red's back rank), one per line as 'moves m1 m2 ...' from the start position.\n")
        out.write("# Comment: WXF moves | family | Fairy-Stockfish 11.1 score in cp from Red's view\n")
        out.write(f"# (go depth {args.depth}, Threads 1, Hash 64, fresh hash).  Kept: |score| <= {args.max_cp} cp.\n")
        out.write(f"# Made by scripts/make_openings.py --count {args.count} --seed {args.seed}: no position after\n")
        out.write("# ply 4 (mirror images counted as equal) is in the dev set, the built-in book or another line.\n")
        for moves, family, name, red_score in kept:
            out.write(f"moves {' '.join(moves)}  # {wxf(moves)} | {name} | fsf {red_score:+d} cp d{args.depth} | {family}\n")
    print(f"{len(kept)} openings written to {args.out} ({tries} tried)")


if __name__ == "__main__":
    main()
