//! The module tree as one directory's analysis sees it (issue 27,
//! `spec/diagnostics.md` §7): the interface of each module it calls, given by
//! the caller of [`crate::analyze_in_tree`], which knows the directories.
//!
//! A [`ModuleInterface`] is what a caller may know of a module: its merged
//! variables (whether required, their type) and outputs; a summary, so a
//! caller's analysis never holds a child's syntax trees. [`ModuleTree`] maps
//! a call's `source` as written to the interface of the directory it names,
//! and marks sources whose directory calls back up the tree (a loop).
//! Sources the caller could not resolve (a registry address before `tofu
//! init`) are absent: their calls are not judged.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::address::BlockAddress;
use crate::merge::MergedModule;
use crate::types::{parse_variable_type, TypeConstraint};
use tofu_syntax::TextRange;

/// What a caller may know of a module directory.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModuleInterface {
    /// By name.
    pub variables: Vec<InterfaceVariable>,
    /// By name.
    pub outputs: Vec<InterfaceOutput>,
    /// Loading the module reported an error (or a file could not be parsed
    /// whole): what it declares proves nothing, so callers are not judged
    /// against it.
    pub incomplete: bool,
}

#[derive(Clone, Debug)]
pub struct InterfaceVariable {
    pub name: String,
    /// No default: a caller must set it.
    pub required: bool,
    pub constraint: TypeConstraint,
    /// Where it is declared, as HCL writes a range in a detail, relative to
    /// the module's directory (`main.tf:1,1-18`).
    pub declared_at: String,
    /// The same place as a file and a byte range, for a caller's related
    /// location.
    pub place: Option<DeclarationPlace>,
    pub sensitive: bool,
    pub ephemeral: bool,
}

/// Two variables are the same to a caller when everything but `place` is:
/// `declared_at` says the same line and columns, and a caller's diagnostics
/// relate the variable through the text they were made with, so text that
/// moved by bytes (an edit above the block, within a line) but not by lines
/// does not make every caller judged again.
impl PartialEq for InterfaceVariable {
    fn eq(&self, other: &InterfaceVariable) -> bool {
        self.name == other.name
            && self.required == other.required
            && self.constraint == other.constraint
            && self.declared_at == other.declared_at
            && self.sensitive == other.sensitive
            && self.ephemeral == other.ephemeral
    }
}

/// A block's header in a file of a module directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclarationPlace {
    /// The file's name in the module's directory.
    pub file: String,
    /// The file's text, which `header` indexes into.
    pub text: Arc<str>,
    pub header: TextRange,
}

#[derive(Clone, Debug, PartialEq)]
pub struct InterfaceOutput {
    pub name: String,
    /// Where it is declared (`outputs.tf:3,1-20`).
    pub declared_at: String,
}

impl ModuleInterface {
    pub fn variable(&self, name: &str) -> Option<&InterfaceVariable> {
        self.variables
            .binary_search_by(|variable| variable.name.as_str().cmp(name))
            .ok()
            .and_then(|index| self.variables.get(index))
    }

    pub fn output(&self, name: &str) -> Option<&InterfaceOutput> {
        self.outputs
            .binary_search_by(|output| output.name.as_str().cmp(name))
            .ok()
            .and_then(|index| self.outputs.get(index))
    }

    /// The interface of a merged module whose analysis reported errors or
    /// not (`crate::ModuleAnalysis::interface`).
    pub(crate) fn of(analysis: &MergedModule, has_errors: bool) -> ModuleInterface {
        let mut interface = ModuleInterface {
            incomplete: has_errors
                || analysis.declarations.incomplete
                || analysis.files.iter().any(|file| file.is_incomplete()),
            ..ModuleInterface::default()
        };
        for block in &analysis.effective.blocks {
            if !matches!(
                block.address,
                BlockAddress::Variable(_) | BlockAddress::Output(_)
            ) {
                continue;
            }
            let Some(base) = block.base else { continue };
            let Some(header) = analysis.block(base).map(|written| written.header) else {
                continue;
            };
            let declared_at = analysis.describe(tofu_syntax::Location::new(base.file, header));
            let place = analysis.file(base.file).map(|file| DeclarationPlace {
                file: file.name.clone(),
                text: Arc::clone(&file.text),
                header,
            });
            match &block.address {
                BlockAddress::Variable(name) => {
                    let text_of = |argument: &str| {
                        let attribute = block.body.attribute(argument)?;
                        let file = analysis.file(attribute.origin.file)?;
                        Some((attribute, file))
                    };
                    let constraint = text_of("type")
                        .and_then(|(attribute, file)| {
                            let source = file.source.as_ref()?;
                            let written = file.attribute_at(attribute.origin.range)?;
                            Some(
                                parse_variable_type(&written.expr, source.syntax, &file.text)
                                    .constraint,
                            )
                        })
                        .unwrap_or(TypeConstraint::Any);
                    let flag = |argument: &str| {
                        text_of(argument).is_some_and(|(attribute, file)| {
                            attribute.value.slice(&file.text).trim() == "true"
                        })
                    };
                    interface.variables.push(InterfaceVariable {
                        name: name.clone(),
                        required: block.body.attribute("default").is_none(),
                        constraint,
                        declared_at,
                        place,
                        sensitive: flag("sensitive"),
                        ephemeral: flag("ephemeral"),
                    });
                }
                BlockAddress::Output(name) => interface.outputs.push(InterfaceOutput {
                    name: name.clone(),
                    declared_at,
                }),
                _ => {}
            }
        }
        interface.variables.sort_by(|a, b| a.name.cmp(&b.name));
        interface.outputs.sort_by(|a, b| a.name.cmp(&b.name));
        interface
    }
}

/// The modules one directory calls, by `source` as written in the call.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModuleTree {
    pub children: BTreeMap<String, Arc<ModuleInterface>>,
    /// Sources whose directory is this one, or calls back to it through
    /// other calls.
    pub loops: BTreeSet<String>,
}

impl ModuleTree {
    pub fn is_empty(&self) -> bool {
        self.children.is_empty() && self.loops.is_empty()
    }
}

/// The directory a local module source names, relative to the caller's
/// directory, `.` and `..` resolved as far as they go (`./a/../b` is `b`,
/// `../x` stays `../x`); `None` for a source that is not a local path.
pub fn local_source_path(source: &str) -> Option<String> {
    if !(source.starts_with("./") || source.starts_with("../")) {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in source.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if matches!(parts.last(), Some(last) if *last != "..") {
                    parts.pop();
                } else {
                    parts.push("..");
                }
            }
            other => parts.push(other),
        }
    }
    Some(if parts.is_empty() {
        ".".to_owned()
    } else {
        parts.join("/")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_sources_resolve_relative_to_the_caller() {
        assert_eq!(local_source_path("./child").as_deref(), Some("child"));
        assert_eq!(local_source_path("./a/../b/").as_deref(), Some("b"));
        assert_eq!(local_source_path("../..").as_deref(), Some("../.."));
        assert_eq!(local_source_path("./").as_deref(), Some("."));
        assert_eq!(local_source_path("hashicorp/consul/aws"), None);
        assert_eq!(local_source_path("git::https://x/y.git"), None);
    }
}
