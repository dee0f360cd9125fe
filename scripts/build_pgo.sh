#!/usr/bin/env bash
# Builds the fast binary with profile-guided optimisation (PGO): a first
# build counts how often each branch and call is taken while it makes
# training data and runs the bench, and the second build lays out and
# inlines the code by those counts. The search is the same code, so it
# searches the same trees and datagen writes the same bytes; only the
# speed changes (docs/building.md has the figures).
#
#   scripts/build_pgo.sh          -> target/pgo/release/chariot (x86-64-v3)
#   CPU=native scripts/build_pgo.sh   for the processor at hand
#
# Needs the llvm-profdata of the compiler's own LLVM: `rustup component add
# llvm-tools` (a system llvm-profdata of another LLVM version cannot read
# the counts). Takes about five minutes on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."

CPU=${CPU:-x86-64-v3}
PROFILES=target/pgo-profiles
host=$(rustc -vV | sed -n 's/^host: //p')
profdata="$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata"
if [[ ! -x $profdata ]]; then
    echo "build_pgo.sh: $profdata is missing; run: rustup component add llvm-tools" >&2
    exit 1
fi

# --target keeps the flags off build scripts and procedural macros, which
# would otherwise leave their own counts behind.
build() { # target-dir, extra rustc flag
    cargo build --release --target "$host" --target-dir "$1" \
        --config "build.rustflags=['-C','target-cpu=$CPU','-C','$2']"
}

rm -rf "$PROFILES"
build target/pgo-generate "profile-generate=$PWD/$PROFILES"
instrumented=target/pgo-generate/$host/release/chariot

# The training run: the work the binary spends its time on. Datagen with
# the network (both games' search and the writer), the bench with the
# network and with the hand-crafted evaluation.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$instrumented" datagen "$scratch/train.bin" --nnue --games 40 --threads 1 --seed 1 \
    --no-book --random-plies 8 2>"$scratch/datagen.log" >/dev/null ||
    { cat "$scratch/datagen.log" >&2; exit 1; }
"$instrumented" bench >/dev/null
"$instrumented" bench --hce >/dev/null

"$profdata" merge -o "$PROFILES/merged.profdata" "$PROFILES"
build target/pgo "profile-use=$PWD/$PROFILES/merged.profdata"
mkdir -p target/pgo/release
cp "target/pgo/$host/release/chariot" target/pgo/release/chariot
echo "built target/pgo/release/chariot"
