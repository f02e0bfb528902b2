//! scripts/canbench-pr.sh end to end: a temporary git repository holding a canbench project
//! whose "build" copies a module this test compiled from WAT, two commits of which the second
//! regresses a benchmark, and the comment body and exit status the script gives. Posting is
//! checked against a stand-in `gh` that records what it was asked.

mod common;

use common::{bench_module, have, Bench, TempDir};
use std::path::Path;
use std::process::{Command, Output};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/canbench-pr.sh");
const MARKER: &str = "<!-- canbench-pr: offline canbench report, updated in place -->";

fn git(repo: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(repo)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// Commits the project with `benches` as its canister.
fn commit(repo: &Path, benches: &[Bench], message: &str) -> String {
    std::fs::create_dir_all(repo.join("prebuilt")).unwrap();
    std::fs::write(repo.join("prebuilt/bench.wasm"), bench_module(benches)).unwrap();
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "-m", message]);
    git(repo, &["rev-parse", "HEAD"])
}

/// A repository with a canbench project whose build copies the committed module.
fn project(dir: &TempDir) -> std::path::PathBuf {
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q"]);
    git(&repo, &["config", "user.name", "test"]);
    git(&repo, &["config", "user.email", "test@example.com"]);
    git(&repo, &["config", "commit.gpgsign", "false"]);
    std::fs::write(
        repo.join("canbench.yml"),
        "build_cmd: mkdir -p build && cp prebuilt/bench.wasm build/bench.wasm\nwasm_path: build/bench.wasm\n",
    )
    .unwrap();
    std::fs::write(repo.join(".gitignore"), "build/\nout/\n").unwrap();
    repo
}

fn run_script(repo: &Path, args: &[&str]) -> Output {
    Command::new("bash")
        .arg(SCRIPT)
        .args(args)
        .current_dir(repo)
        .env("CANBENCH", env!("CARGO_BIN_EXE_canbench"))
        .env_remove("CANBENCH_ARGS")
        .env_remove("CANBENCH_NOISE_THRESHOLD")
        .env_remove("CANBENCH_CFG_FILE")
        .output()
        .expect("bash runs")
}

fn tools_present(tools: &[&str]) -> bool {
    for t in tools {
        if !have(t) {
            eprintln!("skipped: `{t}` is not installed");
            return false;
        }
    }
    true
}

#[test]
fn pr_script_reports_a_regression_and_fails() {
    if !tools_present(&["git", "bash"]) {
        return;
    }
    let dir = TempDir::new("pr-regression");
    let repo = project(&dir);
    let base = commit(
        &repo,
        &[
            Bench::new("decode_big", 10_000)
                .scope("1. Encoding", 4_000)
                .scope("2. Decoding", 5_000),
            Bench::new("steady", 2_000).heap(1),
        ],
        "base",
    );
    let head = commit(
        &repo,
        &[
            Bench::new("added", 500),
            Bench::new("decode_big", 12_000)
                .scope("1. Encoding", 4_000)
                .scope("2. Decoding", 7_000),
            Bench::new("steady", 1_900).heap(1),
        ],
        "head: decode_big regresses",
    );
    let out = run_script(&repo, &[&base, "out"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let comment = std::fs::read_to_string(repo.join("out/comment.md")).unwrap();
    let expected = format!(
        "{MARKER}
### canbench (offline runner): `{h}` against base `{b}`

| Name | Max Mem (Kb) | Encode | Decode | Total |
|:--|--:|--:|--:|--:|
| decode_big | 0 (+0.00%) | 4000 (+0.00%) | 7000 $\\color{{red}}{{+40.00\\\\%}}$ | 12.00K $\\color{{red}}{{+20.00\\\\%}}$ |
| steady | 64 (+0.00%) | — | — | 1900 $\\color{{green}}{{-5.00\\\\%}}$ |
| added (new) | 0 🆕 | — | — | 500 🆕 |

**Summary** (Encode and Decode cells against the base, or Total for a benchmark without those scopes; noise threshold 2%): 1 improved, 1 regressed, 1 unchanged, 1 new.
Change: max +40.00%, median +0.00%, min -5.00%.

**Gate: FAILED**, regressions above 2%:

- decode_big total: 10000 -> 12000 instructions (+20.00%)
- decode_big 2. Decoding: 5000 -> 7000 instructions (+40.00%)
",
        h = &head[..7],
        b = &base[..7],
    );
    assert_eq!(comment, expected);
    // The working tree is left as committed; the worktrees of the base and head are gone.
    assert_eq!(git(&repo, &["status", "--porcelain"]), "");
    assert_eq!(git(&repo, &["worktree", "list"]).lines().count(), 1);
    // Both sides' results files are kept for the next step (or a person) to read.
    let head_results = std::fs::read_to_string(repo.join("out/head.yml")).unwrap();
    assert!(
        head_results.contains("instructions: 12000"),
        "{head_results}"
    );
}

#[test]
fn pr_script_passes_without_a_regression() {
    if !tools_present(&["git", "bash"]) {
        return;
    }
    let dir = TempDir::new("pr-pass");
    let repo = project(&dir);
    commit(&repo, &[Bench::new("steady", 2_000)], "base");
    let head = commit(&repo, &[Bench::new("steady", 2_010)], "head: within noise");
    let out = run_script(&repo, &["HEAD~1", "out"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let comment = std::fs::read_to_string(repo.join("out/comment.md")).unwrap();
    assert!(comment.starts_with(&format!(
        "{MARKER}\n### canbench (offline runner): `{}` against base `HEAD~1`",
        &head[..7]
    )));
    assert!(
        comment.contains("| steady | 0 (+0.00%) | — | — | 2010 (+0.50%) |\n"),
        "{comment}"
    );
    assert!(
        comment.ends_with("**Gate: passed**, no instruction regression above 2%.\n"),
        "{comment}"
    );
}

#[test]
fn pr_script_explains_a_base_it_cannot_benchmark() {
    if !tools_present(&["git", "bash"]) {
        return;
    }
    let dir = TempDir::new("pr-bad-base");
    let repo = project(&dir);
    // The base has no module to copy, so its build fails.
    std::fs::write(repo.join("README"), "nothing yet\n").unwrap();
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "base without a canister"]);
    commit(&repo, &[Bench::new("steady", 2_000)], "head");
    let out = run_script(&repo, &["HEAD~1", "out"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let comment = std::fs::read_to_string(repo.join("out/comment.md")).unwrap();
    assert!(
        comment.contains("could not be benchmarked**: no comparison was made"),
        "{comment}"
    );
    let unknown = run_script(&repo, &["no-such-ref", "out"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("unknown base ref no-such-ref"));
}

/// `post` edits the comment carrying the marker when there is one, and creates one otherwise;
/// the body sent is the file's text.
#[test]
fn pr_script_posts_one_comment_updated_in_place() {
    if !tools_present(&["bash", "jq"]) {
        return;
    }
    let dir = TempDir::new("pr-post");
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let gh = bin.join("gh");
    std::fs::write(
        &gh,
        "#!/usr/bin/env bash\necho \"$*\" >> \"$FAKE_GH_LOG\"\nif [[ \"$*\" == *--paginate* ]]; then\n  [ -n \"${FAKE_GH_EXISTING:-}\" ] && echo \"$FAKE_GH_EXISTING\"\n  exit 0\nfi\ncat > \"$FAKE_GH_BODY\"\n",
    )
    .unwrap();
    Command::new("chmod").arg("+x").arg(&gh).status().unwrap();
    let comment = dir.path().join("comment.md");
    std::fs::write(&comment, format!("{MARKER}\n| a \"quoted\" | b |\n")).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let post = |existing: &str, tag: &str| {
        let log = dir.path().join(format!("{tag}.log"));
        let body = dir.path().join(format!("{tag}.json"));
        let out = Command::new("bash")
            .arg(SCRIPT)
            .args(["post", comment.to_str().unwrap()])
            .env("PATH", &path)
            .env("GITHUB_REPOSITORY", "owner/repo")
            .env("PR_NUMBER", "7")
            .env("FAKE_GH_EXISTING", existing)
            .env("FAKE_GH_LOG", &log)
            .env("FAKE_GH_BODY", &body)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        (
            std::fs::read_to_string(log).unwrap(),
            std::fs::read_to_string(body).unwrap(),
            String::from_utf8(out.stdout).unwrap(),
        )
    };
    let (log, body, said) = post("4242", "update");
    let calls: Vec<&str> = log.lines().collect();
    assert_eq!(calls.len(), 2, "{log}");
    assert!(calls[0].starts_with("api --paginate repos/owner/repo/issues/7/comments --jq"));
    assert!(calls[0].contains(MARKER), "{log}");
    assert_eq!(
        calls[1],
        "api --method PATCH repos/owner/repo/issues/comments/4242 --input -"
    );
    let sent: serde_json_free::Body = serde_json_free::parse(&body);
    assert_eq!(sent.0, format!("{MARKER}\n| a \"quoted\" | b |\n"));
    assert_eq!(said, "canbench-pr: updated comment 4242\n");

    let (log, _, said) = post("", "create");
    assert_eq!(
        log.lines().nth(1),
        Some("api --method POST repos/owner/repo/issues/7/comments --input -")
    );
    assert_eq!(said, "canbench-pr: posted a new comment\n");
}

/// Reads `{"body": "..."}` back with jq itself, so the test needs no JSON crate.
mod serde_json_free {
    pub struct Body(pub String);

    pub fn parse(json: &str) -> Body {
        use std::io::Write;
        let mut child = std::process::Command::new("jq")
            .args(["-j", ".body"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(json.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        Body(String::from_utf8(out.stdout).unwrap())
    }
}
