//! The IC's instruction cost model, loaded from `spec/ic_cost_table.csv`.
//!
//! The table is data rather than code so that the spec file is the single source of truth: the
//! runner compiles it in, and a change of the replica's costs is a one-line diff there. The
//! crate reaches it through the symlink `ic_cost_table.csv` at its root, which `cargo package`
//! stores as a file, so the published crate builds on its own.

use std::collections::HashMap;
use std::fmt::Write as _;
use wasmparser::Operator;

const TABLE: &str = include_str!("../ic_cost_table.csv");

/// Static operator costs and system API overheads.
#[derive(Debug, Clone)]
pub struct CostTable {
    ops: HashMap<String, (u64, u64)>,
    sysapi: HashMap<String, SysApiCost>,
}

/// What one `ic0` call costs: a fixed overhead, plus its size argument when `per_byte`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SysApiCost {
    pub overhead: u64,
    pub per_byte: bool,
}

/// Cost every function body pays on entry, on top of its operators.
pub const FUNCTION_ENTRY_COST: u64 = 1;

/// What the replica charges for each page of stable memory a message dirties (writes to for
/// the first time in that message), on application subnets: its scheduler's dirty-page
/// overhead. System subnets charge nothing; canbench measures on an application subnet.
pub const STABLE_DIRTY_PAGE_COST: u64 = 1_000;
/// The page the replica tracks dirty stable memory in (an OS page, not a Wasm page).
pub const STABLE_DIRTY_PAGE_SIZE: u64 = 4_096;

impl CostTable {
    /// The table compiled into this binary.
    pub fn ic() -> &'static CostTable {
        static TABLE_CELL: std::sync::OnceLock<CostTable> = std::sync::OnceLock::new();
        TABLE_CELL
            .get_or_init(|| CostTable::parse(TABLE).expect("spec/ic_cost_table.csv is malformed"))
    }

    /// Parses the CSV (`kind,name,cost,cost_wasm64,per_byte`; `#` starts a comment line).
    pub fn parse(text: &str) -> Result<CostTable, String> {
        let mut ops = HashMap::new();
        let mut sysapi = HashMap::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') || line.starts_with("kind,") {
                continue;
            }
            let cols: Vec<&str> = line.split(',').collect();
            let bad = || format!("cost table line {}: {line:?}", n + 1);
            if cols.len() != 5 {
                return Err(bad());
            }
            let cost: u64 = cols[2].parse().map_err(|_| bad())?;
            match cols[0] {
                "op" => {
                    let cost64 = if cols[3].is_empty() {
                        cost
                    } else {
                        cols[3].parse().map_err(|_| bad())?
                    };
                    ops.insert(cols[1].to_string(), (cost, cost64));
                }
                "sysapi" => {
                    let per_byte = match cols[4] {
                        "" => false,
                        "size" => true,
                        _ => return Err(bad()),
                    };
                    sysapi.insert(
                        cols[1].to_string(),
                        SysApiCost {
                            overhead: cost,
                            per_byte,
                        },
                    );
                }
                _ => return Err(bad()),
            }
        }
        Ok(CostTable { ops, sysapi })
    }

    /// Static cost of an operator by its wasmparser variant name; unlisted operators cost 1.
    pub fn op_cost_by_name(&self, name: &str, memory64: bool) -> u64 {
        match self.ops.get(name) {
            Some(&(c32, c64)) => {
                if memory64 {
                    c64
                } else {
                    c32
                }
            }
            None => 1,
        }
    }

    /// Overhead of an `ic0` call; calls missing from the table are charged nothing.
    pub fn sysapi(&self, name: &str) -> SysApiCost {
        self.sysapi.get(name).copied().unwrap_or(SysApiCost {
            overhead: 0,
            per_byte: false,
        })
    }
}

/// Names operators the way the table does, reusing one buffer (the Debug form starts with the
/// variant name, followed by a space or brace when the operator has immediates).
#[derive(Default)]
pub struct OpNamer {
    buf: String,
}

impl OpNamer {
    pub fn name(&mut self, op: &Operator) -> &str {
        self.buf.clear();
        let _ = write!(self.buf, "{op:?}");
        let end = self
            .buf
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(self.buf.len());
        &self.buf[..end]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_the_ic_on_landmark_operators() {
        let t = CostTable::ic();
        let mut namer = OpNamer::default();
        let cases: Vec<(Operator, u64)> = vec![
            (Operator::I32Add, 1),
            (Operator::I64DivU, 10),
            (Operator::Call { function_index: 3 }, 5),
            (
                Operator::CallIndirect {
                    type_index: 0,
                    table_index: 0,
                },
                10,
            ),
            (Operator::GlobalGet { global_index: 0 }, 2),
            (Operator::MemoryGrow { mem: 0 }, 300),
            (
                Operator::MemoryCopy {
                    dst_mem: 0,
                    src_mem: 0,
                },
                100,
            ),
            (Operator::Br { relative_depth: 0 }, 2),
            (Operator::End, 0),
            (Operator::F64Div, 5),
            (Operator::Drop, 1),
        ];
        for (op, cost) in cases {
            let name = namer.name(&op).to_string();
            assert_eq!(t.op_cost_by_name(&name, false), cost, "{name}");
        }
        assert_eq!(t.op_cost_by_name("I32Load", true), 2);
        assert_eq!(
            t.sysapi("performance_counter"),
            SysApiCost {
                overhead: 200,
                per_byte: false
            }
        );
        assert_eq!(
            t.sysapi("msg_reply_data_append"),
            SysApiCost {
                overhead: 500,
                per_byte: true
            }
        );
        for name in [
            "env_var_count",
            "env_var_name_size",
            "env_var_name_copy",
            "env_var_name_exists",
            "env_var_value_size",
            "env_var_value_copy",
        ] {
            assert_eq!(t.sysapi(name).overhead, 500, "{name}");
        }
    }
}
