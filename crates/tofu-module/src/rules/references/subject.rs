//! What a reference refers to, as OpenTofu's `addrs.ParseRef` decides it,
//! with its error messages: resources (`TYPE.NAME`, `data.…`, `ephemeral.…`,
//! `resource.…`), `count.X`, `each.X`, `self`, provider functions, and
//! everything else lumped together (variables, locals, module outputs, `path`,
//! `terraform`, `tofu`), which no caller here needs to tell apart.

use crate::address::ResourceMode;

use super::scan::{IndexKey, Reference, Step};

/// The object a valid reference refers to.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Subject {
    Resource {
        mode: ResourceMode,
        type_name: String,
        name: String,
    },
    /// `count.NAME`.
    Count(String),
    /// `each.NAME`.
    Each(String),
    /// `var.NAME`.
    Variable(String),
    SelfObject,
    ProviderFunction,
    /// `local.…`, `module.…`, `path.…`, `terraform.…`, `tofu.…`.
    Other,
}

/// Why a reference does not parse: OpenTofu's summary and detail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ReferenceError {
    pub summary: &'static str,
    pub detail: String,
}

fn invalid(detail: impl Into<String>) -> ReferenceError {
    ReferenceError {
        summary: "Invalid reference",
        detail: detail.into(),
    }
}

/// `addrs.ParseRef` on a traversal.
pub(super) fn parse_reference(reference: &Reference) -> Result<Subject, ReferenceError> {
    let root = reference.root.as_str();
    let steps = reference.steps.as_slice();
    match root {
        "count" | "each" | "local" | "path" | "terraform" | "tofu" | "var" => {
            let name = single_attribute(root, steps)?;
            Ok(match root {
                "count" => Subject::Count(name.to_owned()),
                "each" => Subject::Each(name.to_owned()),
                "var" => Subject::Variable(name.to_owned()),
                _ => Subject::Other,
            })
        }
        "module" => {
            single_attribute(root, steps)?;
            let mut rest = steps.get(1..).unwrap_or_default();
            if let Some((Step::Index(key), after)) = rest.split_first() {
                instance_key(key, "module instance")?;
                rest = after;
            }
            match rest.first() {
                None | Some(Step::Attr(_)) => Ok(Subject::Other),
                Some(Step::Index(_)) => {
                    Err(invalid("Module instance objects do not support this operation."))
                }
            }
        }
        "self" => Ok(Subject::SelfObject),
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
            if steps.len() < 2 {
                return Err(invalid(detail));
            }
            let Some(Step::Attr(type_name)) = steps.first() else {
                return Err(invalid(r#"The "data" object does not support this operation."#));
            };
            resource(mode, type_name, steps.get(1..).unwrap_or_default())
        }
        "template" | "lazy" | "arg" => Err(ReferenceError {
            summary: "Reserved symbol name",
            detail: format!("The symbol name \"{root}\" is reserved for use in a future OpenTofu version. If you are using a provider that already uses this as a resource type name, add the prefix \"resource.\" to force interpretation as a resource type name."),
        }),
        _ => resource(ResourceMode::Managed, root, steps),
    }
}

/// `addrs.ParseRef` on a provider function name (`provider::NAME::FUNC` or
/// `provider::NAME::ALIAS::FUNC`).
pub(super) fn parse_provider_function(name: &str) -> Result<Subject, ReferenceError> {
    let n_parts = name.split("::").count();
    if n_parts == 3 || n_parts == 4 {
        Ok(Subject::ProviderFunction)
    } else {
        Err(ReferenceError {
            summary: "Unable to parse provider function",
            detail: format!("invalid provider function \"{name}\": expected provider::<name>::<function> or provider::<name>::<alias>::<function>"),
        })
    }
}

/// The name after `ROOT.`, for the objects that have single attributes.
fn single_attribute<'a>(root: &str, steps: &'a [Step]) -> Result<&'a str, ReferenceError> {
    match steps.first() {
        Some(Step::Attr(name)) => Ok(name),
        Some(Step::Index(_)) => Err(invalid(format!(
            "The \"{root}\" object does not support this operation."
        ))),
        None => Err(invalid(format!(
            "The \"{root}\" object cannot be accessed directly. Instead, access one of its attributes."
        ))),
    }
}

/// `TYPE.NAME[KEY]…` once the mode is known; `steps` starts after the type.
fn resource(
    mode: ResourceMode,
    type_name: &str,
    steps: &[Step],
) -> Result<Subject, ReferenceError> {
    let Some(Step::Attr(name)) = steps.first() else {
        let what = match mode {
            ResourceMode::Data => "a data source",
            ResourceMode::Ephemeral => "an ephemeral resource",
            ResourceMode::Managed => "a resource type",
        };
        return Err(invalid(format!("A reference to {what} must be followed by at least one attribute access, specifying the resource name.")));
    };
    if let Some(Step::Index(key)) = steps.get(1) {
        instance_key(key, "resource instance")?;
    }
    Ok(Subject::Resource {
        mode,
        type_name: type_name.to_owned(),
        name: name.clone(),
    })
}

/// `addrs.ParseInstanceKey`: a string, or a number that is a whole number.
fn instance_key(key: &IndexKey, what: &str) -> Result<(), ReferenceError> {
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
    Err(ReferenceError {
        summary: "Invalid index key",
        detail: format!("Invalid index for {what}: {problem}."),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn subject(source: &str) -> Result<Subject, ReferenceError> {
        let (reference, _) = super::super::traversal::parse_traversal(source);
        reference.map_or(Err(invalid("none")), |reference| {
            parse_reference(&reference)
        })
    }

    #[test]
    fn resources_in_every_spelling() {
        let managed = Subject::Resource {
            mode: ResourceMode::Managed,
            type_name: "t".to_owned(),
            name: "n".to_owned(),
        };
        assert_eq!(subject("t.n[0].id"), Ok(managed.clone()));
        assert_eq!(subject("resource.t.n"), Ok(managed));
        assert!(matches!(
            subject("data.t.n[\"k\"]"),
            Ok(Subject::Resource {
                mode: ResourceMode::Data,
                ..
            })
        ));
        assert_eq!(
            subject("t").map_err(|e| e.summary),
            Err("Invalid reference")
        );
        assert_eq!(
            subject("t.n[1.5]").map_err(|e| e.summary),
            Err("Invalid index key")
        );
        assert_eq!(
            subject("template.x").map_err(|e| e.summary),
            Err("Reserved symbol name")
        );
    }

    #[test]
    fn single_attribute_objects() {
        assert_eq!(subject("each.value"), Ok(Subject::Each("value".to_owned())));
        assert_eq!(subject("var.x"), Ok(Subject::Variable("x".to_owned())));
        assert!(subject("each").is_err());
        assert_eq!(subject("module.m[0].out"), Ok(Subject::Other));
        assert!(subject("module.m[0][1]").is_err());
        assert_eq!(subject("self"), Ok(Subject::SelfObject));
    }
}
