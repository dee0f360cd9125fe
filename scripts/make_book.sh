#!/usr/bin/env bash
# Builds the default opening book, book/chariot.book, from games Chariot
# plays against itself.
#
#   scripts/make_book.sh play    self-play games -> $WORK/selfplay-*.pgn (hours)
#   scripts/make_book.sh build   $WORK/selfplay*.pgn -> book/selfplay-games.pgn -> book/chariot.book
#   scripts/make_book.sh         both
#
# The games start from the 100 openings of the referee's dev set (each
# played twice, colours swapped; shuffled with a fixed seed), so the book
# holds those openings and Chariot's own continuations. The PGN files are
# appended to, and the book is built from every game in them. Everything heavy runs
# under `nice -n 19`; the search limit is a node count, so a loaded machine
# makes the games slower, not weaker.
set -euo pipefail
cd "$(dirname "$0")/.."

TOOLS=${TOOLS:-/work/shared/tools}
NODES=${NODES:-250000}        # per move, for both sides
GAMES_PER_HALF=${GAMES_PER_HALF:-100}   # 50 openings x 2 colours in each half
WORK=${WORK:-target/book-selfplay}
# What goes into the book: the first MAX_PLY plies of each game, moves seen
# in at least MIN_GAMES games, and the central cannon (h2e2 / b2e2) as the
# first move favoured by PREFER_CENTRAL.
MAX_PLY=${MAX_PLY:-20}
MIN_GAMES=${MIN_GAMES:-1}
PREFER_CENTRAL=${PREFER_CENTRAL:-2}

play() {
    nice -n 19 cargo build --release
    mkdir -p "$WORK"
    # A copy, so that rebuilding during the (long) run changes nothing.
    cp target/release/chariot "$WORK/chariot"
    git rev-parse HEAD > "$WORK/engine-commit.txt"
    # The openings in a fixed random order, so a run stopped early still
    # covers all the families (the file groups them), split in halves.
    python3 -c 'import random, sys
lines = [l for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
random.Random(2026).shuffle(lines)
half = (len(lines) + 1) // 2
open(sys.argv[2] + "-1.txt", "w").writelines(lines[:half])
open(sys.argv[2] + "-2.txt", "w").writelines(lines[half:])' "$TOOLS/openings/dev-openings.txt" "$WORK/openings"
    # Two matches side by side, one game at a time each. (At a fixed node
    # count the two games of an opening mostly come out the same; `build`
    # keeps such repeats once.)
    for half in 1 2; do
        nice -n 19 python3 "$TOOLS/referee.py" \
            --engine name=chariot-a "cmd=$WORK/chariot" proto=uci opt:Hash=64 opt:OwnBook=false \
            --engine name=chariot-b "cmd=$WORK/chariot" proto=uci opt:Hash=64 opt:OwnBook=false \
            --nodes "$NODES" --fixed-timeout 600000 --max-plies 300 \
            --openings "$WORK/openings-$half.txt" --games "$GAMES_PER_HALF" \
            --pgn "$WORK/selfplay-$half.pgn" >> "$WORK/referee-$half.log" &
    done
    wait
}

build() {
    # The PGN of the matches (a comment on every move) made compact: PGN
    # with ICCS moves, the tags that matter and no comments.
    python3 - book/selfplay-games.pgn "$NODES" "$WORK"/selfplay*.pgn <<'EOF'
import re, sys
dst, nodes, *srcs = sys.argv[1:]
games = [g for src in srcs for g in re.split(r"\n\n(?=\[Event )", open(src).read()) if g.strip()]
out, seen = [], set()
for g in games:
    tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', g, re.M))
    if tags.get("FEN", "").split()[:2] != ["rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR", "w"]:
        sys.exit("a game does not start from the start position")
    body = re.sub(r"\{[^}]*\}", " ", g.split("\n\n", 1)[1])
    moves = [t for t in body.split() if re.fullmatch(r"[a-i][0-9][a-i][0-9]", t)]
    if len(moves) != int(tags["PlyCount"]):
        sys.exit("round %s: %d moves read, PlyCount %s" % (tags["Round"], len(moves), tags["PlyCount"]))
    # At a fixed node count the two games of an opening usually come out
    # move for move the same: such a repeat is kept once.
    if tuple(moves) in seen:
        continue
    seen.add(tuple(moves))
    n = len(seen)
    out += ['[Event "Chariot self-play, %s nodes per move"]' % nodes, '[Round "%d"]' % n,
            '[Result "%s"]' % tags["Result"], '[Termination "%s"]' % tags["Termination"], ""]
    words = [("%d. %s" % (i // 2 + 1, m)) if i % 2 == 0 else m for i, m in enumerate(moves)] + [tags["Result"]]
    line = ""
    for w in words:
        if line and len(line) + 1 + len(w) > 79:
            out.append(line)
            line = w
        else:
            line = (line + " " + w).strip()
    out += [line, ""]
open(dst, "w").write("\n".join(out))
print("%d games, %d different -> %s" % (len(games), len(seen), dst))
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
