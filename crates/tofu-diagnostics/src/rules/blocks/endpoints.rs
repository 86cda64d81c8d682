//! Address steps parsed as OpenTofu's `addrs` package parses them: move
//! endpoints (`moved`), remove endpoints (`removed`) and import targets
//! (`import`), with OpenTofu's messages on the offending step
//! (`diagnostics.md` §4.20).
//!
//! The input is already a list of names and constant index keys (reading an
//! expression into steps is `addresses`); nothing here knows about syntax.

use tofu_syntax::TextRange;

use tofu_module::address::ResourceMode;

/// One step of an address: a name (`module`, `aws_instance`, `web`) or a
/// constant index key.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct AddressStep {
    pub(super) kind: StepKind,
    /// The step as HCL ranges it: a name after the first with its dot, an
    /// index with its brackets.
    pub(super) range: TextRange,
}

#[derive(Clone, Debug, PartialEq)]
pub(super) enum StepKind {
    Name(String),
    Index(IndexKey),
}

#[derive(Clone, Debug, PartialEq)]
pub(super) enum IndexKey {
    String,
    /// The number as written.
    Number(String),
    /// `true`, `false` or `null`.
    Other,
}

/// What an address refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Endpoint {
    /// A module call or module instance (`module.a`, `module.a["x"].module.b`).
    Module,
    /// A resource or resource instance, possibly inside modules.
    Resource(ResourceMode),
}

/// An import target: whether it lies inside a module call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ImportTarget {
    pub(super) in_module: bool,
}

/// An address OpenTofu rejects: its message and the offending step.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct AddressError {
    pub(super) summary: &'static str,
    pub(super) detail: String,
    pub(super) range: TextRange,
}

const WHOLE_NUMBER: &str =
    "value must be a whole number, between -9223372036854775808 and 9223372036854775807";

/// `addrs.ParseMoveEndpoint`.
pub(super) fn parse_move_endpoint(steps: &[AddressStep]) -> Result<Endpoint, AddressError> {
    let (consumed, _) = module_instance_prefix(steps)?;
    let remain = steps.get(consumed..).unwrap_or_default();
    if remain.is_empty() {
        return Ok(Endpoint::Module);
    }
    resource_instance(remain, whole_range(steps)).map(Endpoint::Resource)
}

/// `addrs.ParseRemoveEndpoint`: no instance keys, managed resources only.
pub(super) fn parse_remove_endpoint(steps: &[AddressStep]) -> Result<Endpoint, AddressError> {
    let whole = whole_range(steps);
    let consumed = module_prefix(steps)?;
    let remain = steps.get(consumed..).unwrap_or_default();
    if remain.is_empty() {
        return Ok(Endpoint::Module);
    }
    let (mode, remain) = resource_mode(remain);
    resource_type_and_name(remain, mode, whole)?;
    let keys = remain.get(2..).unwrap_or_default();
    match keys {
        [] => {}
        [key] => return Err(AddressError {
            summary: "Resource instance address with keys is not allowed",
            detail: "Resource address cannot be a resource instance (e.g. \"null_resource.a[0]\"), it must be a resource instead (e.g. \"null_resource.a\").".to_owned(),
            range: key.range,
        }),
        [_, extra, ..] => return Err(extra_operators(extra.range)),
    }
    match mode {
        ResourceMode::Managed => Ok(Endpoint::Resource(mode)),
        ResourceMode::Data => Err(AddressError {
            summary: "Data source address is not allowed",
            detail: "Data sources cannot be destroyed, and therefore, 'removed' blocks are not allowed to target them. To remove data sources from the state, you should remove the data source block from the configuration.".to_owned(),
            range: whole,
        }),
        ResourceMode::Ephemeral => Err(AddressError {
            summary: "Ephemeral resource address is not allowed",
            detail: "Ephemeral resources cannot be destroyed, and therefore, 'removed' blocks are not allowed to target them. To remove ephemeral resources from the state, you should remove the ephemeral resource block from the configuration.".to_owned(),
            range: whole,
        }),
    }
}

/// `addrs.ParseAbsResourceInstance` on an import target.
pub(super) fn parse_import_target(steps: &[AddressStep]) -> Result<ImportTarget, AddressError> {
    let whole = whole_range(steps);
    let (consumed, n_modules) = module_instance_prefix(steps)?;
    let remain = steps.get(consumed..).unwrap_or_default();
    if remain.is_empty() {
        return Err(AddressError {
            summary: "Invalid address",
            detail: "A resource instance address is required here. The module path must be followed by a resource instance specification.".to_owned(),
            range: whole,
        });
    }
    resource_instance(remain, whole)?;
    Ok(ImportTarget {
        in_module: n_modules > 0,
    })
}

/// `module.A[KEY].module.B…`: how many steps it takes and how many modules.
fn module_instance_prefix(steps: &[AddressStep]) -> Result<(usize, usize), AddressError> {
    let mut consumed = 0;
    let mut n_modules = 0;
    while module_step(steps.get(consumed..).unwrap_or_default())? {
        consumed += 2;
        n_modules += 1;
        let Some(AddressStep {
            kind: StepKind::Index(key),
            range,
        }) = steps.get(consumed)
        else {
            continue;
        };
        consumed += 1;
        match key {
            IndexKey::String => {}
            IndexKey::Number(number) if is_whole_number(number) => {}
            IndexKey::Number(_) => {
                return Err(invalid_operator(
                    format!("Invalid module index: {WHOLE_NUMBER}."),
                    *range,
                ))
            }
            IndexKey::Other => {
                return Err(invalid_operator(
                    "Invalid module key: must be either a string or an integer.".to_owned(),
                    *range,
                ))
            }
        }
    }
    Ok((consumed, n_modules))
}

/// `module.A.module.B…` without instance keys: how many steps it takes.
fn module_prefix(steps: &[AddressStep]) -> Result<usize, AddressError> {
    let mut consumed = 0;
    while module_step(steps.get(consumed..).unwrap_or_default())? {
        consumed += 2;
        if let Some(AddressStep {
            kind: StepKind::Index(_),
            range,
        }) = steps.get(consumed)
        {
            return Err(AddressError {
                summary: "Module instance address with keys is not allowed",
                detail: "Module address cannot be a module instance (e.g. \"module.a[0]\"), it must be a module instead (e.g. \"module.a\").".to_owned(),
                range: *range,
            });
        }
    }
    Ok(consumed)
}

/// `addrs.getModuleName`: true when `remain` starts with `module.NAME`.
fn module_step(remain: &[AddressStep]) -> Result<bool, AddressError> {
    const PREFIX: &str = "Prefix \"module.\" must be followed by a module name.";
    let Some(first) = remain.first() else {
        return Ok(false);
    };
    let StepKind::Name(name) = &first.kind else {
        return Err(invalid_operator(
            "Module address prefix must be followed by dot and then a name.".to_owned(),
            first.range,
        ));
    };
    if name != "module" {
        return Ok(false);
    }
    match remain.get(1) {
        None => Err(invalid_operator(PREFIX.to_owned(), first.range)),
        Some(AddressStep {
            kind: StepKind::Name(_),
            ..
        }) => Ok(true),
        Some(other) => Err(invalid_operator(PREFIX.to_owned(), other.range)),
    }
}

/// `[data.|ephemeral.]TYPE.NAME[KEY]` after the module path.
fn resource_instance(
    remain: &[AddressStep],
    whole: TextRange,
) -> Result<ResourceMode, AddressError> {
    let (mode, remain) = resource_mode(remain);
    resource_type_and_name(remain, mode, whole)?;
    match remain.get(2..).unwrap_or_default() {
        [] => Ok(mode),
        [key] => match &key.kind {
            StepKind::Index(IndexKey::String) => Ok(mode),
            StepKind::Index(IndexKey::Number(number)) if is_whole_number(number) => Ok(mode),
            StepKind::Index(IndexKey::Number(_)) => Err(invalid_address(
                format!("Invalid resource instance key: {WHOLE_NUMBER}."),
                key.range,
            )),
            StepKind::Index(IndexKey::Other) => Err(invalid_address(
                "Invalid resource instance key: either a string or an integer is required."
                    .to_owned(),
                key.range,
            )),
            StepKind::Name(_) => Err(invalid_address(
                "Resource instance key must be given in square brackets.".to_owned(),
                key.range,
            )),
        },
        [_, extra, ..] => Err(extra_operators(extra.range)),
    }
}

fn resource_mode(remain: &[AddressStep]) -> (ResourceMode, &[AddressStep]) {
    let mode = match remain.first().map(|step| &step.kind) {
        Some(StepKind::Name(name)) if name == "data" => ResourceMode::Data,
        Some(StepKind::Name(name)) if name == "ephemeral" => ResourceMode::Ephemeral,
        _ => return (ResourceMode::Managed, remain),
    };
    (mode, remain.get(1..).unwrap_or_default())
}

/// `addrs.parseResourceTypeAndName`.
fn resource_type_and_name(
    remain: &[AddressStep],
    mode: ResourceMode,
    whole: TextRange,
) -> Result<(), AddressError> {
    let [type_step, name_step, ..] = remain else {
        let range = match (remain.first(), remain.last()) {
            (Some(first), Some(last)) => first.range.cover(last.range),
            _ => whole,
        };
        return Err(invalid_address(
            "Resource specification must include a resource type and name.".to_owned(),
            range,
        ));
    };
    if !matches!(type_step.kind, StepKind::Name(_)) {
        let detail = match mode {
            ResourceMode::Managed => "A resource type name is required.",
            ResourceMode::Data => "A data source name is required.",
            ResourceMode::Ephemeral => "An ephemeral resource name is required.",
        };
        return Err(invalid_address(detail.to_owned(), type_step.range));
    }
    if !matches!(name_step.kind, StepKind::Name(_)) {
        return Err(invalid_address(
            "A resource name is required.".to_owned(),
            name_step.range,
        ));
    }
    Ok(())
}

fn whole_range(steps: &[AddressStep]) -> TextRange {
    match (steps.first(), steps.last()) {
        (Some(first), Some(last)) => first.range.cover(last.range),
        _ => TextRange::empty(0),
    }
}

fn invalid_address(detail: String, range: TextRange) -> AddressError {
    AddressError {
        summary: "Invalid address",
        detail,
        range,
    }
}

fn invalid_operator(detail: String, range: TextRange) -> AddressError {
    AddressError {
        summary: "Invalid address operator",
        detail,
        range,
    }
}

fn extra_operators(range: TextRange) -> AddressError {
    invalid_address(
        "Unexpected extra operators after address.".to_owned(),
        range,
    )
}

/// An instance key must fit a 64-bit integer exactly (`gocty` into `int`).
fn is_whole_number(number: &str) -> bool {
    if number.parse::<i64>().is_ok() {
        return true;
    }
    // 2^63: the first float that no longer fits.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    number
        .parse::<f64>()
        .is_ok_and(|value| value.fract() == 0.0 && (-LIMIT..LIMIT).contains(&value))
}

#[cfg(test)]
mod tests;
