#!/usr/bin/env python3
"""Seed corpora for the fuzz targets, from the repository's own valid
inputs: fuzz/corpus/<target>/. Files already there (what earlier runs
found) are kept. Needs target/release/chariot for the datagen records."""

import hashlib
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")


def add(target, data):
    if isinstance(data, str):
        data = data.encode()
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "seed-" + hashlib.sha1(data).hexdigest()[:16])
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(data)


def read(rel, mode="r"):
    with open(os.path.join(ROOT, rel), mode) as f:
        return f.read()


def fens():
    out = []
    for name in ["startpos.epd", "chariot-tricky.epd", "fairy-stockfish.epd", "chariot-composed.epd"]:
        for line in read(f"perft-data/{name}").splitlines():
            if line and not line.startswith("#"):
                out.append(line.split(";")[0].strip())
    return out


def v1_record(fen, score, ply):
    """A version-1 training record of `fen` (layout in src/datagen/format.rs),
    best move a null from a0 to a0: the reader must judge it."""
    board, side = fen.split()[:2]
    occupied, nibbles = 0, []
    for row, text in enumerate(board.split("/")):
        rank, file = 9 - row, 0
        for ch in text:
            if ch.isdigit():
                file += int(ch)
                continue
            kind = "KABNRCP".index({"E": "B", "H": "N"}.get(ch.upper(), ch.upper()))
            occupied |= 1 << (rank * 9 + file)
            nibbles.append((rank * 9 + file, kind + (0 if ch.isupper() else 7)))
            file += 1
    codes = [c for _, c in sorted(nibbles)] + [0] * (32 - len(nibbles))
    packed = bytes(codes[i] | codes[i + 1] << 4 for i in range(0, 32, 2))
    flags = 1 if side == "b" else 0
    return (occupied.to_bytes(16, "little") + packed + (score & 0xFFFF).to_bytes(2, "little")
            + ply.to_bytes(2, "little") + (0).to_bytes(2, "little") + bytes([1, flags]))


def games(pgn_text):
    """The games of a PGN text, each whole."""
    parts = re.split(r"\n(?=\[Event )", pgn_text)
    return [p for p in parts if p.strip()]


def main():
    all_fens = fens()
    for fen in all_fens:
        add("fen", fen)
    for text in ["h2e2", "C2=5", "炮二平五", "Che2", "E5e7", "Rxh9+", "H2-E2", "P3e4", "+2=1", "前炮进一", "h3e3", "b0c2",
                 "R1+1", "马八进七", "Ecxe2", "K5.1", "a0a1"]:
        add("move_text", text)
    for rel in ["tests/data/xboard-chariot.pgn", "tests/data/xboard-maxqi.pgn", "tests/data/xboard-chariot-ranks1.pgn"]:
        for game in games(read(rel))[:4]:
            add("game_record", game)
    for rel in ["tests/data/xqf/v10-plain.xqf", "tests/data/xqf/v16-composed.xqf", "tests/data/xqf/v18-encrypted.xqf"]:
        add("game_record", read(rel, "rb"))
    add("game_record", "h2e2 h9g7 h0g2 i9h9\n")
    add("game_record", "1. C2=5 H8+7 2. H2+3 R9=8 *\n")
    add("game_record", f'[FEN "{all_fens[5]}"]\n\n*\n')
    book = read("book/chariot.book").splitlines()
    for start in range(0, min(len(book), 600), 100):
        add("book", "\n".join(book[:2] + book[start + 2:start + 60]) + "\n")
    add("network", read("nets/default.nnue", "rb"))
    for i, fen in enumerate(all_fens[:40]):
        add("datagen_record", v1_record(fen, 37 * i - 500, i))
    chariot = os.path.join(ROOT, "target", "release", "chariot")
    if os.path.exists(chariot):
        # Named by process: two runs of this script at once must not share it.
        path = os.path.join(CORPUS, f"datagen-{os.getpid()}.tmp")
        if os.path.exists(path):
            os.remove(path)
        subprocess.run([chariot, "datagen", path, "--games", "3", "--nodes", "300", "--seed", "9"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        data = open(path, "rb").read()
        os.remove(path)
        if data.startswith(b"chariot-datagen v2"):
            add("datagen_game", data[40:])
    else:
        print("make_corpus: no target/release/chariot: no packed-game seeds", file=sys.stderr)
    scripts = [
        "uci\nisready\nposition startpos moves h2e2 h9g7\ngo depth 3\n",
        "ucci\nsetoption usemillisec true\nposition fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2\ngo time 1000 increment 10 opptime 1000\n",
        "uci\nsetoption name MultiPV value 3\nposition startpos\ngo nodes 5000\n",
        "uci\nucinewgame\nposition startpos moves h2e2 h7e7\ngo wtime 1000 btime 1000 winc 10 binc 10\nstop\nd\n",
        "ucci\nbanmoves h2e2\nposition startpos\ngo depth 2\nprobe\n",
        "uci\nsetoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 1200\nposition startpos\ngo movetime 20\n",
        "uci\nsetoption name Ponder value true\nposition startpos moves h2e2\ngo ponder wtime 1000 btime 1000\nponderhit\n",
        "uci\nposition startpos moves h2e2 h9g7\ngo searchmoves h0g2 b2e2 depth 3\nquit\n",
    ]
    for script in scripts:
        add("protocol_loop", script)
        add("protocol_line", script)
    for config in [
        "e name=a cmd=./a\ne name=b cmd=./b proto=ucci\ntc 10+0.1\nrounds 4\n",
        "e cmd=./a opt:Hash=64\ne cmd=./b proto=xboard\nnodes 1000\nsprt elo0=0 elo1=5 alpha=0.05\n",
        "each opt:Threads=1\ne name=a cmd=./a tc=40/60+1\ne name=b cmd=./b\nmovetime 100\nconc 2\n",
    ]:
        add("match_config", config)
    for commands in [
        "new\nplay h2e2\nengine black\nlevel wang\ntime clock 60000 1000\n",
        "new fen 3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1 moves a1d1\nview 0\nview end\ntakeback\n",
        "load 1. h2e2 h9g7 *\nreview stop\nmultipv 3\nhash 8\ndraw\nresign\n",
        "level elo 1500\ntime movetime 50\nnew\nplay b2e2\n",
    ]:
        add("board_commands", commands)
    for target in sorted(os.listdir(CORPUS)):
        print(f"{target}: {len(os.listdir(os.path.join(CORPUS, target)))} inputs")


if __name__ == "__main__":
    main()
