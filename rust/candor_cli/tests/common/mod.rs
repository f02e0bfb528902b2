//! Running the `candor` binary from a test: its arguments, the bytes for its standard
//! input and the directory it runs in; what it printed and how it exited.
// Each test file uses part of this module.
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// A finished run, its output as text.
pub struct Run {
    /// The exit status; -1 when a signal ended the process.
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `candor ARGS` in `dir` (the test's own directory when `None`), with `stdin`
/// written to its standard input.
pub fn output(args: &[&str], stdin: &[u8], dir: Option<&Path>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_candor"));
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = dir {
        cmd.current_dir(dir);
    }
    let mut child = cmd.spawn().expect("the candor binary starts");
    // A run that stops reading early (an error on the first bytes) closes the pipe;
    // what it printed and its status are what the test checks, not this write.
    let _ = child.stdin.take().expect("stdin is piped").write_all(stdin);
    child
        .wait_with_output()
        .expect("the candor binary is waited for")
}

/// [`output`], with stdout and stderr as text.
pub fn run(args: &[&str], stdin: &[u8], dir: Option<&Path>) -> Run {
    let out = output(args, stdin, dir);
    Run {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}
