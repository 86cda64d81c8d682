//! Extract into a module (issue 46, part 3): the selected resources, data
//! sources and `locals` blocks of a native primary file become
//! `modules/NAME/`, called from where they were.
//!
//! - What they read from outside (a variable, a local value, another
//!   resource, a module call) becomes a variable of the new module, passed
//!   whole by the call (`vpc = aws_vpc.main`), so the child reads
//!   `var.vpc.id` and every type is kept.
//! - What is read of them from outside becomes an output holding the whole
//!   resource (`value = aws_instance.web`), and the reference becomes
//!   `module.NAME.web` (with its index and attributes as they were);
//!   `depends_on` names the whole call. A local value read from outside
//!   becomes an output of its name (`value = local.names`, `sensitive =
//!   true` when its value is), read as `module.NAME.names`.
//! - Each managed resource gets `moved { from = ADDRESS  to =
//!   module.NAME.ADDRESS }` (in `moved.tf` when the module has one, else
//!   after the call), so `tofu plan` moves the objects.
//! - The providers the resources use are inherited; their
//!   `required_providers` entries are copied from the module when it has
//!   them, so the child names the same sources. A configuration the
//!   resources name by its alias (`provider = aws.west`) is passed by the
//!   call (`providers = { aws = aws.west }`), and the child's resources
//!   name its default (`provider = aws`).
//!
//! Refused, with the reason: blocks in JSON or override files, a block or
//! local value an override file changes, a selection without a resource,
//! resources naming two configurations of one provider (or one by its
//! alias and the default: the child would need `configuration_aliases`),
//! `path.*` (it would name the new directory), provider functions, and
//! `depends_on` or `replace_triggered_by` in the selection naming
//! something outside it.

use std::collections::BTreeMap;

use tofu_module::reference_sites::RefTarget;
use tofu_module::{address_of, BlockAddress, FileRole, ResourceMode};
use tofu_syntax::{Block, FileId, TextRange};

use super::kinds::{ModuleSites, RefactorKind, Refactoring};
use super::text::{block_span, in_whole_object_argument, place, rewritten_block};
use crate::analysed_module::AnalysedModule;
use crate::diagnostics::{file_range, FileEdit};
use crate::rename_moves::in_moved_block;
use crate::snapshot::Snapshot;

const TITLE: &str = "Extract into a module";

pub(super) fn refactorings(
    snapshot: &Snapshot,
    module: &AnalysedModule,
    sites: &ModuleSites<'_>,
    file: FileId,
    blocks: &[&Block],
) -> Option<Refactoring> {
    let addresses: Vec<BlockAddress> = blocks
        .iter()
        .filter_map(|block| address_of(block))
        .collect();
    let is_resource = |address: &BlockAddress| matches!(address, BlockAddress::Resource { .. });
    if !addresses.iter().any(is_resource) {
        return None;
    }
    Some(
        match extracted(snapshot, module, sites, file, blocks, &addresses) {
            Ok((name, refactoring)) => Refactoring {
                title: format!("Extract into module `modules/{name}`"),
                ..refactoring
            },
            Err(reason) => Refactoring::refused(TITLE, RefactorKind::Extract, reason),
        },
    )
}

/// What the new module reads from outside: a variable of it per target.
struct Input {
    name: String,
    /// The expression the call passes, as written in the module.
    passed: String,
    /// The type constraint, as written, of a variable passed on.
    type_text: Option<String>,
}

fn extracted(
    snapshot: &Snapshot,
    module: &AnalysedModule,
    sites: &ModuleSites<'_>,
    file: FileId,
    blocks: &[&Block],
    addresses: &[BlockAddress],
) -> Result<(String, Refactoring), String> {
    let analysis = &module.analysis;
    let source = analysis.file(file).ok_or_else(String::new)?;
    if source.is_json() {
        return Err(
            "The blocks are written in JSON: tofu-lens extracts native blocks only.".to_owned(),
        );
    }
    if source.role != FileRole::Primary {
        return Err("The blocks are in an override file.".to_owned());
    }
    if source
        .source
        .as_ref()
        .is_some_and(|parsed| parsed.has_errors())
    {
        return Err("The file has syntax errors: fix them first.".to_owned());
    }
    let is_resource =
        |block: &&Block| matches!(address_of(block), Some(BlockAddress::Resource { .. }));
    if blocks
        .iter()
        .any(|block| !is_resource(block) && block.kind != "locals")
    {
        return Err(
            "Only resources, data sources and `locals` blocks are extracted: select those alone."
                .to_owned(),
        );
    }
    let text: &str = &source.text;
    let line = |file: FileId, offset: u32| place(analysis, file, offset);
    // The local values the selected `locals` blocks define.
    let locals: Vec<String> = blocks
        .iter()
        .filter(|block| block.kind == "locals")
        .flat_map(|block| block.body.attributes.iter())
        .map(|attribute| attribute.name.clone())
        .collect();
    for name in &locals {
        let local = analysis.effective.local(name).ok_or_else(String::new)?;
        if let Some(overriding) = local.overrides.first() {
            return Err(format!(
                "`local.{name}` is changed by an override file ({}): extract it by hand.",
                line(overriding.block.file, 0)
                    .split(':')
                    .next()
                    .unwrap_or_default()
            ));
        }
    }
    for block in blocks {
        let written = block.range.slice(text);
        for (needle, why) in [
            (
                "path.",
                "reads `path.*`, which would name the new module's directory",
            ),
            (
                "provider::",
                "calls a provider function, which needs the provider in the new module",
            ),
        ] {
            if let Some(at) = written.find(needle) {
                let offset = block.range.start + tofu_syntax::text::to_u32(at);
                return Err(format!("{} {why}.", line(file, offset)));
            }
        }
    }
    for block in blocks.iter().filter(|block| is_resource(block)) {
        let address = address_of(block).ok_or_else(String::new)?;
        let address = &address;
        let effective = analysis.effective.get(address).ok_or_else(String::new)?;
        if let Some(overriding) = effective.overrides.first() {
            return Err(format!(
                "`{}` is changed by an override file ({}): extract it by hand.",
                display(address),
                line(overriding.file, 0)
                    .split(':')
                    .next()
                    .unwrap_or_default()
            ));
        }
    }
    // The configurations the resources name, by local name: passed by the
    // call when named by an alias.
    let mut passed_providers: BTreeMap<String, String> = BTreeMap::new();
    let mut by_default: Vec<String> = Vec::new();
    let mut provider_edits: Vec<(TextRange, String)> = Vec::new();
    for block in blocks.iter().filter(|block| is_resource(block)) {
        let implied = block
            .labels
            .first()
            .and_then(|label| label.value.split('_').next())
            .unwrap_or_default()
            .to_owned();
        let Some(argument) = block.body.attribute("provider") else {
            by_default.push(implied);
            continue;
        };
        let written = argument.expr.range.slice(text).trim();
        let (local, alias) = match written.split_once('.') {
            Some((local, alias)) => (local, Some(alias)),
            None => (written, None),
        };
        let valid = |name: &str| tofu_module::names::is_identifier(name);
        if !valid(local) || !alias.is_none_or(valid) {
            return Err(format!(
                "{} names its provider as no configuration address: fix it first.",
                line(file, argument.range.start)
            ));
        }
        if alias.is_none() {
            by_default.push(local.to_owned());
            continue;
        }
        if let Some(other) = passed_providers
            .get(local)
            .filter(|other| *other != written)
        {
            return Err(format!(
                "The resources name two configurations of `{local}` ({other} and {written}): the new module would need `configuration_aliases`."
            ));
        }
        passed_providers.insert(local.to_owned(), written.to_owned());
        provider_edits.push((argument.expr.range, local.to_owned()));
    }
    if let Some((local, config)) = passed_providers
        .iter()
        .find(|(local, _)| by_default.contains(local))
    {
        return Err(format!(
            "The resources name `{config}` and the default configuration of `{local}`: the new module would need `configuration_aliases`."
        ));
    }
    let selected = |site_file: FileId, range: TextRange| {
        site_file == file && blocks.iter().any(|block| block.range.contains(range.start))
    };
    let sites = sites.all();
    // What the blocks read from outside.
    let mut inputs: BTreeMap<String, Input> = BTreeMap::new();
    let mut inside_edits: Vec<(TextRange, String)> = Vec::new();
    for site in sites.iter().filter(|site| selected(site.file, site.range)) {
        match &site.target {
            RefTarget::Resource(address) if addresses.contains(address) => continue,
            RefTarget::Local(name) if locals.contains(name) => continue,
            _ => {}
        }
        if whole_object_argument(blocks, site.range) {
            return Err(format!(
                "{} names `{}` in `depends_on` or `replace_triggered_by`, outside the selection.",
                line(file, site.range.start),
                site.range.slice(text)
            ));
        }
        let passed = site.range.slice(text).to_owned();
        let key = passed.clone();
        let count = inputs.len();
        let input = inputs.entry(key).or_insert_with(|| Input {
            name: input_name(&site.target, count),
            passed,
            type_text: variable_type(module, &site.target),
        });
        inside_edits.push((site.range, format!("var.{}", input.name)));
    }
    let mut names: Vec<String> = Vec::new();
    for input in inputs.values_mut() {
        while names.contains(&input.name) {
            input.name.push('_');
        }
        names.push(input.name.clone());
    }
    // Names may have changed: the edits read them again.
    for (range, new_text) in &mut inside_edits {
        let written = range.slice(text);
        if let Some(input) = inputs.get(written) {
            *new_text = format!("var.{}", input.name);
        }
    }
    inside_edits.extend(provider_edits);
    let name = call_name(snapshot, module, blocks)?;
    // What is read of them from outside: an output per resource or local
    // value, by what it holds (`aws_instance.web`, `local.names`).
    let mut outputs: BTreeMap<String, String> = BTreeMap::new();
    // Where each is declared in the selection: the outputs follow that
    // order.
    let declared_at = |value: &str| -> u32 {
        blocks
            .iter()
            .find_map(|block| {
                if block.kind == "locals" {
                    let local = value.strip_prefix("local.")?;
                    let attribute = block.body.attribute(local)?;
                    return Some(attribute.range.start);
                }
                let address = address_of(block)?;
                (display(&address) == value).then_some(block.range.start)
            })
            .unwrap_or(u32::MAX)
    };
    let mut outside_edits: Vec<FileEdit> = Vec::new();
    for site in sites.iter().filter(|site| !selected(site.file, site.range)) {
        let (value, wanted) = match &site.target {
            RefTarget::Resource(address) if addresses.contains(address) => {
                if in_moved_block(analysis, site.file, site.range) {
                    continue;
                }
                (display(address), Some(address))
            }
            RefTarget::Local(local) if locals.contains(local) => (format!("local.{local}"), None),
            _ => continue,
        };
        let site_file = analysis.file(site.file).ok_or_else(String::new)?;
        let new_text = if in_whole_object_list(site_file, site.range) {
            format!("module.{name}")
        } else {
            let output = match outputs.get(&value) {
                Some(output) => output.clone(),
                None => {
                    let taken: Vec<&String> = outputs.values().collect();
                    let wanted = match wanted {
                        Some(address) => output_name(address, &taken),
                        None => value.trim_start_matches("local.").to_owned(),
                    };
                    free_name(wanted, &taken)
                }
            };
            outputs.insert(value, output.clone());
            format!("module.{name}.{output}")
        };
        outside_edits.push(FileEdit {
            location: file_range(module, site.file, site.range).ok_or_else(String::new)?,
            new_text,
        });
    }
    // The new module's files.
    let (Some(first), Some(last)) = (blocks.first(), blocks.last()) else {
        return Err(String::new());
    };
    let span = TextRange::new(
        block_span(text, first.range).start,
        block_span(text, last.range).end,
    );
    let mut child_main = formatted(&rewritten_block(text, span, &inside_edits));
    if !child_main.ends_with('\n') {
        child_main.push('\n');
    }
    let dir = module.dir.join("modules").join(&name);
    let mut new_files = vec![(dir.join("main.tf"), child_main)];
    if !inputs.is_empty() {
        let variables: Vec<String> = inputs
            .values()
            .map(|input| match &input.type_text {
                Some(type_text) => {
                    format!("variable \"{}\" {{\n  type = {type_text}\n}}\n", input.name)
                }
                None => format!("variable \"{}\" {{}}\n", input.name),
            })
            .collect();
        new_files.push((dir.join("variables.tf"), variables.join("\n")));
    }
    if !outputs.is_empty() {
        let mut ordered: Vec<(&String, &String)> = outputs.iter().collect();
        ordered.sort_by_key(|(value, _)| declared_at(value));
        let written: Vec<String> = ordered
            .into_iter()
            .map(|(value, output)| {
                let sensitive = value
                    .strip_prefix("local.")
                    .is_some_and(|local| sensitive_local(snapshot, module, local));
                if sensitive {
                    format!(
                        "output \"{output}\" {{\n  value     = {value}\n  sensitive = true\n}}\n"
                    )
                } else {
                    format!("output \"{output}\" {{\n  value = {value}\n}}\n")
                }
            })
            .collect();
        new_files.push((dir.join("outputs.tf"), written.join("\n")));
    }
    let mut provider_names: Vec<String> = passed_providers.keys().cloned().collect();
    provider_names.extend(by_default);
    if let Some(versions) = required_providers(module, addresses, &provider_names) {
        new_files.push((dir.join("versions.tf"), versions));
    }
    // The call in their place, then where each object went.
    let mut call = format!("module \"{name}\" {{\n  source = \"./modules/{name}\"\n");
    if !passed_providers.is_empty() {
        call.push_str("  providers = {\n");
        for (local, config) in &passed_providers {
            call.push_str(&format!("    {local} = {config}\n"));
        }
        call.push_str("  }\n");
    }
    if !inputs.is_empty() {
        call.push('\n');
        for input in inputs.values() {
            call.push_str(&format!("  {} = {}\n", input.name, input.passed));
        }
    }
    call.push_str("}\n");
    let call = formatted(&call);
    let statements: Vec<String> = addresses
        .iter()
        .filter(|address| {
            matches!(
                address,
                BlockAddress::Resource {
                    mode: ResourceMode::Managed,
                    ..
                }
            )
        })
        .map(|address| {
            let from = display(address);
            format!("moved {{\n  from = {from}\n  to   = module.{name}.{from}\n}}\n")
        })
        .collect();
    let statements = statements.join("\n");
    let mut edits = outside_edits;
    let moved_file = analysis.primary.iter().copied().find(|&id| {
        analysis
            .file(id)
            .is_some_and(|file| matches!(file.name.as_str(), "moved.tf" | "moved.tofu"))
    });
    let mut replacement = call;
    match moved_file {
        Some(moved_file) if !statements.is_empty() => {
            let moved_text = &analysis.file(moved_file).ok_or_else(String::new)?.text;
            let end = tofu_syntax::text::to_u32(moved_text.len());
            edits.push(FileEdit {
                location: file_range(module, moved_file, TextRange::new(end, end))
                    .ok_or_else(String::new)?,
                new_text: super::text::appended(moved_text, &statements),
            });
        }
        _ if !statements.is_empty() => {
            replacement.push('\n');
            replacement.push_str(&statements);
        }
        _ => {}
    }
    edits.push(FileEdit {
        location: file_range(module, file, span).ok_or_else(String::new)?,
        new_text: replacement,
    });
    Ok((
        name,
        Refactoring {
            title: String::new(),
            kind: RefactorKind::Extract,
            edits,
            new_files,
            refused: None,
        },
    ))
}

/// `text` as `tofu fmt` lays it out (as it is when it does not parse).
fn formatted(text: &str) -> String {
    tofu_fmt::format(text).unwrap_or_else(|_| text.to_owned())
}

/// `TYPE.NAME` or `data.TYPE.NAME`.
fn display(address: &BlockAddress) -> String {
    match address {
        BlockAddress::Resource {
            mode: ResourceMode::Data,
            type_name,
            name,
        } => format!("data.{type_name}.{name}"),
        BlockAddress::Resource {
            mode: ResourceMode::Ephemeral,
            type_name,
            name,
        } => format!("ephemeral.{type_name}.{name}"),
        BlockAddress::Resource {
            type_name, name, ..
        } => format!("{type_name}.{name}"),
        other => format!("{other:?}"),
    }
}

/// The variable a read of `target` becomes: its name, for anything named
/// once in a module (`region` for `var.region`, `main` for `aws_vpc.main`).
fn input_name(target: &RefTarget, index: usize) -> String {
    match target {
        RefTarget::Variable(name)
        | RefTarget::Local(name)
        | RefTarget::ModuleCall(name)
        | RefTarget::Output(name) => name.clone(),
        RefTarget::Resource(BlockAddress::Resource { name, .. }) => name.clone(),
        RefTarget::Resource(_) => format!("input_{index}"),
    }
}

/// The type constraint of the variable `target` names, as its declaration
/// writes it (native syntax only).
fn variable_type(module: &AnalysedModule, target: &RefTarget) -> Option<String> {
    let RefTarget::Variable(name) = target else {
        return None;
    };
    let analysis = &module.analysis;
    let variable = analysis
        .effective
        .get(&BlockAddress::Variable(name.clone()))?;
    let attribute = variable.body.attribute("type")?;
    let file = analysis
        .file(attribute.origin.file)
        .filter(|file| !file.is_json())?;
    Some(
        attribute
            .origin
            .range
            .slice(&file.text)
            .split_once('=')?
            .1
            .trim()
            .to_owned(),
    )
}

/// The output exposing the resource at `address`: its name, or
/// `TYPE_NAME` when that is taken.
fn output_name(address: &BlockAddress, taken: &[&String]) -> String {
    let BlockAddress::Resource {
        type_name, name, ..
    } = address
    else {
        return "value".to_owned();
    };
    if taken.contains(&name) {
        format!("{type_name}_{name}")
    } else {
        name.clone()
    }
}

/// `wanted`, or `wanted_2`, `wanted_3`, … when an output has it already.
fn free_name(wanted: String, taken: &[&String]) -> String {
    if !taken.contains(&&wanted) {
        return wanted;
    }
    (2..)
        .map(|n| format!("{wanted}_{n}"))
        .find(|name| !taken.contains(&name))
        .unwrap_or(wanted)
}

/// Whether local value `name`'s value, as the module's values give it, is
/// sensitive somewhere (an output of it must say `sensitive = true`).
fn sensitive_local(snapshot: &Snapshot, module: &AnalysedModule, name: &str) -> bool {
    let Some(local) = module.analysis.effective.local(name) else {
        return false;
    };
    let files = snapshot.module_files(&module.dir);
    crate::values::attribute_value(&module.analysis, &module.dir, &files, &local.attribute)
        .is_some_and(|value| value.deep_marks().sensitive)
}

/// The new call's name: the first named block's name, made free of the module's
/// calls and of the directories the workspace holds.
fn call_name(
    snapshot: &Snapshot,
    module: &AnalysedModule,
    blocks: &[&Block],
) -> Result<String, String> {
    // The first block with a name (a `locals` block has none).
    let base = blocks
        .iter()
        .find_map(|block| block.labels.last())
        .map(|label| label.value.clone())
        .filter(|name| tofu_module::names::is_identifier(name))
        .unwrap_or_else(|| "extracted".to_owned());
    let free = |name: &str| {
        module
            .analysis
            .effective
            .get(&BlockAddress::Module(name.to_owned()))
            .is_none()
            && !snapshot.holds_dir(&module.dir.join("modules").join(name))
    };
    std::iter::once(base.clone())
        .chain((2..100).map(|n| format!("{base}_{n}")))
        .find(|name| free(name))
        .ok_or_else(|| "No free name for the new module.".to_owned())
}

/// Whether `range` lies in `depends_on` or `replace_triggered_by` of one of
/// `blocks`.
fn whole_object_argument(blocks: &[&Block], range: TextRange) -> bool {
    blocks
        .iter()
        .any(|block| in_whole_object_argument(block, range.start))
}

/// Whether `range` of `file` lies in a `depends_on` list (which may name
/// the whole call instead).
fn in_whole_object_list(file: &tofu_module::ModuleFile, range: TextRange) -> bool {
    let Some(source) = file.source.as_deref() else {
        return false;
    };
    source
        .body
        .blocks
        .iter()
        .filter(|block| block.range.contains(range.start))
        .any(|block| {
            block
                .body
                .attribute("depends_on")
                .is_some_and(|attribute| attribute.range.contains(range.start))
        })
}

/// A `versions.tf` for the new module: the module's `required_providers`
/// entries for the providers the resources' types name (`aws` for
/// `aws_instance`) and those `named` by their `provider` arguments; `None`
/// when the module declares none of them.
fn required_providers(
    module: &AnalysedModule,
    addresses: &[BlockAddress],
    named: &[String],
) -> Option<String> {
    let analysis = &module.analysis;
    let mut wanted: Vec<&str> = addresses
        .iter()
        .filter_map(|address| match address {
            BlockAddress::Resource { type_name, .. } => type_name.split('_').next(),
            _ => None,
        })
        .chain(named.iter().map(String::as_str))
        .collect();
    wanted.sort_unstable();
    wanted.dedup();
    let mut entries = Vec::new();
    for &file in &analysis.primary {
        let Some(module_file) = analysis.file(file).filter(|file| !file.is_json()) else {
            continue;
        };
        let Some(source) = module_file.source.as_deref() else {
            continue;
        };
        for terraform in source
            .body
            .blocks
            .iter()
            .filter(|block| block.kind == "terraform")
        {
            for required in terraform
                .body
                .blocks
                .iter()
                .filter(|block| block.kind == "required_providers")
            {
                for attribute in &required.body.attributes {
                    if wanted.contains(&attribute.name.as_str()) {
                        entries.push(attribute.range.slice(&module_file.text).to_owned());
                    }
                }
            }
        }
    }
    if entries.is_empty() {
        return None;
    }
    let body: String = entries
        .iter()
        .map(|entry| format!("    {entry}\n"))
        .collect();
    Some(formatted(&format!(
        "terraform {{\n  required_providers {{\n{body}  }}\n}}\n"
    )))
}
