#!/usr/bin/env bash
# Runs upstream canbench's own expected-output tests against our offline runner
# (rust/canbench_runner, binary `canbench`) and fails on any difference.
#
#   bash scripts/upstream_canbench.sh [CANBENCH_CHECKOUT | CANBENCH_GIT_DIR]
#
# A checkout is used in place (its test canisters are built into its target/); a git dir
# (a bare mirror, say) is cloned into a scratch directory; with no argument
# https://github.com/dfinity/canbench is cloned. Each test in
# canbench-bin/tests/tests.rs that compares stdout with canbench-bin/tests/expected/NAME.txt
# is run as upstream's tests/utils.rs runs it: from the canister's directory, with
# `--less-verbose --show-summary`, the benchmark pattern and the flags its builder calls
# ask for. The test list and the flags are read from tests.rs, so a new upstream test is
# run (or reported as unknown) rather than silently left out.
#
# Upstream's numbers depend on the compiler that built its canisters, so they are built
# with the toolchain its rust-toolchain.toml pins. Without rustup, or when that toolchain
# cannot be installed (no network), the script prints "upstream_canbench: SKIPPED: why"
# and exits 0: there is nothing to compare against, which is not a failure of ours.
# It prints PASS or FAIL per test (with the diff) and exits 1 on any FAIL, 2 on a bad
# argument or a failed build.
#
# CANBENCH_RUNNER=path uses that runner binary instead of building one.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
upstream_url=https://github.com/dfinity/canbench
wasm_target=wasm32-unknown-unknown

say() { printf 'upstream_canbench: %s\n' "$*"; }
skip() { say "SKIPPED: $*"; exit 0; }
die() { say "ERROR: $*" >&2; exit 2; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/upstream_canbench.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# --- the upstream checkout -------------------------------------------------------------
src=${1:-}
if [ -z "$src" ]; then
  say "cloning $upstream_url"
  git clone --quiet --depth 1 "$upstream_url" "$scratch/canbench" ||
    skip "cannot clone $upstream_url (no network?); pass a canbench checkout or git dir"
  up=$scratch/canbench
elif [ -f "$src/canbench-bin/tests/tests.rs" ]; then
  up=$(cd "$src" && pwd)
elif git --git-dir="$src" rev-parse --verify --quiet HEAD >/dev/null 2>&1; then
  say "extracting $(git --git-dir="$src" rev-parse --short HEAD) from $src"
  git clone --quiet "$src" "$scratch/canbench" || die "cannot clone the git dir $src"
  up=$scratch/canbench
else
  die "$src is neither a canbench checkout (no canbench-bin/tests/tests.rs) nor a git dir"
fi
tests_rs=$up/canbench-bin/tests/tests.rs
expected_dir=$up/canbench-bin/tests/expected
[ -f "$tests_rs" ] || die "$up has no canbench-bin/tests/tests.rs"

# --- the pinned toolchain --------------------------------------------------------------
toolchain=
while IFS= read -r line || [ -n "$line" ]; do
  if [[ $line =~ ^[[:space:]]*channel[[:space:]]*=[[:space:]]*\"([^\"]+)\" ]]; then
    toolchain=${BASH_REMATCH[1]}
  fi
done < "$up/rust-toolchain.toml"
[ -n "$toolchain" ] || die "no channel in $up/rust-toolchain.toml"

command -v rustup >/dev/null || skip "no rustup to install Rust $toolchain, which upstream pins"
if ! rustup run "$toolchain" rustc --version >/dev/null 2>&1; then
  say "installing Rust $toolchain"
  rustup toolchain install "$toolchain" --profile minimal --target "$wasm_target" ||
    skip "cannot install Rust $toolchain with rustup (no network?)"
fi
if [[ $(rustup target list --installed --toolchain "$toolchain") != *"$wasm_target"* ]]; then
  say "adding $wasm_target to Rust $toolchain"
  rustup target add --toolchain "$toolchain" "$wasm_target" ||
    skip "cannot add $wasm_target to Rust $toolchain with rustup (no network?)"
fi

# --- the test cases, read from tests.rs ------------------------------------------------
# Each case is a test function that loads an expected file. Its builder calls become the
# command line exactly as tests/utils.rs assembles it (same flags, same order); a builder
# call this script does not know makes the case fail instead of running it differently.
names=() canisters=() argv=() unknown=()
body= fn= is_test=
flush_fn() {
  [ -n "$is_test" ] && [[ $body == *"load_expected("* ]] || return 0
  local canister= bench= noise= trace= hide= output= rest=$body call
  [[ $body =~ BenchTest::canister\(\"([^\"]+)\"\) ]] && canister=${BASH_REMATCH[1]}
  [[ $body =~ \.with_bench\(\"([^\"]+)\"\) ]] && bench=${BASH_REMATCH[1]}
  if [[ $body =~ \.with_noise_threshold\(([0-9.]+)(_?f64)?\) ]]; then
    # Rust's f64 Display, which utils.rs uses: 5.0 prints as "5".
    noise=${BASH_REMATCH[1]%.0}
  fi
  [[ $body == *".with_instruction_tracing()"* ]] && trace=1
  [[ $body == *".with_hide_results()"* ]] && hide=1
  [[ $body == *".with_canister_output()"* ]] && output=1
  local odd=
  while [[ $rest =~ \.(with_[a-z_]+)\( ]]; do
    call=${BASH_REMATCH[1]}
    rest=${rest#*".$call("}
    case $call in
      with_bench | with_noise_threshold | with_instruction_tracing | with_hide_results | \
        with_canister_output) ;;
      *) odd+=" $call" ;;
    esac
  done
  [ -n "$canister" ] || odd+=" (not BenchTest::canister)"
  local args="--less-verbose --show-summary"
  [ -n "$bench" ] && args+=" $bench"
  [ -n "$output" ] && args+=" --show-canister-output"
  [ -n "$noise" ] && args+=" --noise-threshold $noise"
  [ -n "$trace" ] && args+=" --instruction-tracing"
  [ -n "$hide" ] && args+=" --hide-results"
  names+=("$fn") canisters+=("$canister") argv+=("$args") unknown+=("${odd# }")
}
test_attr=
while IFS= read -r line || [ -n "$line" ]; do
  if [[ $line =~ ^[[:space:]]*#\[test\] ]]; then
    test_attr=1
  elif [[ $line =~ ^[[:space:]]*fn[[:space:]]+([a-z0-9_]+)\( ]]; then
    next=${BASH_REMATCH[1]}
    flush_fn
    fn=$next is_test=$test_attr body= test_attr=
  else
    body+="$line"$'\n'
  fi
done < "$tests_rs"
flush_fn
[ ${#names[@]} -gt 0 ] || die "found no expected-output tests in $tests_rs"

# --- build ---------------------------------------------------------------------------
if [ -n "${CANBENCH_RUNNER:-}" ]; then
  runner=$(cd "$(dirname "$CANBENCH_RUNNER")" && pwd)/$(basename "$CANBENCH_RUNNER")
else
  say "building our runner"
  (cd "$repo" && cargo build --release -p canbench_runner)
  target_dir=${CARGO_TARGET_DIR:-target}
  [[ $target_dir == /* ]] || target_dir=$repo/$target_dir
  runner=$target_dir/release/canbench
fi
[ -x "$runner" ] || die "no runner at $runner"

# canbench.yml's build_cmd, run as upstream's canbench runs it, in the canister's directory
# with the pinned toolchain (set explicitly: a RUSTUP_TOOLCHAIN inherited from the caller
# would otherwise win over rust-toolchain.toml) and without a CARGO_TARGET_DIR meant for
# our build (wasm_path expects the wasm under the checkout's target/).
build_cmd_of() {
  local line cmd= in_cmd=
  while IFS= read -r line || [ -n "$line" ]; do
    if [[ $line =~ ^build_cmd:[[:space:]]*(.*)$ ]]; then
      cmd=${BASH_REMATCH[1]} in_cmd=1
    elif [ -n "$in_cmd" ] && [[ $line =~ ^[[:space:]]+([^[:space:]].*)$ ]]; then
      cmd+="${cmd:+ }${BASH_REMATCH[1]}"
    else
      in_cmd=
    fi
  done < "$1"
  printf '%s' "$cmd"
}
built=" "
for canister in "${canisters[@]}"; do
  [ -n "$canister" ] && [[ $built != *" $canister "* ]] || continue
  dir=$up/tests/$canister
  cmd=$(build_cmd_of "$dir/canbench.yml")
  [ -n "$cmd" ] || die "no build_cmd in $dir/canbench.yml"
  say "building tests/$canister: $cmd"
  (cd "$dir" && RUSTUP_TOOLCHAIN=$toolchain env -u CARGO_TARGET_DIR bash -c "$cmd") ||
    die "building tests/$canister failed"
  built+="$canister "
done

# --- run and compare -----------------------------------------------------------------
# Each run happens in a scratch copy of the canister's directory (its ../../target links
# to the checkout's): graphs go beside the results file, so the checkout stays untouched.
#
# Lines our runner prints that upstream does not, removed before comparing: "Instruction
# traces written to BENCH.merged.svg" and "... BENCH.scope.SCOPE.svg", because the runner
# draws a merged graph and one per scope beside upstream's BENCH.svg (whose line is kept
# and compared). Its progress lines go to stderr, which upstream's tests do not compare.
strip_our_lines() {
  local line
  while IFS= read -r line; do
    case $line in
      "Instruction traces written to "*.merged.svg) ;;
      "Instruction traces written to "*.scope.*.svg) ;;
      *) printf '%s\n' "$line" ;;
    esac
  done
  # A last line without a newline stays without one.
  [ -z "$line" ] || printf '%s' "$line"
}
indent() {
  local line
  while IFS= read -r line || [ -n "$line" ]; do printf '    %s\n' "$line"; done
}

say "runner $runner; upstream $up (Rust $toolchain)"
passed=() failed=()
for i in "${!names[@]}"; do
  name=${names[$i]} canister=${canisters[$i]}
  expected=$expected_dir/$name.txt
  if [ -n "${unknown[$i]}" ]; then
    failed+=("$name")
    echo "FAIL $name: builder calls this script does not map: ${unknown[$i]}"
    continue
  fi
  if [ ! -f "$expected" ]; then
    failed+=("$name")
    echo "FAIL $name: no $expected"
    continue
  fi
  work=$scratch/run.$name
  mkdir -p "$work/tests"
  cp -R "$up/tests/$canister" "$work/tests/"
  ln -s "$up/target" "$work/target"
  # --no-build: the canisters were built above, with the pinned toolchain.
  # shellcheck disable=SC2086 # the arguments hold no spaces; split on purpose
  set -- ${argv[$i]} --no-build
  code=0
  (cd "$work/tests/$canister" && "$runner" "$@") >"$work/stdout" 2>"$work/stderr" || code=$?
  strip_our_lines <"$work/stdout" >"$work/compared"
  if [ "$code" -ne 0 ]; then
    failed+=("$name")
    echo "FAIL $name: exit $code (canbench $*)"
    indent <"$work/stderr"
  elif ! diff -u --label "expected/$name.txt" --label "canbench $*" "$expected" \
    "$work/compared" >"$work/diff"; then
    failed+=("$name")
    echo "FAIL $name (canbench $*)"
    indent <"$work/diff"
  else
    passed+=("$name")
    echo "PASS $name"
  fi
done

# An expected file no test reads means tests.rs changed shape in a way this script missed.
for f in "$expected_dir"/*.txt; do
  name=$(basename "$f" .txt)
  [[ " ${names[*]} " == *" $name "* ]] && continue
  failed+=("$name")
  echo "FAIL $name: expected/$name.txt has no test in tests.rs this script could read"
done

say "${#passed[@]} passed, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ]
