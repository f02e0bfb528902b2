#!/usr/bin/env bash
# canbench on a pull request, offline: benchmarks the base and the head with the offline
# runner (rust/canbench_runner), writes the PR comment, and exits as the regression gate says.
# Any CI can call it; .github/workflows/canbench.yml only wires it to GitHub.
#
#   scripts/canbench-pr.sh BASE_REF [OUT_DIR]
#       Run from inside the repository. The base (BASE_REF), then the head (HEAD, as
#       committed: uncommitted changes are not benchmarked) are checked out in turn in one
#       temporary git worktree, at the same path: a build depends on where its sources are
#       (cargo hashes a path dependency's location into symbol names; panic messages hold
#       source paths), so the same code built in two directories differs by a few hundred
#       instructions. Both are benchmarked with the same runner, from the subdirectory the
#       script was started in (so the runner finds the same canbench.yml).
#       OUT_DIR (default ./canbench-pr) receives:
#         comment.md  the comment body: a hidden marker, a heading, the table (regressions
#                     first), the gate's verdict and any failed benchmark
#         base.yml, head.yml       each side's results file
#         base.log, head.log       each run's output
#       Exit status: 0 no regression above the threshold, 1 a regression or a failed
#       benchmark (comment.md says which), 2 the script could not compare (bad base ref, the
#       base or head could not be built or read; comment.md says why when it can).
#
#   scripts/canbench-pr.sh post COMMENT_FILE
#       Posts COMMENT_FILE on pull request $PR_NUMBER of $GITHUB_REPOSITORY with `gh api`
#       (authenticated by $GH_TOKEN), as one comment updated in place: the comment that
#       carries the marker is edited, or a new one is created when there is none.
#
# Environment:
#   CANBENCH                  the runner (default: `canbench` on PATH; build it with
#                             `cargo install --path rust/canbench_runner`)
#   CANBENCH_ARGS             extra arguments for both runs, e.g. "--config bench/canbench.yml"
#   CANBENCH_NOISE_THRESHOLD  percent below which a change is noise (default 2)
set -euo pipefail

# Finds the comment to update; it never shows in the rendered comment.
MARKER='<!-- canbench-pr: offline canbench report, updated in place -->'

die() {
    echo "canbench-pr: $*" >&2
    exit 2
}

post() {
    local file=$1
    [ -f "$file" ] || die "no comment file $file"
    : "${GITHUB_REPOSITORY:?GITHUB_REPOSITORY (owner/name) is needed to post}"
    : "${PR_NUMBER:?PR_NUMBER is needed to post}"
    command -v gh >/dev/null || die "gh (the GitHub CLI) is needed to post"
    command -v jq >/dev/null || die "jq is needed to post"
    local comments="repos/$GITHUB_REPOSITORY/issues/$PR_NUMBER/comments"
    local id
    id=$(gh api --paginate "$comments" \
        --jq "[.[] | select(.body | contains(\"$MARKER\"))][0].id // empty" | head -n 1)
    if [ -n "$id" ]; then
        jq -Rs '{body: .}' "$file" |
            gh api --method PATCH "repos/$GITHUB_REPOSITORY/issues/comments/$id" --input - >/dev/null
        echo "canbench-pr: updated comment $id"
    else
        jq -Rs '{body: .}' "$file" | gh api --method POST "$comments" --input - >/dev/null
        echo "canbench-pr: posted a new comment"
    fi
}

# The comment's first lines: the marker and what was compared.
heading() {
    local base="\`$base_ref\` (\`$base_short\`)"
    # A commit id given as the ref is shown once.
    [ "${base_sha#"$base_ref"}" = "$base_sha" ] || base="\`$base_short\`"
    printf '%s\n### canbench (offline runner): `%s` against base %s\n\n' \
        "$MARKER" "$head_short" "$base"
}

# A comment that says why no table could be made, with the end of the run's output.
comment_failure() {
    local what=$1 log=$2
    {
        heading
        printf '**%s**: no comparison was made. The end of its output:\n\n```\n' "$what"
        tail -n 30 "$log"
        printf '```\n'
    } >"$out/comment.md"
}

bench() {
    base_ref=$1
    out=${2:-canbench-pr}
    command -v git >/dev/null || die "git is needed"
    local canbench=${CANBENCH:-canbench}
    command -v "$canbench" >/dev/null ||
        die "no runner: set CANBENCH or run \`cargo install --path rust/canbench_runner\`"
    local noise=${CANBENCH_NOISE_THRESHOLD:-2}
    local -a extra
    read -r -a extra <<<"${CANBENCH_ARGS:-}"

    local prefix head_sha
    # Global (repo, and work and tree below): the EXIT trap needs them after this function
    # returns.
    repo=$(git rev-parse --show-toplevel) || die "not inside a git repository"
    prefix=$(git rev-parse --show-prefix)
    base_sha=$(git rev-parse --verify --quiet "$base_ref^{commit}") ||
        die "unknown base ref $base_ref"
    head_sha=$(git rev-parse HEAD)
    base_short=${base_sha:0:7}
    head_short=${head_sha:0:7}
    mkdir -p "$out"
    out=$(cd "$out" && pwd)
    rm -f "$out/comment.md" "$out/table.md" "$out/base.yml" "$out/head.yml"

    work=$(mktemp -d)
    tree="$work/tree"
    trap 'git -C "$repo" worktree remove --force "$tree" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

    echo "canbench-pr: base $base_ref ($base_short)"
    git -C "$repo" worktree add --detach --quiet "$tree" "$base_sha"
    if ! (cd "$tree/$prefix" && "$canbench" --results-out "$out/base.yml" "${extra[@]}") \
        >"$out/base.log" 2>&1; then
        comment_failure "The base ($base_short) could not be benchmarked" "$out/base.log"
        cat "$out/base.log" >&2
        die "the base run failed; see $out/base.log"
    fi

    git -C "$repo" worktree remove --force "$tree"

    echo "canbench-pr: head $head_short"
    git -C "$repo" worktree add --detach --quiet "$tree" "$head_sha"
    local status=0
    (cd "$tree/$prefix" && "$canbench" --base "$out/base.yml" --check \
        --noise-threshold "$noise" --markdown "$out/table.md" \
        --results-out "$out/head.yml" "${extra[@]}") >"$out/head.log" 2>&1 || status=$?
    if [ ! -f "$out/table.md" ]; then
        comment_failure "The head ($head_short) could not be benchmarked" "$out/head.log"
        cat "$out/head.log" >&2
        die "the head run failed; see $out/head.log"
    fi
    {
        heading
        cat "$out/table.md"
    } >"$out/comment.md"
    echo "canbench-pr: comment written to $out/comment.md"
    if [ "$status" -ne 0 ]; then
        echo "canbench-pr: FAILED (runner exit status $status); see $out/head.log" >&2
        exit 1
    fi
    echo "canbench-pr: no regression above ${noise}%"
}

case "${1:-}" in
"" | -h | --help)
    sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
    [ -n "${1:-}" ] || exit 2
    ;;
post)
    [ $# -eq 2 ] || die "usage: $0 post COMMENT_FILE"
    post "$2"
    ;;
*)
    [ $# -le 2 ] || die "usage: $0 BASE_REF [OUT_DIR]"
    bench "$@"
    ;;
esac
