//! `candor decode` on a size bomb (spec/limits.md §1.1): the 14 bytes of a `vec null`
//! claiming 2^30 elements end in an error naming the bound, not in an abort on a
//! multi-gigabyte allocation; a `vec null` of 1,000 still decodes.

mod common;

/// Exit status (`None`: killed by a signal), stdout and stderr of `candor decode -`.
fn decode(hex: &str) -> (Option<i32>, String, String) {
    let out = common::output(&["decode", "-"], hex.as_bytes(), None);
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn decode_rejects_a_size_bomb_with_the_bound() {
    let (status, _, stderr) = decode("4449444c016d7f01008080808004");
    assert_eq!(status, Some(2), "{stderr}");
    assert!(
        stderr.contains("Decoding cost exceeds the limit of 67328 units that a 14-byte message"),
        "{stderr}"
    );
    let (status, stdout, stderr) = decode("4449444c016d7f0100e807");
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(stdout.matches("null : null").count(), 1000, "{stdout}");
}
