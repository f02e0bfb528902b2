//! Writes `src/names/well_known.txt`, the built-in names: every record field and
//! variant case name in the interfaces given (`.did` files), plus the names in any
//! other file given (one identifier per line, for names collected by hand), sorted,
//! once each.
//!
//! `cargo run -p candor_cli --example well_known_names -- ICRC-1.did … > src/names/well_known.txt`

use candor_cli::names::interface_names;
use std::collections::BTreeSet;
use std::path::Path;

fn main() -> Result<(), String> {
    let mut all = BTreeSet::new();
    let mut sources = Vec::new();
    for arg in std::env::args().skip(1) {
        let path = Path::new(&arg);
        if arg.ends_with(".did") {
            let (env, actor, _) =
                candor_parser::check_file(path).map_err(|e| format!("{arg}: {e}"))?;
            all.extend(interface_names(&env, actor.as_ref()));
        } else {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{arg}: {e}"))?;
            all.extend(text.split_whitespace().map(String::from));
        }
        sources.push(
            path.file_name()
                .map_or(arg.clone(), |n| n.to_string_lossy().into_owned()),
        );
    }
    println!("# Record field and variant case names of well-known Candid interfaces, one per");
    println!("# line: the names `decode` and `explain` give to hashed labels without a .did.");
    println!(
        "# Written by examples/well_known_names.rs from: {}.",
        sources.join(", ")
    );
    for name in all {
        println!("{name}");
    }
    Ok(())
}
