#!/usr/bin/env bash
# Hot spots of one measured run that run.sh left behind:
#
#   benches/native/hot.sh WORKLOAD LIB PHASE [N]
#
# prints the top N (default 30) functions by inclusive instruction count (thread start-up frames
# dropped) and the N hottest source lines. With LTO most code is inlined into a few frames, so the
# line view is usually the one that says where the instructions go.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
target=${CARGO_TARGET_DIR:-$here/target}
out=${OUT:-$target/nbench-callgrind}
(($# >= 3)) || {
    echo "usage: hot.sh WORKLOAD LIB PHASE [N]" >&2
    exit 2
}
file=$out/$1.$2.$3.out
n=${4:-30}
[[ -f $file ]] || {
    echo "hot.sh: $file not found: run run.sh first" >&2
    exit 1
}

# Shorten toolchain, registry and snapshot paths.
shorten() {
    sed -E 's#/rustc/[0-9a-f]+/##g; s#/root/\.cargo/registry/src/[^/]+/##g; s#[^ ]*/nbench-src-[0-9a-f]+/##g; s#'"$here"'/../../##g' |
        cut -c1-220
}

echo "### $1 $2 $3: top $n functions (inclusive)"
callgrind_annotate --inclusive=yes "$file" 2>/dev/null |
    sed -n '/file:function/,/^-- Auto-annotated/p' |
    grep -E '^ *[0-9,]+ ' |
    grep -vE 'clone\.S|pthread_create|thread_start|call_once\{\{vtable|__rust_begin_short_backtrace' |
    head -n "$n" | shorten

echo ""
echo "### $1 $2 $3: top $n source lines (self)"
callgrind_annotate --auto=yes --show-percs=no "$file" 2>/dev/null |
    awk '/^-- Auto-annotated source: / { src = $4; next }
         /^ *[0-9][0-9,]* +[^ ]/ && src != "" && $0 !~ /unidentified lines|events annotated/ {
             count = $1; gsub(",", "", count); line = $0; sub(/^ *[0-9,]+ +/, "", line)
             printf "%14d  %s: %s\n", count, src, line
         }' |
    sort -k1,1nr | head -n "$n" | shorten
