#!/bin/sh
# Coverage-guided fuzzing of every reader that takes outside input, with
# libFuzzer through cargo-fuzz. One command builds and runs every target:
#
#     fuzz/run.sh                  # 1,000,000 inputs a target
#     RUNS=5000000 fuzz/run.sh fen # one target, more inputs
#
# Needs `cargo install cargo-fuzz` once. cargo-fuzz passes flags of the
# nightly compiler; RUSTC_BOOTSTRAP lets this stable toolchain take them.
# No sanitizer: the engine has no unsafe code; debug assertions and
# overflow checks are on. A failing input is saved in fuzz/artifacts/.
set -eu
cd "$(dirname "$0")"
RUNS=${RUNS:-1000000}
export RUSTC_BOOTSTRAP=1
(cd .. && cargo build --release --quiet)
python3 make_corpus.py >/dev/null
cargo fuzz build -s none
targets=${*:-$(cargo fuzz list)}
mkdir -p logs
for target in $targets; do
    case $target in
        network) max_len=400000 ;;   # a whole network file
        game_record | datagen_game) max_len=65536 ;;
        *) max_len=4096 ;;
    esac
    start=$(date +%s)
    # -rss_limit_mb: the engine's own tables (search, hash) stay well under it.
    cargo fuzz run -s none "$target" "corpus/$target" -- -runs="$RUNS" -max_len="$max_len" \
        -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 >"logs/$target.log" 2>&1 || status=$?
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "logs/$target.log" | grep -o '[0-9]*$' || echo "?")
    echo "$target: ${execs} inputs in $(( $(date +%s) - start )) s, corpus $(ls "corpus/$target" | wc -l) files, exit ${status:-0}"
    if [ "${status:-0}" != 0 ]; then
        echo "  failure: see fuzz/logs/$target.log and fuzz/artifacts/$target/"
    fi
    unset status
done
