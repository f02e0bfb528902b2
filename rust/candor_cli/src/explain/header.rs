//! The message's header: magic, type table, argument types; then the arguments.

use super::{prim_name, values, Entry, Step, Walk};
use crate::scalar::{self, Put};
use candor::types::Type;
use std::io::Write;

impl<'a> Walk<'a> {
    pub(super) fn message(&mut self) -> Step {
        let start = self.pos;
        let magic = self.input.get(..4.min(self.input.len())).unwrap_or(&[]);
        if magic != b"DIDL" {
            return self.fault(0, "the message does not start with the magic bytes DIDL");
        }
        self.pos = 4;
        self.line(start);
        self.out.put("magic \"DIDL\"\n");

        let start = self.pos;
        let n = self.len(1)?;
        self.declared_table_len = n;
        self.line(start);
        let _ = writeln!(self.out, "type table: {n} entries");
        for i in 0..n {
            self.entry(i)?;
        }

        let start = self.pos;
        let args = self.len(1)?;
        self.line(start);
        let _ = write!(self.out, "arguments: {args}");
        let expected: &'a [Type] = self.cx.expected.as_deref().unwrap_or(&[]);
        if self.cx.expected.is_some() {
            let _ = write!(self.out, " (the method expects {})", expected.len());
        }
        self.out.push(b'\n');
        let mut types = Vec::with_capacity(args);
        for i in 0..args {
            let start = self.pos;
            let r = self.type_ref()?;
            types.push(r);
            self.line(start);
            let _ = write!(self.out, "argument {i} type: ");
            self.write_ref(r);
            self.out.push(b'\n');
        }
        let _ = writeln!(
            self.out,
            "# header: {} bytes, {} units of the decoding quota (4 per byte)",
            self.pos,
            self.pos.saturating_mul(4)
        );

        for (i, r) in types.iter().copied().enumerate() {
            self.path.clear();
            let _ = write!(self.path, "arg {i}");
            let exp = expected.get(i);
            if self.cx.expected.is_some() && exp.is_none() {
                self.path.put(" (extra: skipped by the method)");
                self.decision(
                    "skipped: the method takes no such argument",
                    None,
                    Some(super::Rule::ArgExtra),
                );
            }
            self.unfit = None;
            let fits = self.value(r, exp, values::How::Value, 0)?;
            if !fits {
                self.reject("the value does not fit the method's argument type");
            }
        }
        // Arguments the method expects and the message lacks: an optional one
        // becomes null, any other makes the call fail.
        for (i, t) in expected.iter().enumerate().skip(types.len()) {
            self.path.clear();
            let _ = write!(self.path, "arg {i}");
            if values::optional(self.cx.resolve(t)) {
                self.decision(
                    "absent: becomes null, as the method expects ",
                    Some(t),
                    Some(super::Rule::ArgMissing),
                );
            } else {
                self.decision("absent: the method needs a value of type ", Some(t), None);
                self.unfit("missing, the method needs ", Some(t));
                self.reject("argument missing");
            }
        }
        if self.pos < self.input.len() {
            let left = self.input.len() - self.pos;
            return self.fault(
                self.pos,
                format!("{left} trailing bytes after the last argument"),
            );
        }
        let _ = writeln!(
            self.out,
            "# values: {} units when skipped or decoded without Rust types (x1 on the skipping quota, x50 on the decoding quota)",
            self.total_units
        );
        if let Some(why) = &self.rejected {
            let _ = writeln!(self.out, "# the method's types reject this message: {why}");
        }
        Ok(())
    }

    fn entry(&mut self, i: usize) -> Step {
        let start = self.pos;
        let op = self.sleb()?;
        let entry = match op {
            -18 | -19 => {
                let r = self.type_ref()?;
                self.line(start);
                let _ = write!(
                    self.out,
                    "type {i} = {} ",
                    if op == -18 { "opt" } else { "vec" }
                );
                self.write_ref(r);
                self.out.push(b'\n');
                if op == -18 {
                    Entry::Opt(r)
                } else {
                    Entry::Vec(r)
                }
            }
            -20 | -21 => {
                let kind = if op == -20 { "record" } else { "variant" };
                let n = self.len(2)?;
                self.line(start);
                let _ = writeln!(self.out, "type {i} = {kind}, {n} fields");
                let mut fields = Vec::with_capacity(n);
                let mut last: Option<u64> = None;
                for _ in 0..n {
                    let at = self.pos;
                    let id = self.leb()?;
                    if id > u64::from(u32::MAX) {
                        return self.fault(at, format!("field id {id} over 32 bits"));
                    }
                    if last.is_some_and(|l| id <= l) {
                        return self.fault(at, "field ids not in increasing order");
                    }
                    last = Some(id);
                    let r = self.type_ref()?;
                    self.line(at);
                    self.out.put("  field ");
                    self.write_label(id as u32);
                    if self.cx.names.contains_key(&(id as u32)) {
                        let _ = write!(self.out, " (id {id})");
                    } else if let Some(names) = self.cx.candidates.get(&(id as u32)) {
                        let _ = write!(self.out, " (the hash of several names: {names})");
                    }
                    self.out.put(" : ");
                    self.write_ref(r);
                    self.out.push(b'\n');
                    let span = self.add_label(id as u32);
                    fields.push((id as u32, r, span));
                }
                if op == -20 {
                    Entry::Record(fields)
                } else {
                    Entry::Variant(fields)
                }
            }
            -22 => {
                let mut counts = [0usize; 2];
                for count in &mut counts {
                    *count = self.len(1)?;
                    for _ in 0..*count {
                        self.type_ref()?;
                    }
                }
                let modes = self.len(1)?;
                let at = self.pos;
                let mode_bytes = self.take(modes)?.to_vec();
                let mut names = Vec::new();
                for m in mode_bytes {
                    names.push(match m {
                        1 => "query",
                        2 => "oneway",
                        3 => "composite_query",
                        _ => return self.fault(at, format!("unknown function mode {m}")),
                    });
                }
                self.line(start);
                let _ = writeln!(
                    self.out,
                    "type {i} = func, {} arguments, {} results, modes [{}]",
                    counts[0],
                    counts[1],
                    names.join(", ")
                );
                Entry::Func
            }
            -23 => {
                let n = self.len(2)?;
                self.line(start);
                let _ = writeln!(self.out, "type {i} = service, {n} methods");
                let mut previous: Option<Vec<u8>> = None;
                for _ in 0..n {
                    let at = self.pos;
                    let len = self.len(1)?;
                    let name = self.take(len)?.to_vec();
                    let Ok(text) = std::str::from_utf8(&name) else {
                        return self.fault(at, "method name is not UTF-8");
                    };
                    let text = text.to_string();
                    if previous.as_ref().is_some_and(|p| *p >= name) {
                        return self.fault(at, "method names not in increasing order");
                    }
                    previous = Some(name);
                    let r = self.type_ref()?;
                    self.line(at);
                    self.out.put("  method ");
                    scalar::write_text(&mut self.out, &text);
                    self.out.put(" : ");
                    self.write_ref(r);
                    self.out.push(b'\n');
                }
                Entry::Service
            }
            op if op >= 0 || prim_name(op).is_some() => {
                return self.fault(
                    start,
                    format!("type table entry {i} has opcode {op}, not a type constructor"),
                );
            }
            op => {
                return self.fault(start, format!("unknown type opcode {op} in entry {i}"));
            }
        };
        self.table.push(entry);
        Ok(())
    }
}
