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

A run stopped part way goes on where it stopped, even on another machine:
each finished block is a row of the record (--record, a TSV kept in the
repository under docs/soak/), and a block in the record is not played
again; a block cut short resumes from its games in OUT/block-N.pgn. The
summary, over every block of the record, is printed and written to
OUT/summary.txt; the memory samples go to OUT/memory.tsv (block, seconds,
process id, resident MB), and each block's first-quarter, last-quarter and
peak memory per engine into its record row.
"""

import argparse
import datetime
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


RECORD_FIELDS = ["block", "hash_mb", "threads", "build", "date", "seconds", "games", "w", "d", "l",
                 *[k.replace(" ", "_") for k in FAULTS], "memory", "fault_lines"]


def read_record(path):
    """The finished blocks, by number."""
    rows = {}
    if not os.path.exists(path):
        return rows
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        if header != RECORD_FIELDS:
            sys.exit(f"soak: {path}: not a soak record (its header is {header})")
        for number, line in enumerate(f, 2):
            values = line.rstrip("\n").split("\t")
            if len(values) != len(RECORD_FIELDS):
                sys.exit(f"soak: {path} line {number}: {len(values)} fields, not {len(RECORD_FIELDS)}")
            row = dict(zip(RECORD_FIELDS, values))
            rows[int(row["block"])] = row
    return rows


def append_record(path, row):
    new = not os.path.exists(path)
    with open(path, "a") as f:
        if new:
            f.write("\t".join(RECORD_FIELDS) + "\n")
        f.write("\t".join(str(row[k]) for k in RECORD_FIELDS) + "\n")


def build_of():
    """The commit the repository is at (the build the soak plays), or "unknown"."""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    except OSError:
        commit = ""
    return commit or "unknown"


def memory_summary(samples):
    """Per engine of a block: first-quarter median, last-quarter median and peak, in MB."""
    by_pid = {}
    for _, _, pid, mb in samples:
        by_pid.setdefault(pid, []).append(mb)
    parts = []
    for pid, mbs in sorted(by_pid.items()):
        if len(mbs) >= 4:
            quarter = max(1, len(mbs) // 4)
            first, last = statistics.median(mbs[:quarter]), statistics.median(mbs[-quarter:])
            parts.append(f"{first:.0f}/{last:.0f}/{max(mbs):.0f}")
    return " ".join(parts) or "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--chariot", default="target/release/chariot")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--tc", default="1+0.01")
    ap.add_argument("--opponent", help="engine tokens for chariot match (default: Chariot itself)")
    ap.add_argument("--openings", default=os.path.join(os.path.dirname(__file__), "openings", "dev-openings.txt"))
    ap.add_argument("--out", default="target/soak")
    ap.add_argument("--block", type=int, default=BLOCK, help="games a block (even; Hash and Threads change between blocks)")
    ap.add_argument("--record", help="the record of finished blocks (default OUT/record.tsv)")
    ap.add_argument("--build", help="the build's name in the record (default: the repository's commit)")
    args = ap.parse_args()
    if not os.path.exists(args.chariot):
        sys.exit(f"soak: {args.chariot} not found (cargo build --release)")
    if not os.path.exists("/proc/self/status"):
        sys.exit("soak: memory sampling reads /proc (Linux)")
    os.makedirs(args.out, exist_ok=True)
    chariot = os.path.abspath(args.chariot)
    blocks = (args.games + args.block - 1) // args.block
    record = args.record or os.path.join(args.out, "record.tsv")
    done = read_record(record)
    build = args.build or build_of()
    begin = time.monotonic()
    memory_tsv = os.path.join(args.out, "memory.tsv")
    if not os.path.exists(memory_tsv):
        with open(memory_tsv, "w") as f:
            f.write("block\tseconds\tpid\tresident_mb\n")
    for block in range(blocks):
        if block + 1 in done:
            continue
        block_begin = time.monotonic()
        samples = []
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
        # Appended: a block cut short and resumed keeps the faults of its first part.
        with open(log, "a") as log_file:
            runner = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log_file, text=True)
            sampler = threading.Thread(target=sample_memory, args=(runner.pid, block + 1, begin, samples, stop))
            sampler.start()
            stdout, _ = runner.communicate()
        stop.set()
        sampler.join()
        run = subprocess.CompletedProcess(command, runner.returncode, stdout)
        if run.returncode != 0:
            sys.exit(f"soak: block {block + 1}: chariot match exited with {run.returncode}; see {log}")
        faults = {k: 0 for k in FAULTS}
        fault_lines = []
        with open(log) as f:
            for line in f:
                if not line.startswith("game "):
                    continue
                for kind, text in FAULTS.items():
                    if text in line:
                        faults[kind] += 1
                        fault_lines.append(line.strip().replace("\t", " "))
        row = next(l for l in run.stdout.splitlines() if l.startswith("a "))
        n, w, d, l = (int(x) for x in row.split()[2:6])
        with open(memory_tsv, "a") as f:
            for sample in samples:
                f.write("\t".join(str(x) for x in sample) + "\n")
        done[block + 1] = {
            "block": block + 1, "hash_mb": hash_mb, "threads": threads, "build": build,
            "date": datetime.date.today().isoformat(), "seconds": round(time.monotonic() - block_begin),
            "games": n, "w": w, "d": d, "l": l,
            **{k.replace(" ", "_"): v for k, v in faults.items()},
            "memory": memory_summary(samples), "fault_lines": " | ".join(fault_lines) or "-",
        }
        append_record(record, done[block + 1])
        print(f"block {block + 1}/{blocks} (Hash {hash_mb}, Threads {threads}): {n} games, a +{w} ={d} -{l}, "
              f"faults {sum(faults.values())}, memory first/last/peak MB {done[block + 1]['memory']}", flush=True)
    rows = [done[b] for b in sorted(done)]
    games = sum(int(r["games"]) for r in rows)
    wdl = [sum(int(r[k]) for r in rows) for k in ("w", "d", "l")]
    fault_totals = {k: sum(int(r[k.replace(" ", "_")]) for r in rows) for k in FAULTS}
    builds = sorted({r["build"] for r in rows})
    lines = [f"soak: {games} games in {len(rows)} blocks at {args.tc}, ponder on, "
             f"opponent {args.opponent or 'Chariot'}, {sum(int(r['seconds']) for r in rows)} s, "
             f"build{'s' if len(builds) > 1 else ''} {', '.join(builds)}",
             f"a (Chariot): +{wdl[0]} ={wdl[1]} -{wdl[2]}",
             "faults: " + ", ".join(f"{k} {v}" for k, v in fault_totals.items())]
    lines += [f"block {r['block']}: {r['fault_lines']}" for r in rows if r["fault_lines"] != "-"]
    lines += [f"memory block {r['block']} (Hash {r['hash_mb']}, Threads {r['threads']}), per engine "
              f"first quarter/last quarter/peak MB: {r['memory']}" for r in rows]
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(args.out, "summary.txt"), "w") as f:
        f.write(text + "\n")
    sys.exit(1 if sum(fault_totals.values()) else 0)


if __name__ == "__main__":
    main()
