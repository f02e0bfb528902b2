#!/usr/bin/env bash
# spec/limits.md's worst-case search results (§1.1) are written by the search itself:
# `bash scripts/limits.sh` reruns it (fixed seed) and rewrites the generated block;
# `bash scripts/limits.sh --check` reruns it and fails when the block is stale (the
# test does that check on every `cargo test` too).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--check" ]; then
  cargo test -q -p candor --test size_bound_search
else
  CANDOR_BLESS=1 cargo test -q -p candor --test size_bound_search
fi
