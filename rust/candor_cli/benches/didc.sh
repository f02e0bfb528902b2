#!/usr/bin/env bash
# candor against didc, whole process (start-up included), on the messages of the
# "faster than didc" table: wall time of `decode` (hex on standard input to Candid
# text) and of `encode` (Candid text on standard input to hex), both typed by the
# same .did and method, median of RUNS paired runs (candor and didc alternate).
#
#   bash rust/candor_cli/benches/didc.sh [CANDID_CHECKOUT] > rust/candor_cli/benches/didc.md
#
# CANDID_CHECKOUT is a checkout of github.com/dfinity/candid (its tools/didc is
# built in release mode there); without one the script clones it into WORK.
# candor is built here with `cargo build --release -p candor_cli`. The messages are
# written by python3 and encoded by candor; RUNS defaults to 9. With valgrind
# installed, a second table gives each run's instructions (callgrind), which other
# work on the machine does not change.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
work=${WORK:-$(mktemp -d)}
runs=${RUNS:-9}
candid=${1:-}
if [ -z "$candid" ]; then
  candid=$work/candid
  [ -d "$candid" ] || git clone --quiet --depth 1 https://github.com/dfinity/candid "$candid"
fi
(cd "$candid" && cargo build --quiet --release -p didc)
didc=$candid/target/release/didc
(cd "$root" && cargo build --quiet --release -p candor_cli)
candor=$root/target/release/candor

cat > "$work/bench.did" <<'DID'
type Row = record { id : nat64; name : text; memo : opt blob; amount : nat };
type Case = variant { none; small : nat8; word : text };
// didc decodes at a method's results and encodes at its arguments: both are
// the same type here.
service : {
  rows : (vec Row) -> (vec Row);
  bytes : (blob) -> (blob);
  cases : (vec Case) -> (vec Case);
}
DID

# The Candid text of each message.
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
rows = "; ".join(
    'record { id = %d : nat64; name = "customer-%08d-%s"; memo = %s; amount = %d : nat }'
    % (i, i, "x" * 40, 'opt blob "%s"' % (("\\%02x" % (i % 256)) * 48) if i % 2 else "null", i * 1_000_003)
    for i in range(10_000))
open(f"{work}/rows.txt", "w").write("(vec { %s })" % rows)
blob = "".join("\\%02x" % (i * 7 % 256) for i in range(1 << 20))
open(f"{work}/bytes.txt", "w").write('(blob "%s")' % blob)
cases = "; ".join(
    ("variant { none }", "variant { small = %d : nat8 }" % (i % 256), 'variant { word = "w%02d" }' % (i % 100))[i % 3]
    for i in range(10_000))
open(f"{work}/cases.txt", "w").write("(vec { %s })" % cases)
PY

for m in rows bytes cases; do
  "$candor" encode --did "$work/bench.did" --method "$m" < "$work/$m.txt" > "$work/$m.hex"
  # Both tools do the whole work: didc's decoding encodes back to the message,
  # and didc's encoding decodes to the same values as candor's.
  "$didc" decode -d "$work/bench.did" -m "$m" < "$work/$m.hex" \
    | "$candor" encode --did "$work/bench.did" --method "$m" | cmp -s - "$work/$m.hex" \
    || { echo "didc decode of $m does not give back the message" >&2; exit 1; }
  "$didc" encode -d "$work/bench.did" -m "$m" < "$work/$m.txt" \
    | "$candor" diff - "@$work/$m.hex" --did "$work/bench.did" --method "$m" > /dev/null \
    || { echo "didc encode of $m differs from candor's" >&2; exit 1; }
done

# Median wall time, in milliseconds, of `$@` with standard input from $stdin.
now() { date +%s%N; }
median() { sort -n | awk '{ a[NR] = $1 } END { printf "%.1f", (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
time_pair() { # time_pair STDIN CANDOR_ARGS... -- DIDC_ARGS...: prints "candor_ms didc_ms"
  local input=$1; shift
  local c=() d=() seen=
  for a in "$@"; do
    if [ "$a" = -- ]; then seen=1; continue; fi
    if [ -z "$seen" ]; then c+=("$a"); else d+=("$a"); fi
  done
  local tc=() td=()
  for _ in $(seq "$runs"); do
    local t0; t0=$(now); "$candor" "${c[@]}" < "$input" > /dev/null; local t1; t1=$(now)
    "$didc" "${d[@]}" < "$input" > /dev/null; local t2; t2=$(now)
    tc+=($(( (t1 - t0) / 1000 ))); td+=($(( (t2 - t1) / 1000 )))
  done
  printf '%s %s\n' "$(printf '%s\n' "${tc[@]}" | median)" "$(printf '%s\n' "${td[@]}" | median)"
}

load_at_start=$(cut -d' ' -f1-3 /proc/loadavg)
echo "| message | bytes | decode: candor / didc (ms) | decode ratio | encode from text: candor / didc (ms) | encode ratio |"
echo "|---|---:|---:|---:|---:|---:|"
for m in rows bytes cases; do
  case $m in
    rows) label='`vec record { id : nat64; name : text; memo : opt blob; amount : nat }`, 10,000 elements' ;;
    bytes) label='a 1 MiB `blob`' ;;
    cases) label='10,000 variants' ;;
  esac
  size=$(( $(tr -d '\n' < "$work/$m.hex" | wc -c) / 2 ))
  read -r dc dd < <(time_pair "$work/$m.hex" decode --did "$work/bench.did" --method "$m" -- decode -d "$work/bench.did" -m "$m")
  read -r ec ed < <(time_pair "$work/$m.txt" encode --did "$work/bench.did" --method "$m" -- encode -d "$work/bench.did" -m "$m")
  # Times are in microseconds; the table shows milliseconds.
  awk -v l="$label" -v s="$size" -v dc="$dc" -v dd="$dd" -v ec="$ec" -v ed="$ed" 'BEGIN {
    printf "| %s | %d | %.1f / %.1f | %.2f | %.1f / %.1f | %.2f |\n", l, s, dc / 1000, dd / 1000, dc / dd, ec / 1000, ed / 1000, ec / ed }'
done
echo
echo "Median of $runs paired runs, wall time of the whole process; ratio = candor / didc (below 1: candor is faster). didc $("$didc" --version | awk '{print $2}'), candor $("$candor" --version | awk '{print $2}'), $(nproc) cores, $(uname -m); load average (1, 5, 15 min) $load_at_start before the runs, $(cut -d' ' -f1-3 /proc/loadavg) after (other work on the machine slows both tools' runs, unevenly)."

# Instructions of the same runs (deterministic, unlike wall time on a shared
# machine), when valgrind is installed.
command -v valgrind > /dev/null || exit 0
instructions() { # instructions STDIN COMMAND...: instructions executed by the process
  local input=$1; shift
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" < "$input" 2>&1 > /dev/null \
    | awk '/Collected :/ { print $NF }'
}
echo
echo "| message | decode: candor / didc (instructions) | decode ratio | encode from text: candor / didc (instructions) | encode ratio |"
echo "|---|---:|---:|---:|---:|"
for m in rows bytes cases; do
  case $m in
    rows) label='10,000 records' ;;
    bytes) label='a 1 MiB `blob`' ;;
    cases) label='10,000 variants' ;;
  esac
  dc=$(instructions "$work/$m.hex" "$candor" decode --did "$work/bench.did" --method "$m")
  dd=$(instructions "$work/$m.hex" "$didc" decode -d "$work/bench.did" -m "$m")
  ec=$(instructions "$work/$m.txt" "$candor" encode --did "$work/bench.did" --method "$m")
  ed=$(instructions "$work/$m.txt" "$didc" encode -d "$work/bench.did" -m "$m")
  awk -v l="$label" -v dc="$dc" -v dd="$dd" -v ec="$ec" -v ed="$ed" 'BEGIN {
    printf "| %s | %.1fM / %.1fM | %.2f | %.1fM / %.1fM | %.2f |\n", l, dc / 1e6, dd / 1e6, dc / dd, ec / 1e6, ed / 1e6, ec / ed }'
done
echo
echo "Instructions executed by the whole process (valgrind --tool=callgrind), start-up included."
