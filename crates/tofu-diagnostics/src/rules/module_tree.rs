//! A module call against the module it calls (issue 27, `spec/diagnostics.md`
//! §7), as `tofu validate` judges it after `tofu init`:
//! `undeclared-module-input`, `duplicate-module-argument` and
//! `missing-module-input` (OpenTofu checks the call's body against the
//! child's variables while building its graph),
//! `invalid-variable-value` for a constant argument of the wrong type (in
//! the walk; OpenTofu puts it on the child's variable, here it is on the
//! argument, the variable named in the detail and related),
//! `module-call-loop`, and `module-dir-unreadable` (a local source whose
//! directory does not exist: `tofu init`'s "Unreadable module directory",
//! `internal/initwd/module_install.go`, found while the modules are
//! installed, so in `Phase::Load`, and it holds back everything after).
//!
//! What the child declares comes from the module tree the analysis was given
//! (`tofu_module::calls::CalledModules`); a call whose child is unknown (a
//! registry source before `tofu init`) or could not be loaded cleanly is
//! not judged, nor one whose directory is unreadable. `source`,
//! `version`, `count`, `for_each`, `providers` and `depends_on` are
//! meta-arguments, not inputs. Only constant values (literals and
//! constructors of them) are judged against a variable's type.

use std::sync::Arc;

use tofu_syntax::{Diagnostic, Location, RelatedOutside, Syntax, TextRange};

use crate::rules::provider_schema::{dropped_warning, Dropped};
use crate::rules::validate;
use crate::rules::views::IdentityView;
use tofu_module::address::BlockAddress;
use tofu_module::effective::{
    EffectiveAttribute, EffectiveBlock, EffectiveBody, EffectiveNestedBlock,
};
use tofu_module::expr::suggest::did_you_mean;
use tofu_module::types::{constant_value, convert_variable_value};
use tofu_syntax::go_text::go_quote;

const META_ARGUMENTS: [&str; 6] = [
    "source",
    "version",
    "count",
    "for_each",
    "providers",
    "depends_on",
];

/// What decides, in a module call, what lenient decoding drops.
const CHILD_DECLARES: &str = "the called module does not declare as a variable";

/// The escaping block: its arguments are inputs even where their names are
/// meta-arguments'; nothing in it is a meta-argument block.
const ESCAPE: &str = "_";

/// A call's input arguments: those of its body that are not meta-arguments,
/// and those of its escaping blocks the body does not set (an override's
/// argument wins over the base's escaped one; within one block, setting
/// both is a `Duplicate argument`).
fn inputs(body: &EffectiveBody) -> impl Iterator<Item = &EffectiveAttribute> {
    body.attributes
        .iter()
        .filter(|attribute| !META_ARGUMENTS.contains(&attribute.name.as_str()))
        .chain(
            body.blocks
                .iter()
                .filter(|block| block.kind == ESCAPE)
                .flat_map(|block| &block.body.attributes)
                .filter(|attribute| body.attribute(&attribute.name).is_none()),
        )
}

/// The blocks of a call's body that are no meta-argument block (`lifecycle`
/// outside an escaping block is reserved), inside escaping blocks too.
fn unsupported_blocks(body: &EffectiveBody) -> impl Iterator<Item = &EffectiveNestedBlock> {
    body.blocks
        .iter()
        .filter(|block| block.kind != "lifecycle" && block.kind != ESCAPE)
        .chain(
            body.blocks
                .iter()
                .filter(|block| block.kind == ESCAPE)
                .flat_map(|block| &block.body.blocks),
        )
}

/// The `module-dir-unreadable` identity rule: the call's local source
/// names a directory that cannot be read. OpenTofu's error has no subject
/// (its detail names the call's file and line); here it is on `source`.
pub(crate) fn unreadable_dir(view: &IdentityView<'_>, out: &mut Vec<Diagnostic>) {
    let Some(effective) = view.effective() else {
        return;
    };
    let BlockAddress::Module(name) = &effective.address else {
        return;
    };
    if !view.unreadable(name) {
        return;
    }
    let Some(source) = effective.body.attribute("source") else {
        return;
    };
    let Some(base) = effective.base else {
        return;
    };
    let Some(place) = view.block(base).and_then(|block| {
        let described = view.file(base.file)?.describe(block.header)?;
        Some(described.split(',').next().unwrap_or_default().to_owned())
    }) else {
        return;
    };
    out.push(
        Diagnostic::new(
            crate::codes::MODULE_DIR_UNREADABLE,
            "Unreadable module directory",
            Location::new(source.origin.file, source.value),
        )
        .with_detail(format!(
            "The directory {} could not be read for module {} at {place}.",
            "",
            go_quote(name)
        )),
    );
}

/// The `module-arguments` identity rule: each argument is a variable of the
/// child, and each required variable is set.
pub(crate) fn arguments(view: &IdentityView<'_>, out: &mut Vec<Diagnostic>) {
    let Some(effective) = view.effective() else {
        return;
    };
    let BlockAddress::Module(name) = &effective.address else {
        return;
    };
    if view.loops(name) {
        if let Some(source) = effective.body.attribute("source") {
            out.push(
                Diagnostic::new(
                    crate::codes::MODULE_CALL_LOOP,
                    "Module call cycle",
                    Location::new(source.origin.file, source.value),
                )
                .with_detail(format!(
                    "module.{name} calls a module whose calls lead back to this one: OpenTofu would install and load it without end."
                )),
            );
        }
        return;
    }
    let Some(child) = view.child(name) else {
        return;
    };
    if child.incomplete {
        return;
    }
    let names: Vec<&str> = child
        .variables
        .iter()
        .map(|variable| variable.name.as_str())
        .collect();
    // OpenTofu reads an overridden call's merged body leniently (the base
    // and each override by partial content), so neither reports an argument
    // the child lacks; the required ones are judged on the base alone.
    let overridden = !effective.overrides.is_empty();
    // An argument set both in the body and in an escaping block (of one
    // block: merging with an override is lenient here too).
    let escapes = effective
        .body
        .blocks
        .iter()
        .filter(|block| block.kind == ESCAPE);
    for escape in escapes.filter(|_| !overridden) {
        for attribute in &escape.body.attributes {
            let Some(first) = effective
                .body
                .attributes
                .iter()
                .find(|first| first.name == attribute.name)
            else {
                continue;
            };
            let (Some(file), Some(first_file)) = (
                view.file(attribute.origin.file),
                view.file(first.origin.file),
            ) else {
                continue;
            };
            let (Some(written), Some(first_written)) = (
                file.attribute_at(attribute.origin.range),
                first_file.attribute_at(first.origin.range),
            ) else {
                continue;
            };
            let Some(first_place) = first_file.describe(first_written.name_range) else {
                continue;
            };
            out.push(
                Diagnostic::new(
                    crate::codes::DUPLICATE_MODULE_ARGUMENT,
                    "Duplicate argument",
                    Location::new(attribute.origin.file, written.name_range),
                )
                .with_detail(format!(
                    "Argument {} was already set at {}",
                    go_quote(&attribute.name),
                    first_place
                )),
            );
        }
    }
    for attribute in inputs(&effective.body) {
        if child.variable(&attribute.name).is_some() {
            continue;
        }
        let Some(file) = view.file(attribute.origin.file) else {
            continue;
        };
        let Some(written) = file.attribute_at(attribute.origin.range) else {
            continue;
        };
        if overridden {
            let dropped = Dropped {
                name: attribute.name.clone(),
                block: false,
                file: attribute.origin.file,
                syntax: file.syntax().unwrap_or(Syntax::Native),
                name_range: written.name_range,
                range: written.range,
                suggestion: did_you_mean(&attribute.name, names.iter().copied()).map(str::to_owned),
            };
            out.push(dropped_warning(view, effective, &dropped, CHILD_DECLARES));
            continue;
        }
        let (summary, mut detail) = if file.is_json() {
            (
                "Extraneous JSON object property",
                format!(
                    "No argument or block type is named {}.",
                    go_quote(&attribute.name)
                ),
            )
        } else {
            (
                "Unsupported argument",
                format!(
                    "An argument named {} is not expected here.",
                    go_quote(&attribute.name)
                ),
            )
        };
        if let Some(suggestion) = did_you_mean(&attribute.name, names.iter().copied()) {
            detail.push_str(&format!(" Did you mean {}?", go_quote(suggestion)));
        }
        out.push(
            Diagnostic::new(
                crate::codes::UNDECLARED_MODULE_INPUT,
                summary,
                Location::new(attribute.origin.file, written.name_range),
            )
            .with_detail(detail),
        );
    }
    for block in unsupported_blocks(&effective.body) {
        if view
            .file(block.origin.file)
            .is_none_or(|file| file.is_json())
        {
            continue;
        }
        if overridden {
            let start = block.origin.range.start;
            let dropped = Dropped {
                name: block.kind.clone(),
                block: true,
                file: block.origin.file,
                syntax: Syntax::Native,
                name_range: TextRange::new(
                    start,
                    start.saturating_add(u32::try_from(block.kind.len()).unwrap_or(0)),
                ),
                range: block.range,
                suggestion: None,
            };
            out.push(dropped_warning(view, effective, &dropped, CHILD_DECLARES));
            continue;
        }
        let start = block.origin.range.start;
        out.push(
            Diagnostic::new(
                crate::codes::UNDECLARED_MODULE_INPUT,
                "Unsupported block type",
                Location::new(
                    block.origin.file,
                    TextRange::new(
                        start,
                        start.saturating_add(u32::try_from(block.kind.len()).unwrap_or(0)),
                    ),
                ),
            )
            .with_detail(format!(
                "Blocks of type {} are not expected here.",
                go_quote(&block.kind)
            )),
        );
    }
    let Some(base) = effective.base else {
        return;
    };
    let Some(block) = view.block(base) else {
        return;
    };
    // With an escaping block OpenTofu reads the body whole, in other words
    // (and gives no place).
    let (escaping, why) = if has_escape(&effective.body) {
        (true, "was not set")
    } else {
        (false, "no definition was found")
    };
    for variable in child.variables.iter().filter(|variable| variable.required) {
        let name = variable.name.as_str();
        let set = if overridden {
            block.body.attribute(name).is_some()
                || (escaping
                    && block
                        .body
                        .blocks
                        .iter()
                        .filter(|nested| nested.kind == ESCAPE)
                        .any(|nested| nested.body.attribute(name).is_some()))
        } else {
            inputs(&effective.body).any(|input| input.name == name)
        };
        if !set {
            out.extend(missing(view, effective, name, why));
        }
    }
}

fn has_escape(body: &EffectiveBody) -> bool {
    body.blocks.iter().any(|block| block.kind == ESCAPE)
}

/// `Missing required argument`, at the `{` of the call's base block (its
/// closing `}` in JSON).
fn missing(
    view: &IdentityView<'_>,
    effective: &EffectiveBlock,
    variable: &str,
    why: &str,
) -> Option<Diagnostic> {
    let base = effective.base?;
    let (block, file) = (view.block(base)?, view.file(base.file)?);
    let at = if file.is_json() {
        block.body.close
    } else {
        block.body.open.map(|open| TextRange::empty(open.start))
    }
    .unwrap_or(block.header);
    Some(
        Diagnostic::new(
            crate::codes::MISSING_MODULE_INPUT,
            "Missing required argument",
            Location::new(base.file, at),
        )
        .with_detail(format!(
            "The argument {} is required, but {why}.",
            go_quote(variable)
        )),
    )
}

/// The directory of module call `name` (`call`) relative to this one, as
/// OpenTofu names the child's files (`modules/net/main.tf`,
/// `.terraform/modules/vpc/main.tf`): its local source, or where `tofu
/// init` put it.
pub(crate) fn child_dir_of(
    view: &IdentityView<'_>,
    call: &EffectiveBlock,
    name: &str,
) -> Option<String> {
    let written_source = call.body.attribute("source").and_then(|attribute| {
        let file = view.file(attribute.origin.file)?;
        Some(
            file.text(attribute.value)?
                .slice(attribute.value)
                .trim()
                .trim_matches('"')
                .to_owned(),
        )
    });
    view.child_dir(name, written_source.as_deref())
}

/// The `module-argument-values` identity rule: a constant argument converts
/// to the type of the child's variable. OpenTofu judges it in its walk,
/// once the call expanded: not when the `references` rule reports its
/// `count`, `for_each` or `depends_on`.
pub(crate) fn argument_values(view: &IdentityView<'_>, out: &mut Vec<Diagnostic>) {
    let Some(effective) = view.effective() else {
        return;
    };
    let BlockAddress::Module(name) = &effective.address else {
        return;
    };
    let Some(child) = view.child(name) else {
        return;
    };
    if child.incomplete || validate::call_expansion_fails(view) {
        return;
    }
    let source = child_dir_of(view, effective, name);
    // A name in the child's directory, named from this one.
    let in_child = |name: &str| match source.as_deref() {
        Some(dir) if dir != "." => format!("{dir}/{name}"),
        _ => name.to_owned(),
    };
    for attribute in inputs(&effective.body) {
        let Some(variable) = child.variable(&attribute.name) else {
            continue;
        };
        let Some(file) = view.file(attribute.origin.file) else {
            continue;
        };
        let Some(written) = file.attribute_at(attribute.origin.range) else {
            continue;
        };
        let Some(text) = file.text(written.expr.range) else {
            continue;
        };
        let Ok(value) = constant_value(&written.expr, text) else {
            continue;
        };
        let Err(error) = convert_variable_value(&value, &variable.constraint) else {
            continue;
        };
        let address = format!("module.{name}.var.{}", variable.name);
        let at = Location::new(attribute.origin.file, written.expr.range);
        let declared_at = in_child(&variable.declared_at);
        let detail = if variable.ephemeral || variable.sensitive {
            let what = if variable.ephemeral {
                "ephemeral"
            } else {
                "sensitive"
            };
            let Some(place) = file.describe(written.expr.range) else {
                continue;
            };
            format!(
                "The given value is not suitable for {address}, which is {what}: {}. Invalid value defined at {place}.",
                error.message,
            )
        } else {
            format!(
                "The given value is not suitable for {address} declared at {declared_at}: {}.",
                error.message
            )
        };
        let mut diagnostic = Diagnostic::new(
            crate::codes::INVALID_VARIABLE_VALUE,
            "Invalid value for input variable",
            at,
        )
        .with_detail(detail);
        // OpenTofu puts the error on the variable; here it is on the
        // argument, and the variable is related where the child's
        // directory is known (a local source, or where tofu init put it).
        if let (Some(_), Some(place)) = (&source, &variable.place) {
            diagnostic = diagnostic.with_related_outside(RelatedOutside {
                path: in_child(&place.file),
                text: Arc::clone(&place.text),
                range: place.header,
                message: format!("{address} is declared here"),
            });
        }
        out.push(diagnostic);
    }
}
