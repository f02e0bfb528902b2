//! A tracing build's first step: two host functions imported, [`TRACE_ENTER`] and
//! [`TRACE_EXIT`] (module [`TRACE_MODULE`], type `(i32) -> ()`), which every function body then
//! calls with its defined index on entry and on exit (see `body`).
//!
//! Imports come first in the function index space, so every defined function moves up by two:
//! the module is re-encoded with its function references (calls, `ref.func`, exports,
//! elements, the start function) shifted. Custom sections are dropped, as `instrument` drops
//! them anyway; the function names are read from the original module.

use super::invalid;
use wasm_encoder::reencode::{utils, Error as ReencodeError, Reencode};
use wasm_encoder::{EntityType, ImportSection, SectionId, ValType};

/// The module of the trace hooks' imports.
pub const TRACE_MODULE: &str = "canbench";
/// Called with a function's defined index when it is entered.
pub const TRACE_ENTER: &str = "trace_enter";
/// Called with a function's defined index when it returns.
pub const TRACE_EXIT: &str = "trace_exit";

/// The re-encoding: `imported` function imports before ours, whose type gets index `hook_type`.
struct AddHooks {
    imported: u32,
    hook_type: u32,
    imports_added: bool,
}

type Result<T> = std::result::Result<T, ReencodeError<std::convert::Infallible>>;

impl AddHooks {
    fn add_imports(&mut self, imports: &mut ImportSection) {
        for name in [TRACE_ENTER, TRACE_EXIT] {
            imports.import(TRACE_MODULE, name, EntityType::Function(self.hook_type));
        }
        self.imports_added = true;
    }
}

impl Reencode for AddHooks {
    type Error = std::convert::Infallible;

    fn function_index(&mut self, func: u32) -> u32 {
        if func >= self.imported {
            func + 2
        } else {
            func
        }
    }

    fn parse_type_section(
        &mut self,
        types: &mut wasm_encoder::TypeSection,
        section: wasmparser::TypeSectionReader<'_>,
    ) -> Result<()> {
        utils::parse_type_section(self, types, section)?;
        types.ty().function([ValType::I32], []);
        Ok(())
    }

    fn parse_import_section(
        &mut self,
        imports: &mut ImportSection,
        section: wasmparser::ImportSectionReader<'_>,
    ) -> Result<()> {
        utils::parse_import_section(self, imports, section)?;
        self.add_imports(imports);
        Ok(())
    }

    fn parse_custom_section(
        &mut self,
        _module: &mut wasm_encoder::Module,
        _section: wasmparser::CustomSectionReader<'_>,
    ) -> Result<()> {
        Ok(())
    }

    fn intersperse_section_hook(
        &mut self,
        module: &mut wasm_encoder::Module,
        after: Option<SectionId>,
        before: Option<SectionId>,
    ) -> Result<()> {
        // A module without imports gets an import section right after its types.
        if !self.imports_added
            && after == Some(SectionId::Type)
            && before != Some(SectionId::Import)
        {
            let mut imports = ImportSection::new();
            self.add_imports(&mut imports);
            module.section(&imports);
        }
        Ok(())
    }
}

/// `wasm` with the trace hooks imported. Returns the module and the hooks' function indices
/// (enter, exit).
pub fn add_hooks(
    wasm: &[u8],
    imported: u32,
    types: u32,
) -> std::result::Result<(Vec<u8>, u32, u32), String> {
    let mut hooks = AddHooks {
        imported,
        hook_type: types,
        imports_added: false,
    };
    let mut module = wasm_encoder::Module::new();
    hooks
        .parse_core_module(&mut module, wasmparser::Parser::new(0), wasm)
        .map_err(|e| match e {
            ReencodeError::ParseError(e) => invalid(e),
            other => format!("cannot add the trace hooks: {other}"),
        })?;
    if !hooks.imports_added {
        return Err("cannot trace a module without a type section".into());
    }
    Ok((module.finish(), imported, imported + 1))
}
