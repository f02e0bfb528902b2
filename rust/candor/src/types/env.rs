//! Named types: the definitions of a `.did` file or of a wire type table.

use super::model::{Type, TypeInner};
use crate::{Error, Result};
use std::collections::BTreeMap;

/// A map from type names to their definitions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TypeEnv(pub BTreeMap<String, Type>);

/// Bound on alias chains (`type a = b; type b = c; …`) so a cyclic alias is an error.
const MAX_ALIAS_CHAIN: usize = 10_000;

impl TypeEnv {
    pub fn new() -> Self {
        TypeEnv(BTreeMap::new())
    }
    /// Adds the definitions of `env`; a name defined differently in both is an error.
    /// Into an empty environment this is a copy of the tree, not one insertion (and
    /// its comparisons) per definition.
    pub fn merge<'a>(&'a mut self, env: &TypeEnv) -> Result<&'a mut Self> {
        if self.0.is_empty() {
            self.0.clone_from(&env.0);
            return Ok(self);
        }
        for (k, v) in &env.0 {
            match self.0.get(k) {
                Some(old) if old != v => {
                    return Err(Error::msg(format!("inconsistent binding for {k}")))
                }
                _ => {
                    self.0.insert(k.clone(), v.clone());
                }
            }
        }
        Ok(self)
    }
    /// The definition of `name`.
    pub fn find_type(&self, name: &str) -> Result<&Type> {
        self.0
            .get(name)
            .ok_or_else(|| Error::msg(format!("Unbound type identifier {name}")))
    }
    /// Follows aliases until a non-variable type.
    pub fn rec_find_type(&self, name: &str) -> Result<&Type> {
        let mut t = self.find_type(name)?;
        for _ in 0..MAX_ALIAS_CHAIN {
            match t.as_ref() {
                TypeInner::Var(id) => t = self.find_type(id)?,
                _ => return Ok(t),
            }
        }
        Err(Error::msg(format!("cyclic type alias {name}")))
    }
    /// Resolves a variable (or knot) to its definition; other types unchanged.
    pub fn trace_type(&self, t: &Type) -> Result<Type> {
        match t.as_ref() {
            TypeInner::Var(id) => Ok(self.rec_find_type(id)?.clone()),
            TypeInner::Knot(id) => super::internal::find_type(id)
                .ok_or_else(|| Error::msg(format!("unknown recursive type {id}"))),
            _ => Ok(t.clone()),
        }
    }
}

impl std::fmt::Display for TypeEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (k, v) in &self.0 {
            writeln!(f, "type {k} = {v}")?;
        }
        Ok(())
    }
}
