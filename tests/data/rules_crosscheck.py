#!/usr/bin/env python3
"""Checks tests/data/rules_scenarios.txt against Fairy-Stockfish (pyffish).

For every scenario:
  * the FEN must be a legal Xiangqi position (pyffish validate_fen, and
    problems() below: piece points and counts, the side not to move not in
    check nor facing kings, asked of pyffish);
  * every move must be legal (pyffish legal_moves);
  * pyffish's verdict is computed the way a match referee built on it
    adjudicates (no legal move loses; at a third occurrence pyffish's
    repetition verdict from the first of the three occurrences; dead
    material; 120 plies), and
    compared with the scenario's `pyffish:` note, which is either `agree`
    (pyffish gives the expected result) or the result pyffish gives followed
    by why it differs;
  * with --chariot PATH, `PATH judge` must print the expected line.

Usage: python3 tests/data/rules_crosscheck.py [--chariot target/release/chariot]
Needs pyffish, Fairy-Stockfish's Python module (`pip install pyffish`); the
Rust tests do not. Exit status 1 when anything fails.
"""
import argparse
import os
import re
import subprocess
import sys

try:
    import pyffish as sf
except ImportError:
    sys.exit("rules_crosscheck.py needs pyffish, Fairy-Stockfish's Python module: pip install pyffish")

V = "xiangqi"
HERE = os.path.dirname(os.path.abspath(__file__))


def to_fsf(move):
    """An ICCS move (ranks 0-9) as pyffish writes it (ranks 1-10)."""
    m = re.fullmatch(r"([a-i])(\d)([a-i])(\d)", move)
    if not m:
        raise SystemExit("bad move %r" % move)
    return "%s%d%s%d" % (m.group(1), int(m.group(2)) + 1, m.group(3), int(m.group(4)) + 1)


def position_key(fen):
    """Board and side to move: what a repetition compares."""
    return " ".join(fen.split()[:2])


def normalize_fen(fen):
    """`board side` with the other fields completed as `- - 0 1`."""
    words = fen.split()
    counters = [w for w in words[2:] if w.isdigit()] + ["0", "1"]
    return "%s %s - - %s %s" % (words[0], words[1] if len(words) > 1 else "w", counters[0], counters[1])


ADVISOR = {(0, 3), (0, 5), (1, 4), (2, 3), (2, 5)}
ELEPHANT = {(0, 2), (0, 6), (2, 0), (2, 4), (2, 8), (4, 2), (4, 6)}
LIMITS = {"K": 1, "A": 2, "B": 2, "N": 2, "R": 2, "C": 2, "P": 5}


def problems_of(fen):
    """What makes a position illegal: pieces on points they cannot reach,
    too many of a kind, the kings facing, and (asked of pyffish, with the
    other side to move) the side not to move in check."""
    found, counts, occupied = [], {}, {}
    for i, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for p in row:
            if p.isdigit():
                f += int(p)
                continue
            counts[p] = counts.get(p, 0) + 1
            occupied[(9 - i, f)] = p
            r = 9 - i if p.isupper() else i  # rank from its own side
            kind = p.upper()
            if kind == "K" and not (r <= 2 and 3 <= f <= 5) or kind == "A" and (r, f) not in ADVISOR \
                    or kind == "B" and (r, f) not in ELEPHANT or kind == "P" and (r < 3 or r <= 4 and f % 2):
                found.append("%s on a point it cannot reach (file %s)" % (p, "abcdefghi"[f]))
            f += 1
    found += ["too many %s" % p for p, n in counts.items() if n > LIMITS.get(p.upper(), 0)]
    found += ["not one %s" % k for k in "Kk" if counts.get(k) != 1]
    if not found:
        (rk, fk), = [s for s, p in occupied.items() if p == "K"]
        (rb, fb), = [s for s, p in occupied.items() if p == "k"]
        if fk == fb and not any((r, fk) in occupied for r in range(rk + 1, rb)):
            found.append("the kings face")
    if not found:
        board, side = fen.split()[:2]
        other = "%s %s - - 0 1" % (board, "b" if side == "w" else "w")
        if sf.gives_check(V, other, []):
            found.append("the side not to move is in check")
    return found


def parse(path):
    cases, cur = [], None
    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            key, _, value = line.partition(":")
            key, value = key.strip(), value.strip()
            if key == "case":
                cur = {"case": value, "line": lineno}
                cases.append(cur)
            elif cur is None:
                raise SystemExit("%s:%d: field before the first case" % (path, lineno))
            else:
                cur[key] = value
    return cases


def side_after(fen, n):
    s = fen.split()[1]
    return s if n % 2 == 0 else ("b" if s == "w" else "w")


def pyffish_verdict(fen, moves):
    """(result, reason) the way a pyffish referee adjudicates, at the first event."""
    fsf = [to_fsf(m) for m in moves]
    fens = []
    for i in range(len(fsf) + 1):
        cur = sf.get_fen(V, fen, fsf[:i])
        fens.append(cur)
        stm = side_after(fen, i)

        def lose(side, why):
            return ("0-1" if side == "w" else "1-0", why)

        if not sf.legal_moves(V, fen, fsf[:i]):
            return lose(stm, "checkmate" if sf.gives_check(V, fen, fsf[:i]) else "stalemate")
        key = position_key(cur)
        occ = [j for j, f in enumerate(fens) if position_key(f) == key]
        if len(occ) >= 3:
            first = occ[-3]
            base = fens[first].split()
            base[4] = "0"
            end, val = sf.is_optional_game_end(V, " ".join(base), fsf[first:i])
            if end and val != 0:
                return lose(stm if val < 0 else ("b" if stm == "w" else "w"), "repetition verdict")
            return ("1/2-1/2", "repetition")
        w_ins, b_ins = sf.has_insufficient_material(V, fen, fsf[:i])
        if w_ins and b_ins:
            return ("1/2-1/2", "insufficient material")
        if int(cur.split()[4]) >= 120:
            return ("1/2-1/2", "120 plies")
    return ("*", "none")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--file", default=os.path.join(HERE, "rules_scenarios.txt"))
    ap.add_argument("--chariot", help="path of the chariot binary to run `judge` on every case")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    failures = 0
    agree = differ = 0
    cases = parse(a.file)
    for c in cases:
        name = c["case"]
        problems = []
        fen = normalize_fen(c["fen"])
        moves = c.get("moves", "").split()
        if sf.validate_fen(fen, V) != 1:
            problems.append("pyffish rejects the FEN")
        problems += problems_of(fen)
        fsf = [to_fsf(m) for m in moves]
        for i, m in enumerate(fsf):
            if m not in sf.legal_moves(V, fen, fsf[:i]):
                problems.append("move %d %s is illegal" % (i + 1, moves[i]))
                break
        expect = c.get("expect", "")
        exp_result = expect.split()[0] if expect else "?"
        note = c.get("pyffish", "")
        if not problems:
            got, why = pyffish_verdict(fen, moves)
            if note == "agree":
                if got != exp_result:
                    problems.append("note says pyffish agrees, but pyffish gives %s (%s)" % (got, why))
                agree += 1
            else:
                noted = note.split()[0] if note else ""
                if noted != got:
                    problems.append("note says pyffish gives %r, pyffish gives %s (%s)" % (noted, got, why))
                if got == exp_result:
                    problems.append("pyffish agrees; the note should say agree")
                differ += 1
        if a.chariot and not problems:
            cmd = [a.chariot, "judge", "--fen", c["fen"]]
            if moves:
                cmd += ["--moves"] + moves
            out = subprocess.run(cmd, capture_output=True, text=True)
            line = out.stdout.splitlines()[0] if out.stdout else out.stderr.strip()
            if line != "result " + expect:
                problems.append("chariot: %r, expected %r" % (line, "result " + expect))
        if problems:
            failures += 1
            print("FAIL %s (line %d): %s" % (name, c["line"], "; ".join(problems)))
        elif a.verbose:
            print("ok   %s: %s (pyffish: %s)" % (name, expect, note))
    print("%d cases, %d failed; pyffish agrees on %d, differs (as noted) on %d"
          % (len(cases), failures, agree, differ))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
