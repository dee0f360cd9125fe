#!/usr/bin/env python3
"""Generates tests/data/notation_fixture.txt: moves in positions of random
games, written by programs that share no code with Chariot.

    python3 tests/data/notation_fixture.py > tests/data/notation_fixture.txt

Each line: FEN;ICCS;WXF;Chinese. WXF comes from Fairy-Stockfish (pyffish,
NOTATION_XIANGQI_WXF), Chinese from the `cchess` PyPI package
(Move.to_text). A field is `-` where that program does not follow the
convention Chariot writes (see src/notation/mod.rs):
  - pyffish numbers the pawns when a file holds three or more, or when two
    files hold several (`15=6` for the first pawn on file 5); the official
    WXF form is `P+=6` / `P5=6` / `5+=6`.
  - pyffish names one of two rooks, horses, cannons or pawns on a file by
    its file when only that one can make the move (`P1+1`); the official
    form always says front or rear (`P-+1`).
  Such WXF fields are kept in a fifth field instead, for the reader test.
  - cchess has no form for two files with several pawns, and writes the
    ordinals of Black's pawns as digits; such Chinese fields are `-`.
Needs pyffish and cchess (`pip install pyffish cchess`); the Rust tests
read only the .txt file.
"""
import random
import sys

try:
    import cchess
    import pyffish as sf
except ImportError as e:
    sys.exit("notation_fixture.py needs %s: pip install pyffish cchess" % e.name)

V = "xiangqi"
W = sf.NOTATION_XIANGQI_WXF
FILES = "abcdefghi"

STARTS = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "3aka3/6P2/4P4/2P6/P7P/p7p/2p6/4p4/6p2/3AKA3 w - - 0 1",
    "3k5/4P4/4P4/4P4/P3P4/p3p4/4p4/4p4/4p4/5K3 w - - 0 1",
    "r1bakab1r/9/1cn2c3/p1p1p1p1p/4n4/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1",
]


def to_ucci(m):
    # pyffish ranks 1..10 -> ICCS ranks 0..9
    f1, rest = m[0], m[1:]
    i = 1
    while rest[i].isdigit():
        i += 1
    r1, f2, r2 = int(rest[:i]), rest[i], int(rest[i + 1:])
    return "%s%d%s%d" % (f1, r1 - 1, f2, r2 - 1)


def pawn_files(fen, red):
    """Counts of the mover's pawns per file index (0 = a)."""
    rows = fen.split()[0].split("/")
    counts = [0] * 9
    letter = "P" if red else "p"
    for row in rows:
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                if ch == letter:
                    counts[f] += 1
                f += 1
    return counts


def piece_at(fen, sq):
    rows = fen.split()[0].split("/")
    file, rank = FILES.index(sq[0]), int(sq[1])
    row = rows[9 - rank]
    f = 0
    for ch in row:
        if ch.isdigit():
            f += int(ch)
        else:
            if f == file:
                return ch
            f += 1
    return None


def main():
    rng = random.Random(20240611)
    seen = set()
    for g in range(24):
        fen = STARTS[g % len(STARTS)]
        pawn_game = g % len(STARTS) in (1, 2)
        for _ply in range(40):
            legal = sf.legal_moves(V, fen, [])
            if not legal:
                break
            red = fen.split()[1] == "w"
            counts = pawn_files(fen, red)
            tandem_files = sum(1 for c in counts if c >= 2)
            ucci = [to_ucci(m) for m in legal]
            sample = rng.sample(range(len(legal)), min(2, len(legal)))
            # Every pawn move in positions with tandem pawns, for coverage.
            tandem = [i for i, m in enumerate(ucci)
                      if piece_at(fen, m[:2]) in ("P", "p") and counts[FILES.index(m[0])] >= 2]
            sample += rng.sample(tandem, min(3, len(tandem)))
            for i in sorted(set(sample)):
                m = ucci[i]
                key = (fen, m)
                if key in seen:
                    continue
                seen.add(key)
                wxf = sf.get_san(V, fen, legal[i], False, W)
                pawn = piece_at(fen, m[:2]) in ("P", "p")
                n = counts[FILES.index(m[0])]
                kind = piece_at(fen, m[:2]).upper()
                same_on_file = sum(1 for r in range(10) if piece_at(fen, m[0] + str(r)) == piece_at(fen, m[:2]))
                numbered = pawn and n >= 2 and (n >= 3 or tandem_files >= 2)
                by_file = kind in "RNCP" and same_on_file >= 2 and wxf[1].isdigit()
                special_wxf = numbered or by_file
                board = cchess.ChessBoard(fen)
                zh = board.move_iccs(m).to_text()
                if pawn and n >= 2 and (tandem_files >= 2 or (not red and n >= 4)):
                    zh = "-"
                if special_wxf:
                    print("%s;%s;-;%s;%s" % (fen, m, zh, wxf))
                else:
                    print("%s;%s;%s;%s" % (fen, m, wxf, zh))
            if pawn_game and rng.random() < 0.75:
                pawn_moves = [j for j, m in enumerate(ucci)
                              if piece_at(fen, m[:2]) in ("P", "p") and piece_at(fen, m[2:]) is None]
                pick = legal[rng.choice(pawn_moves)] if pawn_moves else rng.choice(legal)
            else:
                pick = rng.choice(legal)
            fen = sf.get_fen(V, fen, [pick])


if __name__ == "__main__":
    main()
