#!/usr/bin/env bash
# Builds the default opening book, book/chariot.book, from games Chariot
# plays against itself.
#
#   scripts/make_book.sh play    self-play games -> $WORK/selfplay-*.pgn (hours)
#   scripts/make_book.sh build   those games + book/selfplay-games.pgn -> book/selfplay-games.pgn -> book/chariot.book
#   scripts/make_book.sh         both
#
# Each game starts from one of the 100 openings of
# scripts/openings/dev-openings.txt and is played once (at a fixed node
# count the colour-swapped game comes out move for move the same). Openings the shipped games do not cover yet are
# played first, then the others, each group in a fixed random order, so a
# run stopped early widens the book. `play` is resumable: openings already
# in $WORK/played.txt are skipped. `build` keeps one game per opening: the
# one searched with the most nodes per move (new games replace shipped ones
# of the same opening). Everything heavy runs under `nice -n 19`; the search
# limit is a node count, so a loaded machine makes the games slower, not
# weaker. The games are played and judged by `chariot match`; nothing
# outside the repository is needed (python3 for the small steps).
set -euo pipefail
shopt -s nullglob
cd "$(dirname "$0")/.."

NODES=${NODES:-1000000}       # per move, for both sides
WORKERS=${WORKERS:-2}         # games played side by side
WORK=${WORK:-target/book-selfplay}
# What goes into the book: the first MAX_PLY plies of each game, moves seen
# in at least MIN_GAMES games, and the central cannon (h2e2 / b2e2) as the
# first move favoured by PREFER_CENTRAL.
MAX_PLY=${MAX_PLY:-20}
MIN_GAMES=${MIN_GAMES:-1}
PREFER_CENTRAL=${PREFER_CENTRAL:-2}
OPENINGS=scripts/openings/dev-openings.txt

play() {
    mkdir -p "$WORK"
    if [ ! -x "$WORK/chariot" ]; then
        # A copy, so that rebuilding during the (long) run changes nothing.
        nice -n 19 cargo build --release
        cp target/release/chariot "$WORK/chariot"
        git rev-parse HEAD > "$WORK/engine-commit.txt"
    fi
    python3 - "$OPENINGS" book/selfplay-games.pgn "$WORK/openings.txt" <<'EOF'
import random, re, sys
src, shipped, dst = sys.argv[1:]
lines = [l.split("#")[0].strip() for l in open(src) if l.strip() and not l.startswith("#")]
random.Random(2026).shuffle(lines)
games = [re.findall(r"\b[a-i][0-9][a-i][0-9]\b", re.sub(r"\[[^]]*\]", "", g))
         for g in open(shipped).read().split("[Event ")[1:]]
covered = lambda line: any(g[:len(line.split()[1:])] == line.split()[1:] for g in games)
order = [l for l in lines if not covered(l)] + [l for l in lines if covered(l)]
open(dst, "w").write("\n".join(order) + "\n")
print("%d openings, %d not covered by the shipped games (played first)" % (len(order), sum(not covered(l) for l in lines)))
EOF
    touch "$WORK/played.txt"
    for ((w = 0; w < WORKERS; w++)); do
        (
            i=0
            while IFS= read -r opening; do
                i=$((i + 1))
                if (( i % WORKERS != w )) || grep -qxF "$opening" "$WORK/played.txt"; then continue; fi
                echo "$opening" > "$WORK/opening-$w.txt"
                # A fresh PGN file for each game (chariot match appends
                # only when resuming), added to the run's file afterwards.
                rm -f "$WORK/game-$w.pgn"
                nice -n 19 "$WORK/chariot" match \
                    --engine name=chariot-a "cmd=$WORK/chariot" opt:Hash=256 opt:OwnBook=false \
                    --engine name=chariot-b "cmd=$WORK/chariot" opt:Hash=256 opt:OwnBook=false \
                    --nodes "$NODES" --move-timeout 600000 --max-plies 300 \
                    --openings "$WORK/opening-$w.txt" --rounds 1 --games 1 \
                    --event "Chariot self-play, $NODES nodes per move" \
                    --pgn "$WORK/game-$w.pgn" >> "$WORK/match-$w.log" 2>&1
                cat "$WORK/game-$w.pgn" >> "$WORK/selfplay-$NODES.pgn"
                echo "$opening" >> "$WORK/played.txt"
            done < "$WORK/openings.txt"
        ) &
    done
    wait
}

build() {
    # Every game (new and shipped) made compact: PGN with ICCS moves, the
    # tags that matter, no comments; one game per opening, the most nodes.
    python3 - "$OPENINGS" book/selfplay-games.pgn "$WORK"/selfplay-*.pgn <<'EOF'
import re, sys
openings_file, dst, *srcs = sys.argv[1:]
START = ["rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR", "w"]
openings = [l.split("#")[0].split()[1:] for l in open(openings_file) if l.strip() and not l.startswith("#")]
games = []
for src in [dst] + srcs:   # the shipped file first, so new games win ties
    for g in re.split(r"\n\n(?=\[Event )", open(src).read()):
        if not g.strip():
            continue
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', g, re.M))
        if "FEN" in tags and tags["FEN"].split()[:2] != START:
            sys.exit("a game does not start from the start position")
        nodes = int(re.search(r"(\d+)", tags.get("TimeControl", "") or tags["Event"].replace(",", "")).group(1))
        body = re.sub(r"\{[^}]*\}", " ", g.split("\n\n", 1)[1])
        moves = [t for t in body.split() if re.fullmatch(r"[a-i][0-9][a-i][0-9]", t)]
        if "PlyCount" in tags and len(moves) != int(tags["PlyCount"]):
            sys.exit("%s: %d moves read, PlyCount %s" % (src, len(moves), tags["PlyCount"]))
        # The longest opening of the set the game starts with.
        op = max((i for i, o in enumerate(openings) if moves[:len(o)] == o), key=lambda i: len(openings[i]), default=None)
        if op is None:
            sys.exit("%s: a game starts with no opening of the set" % src)
        # chariot match gives the reason in the last comment (`b (Black)
        # loses: checkmate`, `draw: repetition`), its tag only the kind.
        reason = re.search(r"\{([^{}]*)\}\s*(?:1-0|0-1|1/2-1/2)\s*$", g)
        term = " ".join(reason.group(1).split(": ")[-1].split()) if reason else tags["Termination"]
        games.append((op, nodes, moves, tags["Result"], term))
best = {}
for op, nodes, moves, result, term in games:
    if op not in best or nodes >= best[op][0]:
        best[op] = (nodes, moves, result, term)
out = []
for n, op in enumerate(sorted(best), 1):
    nodes, moves, result, term = best[op]
    out += ['[Event "Chariot self-play, %d nodes per move"]' % nodes, '[Round "%d"]' % n,
            '[Result "%s"]' % result, '[Termination "%s"]' % term, ""]
    words = [("%d. %s" % (i // 2 + 1, m)) if i % 2 == 0 else m for i, m in enumerate(moves)] + [result]
    line = ""
    for w in words:
        if line and len(line) + 1 + len(w) > 79:
            out.append(line)
            line = w
        else:
            line = (line + " " + w).strip()
    out += [line, ""]
open(dst, "w").write("\n".join(out))
count = {}
for nodes, *_ in best.values():
    count[nodes] = count.get(nodes, 0) + 1
print("%d games read, %d openings -> %s (%s)" % (len(games), len(best), dst,
      ", ".join("%d at %d nodes" % (c, n) for n, c in sorted(count.items()))))
EOF
    nice -n 19 cargo run --release --quiet -- book build book/selfplay-games.pgn --output book/chariot.book \
        --max-ply "$MAX_PLY" --min-games "$MIN_GAMES" \
        --prefer "h2e2=$PREFER_CENTRAL" --prefer "b2e2=$PREFER_CENTRAL"
    cargo run --release --quiet -- book show --book book/chariot.book
}

case "${1:-all}" in
    play) play ;;
    build) build ;;
    all) play && build ;;
    *) echo "usage: $0 [play|build|all]" >&2; exit 2 ;;
esac
