#!/usr/bin/env python3
"""The filter that made xboard-chariot-ranks1.pgn: XBoard with -rankOffset -1
numbers the ranks 1..10 in its PGN and also in what it tells engines, while
uci2wb and Chariot use 0..9. This sits between them and shifts the ranks of
every move in the traffic (XBoard sends rank 10 as ':').

    xvfb-run -a xboard -variant xiangqi -rankOffset -1 \\
        -fcp "xboard_rank_shift.py uci2wb -x chariot" \\
        -scp "xboard_rank_shift.py uci2wb -x chariot" -matchMode true -mg 4 \\
        -tc 0:40 -inc 0.3 -saveGameFile game.pgn -autoCallFlag true \\
        -popupExitMessage false -noGUI
"""
import re
import subprocess
import sys
import threading

MOVE = re.compile(r"\b([a-i])(10|:|[0-9])([a-i])(10|:|[0-9])(?![0-9])")


def shift(line, by):
    rank = lambda t: 10 if t in ("10", ":") else int(t)
    return MOVE.sub(lambda m: f"{m[1]}{rank(m[2]) + by}{m[3]}{rank(m[4]) + by}", line)


engine = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def from_engine():
    for line in engine.stdout:
        sys.stdout.write(shift(line, +1))
        sys.stdout.flush()


threading.Thread(target=from_engine, daemon=True).start()
for line in sys.stdin:
    engine.stdin.write(shift(line, -1))
    engine.stdin.flush()
    if line.strip() == "quit":
        break
engine.stdin.close()
engine.wait()
