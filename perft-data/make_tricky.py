"""Regenerates perft-data/chariot-tricky.epd: hand-made Chariot tricky positions.

    python3 perft-data/make_tricky.py -o perft-data/chariot-tricky.epd   # D1-D4, 20 min or more
    python3 perft-data/make_tricky.py -o /tmp/t.epd --max-depth 3         # quick

Needs pyffish, Fairy-Stockfish's Python module (`pip install pyffish`): it
counts the moves (perft by its legal move lists), so the counts come from a
move generator that shares no code with Chariot.

Pieces are given as tokens 'Xsq': X = piece letter (upper case Red), sq = file
a-i + rank 0-9 (rank 0 = Red's back rank).  Every position is checked by
validate() below (piece squares and counts, kings not facing, the side not to
move not in check); the stated expectations (check / number of checkers /
moves that must or must not be legal / mate / stalemate) are checked against
pyffish's legal move list, so the notes are honest."""
import argparse
import sys
import time

try:
    import pyffish as sf
except ImportError:
    sys.exit("make_tricky.py needs pyffish, Fairy-Stockfish's Python module: pip install pyffish")

VARIANT = "xiangqi"


def squares(fen):
    """{(rank, file): piece} of a FEN, rank 0 = Red's back rank."""
    board = {}
    for i, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(9 - i, f)] = ch
                f += 1
    return board


def checkers(board, red):
    """Squares of the pieces that attack the king of `red` (True: Red's king)."""
    king = "K" if red else "k"
    (kr, kf), = [s for s, p in board.items() if p == king]
    enemy = (lambda p: p.islower()) if red else (lambda p: p.isupper())
    found = []
    # Rook, cannon and the other king along the four lines.
    for dr, df in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        r, f, screens = kr + dr, kf + df, 0
        while 0 <= r <= 9 and 0 <= f <= 8:
            p = board.get((r, f))
            if p:
                if enemy(p) and ((screens == 0 and p.upper() in "RK") or (screens == 1 and p.upper() == "C")):
                    found.append((r, f))
                screens += 1
                if screens == 2:
                    break
            r, f = r + dr, f + df
    # Horses, each with its leg: the point next to the horse towards the king.
    for dr, df in ((1, 2), (1, -2), (-1, 2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)):
        r, f = kr + dr, kf + df
        p = board.get((r, f))
        leg = (r - dr // 2, f) if abs(dr) == 2 else (r, f - df // 2)
        if p and enemy(p) and p.upper() == "N" and leg not in board:
            found.append((r, f))
    # Pawns: in front of the king from the enemy's side, or beside it.
    ahead = 1 if red else -1
    for s in ((kr + ahead, kf), (kr, kf - 1), (kr, kf + 1)):
        p = board.get(s)
        if p and enemy(p) and p.upper() == "P":
            found.append(s)
    return found


ADVISOR = {(0, 3), (0, 5), (1, 4), (2, 3), (2, 5)}
ELEPHANT = {(0, 2), (0, 6), (2, 0), (2, 4), (2, 8), (4, 2), (4, 6)}


def validate(fen):
    """Problems of a position (empty: a legal Xiangqi position): piece
    counts, the points kings, advisors, elephants and pawns may stand on,
    kings facing, the side not to move in check."""
    board, problems, counts = squares(fen), [], {}
    for (r, f), p in board.items():
        counts[p] = counts.get(p, 0) + 1
        own = r if p.isupper() else 9 - r  # rank from its own side
        kind, at = p.upper(), "%s%s%d" % (p, "abcdefghi"[f], r)
        if kind == "K" and not (own <= 2 and 3 <= f <= 5) or kind == "A" and (own, f) not in ADVISOR \
                or kind == "B" and (own, f) not in ELEPHANT or kind == "P" and (own < 3 or own <= 4 and f % 2):
            problems.append("bad point " + at)
    limits = {"K": 1, "A": 2, "B": 2, "N": 2, "R": 2, "C": 2, "P": 5}
    problems += ["too many " + p for p, n in counts.items() if n > limits[p.upper()]]
    problems += ["need one " + k for k in "Kk" if counts.get(k) != 1]
    if problems:
        return problems
    red_to_move = fen.split()[1] == "w"
    # The other king in the list is a facing king.
    if checkers(board, not red_to_move):
        problems.append("the side not to move is in check (or the kings face)")
    return problems


def to_iccs(move):
    """pyffish's move (ranks 1-10) in ICCS (ranks 0-9): `b10c8` -> `b9c7`."""
    digits = [i for i, ch in enumerate(move) if ch.isalpha()][1]
    return "%s%d%s%d" % (move[0], int(move[1:digits]) - 1, move[digits], int(move[digits + 1:]) - 1)


def perft(fen, depth, moves=()):
    """Leaf count of the legal move tree, by pyffish's legal move lists."""
    legal = sf.legal_moves(VARIANT, fen, list(moves))
    if depth == 1:
        return len(legal)
    return sum(perft(fen, depth - 1, moves + (m,)) for m in legal)


def build(pieces, side):
    sq = {}
    for tok in pieces.split():
        p, s = tok[0], tok[1:]
        f, r = "abcdefghi".index(s[0]), int(s[1:])
        assert (r, f) not in sq, tok
        sq[(r, f)] = p
    rows = []
    for r in range(9, -1, -1):
        row, e = "", 0
        for f in range(9):
            p = sq.get((r, f))
            if p is None:
                e += 1
            else:
                row += (str(e) if e else "") + p
                e = 0
        rows.append(row + (str(e) if e else ""))
    return "/".join(rows) + " %s - - 0 1" % side

def flip(fen):
    """Colour-flipped copy: rank r -> 9-r, Red <-> Black, side swapped."""
    board, side = fen.split()[:2]
    rows = board.split("/")[::-1]
    rows = [r.swapcase() for r in rows]
    return "/".join(rows) + " %s - - 0 1" % ("b" if side == "w" else "w")

# (pieces, side, note, expectations)
P = [
 # ---------------- double checks
 ("Kd0 Ce3 Re6 ke9 ad9 nc8 ra6", "b",
  "double check: rook e6 + cannon e3 using the rook as screen; Ad9-e8 / Nc8-e7 block both; Rxe6 illegal (captor becomes the cannon's screen)",
  dict(checkers=2, illegal=["a6e6", "e9e8"], legal=["d9e8", "c8e7", "e9f9"])),
 ("Kd0 Nd7 Ca9 bc9 ke9 af9 re5", "b",
  "double check: horse d7 (leg d8) + cannon a9 over black elephant c9; only Ke8 (Kd9 stays on the cannon line)",
  dict(checkers=2, illegal=["e9d9", "f9e8"], legal=["e9e8"])),
 ("Kd0 Rf1 Pd9 Ng8 ke9", "b",
  "double check: crossed pawn d9 (sideways) + horse g8 (leg f8); Kxd9 faces the red king, Kf9 on the rook file; only Ke8",
  dict(checkers=2, illegal=["e9d9", "e9f9"], legal=["e9e8"])),
 ("Kd0 Ra9 Ce5 Pe7 ke9", "b",
  "double-check mate: rook a9 on rank 9 + cannon e5 over red pawn e7; Ke8 stays on the cannon line (and is covered by the pawn), Kf9 x-rayed",
  dict(checkers=2, mate=True)),
 ("Kd0 Ce4 Re7 ke8", "b",
  "double check: rook e7 next to the king + cannon e4 using the rook as screen; Kxe7 legal (no screen left), Ke9 x-rayed",
  dict(checkers=2, illegal=["e8e9", "e8d8"], legal=["e8e7", "e8f8"])),
 ("Kf0 Ca8 Rb8 ke8 rd2 nc6", "b",
  "double check along rank 8: rook b8 + cannon a8 behind it; Rd2-d8 / Nc6-d8 interpose against both (Sjaak II double-counts these)",
  dict(checkers=2, illegal=["e8d8", "e8f8"], legal=["d2d8", "c6d8", "e8e7", "e8e9"])),
 # ---------------- cannon checks, screens of either colour
 ("Ke0 Ad0 Pe4 Ra2 ce5 kf9", "w",
  "cannon e5 checks over the adjacent red pawn e4; Pxe5 legal, Kf0 faces the black king, Ke1 still on the line; Ad0-e1 / Ra2-e2 add a 2nd screen",
  dict(checkers=1, illegal=["e0f0", "e0e1"], legal=["e4e5", "d0e1", "a2e2"])),
 ("Ke0 Pe3 ce6 kd9 Ad0 Ra2", "w",
  "cannon e6 checks through a RED screen (pawn e3); Pe3-e4 keeps the screen (illegal); interposing on e1/e2 legal",
  dict(checkers=1, illegal=["e3e4", "e0e1"], legal=["a2e2", "d0e1", "e0f0"])),
 ("Ke0 pe3 ce7 kd9 Ra3 Nc4 Af0", "w",
  "cannon e7 checks through a BLACK screen (pawn e3); Rxe3 / Nxe3 keep exactly one screen (illegal); Af0-e1 legal; Kd0 faces",
  dict(checkers=1, illegal=["a3e3", "c4e3", "e0d0", "e0e1"], legal=["f0e1"])),
 ("Ke0 Re3 ce7 kd9 Ad0", "w",
  "red rook is the only screen of a cannon check: moving along the file keeps the check, moving sideways or Rxe7 is legal",
  dict(checkers=1, illegal=["e3e4", "e3e5", "e3e6", "e3e2", "e3e1", "e0e1"], legal=["e3a3", "e3i3", "e3e7", "e0f0"])),
 ("Kd1 Af2 Rf5 ci1 pf1 ke9", "w",
  "cannon i1 checks along rank 1 over black pawn f1; Rxf1 keeps a screen (illegal), Ke1 stays on the line, Af2-e1 adds a 2nd screen",
  dict(checkers=1, illegal=["f5f1", "d1e1"], legal=["f2e1", "d1d0", "d1d2"])),
 ("Kd0 ke8 Ca8 bc9 Pc8 Rh1", "b",
  "cannon a8 checks along rank 8 over red pawn c8: the king may not slide along the rank (Kf8 would still have one screen)",
  dict(checkers=1, illegal=["e8d8", "e8f8"], legal=["e8e9", "e8e7"])),
 ("Kd0 Ce2 Pe4 ke7", "b",
  "cannon e2 checks over pawn e4; Ke8 is still attacked once the king has left e7 (the king is not its own screen); Kd7 faces",
  dict(checkers=1, illegal=["e7e8", "e7d7"], legal=["e7f7"])),
 ("Ke1 Cc1 rh1 kd9", "w",
  "rook h1 checks the red king; the red cannon c1 captures it using its OWN king as screen",
  dict(checkers=1, legal=["c1h1"])),
 ("Kd0 Ce2 Pe6 ra6 nc7 ke9 af9", "b",
  "cannon e2 checks over crossed red pawn e6: Rxe6 / Nxe6 keep one screen (illegal), Af9-e8 adds a 2nd screen",
  dict(checkers=1, illegal=["a6e6", "c7e6", "e9d9", "e9e8"], legal=["f9e8"])),
 # ---------------- discovered cannon checks
 ("Ke0 Ae1 Ne3 ce7 kd9 Rh5", "w",
  "two red screens between black cannon e7 and the red king: neither advisor e1 nor horse e3 may leave the file",
  dict(checkers=0, illegal=["e3c4", "e3g4", "e3c2", "e3g2", "e3d5", "e3f5", "e1d2", "e1f2", "e1d0", "e1f0", "e0d0"], legal=["e0f0"])),
 ("Ke0 ce6 kf9 Ra3 Nc2 Ad0 Bc0", "w",
  "black cannon e6 with empty e1-e5: every red move onto e1..e5 creates a screen and is illegal; Ke1 is legal",
  dict(checkers=0, illegal=["a3e3", "c2e3", "c2e1", "d0e1", "c0e2", "e0f0"], legal=["e0e1"])),
 ("Kd0 ke9 Ce4 nc8 bg9 ra5 af9", "b",
  "red cannon e4 with empty e5-e8: black moves onto the file (Nc8-e7, Ra5-e5, Bg9-e7, Af9-e8) are illegal",
  dict(checkers=0, illegal=["c8e7", "a5e5", "g9e7", "f9e8", "e9d9"], legal=["e9e8"])),
 ("Kd0 Ce2 Pe5 Ne7 ke9 ad9 ra7", "w",
  "red discovered checks: cannon e2 has screens e5 and e7; every horse move off e7 gives check",
  dict(checkers=0)),
 ("Kd0 Ce2 Pe5 ke9 ad9 nc6 ri6", "b",
  "cannon e2 checks over red pawn e5: Nxe5 keeps one screen (illegal); Nc6-e7, Ri6-e6, Ad9-e8 add a 2nd screen",
  dict(checkers=1, illegal=["c6e5", "e9e8", "e9d9"], legal=["c6e7", "i6e6", "d9e8", "e9f9"])),
 # ---------------- horse checks, legs, horse-leg pins
 ("Kf0 Nc7 Rh1 ke8 rd8", "b",
  "horse c7 checks e8 through its leg d7 (empty); the black rook on d8 (next to the king) does not block",
  dict(checkers=1)),
 ("Kd0 Nc7 ad7 Rh1 ke8", "b",
  "horse c7 -> e8 blocked on its leg d7 by the black advisor: no check (reverse-leg test)",
  dict(checkers=0, legal=["e8e9"])),
 ("Kf0 Nd7 rd8 ke9 Ca0", "b",
  "black rook d8 sits on the leg of red horse d7 -> e9: pinned (may only capture the horse)",
  dict(checkers=0, illegal=["d8c8", "d8e8", "d8d9"], legal=["d8d7"])),
 ("Kd0 Nc8 ke9 rh8 af9", "b",
  "horse c8 checks e9 via leg d8; Rh8-d8 blocks the leg",
  dict(checkers=1, legal=["h8d8"], illegal=["h8e8"])),
 ("Ke1 nf3 Ad0 Ri2 kd9", "w",
  "black horse f3 checks e1 via leg f2; Ri2-f2 blocks the leg",
  dict(checkers=1, legal=["i2f2"], illegal=["i2e2"])),
 ("Kd0 Ng7 Ri8 Pf8 ke9", "b",
  "stalemate by horse g7 + pawn f8 (protected by rook i8); Kd9 / Kd8 would face the red king",
  dict(stalemate=True)),
 # ---------------- pawn checks
 ("Ke0 ke9 pe1 Af0 Ri4", "w",
  "black pawn e1 checks; Kxe1 would face the black king (illegal), Axe1 and Kd0 legal",
  dict(checkers=1, illegal=["e0e1"], legal=["f0e1", "e0d0"])),
 ("Kd0 Re1 Pe8 ke9 af9", "b",
  "red pawn e8 checks, protected by rook e1: Kxe8 illegal, Axe8 legal, Kd9 faces",
  dict(checkers=1, illegal=["e9e8", "e9d9"], legal=["f9e8"])),
 ("Kf0 Pd9 ke9 ae8 Cc2", "b",
  "crossed red pawn d9 checks sideways; Kxd9 / Axd9 legal, Kf9 faces the red king",
  dict(checkers=1, illegal=["e9f9"], legal=["e9d9", "e8d9"])),
 ("Kd0 Rf0 Pf9 ke9", "b",
  "red pawn f9 on the last rank checks sideways, protected by rook f0; only Ke8",
  dict(checkers=1, illegal=["e9f9", "e9d9"], legal=["e9e8"])),
 ("Kd0 ke9 Pe5 Pg4 pc4 pe4", "w",
  "pawn mobility: crossed pawns (forward + sideways) facing each other, uncrossed pawn forward only",
  dict(checkers=0)),
 # ---------------- kings-facing pins
 ("Ke0 Ne4 ke9 Rb3", "w",
  "red horse e4 alone between the kings: pinned, no horse move",
  dict(checkers=0, illegal=["e4c5", "e4g5", "e4d6", "e4f6", "e4c3", "e4g3", "e4d2", "e4f2"])),
 ("Ke0 ke9 pe3 Ra6", "b",
  "crossed black pawn e3 alone between the kings: forward legal, sideways illegal",
  dict(checkers=0, illegal=["e3d3", "e3f3"], legal=["e3e2"])),
 ("Ke0 Ae1 Bc0 ke9 rh6", "w",
  "advisor e1 alone between the kings is pinned; Bc0-e2 puts a second piece on the file",
  dict(checkers=0, illegal=["e1d2", "e1f2", "e1d0", "e1f0"], legal=["c0e2"])),
 ("Kd0 Rd3 Af0 ke9 rf8", "w",
  "Kd0-e0 would face the black king",
  dict(checkers=0, illegal=["d0e0"], legal=["d0d1"])),
 ("Kd1 Af2 re1 ke9", "w",
  "rook e1 checks from beside the king: Kxe1 would face the black king; Axe1 legal",
  dict(checkers=1, illegal=["d1e1"], legal=["f2e1", "d1d0", "d1d2"])),
 ("Kd0 Rd4 Nh0 ke9 rd9", "w",
  "red rook d4 pinned by black rook d9 (may move along the file, Rxd9); Ke0 faces",
  dict(checkers=0, illegal=["d4a4", "d4h4", "d0e0"], legal=["d4d9", "d4d1"])),
 # ---------------- stalemate, checkmate
 ("Ke0 Rf8 kd9", "b", "stalemate: d8 covered by the rook, e9 faces the red king", dict(stalemate=True)),
 ("Kd0 rf1 ke9", "w", "stalemate for Red: d1 covered by the rook, e0 faces the black king", dict(stalemate=True)),
 ("Kd0 Ce5 Ce4 ke9 ad9 af9", "b",
  "double-cannon mate: an advisor on e8 becomes the screen of cannon e5", dict(mate=True)),
 ("Ke0 Nb8 Rh8 kd9", "b", "horse mate: Kd8 covered by the rook, Ke9 faces the red king", dict(mate=True)),
 ("Kd0 Rh9 Pe7 ke9", "b", "rook + pawn mate on the back rank", dict(mate=True)),
 # ---------------- cannon capture details
 ("Kd0 Ca9 ke9 rh9", "w",
  "red cannon a9 captures rook h9 using the BLACK KING as its screen",
  dict(checkers=0, legal=["a9h9"])),
 ("Kf0 Cb2 cb5 nb7 rb9 ke9", "w",
  "cannon b2: quiet moves stop before b5, captures exactly over one screen (b7), not over two (b9)",
  dict(checkers=0, legal=["b2b7", "b2b4"], illegal=["b2b9", "b2b5", "b2b6"])),
 # ---------------- many captures
 ("Ke0 Ad0 Af0 Ra5 Ri5 Cc5 Cg5 Nd4 Nf4 Pa6 Pc6 Pe6 Pg6 Pi6 "
  "ke9 ad9 af9 ra4 ri4 cc4 cg4 nd5 nf5 pa3 pc3 pe3 pg3 pi3", "w",
  "crowded centre, Red to move: rooks, cannons, horses and crossed pawns all in contact (many captures)", dict()),
 # the two melees below were placed with a small hill-climb maximising the side to
 # move's legal captures (35 each), then validated like the rest
 ("Ke0 Ad0 Af0 Bc0 Bg0 Ra3 Rb4 Ce5 Cf3 Nc1 Nc5 Ph9 Pd8 Pd6 Pf8 Pg8 "
  "ke9 ad9 af9 bc9 bg9 re6 rd3 cd7 ce8 ne1 nb7 pa2 pe2 pa4 pb3 pe4", "w",
  "melee, Red to move: 35 legal captures", dict(checkers=0)),
 ("Ke0 Ad0 Af0 Bc0 Bg0 Rg4 Rf1 Cf3 Ci0 Ne8 Ne2 Pi4 Pi7 Pa9 Pa7 Pd6 "
  "ke9 ad9 af9 bc9 bg9 rg3 re7 ca4 ci3 nh2 nc8 ph4 ph0 pf2 pf4 pi1", "b",
  "melee, Black to move: 35 legal captures", dict(checkers=0)),
]


HEADER = """\
# Chariot hand-made tricky Xiangqi perft positions (%d positions, depths 1-4).
# Each position is preceded by a comment saying what it exercises.  The first
# %d were written by hand (make_tricky.py); the rest are their colour-flipped copies
# (ranks mirrored, Red<->Black, side to move swapped: same counts, a symmetry test;
# their notes name the squares of the original).
# Counts: Fairy-Stockfish's move generator (pyffish %s), perft by its legal move lists.
# Format: FEN;D1 n;D2 n;D3 n;D4 n
"""


def collect():
    rows, bad = [], 0
    for pcs, side, note, exp in P:
        fen = build(pcs, side)
        probs = validate(fen)
        if probs:
            print("INVALID %s %s" % (fen, probs), file=sys.stderr)
            bad += 1
            continue
        fen = sf.get_fen(VARIANT, fen, [])
        chk = checkers(squares(fen), side == "w")
        legal = set(to_iccs(m) for m in sf.legal_moves(VARIANT, fen, []))
        errs = []
        if "checkers" in exp and len(chk) != exp["checkers"]:
            errs.append("checkers %d" % len(chk))
        if exp.get("mate") and not (chk and not legal):
            errs.append("not mate")
        if exp.get("stalemate") and (chk or legal):
            errs.append("not stalemate")
        errs += ["legal: " + m for m in exp.get("illegal", []) if m in legal]
        errs += ["not legal: " + m for m in exp.get("legal", []) if m not in legal]
        if errs:
            print("EXPECTATION FAILED %s %s" % (fen, errs), file=sys.stderr)
            bad += 1
        rows.append((fen, note))
    n_hand = len(rows)
    for fen, note in list(rows[:n_hand]):
        ff = flip(fen)
        assert not validate(ff), ff
        rows.append((sf.get_fen(VARIANT, ff, []), "colour-flipped copy of: " + note))
    # A flip can give back an original (a symmetric position): kept once.
    out, keys = [], set()
    for fen, note in rows:
        key = " ".join(fen.split()[:2])
        if key not in keys:
            keys.add(key)
            out.append((fen, note))
    return out, n_hand, bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", default="chariot-tricky.epd", help="the file to write")
    ap.add_argument("--max-depth", type=int, default=4, help="count depths 1..N (default 4, as the shipped file)")
    a = ap.parse_args()
    rows, n_hand, bad = collect()
    if bad:
        raise SystemExit("%d positions failed validation / expectations" % bad)
    log = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    lines, total = [], 0
    for i, (fen, note) in enumerate(rows):
        t = time.time()
        res = [perft(fen, d) for d in range(1, a.max_depth + 1)]
        total += sum(res)
        lines.append("# %s\n%s;%s" % (note, fen, ";".join("D%d %d" % (d, n) for d, n in enumerate(res, 1))))
        log("%d/%d %s %s %.1fs" % (i + 1, len(rows), fen, res, time.time() - t))
    with open(a.o, "w") as f:
        f.write(HEADER % (len(rows), n_hand, ".".join(map(str, sf.version()))))
        f.write("\n".join(lines) + "\n")
    log("wrote %d positions, %d nodes in all" % (len(rows), total))


if __name__ == "__main__":
    main()
