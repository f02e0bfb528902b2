//! The comments of an interface, for the languages that carry them (TypeScript
//! as `/** … */`, Motoko as `///`).
//!
//! Checked types hold no comments: they are found by walking the syntax tree
//! beside the type, a step into the field, case, method or element the printer
//! steps into. Where the two trees part (a name on one side, its definition on
//! the other), there is simply no comment.

use candor::types::Label;
use candor_parser::syntax::{Binding, IDLMergedProg, IDLType};
use std::collections::BTreeMap;

/// No comments, and no syntax to step into.
pub(super) const NONE: Doc<'static> = Doc {
    lines: &[],
    syntax: None,
};

/// The comment lines on one item and the item's syntax, to step further in.
#[derive(Clone, Copy)]
pub(super) struct Doc<'p> {
    pub lines: &'p [String],
    pub syntax: Option<&'p IDLType>,
}

impl<'p> Doc<'p> {
    /// The field or case labelled `label` of a record or variant.
    pub(super) fn field(self, label: &Label) -> Doc<'p> {
        match self.syntax {
            Some(IDLType::RecordT(fs) | IDLType::VariantT(fs)) => fs
                .iter()
                .find(|f| f.label.get_id() == label.get_id())
                .map_or(NONE, |f| Doc {
                    lines: &f.docs,
                    syntax: Some(&f.typ),
                }),
            _ => NONE,
        }
    }

    /// The method `name` of a service (or of a class's service).
    pub(super) fn method(self, name: &str) -> Doc<'p> {
        match self.syntax {
            Some(IDLType::ServT(ms)) => ms.iter().find(|m| m.id == name).map_or(NONE, binding),
            Some(IDLType::ClassT(_, body)) => Doc {
                lines: &[],
                syntax: Some(body),
            }
            .method(name),
            _ => NONE,
        }
    }

    /// The element of an `opt` or a `vec`.
    pub(super) fn element(self) -> Doc<'p> {
        match self.syntax {
            Some(IDLType::OptT(t) | IDLType::VecT(t)) => Doc {
                lines: &[],
                syntax: Some(t),
            },
            _ => NONE,
        }
    }
}

fn binding(b: &Binding) -> Doc<'_> {
    Doc {
        lines: &b.docs,
        syntax: Some(&b.typ),
    }
}

/// The definitions' and the service's comments.
pub(super) struct Docs<'p> {
    definitions: BTreeMap<&'p str, &'p Binding>,
    actor: Option<(Vec<String>, IDLType)>,
}

impl<'p> Docs<'p> {
    /// The comments of a checked file.
    pub(super) fn new(prog: &'p IDLMergedProg) -> Docs<'p> {
        let mut definitions = BTreeMap::new();
        for b in prog.bindings() {
            definitions.entry(b.id.as_str()).or_insert(b);
        }
        // The service's syntax, with the methods of imported services merged in;
        // an error here was already reported by the checker.
        let actor = prog.resolve_actor().ok().flatten().map(|a| (a.docs, a.typ));
        Docs { definitions, actor }
    }

    pub(super) fn definition(&self, name: &str) -> Doc<'_> {
        self.definitions.get(name).map_or(NONE, |b| binding(b))
    }

    pub(super) fn actor(&self) -> Doc<'_> {
        self.actor.as_ref().map_or(NONE, |(lines, typ)| Doc {
            lines,
            syntax: Some(typ),
        })
    }
}
