#!/usr/bin/env python3
"""Runs an engine with its own fixed search limit, whatever the match sends.

    fixed_limit.py uci nodes 4000 -- /path/to/chariot
    fixed_limit.py xboard depth 3 -- /usr/games/maxqi

The match referee gives both engines the same limit; a calibration game
wants the level under test unlimited (it stops at its own node budget) and
the reference at a fixed limit. This proxy sits between the referee and the
reference engine and rewrites the limit lines: UCI/UCCI `go ...` becomes
`go nodes N` / `go depth N`; xboard `sd N` becomes `sd D` (xboard engines
have no node limit). Everything else passes through unchanged, both ways.
"""

import re
import subprocess
import sys
import threading


def main():
    if len(sys.argv) < 6 or sys.argv[4] != "--" or sys.argv[1] not in ("uci", "xboard"):
        sys.exit("usage: fixed_limit.py uci|xboard nodes|depth N -- command ...")
    proto, kind, limit, cmd = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[5:]
    if proto == "xboard" and kind != "depth":
        sys.exit("xboard engines take a depth limit only")
    child = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def pump_out():
        for line in child.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()

    reader = threading.Thread(target=pump_out, daemon=True)
    reader.start()
    for line in sys.stdin:
        if proto == "uci" and re.match(r"\s*go\b", line) and "ponder" not in line and "perft" not in line:
            line = "go %s %d\n" % (kind, limit)
        elif proto == "xboard" and re.match(r"\s*sd\s+\d+", line):
            line = "sd %d\n" % limit
        try:
            child.stdin.write(line)
            child.stdin.flush()
        except BrokenPipeError:
            break
    try:
        child.stdin.close()
    except BrokenPipeError:
        pass
    child.wait()
    reader.join(timeout=5)


if __name__ == "__main__":
    main()
