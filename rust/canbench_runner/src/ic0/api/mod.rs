//! The `ic0` functions, one module per group of the interface. Each module's `link` defines
//! its group on the linker (see `linker::define`).

pub(super) mod calls;
pub(super) mod counters;
pub(super) mod debug;
pub(super) mod message;
pub(super) mod stable;
pub(super) mod system;
pub(super) mod trace;
