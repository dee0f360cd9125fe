#!/usr/bin/env python3
"""Checks tests/data/rules_scenarios.txt against Fairy-Stockfish (pyffish).

For every scenario:
  * the FEN must be a legal Xiangqi position (pyffish validate_fen and the
    tools' xq.validate_position: piece squares, counts, kings not facing,
    side not to move not in check);
  * every move must be legal (pyffish legal_moves);
  * pyffish's verdict is computed the way tools/referee.py adjudicates
    (no legal move loses; at a third occurrence pyffish's repetition verdict
    from the first of the three occurrences; dead material; 120 plies), and
    compared with the scenario's `pyffish:` note, which is either `agree`
    (pyffish gives the expected result) or the result pyffish gives followed
    by why it differs;
  * with --chariot PATH, `PATH judge` must print the expected line.

Usage: python3 tests/data/rules_crosscheck.py [--chariot target/release/chariot]
Needs pyffish and /work/shared/tools (xq.py) or XQ_TOOLS pointing there.
Exit status 1 when anything fails.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.environ.get("XQ_TOOLS", "/work/shared/tools"))
import pyffish as sf  # noqa: E402
import xq  # noqa: E402

V = "xiangqi"
HERE = os.path.dirname(os.path.abspath(__file__))


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
    """(result, reason) the way referee.py adjudicates, at the first event."""
    fsf = [xq.to_fsf(m) for m in moves]
    fens = []
    for i in range(len(fsf) + 1):
        cur = sf.get_fen(V, fen, fsf[:i])
        fens.append(cur)
        stm = side_after(fen, i)

        def lose(side, why):
            return ("0-1" if side == "w" else "1-0", why)

        if not sf.legal_moves(V, fen, fsf[:i]):
            return lose(stm, "checkmate" if sf.gives_check(V, fen, fsf[:i]) else "stalemate")
        key = xq.position_key(cur)
        occ = [j for j, f in enumerate(fens) if xq.position_key(f) == key]
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
        fen = xq.normalize_fen(c["fen"])
        moves = c.get("moves", "").split()
        if sf.validate_fen(fen, V) != 1:
            problems.append("pyffish rejects the FEN")
        problems += xq.validate_position(fen)
        fsf = [xq.to_fsf(m) for m in moves]
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
