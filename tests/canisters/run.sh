#!/usr/bin/env bash
# Builds every canister here twice for wasm32-unknown-unknown: as written (its
# workspace's [patch.crates-io] points `candid` at candor's compat crate) and, from a
# copy of the same sources with the patch removed, against crates.io candid 0.10.39.
# Checks that the patched builds link no other `candid`, and prints the .wasm sizes of
# both builds as a markdown table.
#
# Then it calls both builds of each canister offline (`canbench call`): the service
# text their `export_candid!()` compiled in must be the same byte for byte, and the
# messages of calls/CANISTER.txt (typed by that service) must end the same way in both:
# the same reply bytes, the same rejects, traps where the other traps. A trap's text
# may differ (the canister prints a decode error's Debug form, which is candor's:
# spec/differences.md C1), and is listed. Prints the instructions per message.
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

# ---- calling both builds offline ------------------------------------------------------
(cd "$root" && cargo build --quiet --release -p canbench_runner --bin canbench \
  && cargo build --quiet --release -p candor_parser --example encode_calls)
canbench="${CARGO_TARGET_DIR:-$root/target}/release/canbench"
encode_calls="${CARGO_TARGET_DIR:-$root/target}/release/examples/encode_calls"

# canister package, its workspace build directory suffix, and its call script
calls=("ledger:canisters:ledger" "mgmt:canisters:mgmt" "counter_cdk018:cdk018:counter" "counter_cdk019:cdk019:counter")
status=0
for entry in "${calls[@]}"; do
  IFS=: read -r pkg dir script <<<"$entry"
  ours="$out/candor-$dir/wasm32-unknown-unknown/release/$pkg.wasm"
  theirs="$out/candid-$dir/wasm32-unknown-unknown/release/$pkg.wasm"
  "$canbench" call --wasm "$theirs" --service-did >"$out/$pkg.candid.did"
  "$canbench" call --wasm "$ours" --service-did >"$out/$pkg.candor.did"
  if ! cmp -s "$out/$pkg.candid.did" "$out/$pkg.candor.did"; then
    echo "error: $pkg: export_candid!() differs between the builds" >&2
    diff "$out/$pkg.candid.did" "$out/$pkg.candor.did" >&2 || true
    status=1
    continue
  fi
  "$encode_calls" "$out/$pkg.candid.did" <"$here/calls/$script.txt" >"$out/$pkg.script"
  "$canbench" call --wasm "$theirs" --script "$out/$pkg.script" >"$out/$pkg.candid.out"
  "$canbench" call --wasm "$ours" --script "$out/$pkg.script" >"$out/$pkg.candor.out"

  echo
  echo "$pkg: the same .did from both builds; messages of calls/$script.txt"
  echo
  echo "| # | message | ends | instructions with candid | with candor | change |"
  echo "|---:|---|---|---:|---:|---:|"
  # Lines: KIND METHOD ENDING [DETAIL…] instructions=N
  if ! paste -d'\t' "$out/$pkg.candid.out" "$out/$pkg.candor.out" | awk -F'\t' -v pkg="$pkg" '
    function ending(line,   f) { split(line, f, " "); return f[3] }
    function detail(line,   s) { s = line; sub(/^[^ ]+ [^ ]+ [^ ]+ ?/, "", s); sub(/ ?instructions=[0-9]+$/, "", s); return s }
    function instr(line,   m) { match(line, /instructions=[0-9]+$/); return substr(line, RSTART + 13) + 0 }
    {
      split($1, a, " "); n = NR
      ea = ending($1); eb = ending($2)
      if (ea != eb || ((ea == "reply" || ea == "reject") && detail($1) != detail($2))) {
        printf "error: %s message %d (%s %s) ends differently:\n  candid: %s\n  candor: %s\n", pkg, n, a[1], a[2], $1, $2 > "/dev/stderr"
        bad = 1
      }
      note = ea
      if (ea == "trap" && detail($1) != detail($2)) { note = "trap (text differs)"; traps[n] = 1 }
      ia = instr($1); ib = instr($2); ta += ia; tb += ib
      change = ia > 0 ? sprintf("%+.1f%%", (ib - ia) * 100 / ia) : "—"
      printf "| %d | %s %s | %s | %d | %d | %s |\n", n, a[1], a[2], note, ia, ib, change
    }
    END {
      total = (ta > 0) ? (tb - ta) * 100 / ta : 0
      printf "| | **total** | | **%d** | **%d** | **%+.1f%%** |\n", ta, tb, total
      exit bad
    }'; then
    status=1
  fi
done
exit $status
