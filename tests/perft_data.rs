//! Checks every reference count in `perft-data/` (see its README for the
//! source of each number). Counts above the node budget are checked by the
//! ignored test: `cargo test --release -- --ignored`.

use chariot::perft::{perft, perft_reference};
use chariot::position::Position;
use std::fs;
use std::path::Path;

/// Largest expected count checked in the default (CI) run.
const CI_NODE_BUDGET: u64 = 40_000_000;
/// Largest count the slow reference generator also checks.
const REFERENCE_NODE_BUDGET: u64 = 3_000;

struct Entry {
    file: String,
    line: usize,
    fen: String,
    depth: u32,
    nodes: u64,
}

fn load() -> Vec<Entry> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("perft-data");
    let mut names: Vec<_> = fs::read_dir(&dir)
        .expect("perft-data/ exists")
        .map(|e| e.expect("readable dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "epd"))
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no .epd files in perft-data/");
    let mut entries = Vec::new();
    for path in names {
        let text = fs::read_to_string(&path).expect("readable perft file");
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut parts = line.split(';').map(str::trim);
            let fen = parts.next().unwrap().to_string();
            for part in parts.filter(|p| !p.is_empty()) {
                let (d, n) = part.split_once(' ').unwrap_or_else(|| panic!("{file}:{}: bad field '{part}'", i + 1));
                entries.push(Entry {
                    file: file.clone(),
                    line: i + 1,
                    fen: fen.clone(),
                    depth: d.trim_start_matches(['D', 'd']).parse().expect("depth"),
                    nodes: n.trim().parse().expect("count"),
                });
            }
        }
    }
    entries
}

fn check(entries: impl Iterator<Item = Entry>) -> usize {
    let mut checked = 0;
    let mut failures = Vec::new();
    for e in entries {
        let pos = Position::from_fen(&e.fen).unwrap_or_else(|err| panic!("{}:{}: {err}", e.file, e.line));
        let got = perft(&pos, e.depth);
        if got != e.nodes {
            failures.push(format!("{}:{} D{} expected {} got {} ({})", e.file, e.line, e.depth, e.nodes, got, e.fen));
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
    checked
}

#[test]
fn perft_counts_within_ci_budget() {
    let entries: Vec<Entry> = load().into_iter().filter(|e| e.nodes <= CI_NODE_BUDGET).collect();
    let n = entries.len();
    assert!(n > 300, "expected hundreds of reference counts, found {n}");
    assert_eq!(check(entries.into_iter()), n);
}

#[test]
fn reference_generator_agrees_with_small_counts() {
    let mut checked = 0;
    for e in load().into_iter().filter(|e| e.nodes <= REFERENCE_NODE_BUDGET) {
        let pos = Position::from_fen(&e.fen).unwrap();
        assert_eq!(perft_reference(&pos, e.depth), e.nodes, "{}:{} D{}", e.file, e.line, e.depth);
        checked += 1;
    }
    assert!(checked > 100);
}

#[test]
#[ignore = "deep counts take minutes; run with --ignored"]
fn perft_counts_beyond_ci_budget() {
    check(load().into_iter().filter(|e| e.nodes > CI_NODE_BUDGET));
}
