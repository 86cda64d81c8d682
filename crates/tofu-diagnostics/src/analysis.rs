//! Analysing one module directory: files and their roles, parsing through the
//! cache, and the diagnostics of loading. The result is plain data.
//!
//! `analyze` is a pure function of its inputs (plus the cache, which only saves
//! work): no IO, no clock, no state that spans directories.
//!
//! The phases are built complete, each owning the one before it; later
//! phases deref to earlier ones, so `analysis.files` and
//! `analysis.declarations` read the phase that made them:
//!
//! | phase | type | built by | read by |
//! | --- | --- | --- | --- |
//! | 1 loaded | `LoadedModule` (files, roles, parses) | this module | declarations, suppressions, the file rules (one `FileView` at a time) |
//! | 2 declared | `DeclaredModule` (`Declarations`, primary `BlockFate`s) | `tofu_module::declarations` | merging, the identity rules (through `IdentityView`) |
//! | 3 merged | `MergedModule` (`EffectiveModule`, override `BlockFate`s) | `tofu_module::merge` | the module and node rules (through `ModuleView`), `show`, editor features |
//! | result | [`ModuleAnalysis`] (and the diagnostics) | [`analyze`] | callers |
//!
//! What is reported follows `tofu validate`'s order of stopping: loading
//! always; then building the configuration (`Phase::Build`: provider
//! configurations across the tree), the module tree (`Phase::Tree`), the
//! rest of the graph (`Phase::Graph`: provider functions), cycles, and the
//! walk (`Phase::Walk`), each only when the ones before reported no error.
//! `Phase::Plan` (`.tfvars` values, what only `tofu test` rejects) and
//! `Phase::Lint` (tofu-lens's own) are never withheld. `declare_fix` then
//! adds the "Declare variable" fix at the places the rules recorded an
//! undeclared variable's use.

use std::sync::Arc;

use std::ops::Deref;

use tofu_syntax::{Diagnostic, FileId, LineIndex, Location, TextRange};

use crate::cache::AnalysisCache;
use crate::declare_fix;
use crate::incremental;
use crate::reporting;
use crate::rules;
use tofu_module::calls::CalledModules;
use tofu_module::discovery;
use tofu_module::input::{Config, FileContent, InputFile};
use tofu_module::interface::ModuleInterface;
use tofu_module::loaded::{FileRole, FileView, LoadedModule, ModuleFile};
use tofu_module::merge::MergedModule;
use tofu_module::module_files::ModuleFiles;
use tofu_module::provider_schemas::ProviderSchemas;
use tofu_module::provider_tree::summarize::summarize;
use tofu_module::store::FileStore;

/// The analysis of a module directory: the merged module and every
/// diagnostic, sorted. It derefs to [`MergedModule`] (and so on down the
/// phases), so `analysis.files`, `analysis.declarations` and
/// `analysis.effective` read the phase that produced them.
#[derive(Debug)]
pub struct ModuleAnalysis {
    pub merged: MergedModule,
    /// Sorted by file, then position.
    pub diagnostics: Vec<Diagnostic>,
    /// Loading the module reported an error: OpenTofu would stop there, and
    /// what it declares is not to be trusted by its callers.
    pub load_failed: bool,
    /// No phase before `validate`'s walk reported an error: OpenTofu walks
    /// the graph (and calls the providers' validators).
    pub walked: bool,
    /// The provider schemas the analysis was given.
    pub schemas: ProviderSchemas,
    /// The module tree it was analysed in.
    pub tree: CalledModules,
    /// The values validate's walk gives the local values that resources,
    /// data sources and provider configurations read directly (those that
    /// failed left out); empty without provider schemas. What the
    /// providers' validators are sent (`validator_calls`).
    pub walk_locals: std::collections::BTreeMap<String, tofu_eval::Value>,
    /// The values the user named for the directory (`Config::values`),
    /// which hover and the console read too.
    pub given_values: tofu_module::GivenValues,
}

impl ModuleAnalysis {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// What a caller of this module may know of it.
    pub fn interface(&self) -> ModuleInterface {
        ModuleInterface::of(
            &self.merged,
            self.load_failed,
            summarize(&self.merged, &self.tree),
        )
    }

    /// The provider the local name `local_name` stands for (its
    /// `required_providers` entry, else `hashicorp/NAME`) and its schema,
    /// when the analysis was given it.
    pub fn provider_schema(
        &self,
        local_name: &str,
    ) -> (
        tofu_schema::ProviderAddress,
        Option<&tofu_schema::ProviderSchema>,
    ) {
        let names = tofu_module::provider_schemas::ProviderNames {
            required: crate::declared_names::required_providers(&self.merged.declared),
            schemas: ProviderSchemas::default(),
        };
        let address = names.address(local_name);
        let schema = self.schemas.get(&address).map(|schema| &**schema);
        (address, schema)
    }

    /// Provider function `name` (`provider::NAME::FUNCTION`, as written)
    /// from the schema given for the provider NAME stands for.
    pub fn provider_function(&self, name: &str) -> Option<tofu_eval::ProviderFunction> {
        let (local_name, function) = tofu_module::provider_schemas::provider_function_name(name)?;
        let (address, schema) = self.provider_schema(local_name);
        tofu_module::provider_schemas::provider_function(&address, schema?, function)
    }

    /// Each provider schema given, with the local names that stand for it
    /// in this module (those of `required_providers`, and the implied
    /// `NAME` of `hashicorp/NAME`), sorted by name.
    pub fn provider_local_names(&self) -> Vec<(String, &tofu_schema::ProviderSchema)> {
        let required = crate::declared_names::required_providers(&self.merged.declared);
        let mut found: Vec<(String, &tofu_schema::ProviderSchema)> = Vec::new();
        for (address, schema) in self.schemas.iter() {
            for (name, required_address) in &required {
                if required_address == address {
                    found.push((name.clone(), &**schema));
                }
            }
            let implied = &address.type_name;
            if !required.contains_key(implied)
                && tofu_schema::requirements::implied_provider(implied) == *address
            {
                found.push((implied.clone(), &**schema));
            }
        }
        found.sort_by(|a, b| a.0.cmp(&b.0));
        found
    }

    /// The `source` of each module call written as a plain string, as the
    /// module tree is keyed (a call's directory is resolved from it).
    pub fn module_sources(&self) -> Vec<String> {
        let mut sources: Vec<String> = self
            .module_calls()
            .into_iter()
            .map(|(_, source)| source)
            .collect();
        sources.sort();
        sources.dedup();
        sources
    }

    /// Each module call's name and `source`, where the source is a plain
    /// string, in declaration order.
    pub fn module_calls(&self) -> Vec<(String, String)> {
        self.effective
            .blocks
            .iter()
            .filter_map(|block| {
                let tofu_module::address::BlockAddress::Module(name) = &block.address else {
                    return None;
                };
                let attribute = block.body.attribute("source")?;
                let file = self.file(attribute.origin.file)?;
                let written = file.attribute_at(attribute.origin.range)?;
                match &written.expr.kind {
                    tofu_syntax::ExprKind::String(text) => Some((name.clone(), text.clone())),
                    _ => None,
                }
            })
            .collect()
    }

    /// Each `run` of the test files with a `module` block whose `source`
    /// is a plain string: the run's name and the source, by file, then in
    /// file order (`tofu_module::calls::resolve_test_runs` resolves them).
    pub fn test_run_modules(&self) -> Vec<(String, String)> {
        let mut runs = Vec::new();
        for file in self.files.iter().filter(|file| file.role == FileRole::Test) {
            let Some(source) = &file.source else {
                continue;
            };
            for run in source.body.blocks_of_kind("run") {
                let Some(name) = run.label(0) else {
                    continue;
                };
                let module = run.body.blocks_of_kind("module").next();
                let written = module
                    .and_then(|module| module.body.attribute("source"))
                    .and_then(|attribute| attribute.expr.as_str());
                if let Some(written) = written {
                    runs.push((name.to_owned(), written.to_owned()));
                }
            }
        }
        runs
    }
}

impl Deref for ModuleAnalysis {
    type Target = MergedModule;

    fn deref(&self) -> &MergedModule {
        &self.merged
    }
}

/// Analyses one module directory on its own.
pub fn analyze(inputs: &[InputFile], config: &Config, cache: &mut AnalysisCache) -> ModuleAnalysis {
    analyze_in_tree(
        inputs,
        config,
        &CalledModules::default(),
        &ProviderSchemas::default(),
        cache,
    )
}

/// Analyses one module directory with what the modules it calls declare
/// and the schemas of its providers (a provider without one is judged as
/// without schemas: meta-arguments only); functions read no files.
pub fn analyze_in_tree(
    inputs: &[InputFile],
    config: &Config,
    tree: &CalledModules,
    schemas: &ProviderSchemas,
    cache: &mut AnalysisCache,
) -> ModuleAnalysis {
    analyze_with_files(inputs, config, tree, schemas, &ModuleFiles::none(), cache)
}

/// [`analyze_in_tree`], with the files functions read (`file("x")`)
/// through `module_files`.
pub fn analyze_with_files(
    inputs: &[InputFile],
    config: &Config,
    tree: &CalledModules,
    schemas: &ProviderSchemas,
    module_files: &ModuleFiles,
    cache: &mut AnalysisCache,
) -> ModuleAnalysis {
    let schemas = &crate::incremental::with_built_in_schema(schemas);
    let mut sorted: Vec<&InputFile> = inputs.iter().collect();
    sorted.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
    sorted.dedup_by(|a, b| a.name == b.name);
    // Discovery reads names alone: the analysis before knows it when it was
    // of the same names.
    let known = cache
        .retained
        .discovery_for(sorted.iter().map(|input| input.name.as_str()));
    let discovered = match known {
        Some(discovery) => discovery,
        None => {
            let names: Vec<&str> = sorted.iter().map(|input| input.name.as_str()).collect();
            discovery::discover(&names)
        }
    };
    let id = |index: usize| FileId(tofu_syntax::text::to_u32(index));

    let store = &mut cache.store;
    store.begin();
    let mut diagnostics = Vec::new();
    // What `.tfvars` files say, held apart: `validate` never reads them, so
    // they neither wait for nor hold back its phases.
    let mut values_diagnostics = Vec::new();
    let mut files = Vec::with_capacity(sorted.len());
    let mut roles = vec![FileRole::Other; sorted.len()];
    for (list, role) in [
        (&discovered.primary, FileRole::Primary),
        (&discovered.overrides, FileRole::Override),
        (&discovered.ignored, FileRole::Ignored),
        (&discovered.values, FileRole::Values),
        (&discovered.tests, FileRole::Test),
    ] {
        for &index in list {
            if let Some(slot) = roles.get_mut(index) {
                *slot = role;
            }
        }
    }
    for &(hidden, by) in &discovered.shadowed {
        if let Some(slot) = roles.get_mut(hidden) {
            *slot = FileRole::Shadowed { by: id(by) };
        }
    }
    for (index, input) in sorted.iter().enumerate() {
        let role = roles.get(index).copied().unwrap_or(FileRole::Other);
        let sink = if role == FileRole::Values {
            &mut values_diagnostics
        } else {
            &mut diagnostics
        };
        let file = load_file(input, role, id(index), store, sink);
        files.push(file);
    }

    for &(hidden, by) in &discovered.shadowed {
        let (Some(hidden_file), Some(by_file)) = (files.get(hidden), files.get(by)) else {
            continue;
        };
        let whole = TextRange::from_usize(0, hidden_file.text.len());
        diagnostics.push(
            Diagnostic::new(
                crate::codes::FILE_SHADOWED,
                format!("File ignored: {} hides it", by_file.name),
                Location::new(id(hidden), whole),
            )
            .with_detail(format!(
                "OpenTofu reads {} instead of this file, which it does not read at all: nothing declared here exists for OpenTofu. Terraform, which does not read .tofu files, still reads this one.",
                by_file.name
            ))
            .with_related(Location::new(id(by), TextRange::empty(0)), "the file that hides it"),
        );
    }

    let primary: Vec<FileId> = discovered.primary.iter().map(|&i| id(i)).collect();
    let overrides: Vec<FileId> = discovered.overrides.iter().map(|&i| id(i)).collect();
    let loaded = LoadedModule {
        files,
        primary,
        overrides,
    };
    diagnostics.extend(as_written_diagnostics(&loaded, store));
    let checked = incremental::declare_merge_and_check(
        loaded,
        discovered,
        config,
        incremental::Given {
            tree,
            schemas,
            module_files,
        },
        &mut cache.store,
        &mut cache.retained,
    );
    let merged = checked.merged;
    let walk_locals = checked.walk_locals;
    diagnostics.extend(checked.load);
    let load_failed = diagnostics.iter().any(Diagnostic::is_error);
    // Each later phase of OpenTofu runs only when the ones before it
    // reported no error: building the configuration (provider
    // configurations across the tree), building the module tree's graph
    // (its inputs, then what comes after them: provider functions),
    // the graph's cycle check, then `validate`'s walk.
    let mut walked = false;
    for (phase, is_walk) in [
        (checked.build, false),
        (checked.tree, false),
        (checked.graph, false),
        (checked.cycles, false),
        (checked.walk, true),
    ] {
        if diagnostics.iter().any(Diagnostic::is_error) {
            break;
        }
        walked = is_walk;
        diagnostics.extend(phase);
    }
    // `tofu plan` validates after it collected the variables' values (a
    // required one missing stops it there: `plan-required-variable`), and
    // stops at validate's errors: what its walk reports (the `plan-*`
    // family, and a given value that does not convert to its variable's
    // type) comes only when loading and validate found none; what it says
    // while collecting the values (undeclared ones) and `tofu test`'s
    // warnings come whatever validate found.
    let plan_walk =
        |code| crate::codes::is_plan_walk(code) || code == crate::codes::INVALID_VARIABLE_VALUE;
    let validate_failed = diagnostics.iter().any(Diagnostic::is_error);
    // Before its walk, plan judges the import targets, then the removed
    // blocks, and stops at their errors (`rules::statements`).
    let before_walk = |code| {
        code == crate::codes::PLAN_IMPORT_TARGET || code == crate::codes::PLAN_REMOVED_STATEMENT
    };
    let stopped_before_walk = checked
        .plan
        .iter()
        .any(|diagnostic| before_walk(diagnostic.code) && diagnostic.is_error());
    // Earlier still, a variable plan needs and gets no value stops it
    // while it collects them: nothing of its walk is reported.
    let stopped_collecting = checked
        .plan
        .iter()
        .any(|diagnostic| diagnostic.code == crate::codes::PLAN_REQUIRED_VARIABLE);
    diagnostics.extend(checked.lint);
    diagnostics.extend(values_diagnostics);
    let withheld = |code| {
        let stopped_by_validate = validate_failed && plan_walk(code);
        let stopped_before = stopped_before_walk && crate::codes::is_plan_walk(code);
        let not_collected = stopped_collecting && crate::codes::is_plan_walk(code);
        stopped_by_validate || not_collected || (stopped_before && !before_walk(code))
    };
    diagnostics.extend(
        checked
            .plan
            .into_iter()
            .filter(|diagnostic| !withheld(diagnostic.code)),
    );
    let recorded = &checked.undeclared_variables;
    declare_fix::add_fixes(&merged, || recorded.gather(), &mut diagnostics);
    reporting::apply_suppressions(&merged, &mut diagnostics);
    withhold_after_version_incompatibility(&mut diagnostics);
    reporting::apply_severity_overrides(config, &mut diagnostics);
    sort_diagnostics(&mut diagnostics);
    cache.store.finish();
    ModuleAnalysis {
        merged,
        diagnostics,
        load_failed,
        walked,
        schemas: schemas.clone(),
        tree: tree.clone(),
        walk_locals,
        given_values: config.values.clone(),
    }
}

/// The rules that read each file's blocks as written
/// ([`rules::check_file`]), run on a one-file view of the module and cached
/// with the parsed file: after an edit only the edited file is checked
/// again. Results are stored with the placeholder id `FileId(0)` and given
/// the file's current id here.
fn as_written_diagnostics(module: &LoadedModule, store: &mut FileStore) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (index, file) in module.files.iter().enumerate() {
        if !file.role.is_loaded() || file.source.is_none() {
            continue;
        }
        let id = FileId(tofu_syntax::text::to_u32(index));
        let results = store.as_written_rules(&file.name, &file.text, file.role, || {
            rules::check_file(FileView {
                id: FileId(0),
                file,
            })
        });
        out.extend(results.iter().map(|diagnostic| in_file(diagnostic, id)));
    }
    out
}

/// A copy of a diagnostic computed on a one-file view, with `FileId(0)`
/// replaced by the file's id in the module.
fn in_file(diagnostic: &Diagnostic, id: FileId) -> Diagnostic {
    let mut diagnostic = diagnostic.clone();
    diagnostic.subject.file = id;
    for related in &mut diagnostic.related {
        related.location.file = id;
    }
    if let Some(fix) = &mut diagnostic.fix {
        for edit in &mut fix.edits {
            edit.file = id;
        }
    }
    diagnostic
}

fn load_file(
    input: &InputFile,
    role: FileRole,
    id: FileId,
    store: &mut FileStore,
    diagnostics: &mut Vec<Diagnostic>,
) -> ModuleFile {
    let (text, parse_upto, read_error): (Arc<str>, Option<u32>, Option<String>) =
        match &input.content {
            FileContent::Text(text) => (Arc::clone(text), None, None),
            FileContent::InvalidUtf8 {
                text,
                first_bad_byte,
            } => (Arc::clone(text), Some(*first_bad_byte), None),
            FileContent::Unreadable { message } => (Arc::from(""), None, Some(message.clone())),
        };
    let parsed = match (role.is_parsed(), &read_error, parse_upto) {
        (true, None, None) => Some(store.get_or_parse(&input.name, &text)),
        _ => None,
    };
    let (source, line_index, may_suppress) = match parsed {
        Some(parsed) => (Some(parsed.source), parsed.line_index, parsed.may_suppress),
        None => (
            None,
            Arc::new(LineIndex::new(&text)),
            role.is_loaded() && tofu_module::store::may_suppress(&text),
        ),
    };
    let mut file = ModuleFile {
        name: input.name.clone(),
        role,
        line_index,
        text: Arc::clone(&text),
        source: None,
        read_error: read_error.clone(),
        may_suppress,
    };
    if !role.is_parsed() {
        return file;
    }
    if let Some(message) = read_error {
        diagnostics.push(
            Diagnostic::new(
                crate::codes::FILE_UNREADABLE,
                "Failed to read file",
                Location::new(id, TextRange::empty(0)),
            )
            .with_detail(format!(
                "The configuration file \"{}\" could not be read: {message}.",
                input.name
            )),
        );
        return file;
    }
    let source = match (source, parse_upto) {
        (Some(source), _) => source,
        (None, None) => return file,
        (None, Some(first_bad_byte)) => {
            let at = first_bad_byte as usize;
            diagnostics.push(
                Diagnostic::new(
                    crate::codes::SYNTAX_ERROR,
                    "Invalid character encoding",
                    Location::new(id, TextRange::empty(tofu_syntax::text::to_u32(at)).widened(&text)),
                )
                .with_detail("All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected in your editor."),
            );
            // Parse what precedes the first bad byte; the rest is unrecovered.
            let mut valid_end = at.min(text.len());
            while valid_end > 0 && !text.is_char_boundary(valid_end) {
                valid_end -= 1;
            }
            let valid: Arc<str> = Arc::from(text.get(..valid_end).unwrap_or_default());
            let mut parsed = (*store.get_or_parse(&input.name, &valid).source).clone();
            parsed.errors.clear();
            parsed
                .unrecovered
                .push(TextRange::from_usize(valid_end, text.len()));
            Arc::new(parsed)
        }
    };
    for error in &source.errors {
        let code = if error.duplicate_argument {
            crate::codes::DUPLICATE_ARGUMENT
        } else {
            crate::codes::SYNTAX_ERROR
        };
        diagnostics.push(
            Diagnostic::new(code, error.summary.clone(), Location::new(id, error.range))
                .with_detail(error.detail.clone()),
        );
    }
    file.source = Some(source);
    file
}

/// `diagnostics.md` §6: when the module is incompatible with the configured
/// OpenTofu version, OpenTofu reports only that. Everything else but the
/// discovery hints is withheld, and each incompatibility says how much was.
fn withhold_after_version_incompatibility(diagnostics: &mut Vec<Diagnostic>) {
    if !diagnostics
        .iter()
        .any(|d| d.code == crate::codes::INCOMPATIBLE_TOFU_VERSION)
    {
        return;
    }
    let kept = |d: &Diagnostic| {
        matches!(
            d.code,
            crate::codes::INCOMPATIBLE_TOFU_VERSION
                | crate::codes::FILE_SHADOWED
                | crate::codes::FILE_IGNORED
        )
    };
    let n_withheld = diagnostics.iter().filter(|d| !kept(d)).count();
    diagnostics.retain(kept);
    if n_withheld == 0 {
        return;
    }
    let noun = if n_withheld == 1 {
        "diagnostic"
    } else {
        "diagnostics"
    };
    let verb = if n_withheld == 1 { "is" } else { "are" };
    for diagnostic in diagnostics
        .iter_mut()
        .filter(|d| d.code == crate::codes::INCOMPATIBLE_TOFU_VERSION)
    {
        diagnostic.detail.push_str(&format!(
            "\n\n{n_withheld} other {noun} in this module {verb} not shown because OpenTofu stops at the version incompatibility."
        ));
    }
}

pub(crate) fn sort_diagnostics(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| {
        (
            a.subject.file,
            a.subject.range.map(|r| (r.start, r.end)),
            a.code,
            &a.summary,
            &a.detail,
        )
            .cmp(&(
                b.subject.file,
                b.subject.range.map(|r| (r.start, r.end)),
                b.code,
                &b.summary,
                &b.detail,
            ))
            .then_with(|| related_key(a).cmp(related_key(b)))
    });
}

/// Related places in order, so that the order of diagnostics never depends
/// on the order rules reported them in.
fn related_key(
    diagnostic: &Diagnostic,
) -> impl Iterator<Item = (FileId, Option<(u32, u32)>, &str)> {
    diagnostic.related.iter().map(|related| {
        (
            related.location.file,
            related.location.range.map(|r| (r.start, r.end)),
            related.message.as_str(),
        )
    })
}
