//! Refactorings that keep the state (issue 46): each is a whole edit, ready
//! for the client to apply and undo, or a refusal that says why it cannot be
//! done here.
//!
//! - Move to another file (`move_to_file`): the selected top-level blocks,
//!   with their comments, to a new file or another file of the module.
//!   Nothing in the state changes, so no `moved` block.
//! - Keep the objects (`keep_objects`): remove a resource or module call from
//!   the configuration with a `removed` block that keeps its objects, or
//!   generate an `import` block for it.
//! - Extract into a module (`extract`): resources, data sources and `locals` blocks become
//!   `modules/NAME/`, with variables, outputs and `moved` blocks.
//! - Repeat (`repeat`): give a single resource `count = 1` or a `for_each`
//!   over one key, with the `moved` block from its old address and every
//!   reference indexed.
//!
//! The selection is the top-level blocks of one file that the range touches.
//! Edits are byte ranges in the texts the analysis saw; only native syntax is
//! written, and override files are left alone (moving their blocks would
//! change what overrides what).

mod extract;
mod keep_objects;
mod kinds;
mod move_to_file;
mod repeat;
mod text;

use std::path::{Path, PathBuf};

use tofu_eval::{format_value, Value, ValueKind};
use tofu_module::BlockAddress;
use tofu_syntax::{Block, TextRange};

use crate::analysed_module::AnalysedModule;
use kinds::{ImportAt, ModuleSites};
pub use kinds::{RefactorKind, Refactoring};

use crate::snapshot::Snapshot;

impl Snapshot {
    /// The refactorings offered for the top-level blocks of the file at
    /// `path` that `range` touches (a cursor inside a block selects it).
    pub fn refactorings(&self, path: &Path, range: TextRange) -> Vec<Refactoring> {
        let Some(found) = self.find_file(path) else {
            return Vec::new();
        };
        let Some(file) = found.file() else {
            return Vec::new();
        };
        if !file.role.is_loaded() {
            return Vec::new();
        }
        let Some(source) = file.source.as_deref() else {
            return Vec::new();
        };
        let selected: Vec<&Block> = source
            .body
            .blocks
            .iter()
            .filter(|block| block.range.start <= range.end && range.start <= block.range.end)
            .collect();
        if selected.is_empty() {
            return Vec::new();
        }
        let sites = ModuleSites::new(&found.module.analysis);
        let mut refactorings = move_to_file::refactorings(found.module, found.id, &selected);
        refactorings.extend(extract::refactorings(
            self,
            found.module,
            &sites,
            found.id,
            &selected,
        ));
        if let [block] = selected.as_slice() {
            let import_at = self.import_at(found.module, block);
            refactorings.extend(keep_objects::refactorings(
                found.module,
                &sites,
                found.id,
                block,
                import_at,
            ));
            refactorings.extend(repeat::refactorings(
                self,
                found.module,
                &sites,
                found.id,
                block,
            ));
        }
        refactorings
    }

    /// The directories the refactorings of a file at `path` read besides
    /// its own: the modules calling it (an `import` block goes there).
    pub fn refactoring_dirs(&self, path: &Path) -> Vec<PathBuf> {
        let Some(found) = self.find_file(path) else {
            return Vec::new();
        };
        let mut dirs: Vec<PathBuf> = self
            .callers_of(&found.module.dir)
            .into_iter()
            .map(|(dir, _)| dir.to_path_buf())
            .collect();
        dirs.dedup();
        dirs
    }

    /// Where an `import` block for the resource `block` goes, and the
    /// address of its first instance there: OpenTofu reads import blocks in
    /// the root module only, so a module called from one root module gets
    /// it in that caller, as `module.CALL[KEY].TYPE.NAME`.
    fn import_at<'s>(&'s self, module: &'s AnalysedModule, block: &Block) -> ImportAt<'s> {
        let Some(address) = tofu_module::address_of(block) else {
            return ImportAt::Refused(String::new());
        };
        let own = match &address {
            BlockAddress::Resource {
                type_name, name, ..
            } => format!(
                "{type_name}.{name}{}",
                self.first_instance_key(module, &address)
                    .unwrap_or_default()
            ),
            _ => return ImportAt::Refused(String::new()),
        };
        let callers = self.callers_of(&module.dir);
        let [(caller_dir, call)] = callers.as_slice() else {
            if callers.is_empty() {
                return ImportAt::Here { to: own };
            }
            return ImportAt::Refused(format!(
                "OpenTofu reads `import` blocks in the root module only, and this module is called from {} places.",
                callers.len()
            ));
        };
        let Some(caller) = self.module(caller_dir) else {
            return ImportAt::Refused("The calling module is not analysed.".to_owned());
        };
        if !self.callers_of(caller_dir).is_empty() {
            return ImportAt::Refused(
                "OpenTofu reads `import` blocks in the root module only, and the module calling this one is itself called.".to_owned(),
            );
        }
        let call_address = BlockAddress::Module(call.name.clone());
        let key = self
            .first_instance_key(caller, &call_address)
            .unwrap_or_default();
        ImportAt::Caller {
            module: caller,
            call: call_address,
            to: format!("module.{}{key}.{own}", call.name),
        }
    }

    /// The index of the first instance of the resource or module call at
    /// `address`, as written after it: `[0]` under `count`, the first key
    /// of a known `for_each` (`["a"]`), `["key"]` for one not known;
    /// `None` when it is not repeated.
    fn first_instance_key(
        &self,
        module: &AnalysedModule,
        address: &BlockAddress,
    ) -> Option<String> {
        let effective = module.analysis.effective.get(address)?;
        if effective.body.attribute("count").is_some() {
            return Some("[0]".to_owned());
        }
        let for_each = effective.body.attribute("for_each")?;
        let files = self.module_files(&module.dir);
        let value = crate::values::attribute_value(&module.analysis, &module.dir, &files, for_each);
        let first = value.and_then(|value| match value.kind {
            ValueKind::Set { items, .. } => items
                .first()
                .and_then(|item| item.as_str().map(str::to_owned)),
            ValueKind::Map { entries, .. } => entries.keys().next().cloned(),
            ValueKind::Object(attributes) => attributes.keys().next().cloned(),
            _ => None,
        });
        let key = first.unwrap_or_else(|| "key".to_owned());
        Some(format!("[{}]", format_value(&Value::string(key))))
    }
}
