#!/usr/bin/env bash
# AddressSanitizer over the code with `unsafe` blocks: candor's tests, candor_cli's tests
# (its input mapping and its small-block allocator), then every fuzz target run once over
# a seed corpus. benches/unsafe.md lists every block and what it was measured to save;
# ASan turns an out-of-bounds read or write, a use after free or a double free in them
# into a failure with a stack trace, where a plain test run may pass by luck. (Blocks the
# CLI's allocator hands out from its own region are not poisoned by ASan; the region's
# bookkeeping and everything the system allocator serves still are.)
#
# This is not a fuzzing campaign: each target executes its seed inputs once (plus
# ASAN_FUZZ_RUNS mutated inputs per target, 0 by default, with a fixed seed). A campaign
# is described in fuzz/README.md.
#
# Needs nightly (`-Zsanitizer` is unstable). The script installs it with rustup when it
# is missing; when that is impossible it prints a line starting with "asan: SKIPPED" and
# exits 0, so a machine without network still runs the rest of CI. Set ASAN_REQUIRED=1
# to make a missing nightly an error instead.
#
# Without -Zbuild-std the standard library itself is not instrumented, but every
# function of the workspace is, including the generic std code (slices, Vec, ptr copies)
# it monomorphizes: that is where the unsafe blocks' reads and writes happen.
#
# Builds go to target/asan (the sanitizer flags would otherwise rebuild target/debug).
# `--target` is explicit so that RUSTFLAGS reach only target code, not build scripts and
# proc macros (which would then need an instrumented compiler to load).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

host=x86_64-unknown-linux-gnu
toolchain=${ASAN_TOOLCHAIN:-nightly}
skip() {
  if [ "${ASAN_REQUIRED:-0}" = 1 ]; then
    echo "asan: FAILED: $1" >&2
    exit 1
  fi
  echo "asan: SKIPPED: $1"
  exit 0
}

[ "$(uname -m)-$(uname -s)" = "x86_64-Linux" ] || skip "AddressSanitizer runs here only on $host"
command -v rustup >/dev/null || skip "rustup is not installed, so nightly cannot be"
if ! rustup run "$toolchain" rustc --version >/dev/null 2>&1; then
  echo "asan: installing the $toolchain toolchain"
  rustup toolchain install "$toolchain" --profile minimal >&2 \
    || skip "rustup could not install $toolchain"
fi
command -v c++ >/dev/null || skip "no C++ compiler for libFuzzer (libfuzzer-sys builds it)"
echo "asan: $(rustup run "$toolchain" rustc --version)"

export CARGO_TARGET_DIR="$root/target/asan"
# Line tables are enough for file:line in ASan's reports, at a fraction of full
# debuginfo's disk; incremental caches only grow the directory in a one-shot build.
export CARGO_PROFILE_DEV_DEBUG=line-tables-only CARGO_PROFILE_TEST_DEBUG=line-tables-only
export CARGO_PROFILE_RELEASE_DEBUG=line-tables-only CARGO_INCREMENTAL=0
export RUSTFLAGS="-Zsanitizer=address -Cdebug-assertions=on -Coverflow-checks=on"
export RUSTDOCFLAGS="-Zsanitizer=address"
# Leak checking stays on: a leak from an unsafe block (a forgotten drop of a value read
# through a raw pointer) is a finding too. Stop at the first error.
# detect_stack_use_after_return=0: with it, ASan moves locals to a heap "fake stack",
# and the decoder's stack watch (`de::core::stack_addr`, the address of a local) would
# see jumps of megabytes and stop decodes at depth 0.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=0}"
export PROPTEST_RNG_SEED=${PROPTEST_RNG_SEED:-20261121}
cargo_n() { cargo "+$toolchain" "$@"; }

start=$SECONDS
echo "== asan: candor's tests (library and integration tests; doctests are not instrumented)"
cargo_n test -p candor --target "$host" --lib --tests --no-fail-fast
echo "asan: candor tests done in $((SECONDS - start)) s"

echo "== asan: candor_cli's tests (they run the instrumented binary)"
t=$SECONDS
# Two settings for this step only. detect_leaks=0: the binary leaves its value and clap's
# messages to the process exit on purpose (freeing a tree of small blocks just before
# exiting is work for nothing), which LeakSanitizer reports as leaks. RUST_MIN_STACK:
# explain's walk recurses once per nesting level, up to its depth limit, and ASan's
# red zones make each frame several times larger than in a normal build, more than a
# test thread's default stack holds at that depth (the binary's main thread has 8 MiB).
ASAN_OPTIONS="${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}" RUST_MIN_STACK=$((64 << 20)) \
  cargo_n test -p candor_cli --target "$host" --lib --tests --no-fail-fast
echo "asan: candor_cli tests done in $((SECONDS - t)) s"

echo "== asan: fuzz targets over their seed corpora"
t=$SECONDS
# The flags cargo-fuzz passes: coverage hooks libFuzzer needs, and the `fuzzing` cfg.
export RUSTFLAGS="$RUSTFLAGS --cfg fuzzing -Cpasses=sancov-module \
-Cllvm-args=-sanitizer-coverage-level=4 -Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
-Cllvm-args=-sanitizer-coverage-pc-table -Cllvm-args=-sanitizer-coverage-trace-compares"
# The fuzz profile (fuzz/Cargo.toml) is release with overflow checks and debug
# assertions; --bins builds every target.
cargo_n build --manifest-path fuzz/Cargo.toml --release --target "$host" --bins --examples
bin="$CARGO_TARGET_DIR/$host/release"

corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
# Binary messages: the seeder's valid messages (one per typed target shape) and the
# hand-written vectors of tests/vectors, when they are files of bytes.
mkdir -p "$corpus/bytes" "$corpus/text"
"$bin/examples/seed" "$corpus/bytes" >/dev/null
# Text for `parse`: .did interfaces and Candid values (the standard output part of the
# command line's golden `decode` files). For `assemble`: explanations, from its golden
# `explain` files.
n=0
for f in benches/canister/src/*.did benches/canister/src/*.txt rust/candor_cli/tests/golden/*.did \
  tests/vectors/*; do
  [ -f "$f" ] || continue
  cp "$f" "$corpus/text/$n-$(basename "$f")"
  n=$((n + 1))
done
mkdir -p "$corpus/explained"
stdout_of() { sed -n '/^--- stdout$/,/^--- stderr$/{/^--- /!p}' "$1"; }
for f in rust/candor_cli/tests/golden/decode_*.out; do
  [ -f "$f" ] && stdout_of "$f" >"$corpus/text/$(basename "$f")"
done
for f in rust/candor_cli/tests/golden/explain_*.out; do
  [ -f "$f" ] && stdout_of "$f" >"$corpus/explained/$(basename "$f")"
done

runs=${ASAN_FUZZ_RUNS:-0}
for target in decode header_cache direct known differential explain roundtrip parse assemble; do
  case $target in
    parse) dir="$corpus/text" ;;
    assemble) dir="$corpus/explained" ;;
    *) dir="$corpus/bytes" ;;
  esac
  # -runs=0 executes the corpus once and stops; a crash or an ASan report exits non-zero.
  # The corpus directory is read-only to libFuzzer here: new inputs go to a scratch dir.
  scratch=$(mktemp -d -p "$corpus")
  echo "asan: $target over $(ls "$dir" | wc -l) inputs"
  "$bin/$target" "$scratch" "$dir" -runs="$runs" -seed=1 -timeout=60 -rss_limit_mb=4096 \
    -artifact_prefix="$corpus/" -print_final_stats=0 2>"$corpus/$target.log" || {
    cat "$corpus/$target.log" >&2
    echo "asan: FAILED: fuzz target $target (log above)" >&2
    exit 1
  }
  grep -E "^(INFO: seed corpus|#[0-9]+[[:space:]]+(INITED|DONE))" "$corpus/$target.log" | tail -2 || true
done
echo "asan: fuzz targets done in $((SECONDS - t)) s"
echo "asan: all green in $((SECONDS - start)) s"
