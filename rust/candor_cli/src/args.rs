//! Command-line arguments: positionals, `--flag`, `--option VALUE` and
//! `--option=VALUE`, checked against what each subcommand accepts.

use std::collections::HashMap;

pub struct Args {
    pub positional: Vec<String>,
    options: HashMap<&'static str, String>,
    flags: Vec<&'static str>,
}

/// What a subcommand accepts: options that take a value, and flags.
pub struct Spec {
    pub options: &'static [&'static str],
    pub flags: &'static [&'static str],
}

impl Args {
    pub fn parse(raw: &[String], spec: &Spec) -> Result<Args, String> {
        let mut args = Args {
            positional: Vec::new(),
            options: HashMap::new(),
            flags: Vec::new(),
        };
        let mut it = raw.iter();
        while let Some(a) = it.next() {
            let Some(name) = a.strip_prefix("--") else {
                args.positional.push(a.clone());
                continue;
            };
            let (name, inline) = match name.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (name, None),
            };
            if let Some(&o) = spec.options.iter().find(|o| **o == name) {
                let value = match inline {
                    Some(v) => v,
                    None => it
                        .next()
                        .cloned()
                        .ok_or_else(|| format!("--{name} needs a value"))?,
                };
                args.options.insert(o, value);
            } else if let Some(&f) = spec.flags.iter().find(|f| **f == name) {
                if inline.is_some() {
                    return Err(format!("--{name} takes no value"));
                }
                args.flags.push(f);
            } else {
                return Err(format!("unknown option --{name}"));
            }
        }
        Ok(args)
    }

    pub fn option(&self, name: &str) -> Option<&str> {
        self.options.get(name).map(String::as_str)
    }

    pub fn flag(&self, name: &str) -> bool {
        self.flags.contains(&name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: Spec = Spec {
        options: &["did", "method"],
        flags: &["rets"],
    };

    fn parse(v: &[&str]) -> Result<Args, String> {
        let raw: Vec<String> = v.iter().map(|s| s.to_string()).collect();
        Args::parse(&raw, &SPEC)
    }

    #[test]
    fn options_flags_and_positionals() {
        let a = parse(&["x", "--did", "a.did", "--method=m", "--rets", "y"]).unwrap();
        assert_eq!(a.positional, ["x", "y"]);
        assert_eq!(a.option("did"), Some("a.did"));
        assert_eq!(a.option("method"), Some("m"));
        assert!(a.flag("rets"));
        assert!(parse(&["--nope"]).is_err());
        assert!(parse(&["--did"]).is_err());
        assert!(parse(&["--rets=1"]).is_err());
    }
}
