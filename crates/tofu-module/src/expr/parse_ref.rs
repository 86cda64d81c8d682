//! OpenTofu's `addrs.ParseRef`: what a reference (a traversal already cut
//! to its static steps) refers to, the range OpenTofu reports for it, and
//! its errors word for word. One port for every rule: the reference checks
//! of `depends_on` and conditions, and the static evaluation of module
//! sources.

use std::fmt;

use tofu_syntax::TextRange;

use super::traversal::{IndexKey, ParsedStep, Part};
use crate::address::ResourceMode;
use tofu_syntax::go_text::go_quote;

/// One static step of a traversal, borrowed: the root name or an attribute,
/// or a constant index key; with its range (empty where unknown).
#[derive(Clone, Copy, Debug)]
pub struct StepRef<'a> {
    pub part: PartRef<'a>,
    pub range: TextRange,
}

#[derive(Clone, Copy, Debug)]
pub enum PartRef<'a> {
    Name(&'a str),
    Index(&'a IndexKey),
}

impl<'a> From<&'a ParsedStep> for StepRef<'a> {
    fn from(step: &'a ParsedStep) -> StepRef<'a> {
        let part = match &step.part {
            Part::Name(name) => PartRef::Name(name),
            Part::Index(key) => PartRef::Index(key),
        };
        StepRef {
            part,
            range: step.range,
        }
    }
}

/// What a reference refers to (OpenTofu's `Referenceable` kinds).
#[derive(Clone, Debug, PartialEq)]
pub enum Referenceable {
    Resource {
        mode: ResourceMode,
        type_name: String,
        name: String,
        /// The instance key, when an index follows the name.
        key: Option<IndexKey>,
    },
    ModuleCall {
        name: String,
        key: Option<IndexKey>,
        /// `module.NAME[KEY].OUTPUT`.
        output: Option<String>,
    },
    /// `count.NAME`.
    Count(String),
    /// `each.NAME`.
    Each(String),
    /// `local.NAME`.
    Local(String),
    /// `var.NAME`.
    Variable(String),
    /// `path.NAME`.
    Path(String),
    /// `terraform.NAME` or `tofu.NAME`.
    Terraform {
        root: &'static str,
        name: String,
    },
    SelfObject,
}

/// A parsed reference: its subject and the subject's range in the
/// traversal (without the attributes read from it).
#[derive(Clone, Debug, PartialEq)]
pub struct Reference {
    pub subject: Referenceable,
    pub range: TextRange,
}

/// Why OpenTofu refuses a reference: its summary, detail and range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefError {
    pub summary: &'static str,
    pub detail: String,
    pub range: TextRange,
}

fn invalid(detail: impl Into<String>, range: TextRange) -> RefError {
    RefError {
        summary: "Invalid reference",
        detail: detail.into(),
        range,
    }
}

/// `addrs.ParseRef` on a traversal whose first step is its root name.
pub fn parse_ref(steps: &[StepRef<'_>]) -> Result<Reference, RefError> {
    let Some((first, rest)) = steps.split_first() else {
        return Err(invalid("A reference needs a name.", TextRange::default()));
    };
    let PartRef::Name(root) = first.part else {
        return Err(invalid("A reference needs a name.", first.range));
    };
    let single = |make: fn(String) -> Referenceable| {
        single_attribute(root, first.range, rest).map(|(name, range)| Reference {
            subject: make(name.to_owned()),
            range,
        })
    };
    match root {
        "count" => single(Referenceable::Count),
        "each" => single(Referenceable::Each),
        "local" => single(Referenceable::Local),
        "path" => single(Referenceable::Path),
        "var" => single(Referenceable::Variable),
        "terraform" => single(|name| Referenceable::Terraform {
            root: "terraform",
            name,
        }),
        "tofu" => single(|name| Referenceable::Terraform { root: "tofu", name }),
        "self" => Ok(Reference {
            subject: Referenceable::SelfObject,
            range: first.range,
        }),
        "module" => module_call(first.range, rest),
        "data" | "ephemeral" | "resource" => {
            let (mode, detail) = match root {
                "data" => (
                    ResourceMode::Data,
                    r#"The "data" object must be followed by two attribute names: the data source type and the resource name."#,
                ),
                "ephemeral" => (
                    ResourceMode::Ephemeral,
                    r#"The "ephemeral" object must be followed by two attribute names: the ephemeral resource type and its name."#,
                ),
                _ => (
                    ResourceMode::Managed,
                    r#"The "resource" object must be followed by two attribute names: the resource type and the resource name."#,
                ),
            };
            if rest.len() < 2 {
                let end = steps.last().map_or(first.range, |step| step.range);
                return Err(invalid(detail, first.range.cover(end)));
            }
            resource(mode, first.range, rest)
        }
        "template" | "lazy" | "arg" => Err(RefError {
            summary: "Reserved symbol name",
            detail: format!("The symbol name \"{root}\" is reserved for use in a future OpenTofu version. If you are using a provider that already uses this as a resource type name, add the prefix \"resource.\" to force interpretation as a resource type name."),
            range: first.range,
        }),
        _ => resource(ResourceMode::Managed, first.range, steps),
    }
}

/// `addrs.ParseRef` on a provider function's name (`provider::NAME::FUNC`
/// or `provider::NAME::ALIAS::FUNC`).
pub fn parse_provider_function(name: &str, range: TextRange) -> Result<(), RefError> {
    let n_parts = name.split("::").count();
    if n_parts == 3 || n_parts == 4 {
        Ok(())
    } else {
        Err(RefError {
            summary: "Unable to parse provider function",
            detail: format!("invalid provider function \"{name}\": expected provider::<name>::<function> or provider::<name>::<alias>::<function>"),
            range,
        })
    }
}

/// `parseSingleAttrRef`: the name after `ROOT.` and the range up to it.
fn single_attribute<'a>(
    root: &str,
    root_range: TextRange,
    rest: &[StepRef<'a>],
) -> Result<(&'a str, TextRange), RefError> {
    match rest.first() {
        Some(StepRef {
            part: PartRef::Name(name),
            range,
        }) => Ok((name, root_range.cover(*range))),
        Some(step) => Err(invalid(
            format!("The \"{root}\" object does not support this operation."),
            step.range,
        )),
        None => Err(invalid(
            format!("The \"{root}\" object cannot be accessed directly. Instead, access one of its attributes."),
            root_range,
        )),
    }
}

/// `parseResourceRef`: `TYPE.NAME[KEY]`; `steps` starts at the type.
fn resource(
    mode: ResourceMode,
    start: TextRange,
    steps: &[StepRef<'_>],
) -> Result<Reference, RefError> {
    let (Some(type_step), Some(name_step)) = (steps.first(), steps.get(1)) else {
        let end = steps.last().map_or(start, |step| step.range);
        return Err(invalid(
            "A reference to a resource type must be followed by at least one attribute access, specifying the resource name.",
            start.cover(end),
        ));
    };
    let PartRef::Name(type_name) = type_step.part else {
        return Err(invalid(
            r#"The "data" object does not support this operation."#,
            type_step.range,
        ));
    };
    let PartRef::Name(name) = name_step.part else {
        let what = match mode {
            ResourceMode::Data => "a data source",
            ResourceMode::Ephemeral => "an ephemeral resource",
            ResourceMode::Managed => "a resource type",
        };
        return Err(invalid(
            format!("A reference to {what} must be followed by at least one attribute access, specifying the resource name."),
            name_step.range,
        ));
    };
    let mut range = start.cover(name_step.range);
    let mut key = None;
    if let Some(StepRef {
        part: PartRef::Index(index),
        range: index_range,
    }) = steps.get(2)
    {
        instance_key(index, "resource instance", *index_range)?;
        key = Some((*index).clone());
        range = range.cover(*index_range);
    }
    Ok(Reference {
        subject: Referenceable::Resource {
            mode,
            type_name: type_name.to_owned(),
            name: name.to_owned(),
            key,
        },
        range,
    })
}

/// `parseModuleCallRef`: `module.NAME`, `module.NAME[KEY]`, with `.OUTPUT`.
fn module_call(root_range: TextRange, rest: &[StepRef<'_>]) -> Result<Reference, RefError> {
    let (name, mut range) = single_attribute("module", root_range, rest)?;
    let mut remain = rest.get(1..).unwrap_or_default();
    let mut key = None;
    if let Some((
        StepRef {
            part: PartRef::Index(index),
            range: index_range,
        },
        after,
    )) = remain.split_first()
    {
        instance_key(index, "module instance", *index_range)?;
        key = Some((*index).clone());
        range = range.cover(*index_range);
        remain = after;
    }
    let output = match remain.first() {
        None => None,
        Some(StepRef {
            part: PartRef::Name(output),
            range: output_range,
        }) => {
            range = range.cover(*output_range);
            Some((*output).to_owned())
        }
        Some(step) => {
            return Err(invalid(
                "Module instance objects do not support this operation.",
                step.range,
            ))
        }
    };
    Ok(Reference {
        subject: Referenceable::ModuleCall {
            name: name.to_owned(),
            key,
            output,
        },
        range,
    })
}

/// `addrs.ParseInstanceKey`: a string, or a number that is a whole number.
fn instance_key(key: &IndexKey, what: &str, range: TextRange) -> Result<(), RefError> {
    let problem = match key {
        IndexKey::String(_) => return Ok(()),
        IndexKey::Number(number) => {
            let whole = number.parse::<f64>().is_ok_and(|value| {
                value.fract() == 0.0 && value >= i64::MIN as f64 && value <= i64::MAX as f64
            });
            if whole {
                return Ok(());
            }
            "value must be a whole number, between -9223372036854775808 and 9223372036854775807"
        }
        IndexKey::Other => "either a string or an integer is required",
    };
    Err(RefError {
        summary: "Invalid index key",
        detail: format!("Invalid index for {what}: {problem}."),
        range,
    })
}

/// An instance key as OpenTofu prints it: `[0]`, `["a"]`.
struct Key<'a>(&'a Option<IndexKey>);

impl fmt::Display for Key<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            None => Ok(()),
            Some(IndexKey::Number(number)) => write!(f, "[{number}]"),
            Some(IndexKey::String(text)) => write!(f, "[{}]", go_quote(text)),
            Some(IndexKey::Other) => write!(f, "[?]"),
        }
    }
}

/// OpenTofu's `String()` of the subject, as its messages print it.
impl fmt::Display for Referenceable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Referenceable::Resource {
                mode,
                type_name,
                name,
                key,
            } => {
                let prefix = match mode {
                    ResourceMode::Managed => "",
                    ResourceMode::Data => "data.",
                    ResourceMode::Ephemeral => "ephemeral.",
                };
                write!(f, "{prefix}{type_name}.{name}{}", Key(key))
            }
            Referenceable::ModuleCall { name, key, output } => {
                write!(f, "module.{name}{}", Key(key))?;
                match output {
                    Some(output) => write!(f, ".{output}"),
                    None => Ok(()),
                }
            }
            Referenceable::Count(name) => write!(f, "count.{name}"),
            Referenceable::Each(name) => write!(f, "each.{name}"),
            Referenceable::Local(name) => write!(f, "local.{name}"),
            Referenceable::Variable(name) => write!(f, "var.{name}"),
            Referenceable::Path(name) => write!(f, "path.{name}"),
            Referenceable::Terraform { root, name } => write!(f, "{root}.{name}"),
            Referenceable::SelfObject => write!(f, "self"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::traversal::parse_traversal;

    fn parsed(source: &str) -> Result<Reference, RefError> {
        let traversal = parse_traversal(source);
        let steps: Vec<StepRef<'_>> = traversal.steps.iter().map(StepRef::from).collect();
        parse_ref(&steps)
    }

    fn shown(source: &str) -> Result<(String, &str), &'static str> {
        parsed(source)
            .map(|reference| {
                let range = reference.range;
                (reference.subject.to_string(), range.slice(source))
            })
            .map_err(|error| error.summary)
    }

    #[test]
    fn subjects_and_ranges_as_opentofu_prints_them() {
        assert_eq!(shown("t.n[0].id"), Ok(("t.n[0]".to_owned(), "t.n[0]")));
        assert_eq!(
            shown("resource.t.n"),
            Ok(("t.n".to_owned(), "resource.t.n"))
        );
        assert_eq!(
            shown("data.t.n[\"k\"].x"),
            Ok(("data.t.n[\"k\"]".to_owned(), "data.t.n[\"k\"]"))
        );
        assert_eq!(
            shown("module.m[0].out.x"),
            Ok(("module.m[0].out".to_owned(), "module.m[0].out"))
        );
        assert_eq!(shown("var.x.y"), Ok(("var.x".to_owned(), "var.x")));
        assert_eq!(
            shown("each.value"),
            Ok(("each.value".to_owned(), "each.value"))
        );
        assert_eq!(
            shown("tofu.workspace"),
            Ok(("tofu.workspace".to_owned(), "tofu.workspace"))
        );
        assert_eq!(shown("self.id"), Ok(("self".to_owned(), "self")));
    }

    #[test]
    fn errors_in_opentofu_words() {
        assert_eq!(shown("t"), Err("Invalid reference"));
        assert_eq!(shown("t.n[1.5]"), Err("Invalid index key"));
        assert_eq!(shown("template.x"), Err("Reserved symbol name"));
        assert_eq!(shown("each"), Err("Invalid reference"));
        assert_eq!(shown("module.m[0][1]"), Err("Invalid reference"));
        assert_eq!(shown("data.t"), Err("Invalid reference"));
        let error = parsed("var[0]").err().map(|error| error.detail);
        assert_eq!(
            error.as_deref(),
            Some("The \"var\" object does not support this operation.")
        );
        assert!(parse_provider_function("provider::aws::f", TextRange::default()).is_ok());
        assert!(parse_provider_function("provider::f", TextRange::default()).is_err());
    }
}
