#!/usr/bin/env bash
# Builds every canister here twice for wasm32-unknown-unknown: as written (its
# workspace's [patch.crates-io] points `candid` at candor's compat crate) and, from a
# copy of the same sources with the patch removed, against crates.io candid 0.10.39.
# Checks that the patched builds link no other `candid`, and prints the .wasm sizes of
# both builds as a markdown table.
#
#   bash tests/canisters/run.sh            (from anywhere; CANISTERS_OUT overrides
#                                           where builds go, default target/canisters)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${CANISTERS_OUT:-$root/target/canisters}
mkdir -p "$out"

# workspace dir (relative to here) and the packages it builds
workspaces=(".:ledger mgmt" "cdk018:counter_cdk018" "cdk019:counter_cdk019")

# A copy of all of tests/canisters, made once, with every [patch.crates-io] section
# removed; relative paths inside it (the shared counter source) still resolve.
unpatched_copy() {
  local dst=$1
  rm -rf "$dst"
  mkdir -p "$dst"
  (cd "$here" && tar --exclude=./target -cf - .) | (cd "$dst" && tar -xf -)
  for manifest in "$dst/Cargo.toml" "$dst"/cdk0*/Cargo.toml; do
    sed -i '/^\[patch.crates-io\]/,$d' "$manifest"
  done
  # Lockfiles made for the patched builds name the compat crate's path source.
  find "$dst" -name Cargo.lock -delete
}

build() {
  local dir=$1 target=$2
  shift 2
  local args=()
  for p in "$@"; do args+=(-p "$p"); done
  (cd "$dir" && CARGO_TARGET_DIR="$target" cargo build --quiet --release \
    --target wasm32-unknown-unknown "${args[@]}")
}

copy="$out/src-candid"
unpatched_copy "$copy"

echo "| canister | .wasm with candid 0.10.39 | .wasm with candor | change |"
echo "|---|---:|---:|---:|"
for entry in "${workspaces[@]}"; do
  rel=${entry%%:*}
  read -r -a pkgs <<<"${entry#*:}"
  name=$(basename "$(cd "$here/$rel" && pwd)")
  [ "$rel" = "." ] && name=canisters

  # The switch: the patched workspace must resolve `candid` to the compat crate only.
  others=$(cd "$here/$rel" && cargo tree -i candid --target wasm32-unknown-unknown -e normal --prefix none 2>/dev/null \
    | grep -E '^candid v' | grep -v 'rust/compat/candid' || true)
  if [ -n "$others" ]; then
    echo "error: $rel links a candid other than the compat crate: $others" >&2
    exit 1
  fi

  build "$here/$rel" "$out/candor-$name" "${pkgs[@]}"
  build "$copy/$rel" "$out/candid-$name" "${pkgs[@]}"
  for p in "${pkgs[@]}"; do
    a=$(stat -c %s "$out/candid-$name/wasm32-unknown-unknown/release/$p.wasm")
    b=$(stat -c %s "$out/candor-$name/wasm32-unknown-unknown/release/$p.wasm")
    pct=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%+.1f%%", (b - a) * 100 / a }')
    printf '| %s | %s | %s | %s |\n' "$p" "$a" "$b" "$pct"
  done
done
