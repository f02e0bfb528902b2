#!/usr/bin/env bash
# Builds every canister here twice for wasm32-unknown-unknown: as written (its
# workspace's [patch.crates-io] points `candid` at candor's compat crate) and, from a
# copy of the same sources with the patch removed, against crates.io candid 0.10.39.
# Checks that the patched builds link no other `candid`, and prints the .wasm sizes of
# both builds as a markdown table.
#
# Then it calls both builds of each canister offline (`canbench call`, one installed
# instance per build): the service text their `export_candid!()` compiled in must be the
# same byte for byte, and every message of calls/CANISTER.txt (typed by that service)
# must end the same way in both: the same outcome (reply, reject, trap, no reply), the
# same reply bytes, the same reject code. The text of a trap or reject may differ (ic-cdk
# traps with a decode error's Debug form, which is candor's: spec/differences.md C1):
# such lines are listed as notes with both texts. Exits 1 on any other difference.
# Prints a table of instructions per message and per canister.
#
#   bash tests/canisters/run.sh            (from anywhere; CANISTERS_OUT overrides
#                                           where builds go, default target/canisters)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${CANISTERS_OUT:-$root/target/canisters}
mkdir -p "$out"

# workspace dir (relative to here) and the packages it builds
workspaces=(".:ledger mgmt dip721 basic_dao" "cdk018:counter_cdk018" "cdk019:counter_cdk019")

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
# One release build of the runner and of the script encoder, in the target directory CI's
# `cargo run --release -p canbench_runner` uses too.
(cd "$root" && cargo build --quiet --release -p canbench_runner --bin canbench \
  && cargo build --quiet --release -p candor_parser --example encode_calls)
bin="${CARGO_TARGET_DIR:-$root/target}/release"
canbench="$bin/canbench"
encode_calls="$bin/examples/encode_calls"

# Compares two `canbench call` outputs line by line (KIND METHOD OUTCOME [DETAIL] [TEXT]
# instructions=N), prints the markdown table, and lists differences: in the outcome, the
# reply bytes or the reject code (errors, exit 1) and in the texts (notes).
compare_calls() {
  local pkg=$1 candid_out=$2 candor_out=$3
  if [ "$(wc -l <"$candid_out")" != "$(wc -l <"$candor_out")" ]; then
    echo "error: $pkg: the builds answered a different number of messages" >&2
    diff "$candid_out" "$candor_out" >&2 || true
    return 1
  fi
  paste -d'\t' "$candid_out" "$candor_out" | awk -F'\t' -v pkg="$pkg" '
    # The fields that must match: kind, method, outcome and, for a reply its bytes, for a
    # reject its code. The text (of a trap or reject) is everything after them.
    function fixed(line,   f, n) {
      n = split(line, f, " ")
      return f[1] " " f[2] " " f[3] ((f[3] == "reply" || f[3] == "reject") ? " " f[4] : "")
    }
    function text(line,   s) {
      s = substr(line, length(fixed(line)) + 2)
      sub(/ ?instructions=[0-9]+$/, "", s)
      return s
    }
    function instructions(line) {
      match(line, /instructions=[0-9]+$/)
      return substr(line, RSTART + 13) + 0
    }
    BEGIN {
      print "| method (message #) | outcome | instructions candid | instructions candor | change |"
      print "|---|---|---:|---:|---:|"
    }
    {
      split($1, f, " ")
      outcome = f[3] (f[3] == "reject" ? " " f[4] : "")
      if (fixed($1) != fixed($2)) {
        errors = errors sprintf("error: %s message #%d ends differently:\n  candid: %s\n  candor: %s\n", pkg, NR, $1, $2)
      } else if (text($1) != text($2)) {
        outcome = outcome " (text differs)"
        notes = notes sprintf("note: %s message #%d (%s %s): the %s texts differ\n  candid: %s\n  candor: %s\n", pkg, NR, f[1], f[2], f[3], text($1), text($2))
      }
      a = instructions($1); b = instructions($2); ta += a; tb += b
      change = a > 0 ? sprintf("%+.1f%%", (b - a) * 100 / a) : "n/a"
      printf "| %s %s (#%d) | %s | %d | %d | %s |\n", f[1], f[2], NR, outcome, a, b, change
    }
    END {
      printf "| **total, %d messages** | | **%d** | **%d** | **%+.1f%%** |\n", NR, ta, tb, (ta > 0 ? (tb - ta) * 100 / ta : 0)
      if (notes != "") printf "\n%s", notes
      if (errors != "") { printf "\n%s", errors > "/dev/stderr"; exit 1 }
    }'
}

# canister package, its build directory suffix, its call script and, where the script's
# calls come from one principal other than the anonymous one, that caller (hex)
bob=62113a95eb857c5ace590871884d4491d1e94d7228c8ca45c2e232dc02
genesis=e6f513e7eb5aad6c8d97c8b69fa7d73ef8416d41c413c93b3e899b6402
calls=("ledger:canisters:ledger" "mgmt:canisters:mgmt" "counter_cdk018:cdk018:counter" "counter_cdk019:cdk019:counter"
  "dip721:canisters:dip721:$bob" "basic_dao:canisters:basic_dao:$genesis")
status=0
for entry in "${calls[@]}"; do
  IFS=: read -r pkg dir script caller <<<"$entry"
  echo
  echo "### $pkg (calls/$script.txt)"
  echo
  for build in candid candor; do
    wasm="$out/$build-$dir/wasm32-unknown-unknown/release/$pkg.wasm"
    "$canbench" call --wasm "$wasm" --service-did >"$out/$pkg.$build.did"
  done
  if ! cmp -s "$out/$pkg.candid.did" "$out/$pkg.candor.did"; then
    echo "error: $pkg: the builds' export_candid!() interfaces differ (candid < > candor):" >&2
    diff "$out/$pkg.candid.did" "$out/$pkg.candor.did" >&2 || true
    status=1
    continue
  fi
  "$encode_calls" "$out/$pkg.candid.did" <"$here/calls/$script.txt" >"$out/$pkg.script"
  for build in candid candor; do
    wasm="$out/$build-$dir/wasm32-unknown-unknown/release/$pkg.wasm"
    "$canbench" call --wasm "$wasm" --script "$out/$pkg.script" ${caller:+--caller "$caller"} >"$out/$pkg.$build.out"
  done
  compare_calls "$pkg" "$out/$pkg.candid.out" "$out/$pkg.candor.out" || status=1
done

# ---- size bombs: calls/hostile.txt to both ledger builds, under a capped limit ---------
# ic-cdk decodes with no decoding quota: candid does whatever work a message claims, so
# its build runs each bomb to the instruction limit (capped here at HOSTILE_LIMIT, to keep
# CI's time; the IC's own limits are 5 billion for a query, 40 billion for an update).
# candor's size bound rejects each bomb: its build must trap with the bound's (or the
# skipping quota's) error within HOSTILE_MAX instructions, and reply to the legitimate
# messages exactly as candid's build does.
HOSTILE_LIMIT=${HOSTILE_LIMIT:-1000000000}
HOSTILE_MAX=5000000
echo
echo "### Size bombs (calls/hostile.txt, ledger; instruction limit $HOSTILE_LIMIT)"
echo
"$encode_calls" "$out/ledger.candid.did" <"$here/calls/hostile.txt" >"$out/hostile.script"
for build in candid candor; do
  "$canbench" call --wasm "$out/$build-canisters/wasm32-unknown-unknown/release/ledger.wasm" \
    --script "$out/hostile.script" --instruction-limit "$HOSTILE_LIMIT" >"$out/hostile.$build.out"
done
paste -d'\t' "$out/hostile.candid.out" "$out/hostile.candor.out" | awk -F'\t' -v max="$HOSTILE_MAX" '
  function instructions(line) {
    match(line, /instructions=[0-9]+$/)
    return substr(line, RSTART + 13) + 0
  }
  function outcome(line,   f, s) {
    split(line, f, " ")
    if (f[3] == "reply") return "reply " f[4]
    if (line ~ /instruction limit exceeded/) return "instruction limit"
    if (line ~ /Decoding cost exceeds the limit of [0-9]+ units/) return "trap: size bound"
    if (line ~ /Skipping cost exceeds the limit/) return "trap: skipping quota"
    return f[3]
  }
  BEGIN {
    print "| method (message #) | candid: outcome | instructions | candor: outcome | instructions |"
    print "|---|---|---:|---|---:|"
  }
  {
    split($1, f, " ")
    a = outcome($1); b = outcome($2)
    printf "| %s (#%d) | %s | %d | %s | %d |\n", f[2], NR, a, instructions($1), b, instructions($2)
    if (b ~ /^reply/ && a != b) errors = errors sprintf("error: hostile message #%d: candor replies, candid does not the same: %s / %s\n", NR, a, b)
    if (b !~ /^(reply|noreply|trap: )/) errors = errors sprintf("error: hostile message #%d: candor: %s\n", NR, $2)
    if (instructions($2) > max) errors = errors sprintf("error: hostile message #%d: candor used %d instructions (at most %d)\n", NR, instructions($2), max)
  }
  END { if (errors != "") { printf "\n%s", errors > "/dev/stderr"; exit 1 } }' || status=1

# ---- the dapps called as a browser calls them: headers in agent-js's order ------------
# The same scripts with every header written as agent-js writes it (each type table entry
# after the entries it names; `encode_calls --agent-js`), sent to the plain candor builds:
# each message must end as in the candid build (as above).
js=(dip721 basic_dao)
for pkg in "${js[@]}"; do
  for entry in "${calls[@]}"; do
    IFS=: read -r name _ script caller <<<"$entry"
    [ "$name" = "$pkg" ] || continue
    "$encode_calls" "$out/$pkg.candid.did" --agent-js <"$here/calls/$script.txt" >"$out/$pkg.js.script"
    "$canbench" call --wasm "$out/candor-canisters/wasm32-unknown-unknown/release/$pkg.wasm" \
      --script "$out/$pkg.js.script" ${caller:+--caller "$caller"} >"$out/$pkg.js.out"
    compare_calls "$pkg" "$out/$pkg.candid.out" "$out/$pkg.js.out" >/dev/null || status=1
  done
done

# ---- the dapps warmed: candor's `warm_up` in `init` (feature `warm_up`) ----------------
# The same dapps built on candor with every method's caches filled in `init`, called with
# the same scripts: each message must end as in the candid build (as above). Built into
# the candor target directory after the calls above read its plain builds, so only the
# two canister crates compile again.
warmed=(dip721 basic_dao)
release="$out/candor-canisters/wasm32-unknown-unknown/release"
# The plain builds are put back afterwards: the summary below reads their sizes.
for pkg in "${warmed[@]}"; do cp "$release/$pkg.wasm" "$out/$pkg.plain.wasm"; done
(cd "$here" && CARGO_TARGET_DIR="$out/candor-canisters" cargo build --quiet --release \
  --target wasm32-unknown-unknown -p dip721 -p basic_dao --features dip721/warm_up,basic_dao/warm_up)
for pkg in "${warmed[@]}"; do
  for entry in "${calls[@]}"; do
    IFS=: read -r name _ _ caller <<<"$entry"
    [ "$name" = "$pkg" ] || continue
    "$canbench" call --wasm "$out/candor-canisters/wasm32-unknown-unknown/release/$pkg.wasm" \
      --script "$out/$pkg.script" ${caller:+--caller "$caller"} >"$out/$pkg.warm.out"
    compare_calls "$pkg" "$out/$pkg.candid.out" "$out/$pkg.warm.out" >/dev/null || status=1
  done
  cp "$release/$pkg.wasm" "$out/$pkg.warm.wasm"
  cp "$out/$pkg.plain.wasm" "$release/$pkg.wasm"
done

# ---- whole calls against Motoko: the dapps of dfinity/canister-profiling ----------------
# motoko.txt holds the numbers that repository publishes per call (Motoko, and its own
# Rust canister on candid 0.10.10); each is set beside the first and the second call of
# the same method here, with both builds, and the first call of the warmed candor build.
echo
echo "### Whole calls against Motoko (dfinity/canister-profiling's dapps)"
echo
echo "Note: dip721 and basic_dao are our own canisters implementing the interfaces of canister-profiling's Rust dapps and doing the same work per call; the Motoko and Rust (candid 0.10.10) columns are the numbers canister-profiling publishes for its own canisters, measured on its setup ($(sed -n 's/^# setup: //p' "$here/motoko.txt")), not in this run."
echo
echo "| canister | call | candid 0.10.39, first call | candor, first call | candor, first call from agent-js | candor, second call | candor warmed, first call | Motoko (published) | Rust on candid 0.10.10 (published) | candor first ÷ Motoko | agent-js first ÷ Motoko | warmed first ÷ Motoko |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
grep -v '^#' "$here/motoko.txt" | while read -r pkg method motoko rust; do
  [ -z "$pkg" ] && continue
  # The instructions of the first and second `update METHOD` of a build's output.
  nth() { grep "^update $2 " "$out/$pkg.$1.out" | sed -n "$3p" | grep -o 'instructions=[0-9]*$' | cut -d= -f2; }
  awk -v pkg="$pkg" -v m="$method" -v a="$(nth candid "$method" 1)" -v b="$(nth candor "$method" 1)" \
    -v j="$(nth js "$method" 1)" -v c="$(nth candor "$method" 2)" -v w="$(nth warm "$method" 1)" \
    -v mo="$motoko" -v rs="$rust" '
    function commas(x,   s) { s = sprintf("%d", x); while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s); return s }
    BEGIN { printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %.2fx | %.2fx | %.2fx |\n", pkg, m, commas(a), commas(b), commas(j), commas(c), commas(w), commas(mo), commas(rs), b / mo, j / mo, w / mo }'
done

# ---- summary: one row per canister (README and docs/benchmarks.md show this one) ----
echo
echo "### Summary"
echo
echo "| canister | .wasm with candid 0.10.39 | .wasm with candor | change | messages | instructions with candid | with candor | change |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for entry in "${calls[@]}"; do
  IFS=: read -r pkg dir script _ <<<"$entry"
  sizes=()
  sums=()
  for build in candid candor; do
    sizes+=("$(stat -c %s "$out/$build-$dir/wasm32-unknown-unknown/release/$pkg.wasm")")
    sums+=("$(grep -o 'instructions=[0-9]*$' "$out/$pkg.$build.out" | cut -d= -f2 | awk '{ s += $1 } END { print s + 0 }')")
  done
  messages=$(wc -l <"$out/$pkg.candid.out")
  cdk=$(grep -m1 -oE '^ic-cdk = ("|\{ version = ")=?[0-9]+\.[0-9]+' "$here/$([ "$dir" = canisters ] && echo "$script" || echo "$dir")/Cargo.toml" | grep -oE '[0-9]+\.[0-9]+$' || true)
  awk -v pkg="$pkg" -v cdk="$cdk" -v sa="${sizes[0]}" -v sb="${sizes[1]}" -v n="$messages" -v ia="${sums[0]}" -v ib="${sums[1]}" '
    function commas(x,   s) { s = sprintf("%d", x); while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s); return s }
    BEGIN {
      label = cdk != "" ? pkg " (ic-cdk " cdk ")" : pkg
      printf "| %s | %s | %s | %+.1f%% | %d | %s | %s | %+.1f%% |\n", label, commas(sa), commas(sb), (sb - sa) * 100 / sa, n, commas(ia), commas(ib), (ib - ia) * 100 / ia
    }'
done
exit $status
