#!/usr/bin/env bash
# Measures candid's own integration tests (dfinity/candid, rust/candid/tests) against the
# compat crate, i.e. against candor under candid's name.
#
#   bash tests/candid_suite/run.sh PATH/TO/candid-repo [COMMIT]   test files from a checkout
#   bash tests/candid_suite/run.sh --dir DIR                      test files from a directory
#   CANDID_TESTS_DIR=DIR bash tests/candid_suite/run.sh           the same
#
# The registry package of candid ships no tests, so they come from a checkout of the
# candid repository (for example one brought here with the search tool's `fetch`), or
# from a directory of `.rs` files gathered by hand (README.md says how to gather the
# newest ones). Nothing of them is committed here: each run copies the test files into
# a scratch crate under target/, whose only `candid` is the compat crate (candid_parser
# 0.4.1 from the registry is patched onto it too), and runs each test file on its own so
# one that does not compile does not hide the others.
#
# CANDID_SUITE_AGAINST=registry runs the same files against the real candid 0.10.39 from
# the registry instead, with no patch: a file or test that fails there is newer than
# 0.10.39 (or tied to another version) and is no target for the compat crate.
#
# Prints one line per test file, the names of its failing tests, and a closing
# `candid suite: P passed, F failed` line (tests in files that do not compile count as
# failed). Exit 0 whatever the count: this is a measurement; the differences are listed
# in spec/differences.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
against=${CANDID_SUITE_AGAINST:-compat}
case $against in
  compat) work=${CANDID_SUITE_DIR:-$root/target/candid-suite} ;;
  registry) work=${CANDID_SUITE_DIR:-$root/target/candid-suite-registry} ;;
  *) echo "CANDID_SUITE_AGAINST is compat or registry, not $against" >&2; exit 2 ;;
esac
# A test file that hangs counts as failed after this many seconds.
limit=${CANDID_SUITE_TIMEOUT:-900}

dir=${CANDID_TESTS_DIR:-}
if [ "${1:-}" = "--dir" ]; then
  dir=${2:?usage: run.sh --dir DIR}
fi
mkdir -p "$work/tests" "$work/src"
rm -f "$work"/tests/*.rs
if [ -n "$dir" ]; then
  cp "$dir"/*.rs "$work/tests/"
else
  repo=${1:?usage: run.sh CANDID_REPO [COMMIT] | run.sh --dir DIR}
  commit=${2:-HEAD}
  git_dir=$repo
  [ -d "$repo/.git" ] && git_dir=$repo/.git
  files=$(git --git-dir "$git_dir" ls-tree --name-only "$commit" rust/candid/tests/ | grep '\.rs$')
  for f in $files; do
    git --git-dir "$git_dir" show "$commit:$f" > "$work/tests/$(basename "$f")"
  done
fi

if [ "$against" = compat ]; then
  candid_dep="candid = { path = \"$root/rust/compat/candid\", features = [\"all\"] }"
  patch="[patch.crates-io]
candid = { path = \"$root/rust/compat/candid\" }"
else
  candid_dep='candid = { version = "=0.10.39", features = ["all"] }'
  patch=""
fi
cat > "$work/Cargo.toml" <<TOML
[workspace]

[package]
name = "candid_suite"
version = "0.0.0"
edition = "2021"
publish = false

[dev-dependencies]
$candid_dep
candid_parser = "=0.4.1"
serde = { version = "1", features = ["derive"] }
serde_bytes = "0.11"
serde_cbor = "0.11.2"
serde_json = "1"
serde_test = "1"
bincode = "1.3.3"
impls = "1"
rand = "0.8"
num-traits = "0.2"
num-bigint = "0.4"
hex = "0.4"
leb128 = "0.2.5"

$patch
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
  if ! timeout "$limit" cargo test --test "$name" --no-fail-fast >>"$log" 2>&1 &&
    ! grep -q 'test result' "$log"; then
    # The test binary aborted (a stack overflow, say) or hung, taking every test of the
    # file with it: run its tests one by one, so the others are still measured.
    tests=$(cargo test -q --test "$name" -- --list 2>/dev/null | sed -n 's/: test$//p')
    for one in $tests; do
      seen=$(wc -l <"$log")
      if ! timeout "$limit" cargo test --test "$name" -- --exact "$one" >>"$log" 2>&1 &&
        ! tail -n +"$((seen + 1))" "$log" | grep -q 'test result'; then
        echo "test $one ... FAILED" >>"$log"
        echo "test result: FAILED. 0 passed; 1 failed (crashed or over ${limit}s)" >>"$log"
      fi
    done
  fi
  p=$(grep -o '[0-9]* passed' "$log" | awk '{s+=$1} END {print s+0}')
  f=$(grep -o '[0-9]* failed' "$log" | awk '{s+=$1} END {print s+0}')
  echo "$name: $p passed, $f failed"
  grep -o '^test .* \.\.\. FAILED' "$log" | sed 's/^test /  failing: /; s/ \.\.\. FAILED$//' || true
  passed=$((passed + p))
  failed=$((failed + f))
done
echo "candid suite ($against): $passed passed, $failed failed"
