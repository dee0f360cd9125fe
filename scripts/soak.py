#!/usr/bin/env python3
"""Soak test: many games with threads and pondering, counting every fault.

Plays Chariot against itself (or against a reference engine) with `chariot
match --ponder`, in blocks of 50 games; each block sets another Hash (64,
128, 256 MB) and Threads (2, 1), so the engines see option changes and
`ucinewgame` between games the way a tournament gives them. It counts what
must never happen: crashes, hangs, illegal moves, time losses, a missing
`bestmove`. Every 2 s it samples the resident memory of the engine
processes, to show whether it grows over a block (the same processes play
the whole block).

    python3 scripts/soak.py --games 1000 --tc 1+0.01 --out target/soak-1s
    python3 scripts/soak.py --games 1000 --tc 5+0.05 --out target/soak-5s
    python3 scripts/soak.py --games 200 --tc 5+0.05 --out target/soak-fsf \\
        --opponent "name=fsf cmd=/usr/games/fairy-stockfish proto=ucci"

A run stopped part way goes on where it stopped (each block's games are in
OUT/block-N.pgn, and the match resumes from it). The summary is
printed and written to OUT/summary.txt; the memory samples to
OUT/memory.tsv (block, seconds, process id, resident MB).
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import threading
import time

BLOCK = 50
HASHES = [64, 128, 256]
THREADS = [2, 1]
FAULTS = {
    "crash": "engine failure",
    "hang": "(hang)",
    "illegal": "illegal move",
    "time": "time forfeit",
    "no move": "no move given",
}


def resident_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def engine_pids(runner):
    """The engine processes: the match runner's children."""
    pids = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                # pid (comm) state ppid ...: comm may hold spaces, so split after ')'.
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if ppid == runner:
            pids.append(int(pid))
    return pids


def sample_memory(runner, block, start, out, stop):
    while not stop.is_set():
        for pid in engine_pids(runner):
            mb = resident_mb(pid)
            if mb is not None:
                out.append((block, round(time.monotonic() - start, 1), pid, round(mb, 1)))
        stop.wait(2.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--chariot", default="target/release/chariot")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--tc", default="1+0.01")
    ap.add_argument("--opponent", help="engine tokens for chariot match (default: Chariot itself)")
    ap.add_argument("--openings", default=os.path.join(os.path.dirname(__file__), "openings", "dev-openings.txt"))
    ap.add_argument("--out", default="target/soak")
    ap.add_argument("--block", type=int, default=BLOCK, help="games a block (even; Hash and Threads change between blocks)")
    args = ap.parse_args()
    if not os.path.exists(args.chariot):
        sys.exit(f"soak: {args.chariot} not found (cargo build --release)")
    if not os.path.exists("/proc/self/status"):
        sys.exit("soak: memory sampling reads /proc (Linux)")
    os.makedirs(args.out, exist_ok=True)
    chariot = os.path.abspath(args.chariot)
    blocks = (args.games + args.block - 1) // args.block
    totals = {"games": 0, "a": [0, 0, 0]}
    faults = {k: 0 for k in FAULTS}
    fault_lines = []
    samples = []
    begin = time.monotonic()
    for block in range(blocks):
        hash_mb, threads = HASHES[block % len(HASHES)], THREADS[block % len(THREADS)]
        pgn = os.path.join(args.out, f"block-{block + 1}.pgn")
        log = os.path.join(args.out, f"block-{block + 1}.log")
        options = [f"opt:Hash={hash_mb}", f"opt:Threads={threads}"]
        command = [chariot, "match", "--ponder", "--tc", args.tc, "--openings", args.openings,
                   "--shuffle", str(block + 1), "--rounds", str(max(1, args.block // 2)), "--games", "2", "--pgn", pgn,
                   "--engine", "name=a", f"cmd={chariot}", *options]
        if args.opponent:
            command += ["--engine", *args.opponent.split()]
        else:
            command += ["--engine", "name=b", f"cmd={chariot}", *options]
        if os.path.exists(pgn) and os.path.getsize(pgn) > 0:
            command.append("--resume")
        stop = threading.Event()
        with open(log, "w") as log_file:
            runner = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log_file, text=True)
            sampler = threading.Thread(target=sample_memory, args=(runner.pid, block + 1, begin, samples, stop))
            sampler.start()
            stdout, _ = runner.communicate()
        stop.set()
        sampler.join()
        run = subprocess.CompletedProcess(command, runner.returncode, stdout)
        if run.returncode != 0:
            sys.exit(f"soak: block {block + 1}: chariot match exited with {run.returncode}; see {log}")
        with open(log) as f:
            for line in f:
                if not line.startswith("game "):
                    continue
                for kind, text in FAULTS.items():
                    if text in line:
                        faults[kind] += 1
                        fault_lines.append(f"block {block + 1}: {line.strip()}")
        row = next(l for l in run.stdout.splitlines() if l.startswith("a "))
        n, w, d, l = (int(x) for x in row.split()[2:6])
        totals["games"] += n
        for i, v in enumerate((w, d, l)):
            totals["a"][i] += v
        print(f"block {block + 1}/{blocks} (Hash {hash_mb}, Threads {threads}): {n} games, a +{w} ={d} -{l}, "
              f"faults so far {sum(faults.values())}", flush=True)
    with open(os.path.join(args.out, "memory.tsv"), "w") as f:
        f.write("block\tseconds\tpid\tresident_mb\n")
        for s in samples:
            f.write("\t".join(str(x) for x in s) + "\n")
    lines = [f"soak: {totals['games']} games at {args.tc}, ponder on, "
             f"opponent {args.opponent or 'Chariot'}, {time.monotonic() - begin:.0f} s",
             f"a (Chariot): +{totals['a'][0]} ={totals['a'][1]} -{totals['a'][2]}",
             "faults: " + ", ".join(f"{k} {v}" for k, v in faults.items())]
    lines += fault_lines
    by_block = {}
    for block, _, pid, mb in samples:
        by_block.setdefault((block, pid), []).append(mb)
    growth = []
    for (block, pid), mbs in sorted(by_block.items()):
        if len(mbs) >= 4:
            quarter = max(1, len(mbs) // 4)
            growth.append((block, pid, statistics.median(mbs[:quarter]), statistics.median(mbs[-quarter:]), max(mbs)))
    for block, pid, first, last, peak in growth:
        lines.append(f"memory block {block} pid {pid}: first quarter {first:.0f} MB, last quarter {last:.0f} MB, peak {peak:.0f} MB")
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(args.out, "summary.txt"), "w") as f:
        f.write(text + "\n")
    sys.exit(1 if sum(faults.values()) else 0)


if __name__ == "__main__":
    main()
