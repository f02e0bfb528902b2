#!/usr/bin/env bash
# Measures candid's own integration tests (dfinity/candid, rust/candid/tests) against the
# compat crate, i.e. against candor under candid's name.
#
#   bash tests/candid_suite/run.sh PATH/TO/candid-repo [COMMIT]
#
# The registry package of candid ships no tests, so they are read from a checkout of
# the candid repository (for example one brought here with the search tool's `fetch`).
# Nothing of them is committed here: each run copies the test files into a scratch
# crate under target/candid-suite, whose only `candid` is the compat crate, and runs
# each test file on its own so one that does not compile does not hide the others.
# Prints one line per test file and a closing `candid suite: P passed, F failed` line
# (tests in files that do not compile count as failed). Exit 0 whatever the count:
# this is a measurement; the differences are listed in spec/differences.md.
set -euo pipefail
repo=${1:?usage: run.sh CANDID_REPO [COMMIT]}
commit=${2:-HEAD}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${CANDID_SUITE_DIR:-$root/target/candid-suite}
mkdir -p "$work/tests" "$work/src"

git_dir=$repo
[ -d "$repo/.git" ] && git_dir=$repo/.git
files=$(git --git-dir "$git_dir" ls-tree --name-only "$commit" rust/candid/tests/ | grep '\.rs$')
rm -f "$work"/tests/*.rs
for f in $files; do
  git --git-dir "$git_dir" show "$commit:$f" > "$work/tests/$(basename "$f")"
done

cat > "$work/Cargo.toml" <<TOML
[workspace]

[package]
name = "candid_suite"
version = "0.0.0"
edition = "2021"
publish = false

[dev-dependencies]
candid = { path = "$root/rust/compat/candid", features = ["all"] }
candid_parser = "0.4"
serde = { version = "1", features = ["derive"] }
serde_bytes = "0.11"
serde_cbor = "0.11.2"
serde_json = "1"
bincode = "1.3.3"
rand = "0.8"
num-traits = "0.2"
num-bigint = "0.4"
hex = "0.4"
leb128 = "0.2.5"

[patch.crates-io]
candid = { path = "$root/rust/compat/candid" }
TOML
: > "$work/src/lib.rs"

passed=0
failed=0
cd "$work"
for t in tests/*.rs; do
  name=$(basename "$t" .rs)
  total=$(grep -c '#\[test\]' "$t" || true)
  log="$work/$name.log"
  if ! cargo test --test "$name" --no-run >"$log" 2>&1; then
    echo "$name: does not compile ($total tests), see $log"
    failed=$((failed + total))
    continue
  fi
  cargo test --test "$name" --no-fail-fast >"$log" 2>&1 || true
  p=$(grep -o '[0-9]* passed' "$log" | awk '{s+=$1} END {print s+0}')
  f=$(grep -o '[0-9]* failed' "$log" | awk '{s+=$1} END {print s+0}')
  echo "$name: $p passed, $f failed"
  passed=$((passed + p))
  failed=$((failed + f))
done
echo "candid suite: $passed passed, $failed failed"
