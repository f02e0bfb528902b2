#!/usr/bin/env bash
# Native instruction counts: candor vs candid 0.10.39, one callgrind run per (workload, lib, phase).
#
#   benches/native/run.sh [workload ...]      # default: every workload (`nbench --list`)
#
# Builds benches/native once in release (LTO, one codegen unit), then runs
#   valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*measured_*' nbench LIB WORKLOAD PHASE
# so only the measured encode/decode is counted, and prints a markdown table with the geometric
# means of the candid/candor ratios. Run with no workload named, it also writes the table, with
# the toolchain it was measured with, to benches/native/results.md (the committed results that
# docs/benchmarks.md shows). Environment:
#   CARGO_TARGET_DIR  where cargo builds (default: benches/native/target)
#   JOBS              callgrind runs in parallel (default: 2)
#   OUT               where callgrind.out files, logs and table.md go (default: $CARGO_TARGET_DIR/nbench-callgrind)
#   REV               measure candor as committed at this git revision instead of the work tree
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
target=${CARGO_TARGET_DIR:-$here/target}
out=${OUT:-$target/nbench-callgrind}
jobs=${JOBS:-2}
start=$SECONDS

command -v valgrind >/dev/null || {
    echo "run.sh: valgrind is not installed (apt-get install -y valgrind)" >&2
    exit 1
}

# REV=<commit> measures candor as committed at that revision (the work tree may be mid-edit):
# the repository's Cargo.toml and rust/ are exported with `git archive` (read-only) next to a
# copy of this crate, and that copy is built instead.
manifest=$here/Cargo.toml
if [[ -n ${REV:-} ]]; then
    root=$(cd "$here/../.." && pwd)
    rev=$(git -C "$root" rev-parse --short "$REV")
    snap=$target/nbench-src-$rev
    rm -rf "$snap"
    mkdir -p "$snap/benches/native"
    git -C "$root" archive --format=tar "$rev" Cargo.toml rust | tar -x -C "$snap"
    cp -r "$here/Cargo.toml" "$here/Cargo.lock" "$here/src" "$snap/benches/native/"
    manifest=$snap/benches/native/Cargo.toml
    echo "measuring candor at $rev (snapshot in $snap)" >&2
fi
cargo build --release --quiet --manifest-path "$manifest" --target-dir "$target"
bin=$target/release/nbench
[[ -x $bin ]] || {
    echo "run.sh: $bin not found after the build (is CARGO_TARGET_DIR exported consistently?)" >&2
    exit 1
}

if (($# > 0)); then
    workloads=("$@")
    results=
else
    mapfile -t workloads < <("$bin" --list)
    results=$here/results.md
fi

mkdir -p "$out"
rm -f "$out"/*.out "$out"/*.log "$out"/table.md

# One callgrind run; its count is the `summary:` line (collection is on only inside measured_*).
measure() {
    local bin=$1 out=$2 lib=$3 workload=$4 phase=$5
    local name=$workload.$lib.$phase
    if valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*measured_*' \
        --callgrind-out-file="$out/$name.out" "$bin" "$lib" "$workload" "$phase" >"$out/$name.log" 2>&1; then
        echo "  done $name" >&2
    else
        echo "  FAILED $name (see $out/$name.log)" >&2
        rm -f "$out/$name.out"
    fi
}
export -f measure

echo "running $((${#workloads[@]} * 4)) callgrind runs, $jobs at a time; output in $out" >&2
for w in "${workloads[@]}"; do
    for lib in candid candor; do
        for phase in encode decode; do
            printf '%s\n' "$bin $out $lib $w $phase"
        done
    done
done | xargs -P "$jobs" -L 1 bash -c 'measure "$@"' _

count() {
    local file=$1
    [[ -f $file ]] || {
        echo FAIL
        return
    }
    awk '/^summary:/ { print $2; found = 1; exit } /^totals:/ { t = $2 } END { if (!found) print (t == "" ? "FAIL" : t) }' "$file"
}

{
    echo "| workload | phase | candid instr | candor instr | ratio |"
    echo "|---|---|---:|---:|---:|"
    for w in "${workloads[@]}"; do
        for phase in decode encode; do
            a=$(count "$out/$w.candid.$phase.out")
            b=$(count "$out/$w.candor.$phase.out")
            echo "$w $phase $a $b"
        done
    done | awk '
        function commas(s,   r) { r = ""; while (length(s) > 3) { r = "," substr(s, length(s) - 2) r; s = substr(s, 1, length(s) - 3) } return s r }
        function fmt(n) { return n == "FAIL" ? "FAIL" : commas(n) }
        {
            ratio = "n/a"
            if ($3 != "FAIL" && $4 != "FAIL" && $4 > 0) {
                r = $3 / $4; ratio = sprintf("%.2f×", r)
                logsum[$2] += log(r); n[$2]++
            }
            printf "| %s | %s | %s | %s | %s |\n", $1, $2, fmt($3), fmt($4), ratio
        }
        END {
            print ""
            split("decode encode", phases, " ")
            for (i = 1; i <= 2; i++) {
                p = phases[i]
                if (n[p] > 0) printf "geometric mean of %s ratios (candid/candor): %.2f× over %d workloads\n", p, exp(logsum[p] / n[p]), n[p]
            }
        }'
} | tee "$out/table.md"

# The committed results: the table under a note saying how it was measured.
if [[ -n $results ]]; then
    {
        echo "# Native instruction counts: candor vs candid 0.10.39"
        echo
        echo "Written by \`benches/native/run.sh\` (every workload; see [README.md](README.md)): x86-64"
        echo "instructions counted by callgrind inside the measured encode or decode only, one run per"
        echo "workload, library and phase. ratio = candid instr ÷ candor instr (above 1: candor executes"
        echo "fewer instructions). \`small_args\` and \`subtype_decode\` count 1,000 messages."
        echo
        echo "- $(cd "$here" && rustc --version)"
        echo "- $(valgrind --version)"
        echo
        cat "$out/table.md"
    } >"$results"
    echo "wrote $results" >&2
fi

elapsed=$((SECONDS - start))
echo ""
echo "small_args and subtype_decode count 1,000 messages: divide by 1,000 for a per-call figure."
echo "total runtime: $((elapsed / 60))m $((elapsed % 60))s (table saved to $out/table.md)"
