#[test]
fn probe() {
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "text len 9-byte",
            [
                b"DIDL\x00\x01\x71".to_vec(),
                vec![0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00],
                b"a".to_vec(),
            ]
            .concat(),
        ),
        (
            "text len 10-byte",
            [
                b"DIDL\x00\x01\x71".to_vec(),
                vec![0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00],
                b"a".to_vec(),
            ]
            .concat(),
        ),
        (
            "blob len 10-byte",
            [
                b"DIDL\x01\x6d\x7b\x01\x00".to_vec(),
                vec![0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00],
                b"a".to_vec(),
            ]
            .concat(),
        ),
        (
            "vec len 10-byte",
            [
                b"DIDL\x01\x6d\x7c\x01\x00".to_vec(),
                vec![0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00],
                b"\x05".to_vec(),
            ]
            .concat(),
        ),
        (
            "variant idx 10-byte",
            [
                b"DIDL\x01\x6b\x02\x00\x7f\x01\x7f\x01\x00".to_vec(),
                vec![0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00],
            ]
            .concat(),
        ),
        (
            "principal len 10-byte",
            [
                b"DIDL\x00\x01\x68\x01".to_vec(),
                vec![0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00],
                b"a".to_vec(),
            ]
            .concat(),
        ),
    ];
    for (name, b) in &cases {
        let ours = candor::IDLArgs::from_bytes(b)
            .map(|a| a.to_string())
            .map_err(|e| e.to_string());
        let theirs = candid::IDLArgs::from_bytes(b)
            .map(|a| a.to_string())
            .map_err(|e| e.to_string());
        println!("{name}:\n  candor {ours:?}\n  candid {theirs:?}");
    }
    let b = &cases[1].1;
    println!(
        "typed text: candor {:?} candid {:?}",
        candor::decode_one::<String>(b).map_err(|e| e.to_string()),
        candid::decode_one::<String>(b).map_err(|e| e.to_string())
    );
    let b = &cases[3].1;
    println!(
        "typed vec: candor {:?} candid {:?}",
        candor::decode_one::<Vec<i8>>(b).map_err(|e| e.to_string()),
        candid::decode_one::<Vec<i8>>(b).map_err(|e| e.to_string())
    );
    let b = &cases[1].1;
    println!(
        "skipped text: candor {:?} candid {:?}",
        candor::decode_args::<()>(b).map_err(|e| e.to_string()),
        candid::decode_args::<()>(b).map_err(|e| e.to_string())
    );
}
