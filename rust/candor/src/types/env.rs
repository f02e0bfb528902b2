//! Named types: the definitions of a `.did` file or of a wire type table.

use super::model::{Function, Type, TypeInner};
use crate::error::{Error, Result};
use std::collections::BTreeMap;

/// A map from type names to their definitions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TypeEnv(pub BTreeMap<String, Type>);

/// Bound on alias chains (`type a = b; type b = c; …`) so a cyclic alias is an error.
const MAX_ALIAS_CHAIN: usize = 10_000;

impl TypeEnv {
    /// An environment with no definitions.
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

/// candid's `TypeEnv` methods for `.did` tooling (services, methods, merging).
impl TypeEnv {
    /// Adds `env`'s definitions, renaming those whose names are taken here to
    /// `name/1`, and returns `ty` with the same renaming.
    pub fn merge_type(&mut self, env: TypeEnv, ty: Type) -> Type {
        let tau: BTreeMap<String, String> = env
            .0
            .keys()
            .filter(|k| self.0.contains_key(*k))
            .map(|k| (k.clone(), format!("{k}/1")))
            .collect();
        for (k, t) in env.0 {
            let t = t.subst(&tau);
            let k = tau.get(&k).cloned().unwrap_or(k);
            self.0.insert(k, t);
        }
        ty.subst(&tau)
    }

    /// The definitions in name order.
    pub fn to_sorted_iter(&self) -> impl Iterator<Item = (&String, &Type)> {
        self.0.iter()
    }

    /// `t` as a function type, through names.
    pub fn as_func<'a>(&'a self, t: &'a Type) -> Result<&'a Function> {
        let mut t = t;
        for _ in 0..MAX_ALIAS_CHAIN {
            match t.as_ref() {
                TypeInner::Func(f) => return Ok(f),
                TypeInner::Var(id) => t = self.find_type(id)?,
                _ => return Err(Error::msg(format!("not a function type: {t}"))),
            }
        }
        Err(Error::msg("Recursion limit exceeded"))
    }

    /// `t` as a service's methods, through names and actor classes.
    pub fn as_service<'a>(&'a self, t: &'a Type) -> Result<&'a [(String, Type)]> {
        let mut t = t;
        for _ in 0..MAX_ALIAS_CHAIN {
            match t.as_ref() {
                TypeInner::Service(s) => return Ok(s),
                TypeInner::Var(id) => t = self.find_type(id)?,
                TypeInner::Class(_, body) => t = body,
                _ => return Err(Error::msg(format!("not a service type: {t}"))),
            }
        }
        Err(Error::msg("Recursion limit exceeded"))
    }

    /// The type of method `id` of service `t`.
    pub fn get_method<'a>(&'a self, t: &'a Type, id: &'a str) -> Result<&'a Function> {
        match self.as_service(t)?.iter().find(|(m, _)| m == id) {
            Some((_, ty)) => self.as_func(ty),
            None => Err(Error::msg(format!("cannot find method {id}"))),
        }
    }

    /// Replaces by `empty` every definition that no finite value can inhabit (a
    /// record that needs a value of itself), as candid does before generating code.
    pub fn replace_empty(&mut self) -> Result<()> {
        let mut memo: BTreeMap<String, Option<bool>> = BTreeMap::new();
        let names: Vec<String> = self.0.keys().cloned().collect();
        for name in &names {
            self.is_empty(&mut memo, name)?;
        }
        for (name, empty) in memo {
            if empty == Some(true) {
                self.0.insert(name, TypeInner::Empty.into());
            }
        }
        Ok(())
    }

    /// Whether `id` is uninhabited: a record with a field whose named type is
    /// (possibly through itself). `None` in `memo` marks a name being examined.
    /// A depth-first search on its own stack: a chain of definitions may be as
    /// long as the file.
    fn is_empty(&self, memo: &mut BTreeMap<String, Option<bool>>, id: &str) -> Result<bool> {
        /// A definition being examined, and the next of its fields to look at.
        struct Frame<'a> {
            name: &'a str,
            ty: &'a Type,
            next: usize,
        }
        let mut stack: Vec<Frame<'_>> = Vec::new();
        // The name to examine next, or the answer for the frame on top.
        let mut call: Option<&str> = Some(id);
        let mut answer = false;
        loop {
            if let Some(name) = call.take() {
                match memo.get(name) {
                    Some(Some(b)) => answer = *b,
                    Some(None) => {
                        memo.insert(name.to_string(), Some(true));
                        answer = true;
                    }
                    None => {
                        memo.insert(name.to_string(), None);
                        let (name, ty) = self
                            .0
                            .get_key_value(name)
                            .ok_or_else(|| Error::msg(format!("Unbound type identifier {name}")))?;
                        stack.push(Frame { name, ty, next: 0 });
                        answer = false;
                    }
                }
            } else if let Some(top) = stack.last_mut() {
                // `answer` is that of the name the top frame asked about last, if
                // it asked (`next > 0`).
                let done = if top.next > 0 && answer {
                    Some(true)
                } else {
                    match top.ty.as_ref() {
                        TypeInner::Record(fs) => {
                            let rest = fs.get(top.next..).unwrap_or_default();
                            match rest
                                .iter()
                                .position(|f| matches!(f.ty.as_ref(), TypeInner::Var(_)))
                            {
                                Some(k) => {
                                    top.next += k + 1;
                                    if let Some(TypeInner::Var(f_id)) =
                                        fs.get(top.next - 1).map(|f| f.ty.as_ref())
                                    {
                                        call = Some(f_id);
                                    }
                                    None
                                }
                                None => Some(false),
                            }
                        }
                        TypeInner::Var(other) if top.next == 0 => {
                            top.next = 1;
                            call = Some(other);
                            None
                        }
                        _ => Some(false),
                    }
                };
                if let Some(result) = done {
                    memo.insert(top.name.to_string(), Some(result));
                    stack.pop();
                    answer = result;
                    if stack.is_empty() {
                        return Ok(result);
                    }
                }
            } else {
                return Ok(answer);
            }
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
