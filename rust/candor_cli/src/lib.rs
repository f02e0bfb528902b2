//! The `candor` command's parts, as a library so tests (and other tools) can call
//! `explain` and `assemble` without a process.
//!
//! * [`explain`]: a message to annotated text, every byte on one line;
//! * [`assemble`]: that text, edited or not, back to bytes;
//! * [`scalar`]: how both print and re-encode scalar values;
//! * [`bind`]: an interface in Rust, JS, TypeScript, Motoko, or normalised Candid;
//! * [`random`]: random well-typed values for a method's arguments;
//! * [`diff`]: where two messages' values differ;
//! * [`json`]: Candid values as JSON and back, losslessly;
//! * [`names`]: names for hashed labels (built in, and from the user's .did files);
//! * [`input`]: reading messages (raw, hex, blob literal) and writing bytes, and
//!   [`mapped`]: input files mapped rather than copied;
//! * [`cli`]: the command line (clap), and [`commands`]: the subcommands;
//! * [`arena`]: the binary's allocator (small blocks packed in one region).

pub mod arena;
pub mod assemble;
pub mod bind;
pub mod cli;
pub mod commands;
pub mod diff;
pub mod explain;
pub mod input;
pub mod json;
pub mod mapped;
pub mod names;
pub mod random;
pub mod scalar;
