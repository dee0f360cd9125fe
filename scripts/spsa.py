#!/usr/bin/env python3
"""SPSA tuning of Chariot's search parameters through `chariot match`.

Each iteration k perturbs every chosen parameter by +-c_k (a random sign per
parameter), plays a short match of theta+ against theta- (game pairs, each
opening with colours reversed) and moves theta towards the side that won:

    theta_i += a_k,i * (wins - losses of theta+) * sign_i / c_k,i
    a_k,i = a_i / (A + k)^0.602,  c_k,i = c_i / k^0.101

as fishtest does: each parameter's step (`chariot search-params`) is its
perturbation at the last planned iteration (c_i = step_i * N^0.101), and
a_i = r_end * step_i^2 * (A + N)^0.602, A = N / 10 by default.

Everything lives in a state file (JSON, rewritten after every iteration):
the settings, k, theta and the history. Run the same command again to go
on after an interruption; the iteration that was cut off is played again.
`--checkpoint FILE` writes a small copy without the history (the games'
totals are kept), which is itself a state file: committed to the
repository, it lets a run go on from another machine.
docs/tuning.md says how to run it and how a result is confirmed.
"""

import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import time

ALPHA = 0.602
GAMMA = 0.101
DEFAULT_OPENINGS = "scripts/openings/dev-openings.txt"
HELD_OUT = "heldout-openings.txt"


def read_specs(engine):
    """The parameter table: name -> (default, min, max, step)."""
    out = subprocess.run([engine, "search-params"], check=True, capture_output=True, text=True).stdout
    specs = {}
    for line in out.splitlines()[1:]:
        name, default, lo, hi, step = line.split()
        specs[name] = {"default": int(default), "min": int(lo), "max": int(hi), "step": float(step)}
    return specs


def new_state(args):
    specs = read_specs(args.engine)
    names = [n.strip() for n in args.params.split(",") if n.strip()] if args.params else list(specs)
    unknown = [n for n in names if n not in specs]
    if unknown:
        sys.exit(f"spsa: unknown parameters {', '.join(unknown)} (see `{args.engine} search-params`)")
    if os.path.basename(args.openings) == HELD_OUT:
        sys.exit("spsa: the held-out openings are kept for judging; tune on the dev set")
    n = args.iterations
    big_a = args.big_a if args.big_a is not None else n / 10
    params = {}
    for name in names:
        s = specs[name]
        params[name] = dict(
            s,
            c=s["step"] * n**GAMMA,
            a=args.r_end * s["step"] ** 2 * (big_a + n) ** ALPHA,
        )
    return {
        "version": 1,
        "settings": {
            "engine": args.engine,
            "tc": args.tc,
            "pairs": args.pairs,
            "openings": args.openings,
            "each": args.each,
            "iterations": n,
            "A": big_a,
            "r_end": args.r_end,
            "seed": args.seed,
        },
        "params": params,
        "k": 0,
        "theta": {name: float(p["default"]) for name, p in params.items()},
        "history": [],
    }


def save(path, state):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(state, f, indent=1)
    os.replace(tmp, path)


def clamp(x, p):
    return min(max(x, p["min"]), p["max"])


def match_command(state, k, plus, minus, concurrency):
    s = state["settings"]

    def tokens(values):
        return [f"opt:{name}={v}" for name, v in values.items()]

    cmd = [s["engine"], "match", "--tc", s["tc"], "--openings", s["openings"], "--rounds", str(s["pairs"])]
    # Another shuffle of the openings every iteration.
    cmd += ["--shuffle", str(s["seed"] * 1_000_003 + k), "--concurrency", str(concurrency)]
    if s["each"]:
        cmd += ["--each"] + s["each"]
    cmd += ["--engine", "name=plus", f"cmd={s['engine']}"] + tokens(plus)
    cmd += ["--engine", "name=minus", f"cmd={s['engine']}"] + tokens(minus)
    return cmd


def play(cmd):
    """Wins, draws and losses of `plus`, from the match's table."""
    match = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        stdout, stderr = match.communicate()
    finally:
        # Stopped (Ctrl-C, a signal): the match and its engines go too.
        if match.poll() is None:
            match.terminate()
            match.wait()
    if match.returncode != 0:
        sys.exit(f"spsa: the match failed ({match.returncode}):\n{stderr[-2000:]}")
    for line in stdout.splitlines():
        m = re.match(r"plus\s+minus\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s", line)
        if m:
            _, w, d, l = map(int, m.groups())
            return w, d, l
    sys.exit(f"spsa: no result row in the match's output:\n{stdout}")


def iterate(state, concurrency):
    """Plays iteration k + 1 and updates theta (the state is not saved)."""
    s = state["settings"]
    k = state["k"] + 1
    rng = random.Random(s["seed"] * 7919 + k)
    plus, minus, deltas = {}, {}, {}
    for name, p in state["params"].items():
        c_k = p["c"] / k**GAMMA
        delta = rng.choice((-1, 1))
        deltas[name] = delta
        theta = state["theta"][name]
        plus[name] = int(round(clamp(theta + c_k * delta, p)))
        minus[name] = int(round(clamp(theta - c_k * delta, p)))
    started = time.time()
    w, d, l = play(match_command(state, k, plus, minus, concurrency))
    result = w - l
    for name, p in state["params"].items():
        a_k = p["a"] / (s["A"] + k) ** ALPHA
        c_k = p["c"] / k**GAMMA
        state["theta"][name] = clamp(state["theta"][name] + a_k * result * deltas[name] / c_k, p)
    state["k"] = k
    state["history"].append(
        {
            "k": k,
            "plus": plus,
            "minus": minus,
            "wdl": [w, d, l],
            "seconds": round(time.time() - started, 1),
            "theta": dict(state["theta"]),
        }
    )
    return w, d, l


def totals(state):
    """theta+'s wins, draws and losses over every iteration played,
    those a checkpoint carried over included."""
    carried = state.get("carried_wdl", [0, 0, 0])
    return [carried[i] + sum(h["wdl"][i] for h in state["history"]) for i in range(3)]


def checkpoint(state):
    """The state without its history: the same run, k and theta, small."""
    return dict(state, history=[], carried_wdl=totals(state))


def show(state):
    wins, draws, losses = totals(state)
    s = state["settings"]
    print(f"iterations {state['k']}/{s['iterations']}, games {wins + draws + losses} (theta+ {wins}-{draws}-{losses})")
    print(f"{'name':<24} {'default':>8} {'theta':>10} {'rounded':>8}")
    for name, p in state["params"].items():
        t = state["theta"][name]
        print(f"{name:<24} {p['default']:>8} {t:>10.2f} {int(round(t)):>8}")
    changed = [
        f"opt:{n}={int(round(t))}" for n, t in state["theta"].items() if int(round(t)) != state["params"][n]["default"]
    ]
    if not changed:
        print("theta rounds to the defaults: nothing to confirm yet")
        return
    engine = s["engine"]
    print("confirm before keeping it (docs/tuning.md), on the held-out openings:")
    print(
        f"  {engine} match --tc 10+0.1 --openings scripts/openings/{HELD_OUT} --shuffle 1 --concurrency 2 "
        f"--sprt elo0=0 elo1=5 --pgn confirm.pgn --each opt:Hash=64 opt:Threads=1 "
        f"--engine name=tuned cmd={engine} {' '.join(changed)} --engine name=base cmd={engine}"
    )


def stop_on_signal(signum, _frame):
    sys.exit(f"spsa: stopped by signal {signum}; run the same command again to go on")


def main():
    signal.signal(signal.SIGTERM, stop_on_signal)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--state", default="spsa-state.json", help="the state file (made, or resumed if it exists)")
    ap.add_argument(
        "--engine",
        help="the chariot binary (default target/release/chariot); given on resuming, it replaces the state's "
        "(another build of the same search, e.g. on a new machine)",
    )
    ap.add_argument("--params", help="comma-separated names (new state only; default: every parameter)")
    ap.add_argument("--tc", default="2+0.02", help="the clock of every game (new state only)")
    ap.add_argument("--pairs", type=int, default=2, help="game pairs per iteration (new state only)")
    ap.add_argument("--openings", default=DEFAULT_OPENINGS, help="openings file (new state only)")
    ap.add_argument(
        "--each",
        nargs="+",
        default=["opt:Hash=16", "opt:Threads=1"],
        help="tokens for both engines (new state only)",
    )
    ap.add_argument("--iterations", type=int, default=20000, help="planned iterations N (new state only)")
    ap.add_argument("--A", dest="big_a", type=float, help="stability constant (default N/10; new state only)")
    ap.add_argument("--r-end", type=float, default=0.002, help="learning rate at the end (new state only)")
    ap.add_argument("--seed", type=int, default=1, help="signs and opening order (new state only)")
    ap.add_argument("--run", type=int, help="play at most this many iterations now (default: up to N)")
    ap.add_argument("--concurrency", type=int, default=1, help="games at once")
    ap.add_argument("--show", action="store_true", help="print theta and stop")
    ap.add_argument("--checkpoint", metavar="FILE", help="write the state without its history to FILE and stop")
    args = ap.parse_args()

    if os.path.exists(args.state):
        with open(args.state) as f:
            state = json.load(f)
        if args.checkpoint:
            save(args.checkpoint, checkpoint(state))
            print(f"spsa: {args.checkpoint}: iteration {state['k']} without its history", file=sys.stderr)
            return
        if args.engine and not args.show and args.engine != state["settings"]["engine"]:
            print(f"spsa: engine {state['settings']['engine']} -> {args.engine}", file=sys.stderr)
            state["settings"]["engine"] = args.engine
            save(args.state, state)
        if not args.show:
            print(f"spsa: resuming {args.state} at iteration {state['k'] + 1}", file=sys.stderr)
    else:
        if args.show or args.checkpoint:
            sys.exit(f"spsa: no state file {args.state}")
        args.engine = args.engine or "target/release/chariot"
        state = new_state(args)
        save(args.state, state)
        print(f"spsa: new state {args.state}, {len(state['params'])} parameters", file=sys.stderr)
    if args.show:
        show(state)
        return
    todo = state["settings"]["iterations"] - state["k"]
    if args.run is not None:
        todo = min(todo, args.run)
    for _ in range(todo):
        w, d, l = iterate(state, args.concurrency)
        save(args.state, state)
        h = state["history"][-1]
        thetas = " ".join(f"{n}={t:.2f}" for n, t in state["theta"].items())
        print(
            f"iteration {state['k']}/{state['settings']['iterations']}: theta+ {w}-{d}-{l} in {h['seconds']} s; {thetas}",
            flush=True,
        )
    show(state)


if __name__ == "__main__":
    main()
