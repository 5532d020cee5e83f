//! The `nimcount` binary as a user runs it.

use assert_cmd::Command;

/// The binary built by `cargo test`.
pub fn nimcount() -> Command {
    Command::cargo_bin("nimcount").unwrap()
}

/// Runs `nimcount ARGS`, which must be refused: exit code 2, nothing on standard output, and one
/// line on standard error, starting with `error` and containing `needle`, never a panic.
pub fn refused(args: &[&str], needle: &str) {
    let output = nimcount().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(output.stdout.is_empty(), "{args:?}: nothing on standard output");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: one line: {stderr}");
    assert!(stderr.starts_with("error"), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(stderr.contains(needle), "{args:?}: expected '{needle}' in {stderr}");
}
