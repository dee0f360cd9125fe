"""Checks the counts of perft-data/*.epd files against Fairy-Stockfish.

    python3 perft-data/verify.py perft-data/px0.epd --max-depth 3
    python3 perft-data/verify.py perft-data/*.epd --max-depth 5 --fairy-stockfish /usr/games/fairy-stockfish

By default the counts come from pyffish, Fairy-Stockfish's Python module
(`pip install pyffish`; perft by its legal move lists: a few thousand nodes
of the tree a second, so keep --max-depth low). With --fairy-stockfish PATH
they come from the engine's own `go perft` (much faster; Debian package
`fairy-stockfish`: `apt-get install fairy-stockfish`, in /usr/games).
Prints every mismatch and ends with `N checked, N failed`; exit status 1
when a count differs.
"""
import argparse
import subprocess
import sys

VARIANT = "xiangqi"


def read(path):
    """(line number, FEN, {depth: count}) of each position of a file."""
    for n, line in enumerate(open(path), 1):
        line = line.strip()
        if line and not line.startswith("#"):
            fen, *fields = line.split(";")
            yield n, fen.strip(), {int(d[1:]): int(c) for d, c in (f.split() for f in fields if f.strip())}


class Pyffish:
    def __init__(self):
        try:
            import pyffish
        except ImportError:
            sys.exit("verify.py needs pyffish (pip install pyffish), or --fairy-stockfish PATH")
        self.sf = pyffish

    def perft(self, fen, depth, moves=()):
        legal = self.sf.legal_moves(VARIANT, fen, list(moves))
        if depth == 1:
            return len(legal)
        return sum(self.perft(fen, depth - 1, moves + (m,)) for m in legal)


class Engine:
    """Fairy-Stockfish over UCI: `go perft D` ends with `Nodes searched: N`."""

    def __init__(self, path):
        try:
            self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        except OSError as e:
            sys.exit("cannot run Fairy-Stockfish at %s (%s): apt-get install fairy-stockfish" % (path, e.strerror))
        self.send("uci")
        self.send("setoption name UCI_Variant value " + VARIANT)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def perft(self, fen, depth):
        self.send("position fen " + fen)
        self.send("go perft %d" % depth)
        for line in self.p.stdout:
            if line.startswith("Nodes searched"):
                return int(line.split(":")[1])
        sys.exit("Fairy-Stockfish ended without a perft count")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--max-depth", type=int, default=3, help="check depths up to this one (default 3)")
    ap.add_argument("--fairy-stockfish", metavar="PATH", help="count with this Fairy-Stockfish program instead of pyffish")
    a = ap.parse_args()
    oracle = Engine(a.fairy_stockfish) if a.fairy_stockfish else Pyffish()
    checked = failed = 0
    for path in a.files:
        for n, fen, counts in read(path):
            for depth, want in sorted(counts.items()):
                if depth > a.max_depth:
                    continue
                got = oracle.perft(fen, depth)
                checked += 1
                if got != want:
                    failed += 1
                    print("%s:%d: %s D%d: the file says %d, Fairy-Stockfish %d" % (path, n, fen, depth, want, got))
    print("%d checked, %d failed" % (checked, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
