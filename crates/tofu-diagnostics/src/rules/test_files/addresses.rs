//! Addresses in test files, read as OpenTofu reads them: the static
//! traversal of an expression (`hcl.AbsTraversalForExpr`, and the quoted
//! traversals `decodeDependsOn` accepts), a resource of an `override_*`
//! block (`addrs.ParseConfigResource`), a module of an `override_module`
//! block (`addrs.ParseModule`), and a reference of `expect_failures`
//! (`addrs.ParseRefFromTestingScope`). Each gives OpenTofu's address
//! string (the key of its duplicate checks) or its error, word for word.

use tofu_syntax::{Expr, ExprKind, TextRange, TraversalStep};

use super::in_test_file::TestFileScope;
use tofu_module::expr::content::StringContent;
use tofu_module::expr::parse_ref::{parse_ref, RefError, Referenceable, StepRef};
use tofu_module::expr::traversal::{parse_traversal, IndexKey, ParsedStep, Part};

/// An error of an address: summary, detail and range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct AddressError {
    pub summary: &'static str,
    pub detail: &'static str,
    pub range: TextRange,
}

/// HCL's detail when an expression is not a static traversal.
pub(super) const STATIC_REFERENCE_DETAIL: &str = "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.";

/// `hcl.AbsTraversalForExpr`: the steps of a static traversal, or HCL's
/// error (on the whole expression, or inside a JSON string).
pub(super) fn static_traversal(
    scope: &TestFileScope<'_>,
    expr: &Expr,
) -> Result<Vec<ParsedStep>, AddressError> {
    let not_static = AddressError {
        summary: "Invalid expression",
        detail: STATIC_REFERENCE_DETAIL,
        range: expr.range,
    };
    if scope.json() {
        return string_traversal(scope, expr).unwrap_or(Err(not_static));
    }
    native_traversal(scope, expr).ok_or(not_static)
}

/// The traversal an element of a reference list spells: a native traversal,
/// or the content of a quoted string (`decodeDependsOn` accepts both, the
/// second with a deprecation warning reported while decoding). `None` when
/// it spells none (decoding reported why).
pub(super) fn list_element_traversal(
    scope: &TestFileScope<'_>,
    expr: &Expr,
) -> Option<Vec<ParsedStep>> {
    match native_traversal(scope, expr) {
        Some(steps) if !scope.json() => Some(steps),
        _ => string_traversal(scope, expr)?.ok(),
    }
}

fn native_traversal(scope: &TestFileScope<'_>, expr: &Expr) -> Option<Vec<ParsedStep>> {
    let ExprKind::Traversal(traversal) = &expr.kind else {
        return None;
    };
    if expr.range.slice(scope.text()).starts_with('(') {
        return None;
    }
    let mut steps = vec![ParsedStep {
        part: Part::Name(traversal.root.clone()),
        range: traversal.root_range,
    }];
    for step in &traversal.steps {
        let parsed = match step {
            TraversalStep::Attr { name, range } => ParsedStep {
                part: Part::Name(name.clone()),
                range: *range,
            },
            TraversalStep::Index { key, range } => {
                let key = match &key.kind {
                    ExprKind::Number(number) => IndexKey::Number(number.clone()),
                    ExprKind::String(text) => IndexKey::String(text.clone()),
                    _ => return None,
                };
                ParsedStep {
                    part: Part::Index(key),
                    range: *range,
                }
            }
            TraversalStep::Splat { .. } => return None,
        };
        steps.push(parsed);
    }
    Some(steps)
}

/// The traversal a string spells, ranges in the file; `None` for an
/// expression that is no string.
fn string_traversal(
    scope: &TestFileScope<'_>,
    expr: &Expr,
) -> Option<Result<Vec<ParsedStep>, AddressError>> {
    let content = StringContent::of(scope.text(), expr)?;
    let parsed = parse_traversal(&content.value);
    if let Some(error) = parsed.error {
        return Some(Err(AddressError {
            summary: error.summary,
            detail: error.detail,
            range: content.map(error.range),
        }));
    }
    if parsed.steps.is_empty() {
        return Some(Err(AddressError {
            summary: "Invalid expression",
            detail: STATIC_REFERENCE_DETAIL,
            range: expr.range,
        }));
    }
    let steps = parsed
        .steps
        .into_iter()
        .map(|step| ParsedStep {
            range: content.map(step.range),
            ..step
        })
        .collect();
    Some(Ok(steps))
}

fn name(step: Option<&ParsedStep>) -> Option<&str> {
    match step.map(|step| &step.part) {
        Some(Part::Name(name)) => Some(name),
        _ => None,
    }
}

fn span(steps: &[ParsedStep]) -> TextRange {
    match (steps.first(), steps.last()) {
        (Some(first), Some(last)) => first.range.cover(last.range),
        _ => TextRange::default(),
    }
}

fn error(summary: &'static str, detail: &'static str, range: TextRange) -> AddressError {
    AddressError {
        summary,
        detail,
        range,
    }
}

/// `parseModulePrefix`: the module path (`module.a.module.b`) and the
/// steps after it.
fn module_prefix(steps: &[ParsedStep]) -> Result<(Vec<String>, &[ParsedStep]), AddressError> {
    let mut remain = steps;
    let mut path = Vec::new();
    while let Some(first) = remain.first() {
        let next = match &first.part {
            Part::Name(next) => next,
            Part::Index(_) => {
                return Err(error(
                    "Invalid address operator",
                    "Module address prefix must be followed by dot and then a name.",
                    first.range,
                ))
            }
        };
        if next != "module" {
            break;
        }
        let Some(module_name) = remain.get(1) else {
            return Err(error(
                "Invalid address operator",
                "Prefix \"module.\" must be followed by a module name.",
                first.range,
            ));
        };
        let Part::Name(module_name_text) = &module_name.part else {
            return Err(error(
                "Invalid address operator",
                "Prefix \"module.\" must be followed by a module name.",
                module_name.range,
            ));
        };
        remain = remain.get(2..).unwrap_or_default();
        if let Some(ParsedStep {
            part: Part::Index(_),
            range,
        }) = remain.first()
        {
            return Err(error(
                "Module instance address with keys is not allowed",
                "Module address cannot be a module instance (e.g. \"module.a[0]\"), it must be a module instead (e.g. \"module.a\").",
                *range,
            ));
        }
        path.push(module_name_text.clone());
    }
    Ok((path, remain))
}

/// `addrs.ParseConfigResource`: `[module.M.]…[data.|ephemeral.]TYPE.NAME`,
/// as OpenTofu prints it.
pub(super) fn config_resource(steps: &[ParsedStep]) -> Result<String, AddressError> {
    let (path, remain) = module_prefix(steps)?;
    if remain.is_empty() {
        return Err(error(
            "Module address is not allowed",
            "Expected reference to either resource or data block. Provided reference appears to be a module.",
            span(steps),
        ));
    }
    let (prefix, remain, name_detail) = match name(remain.first()) {
        Some("data") => (
            "data.",
            remain.get(1..).unwrap_or_default(),
            "A data source name is required.",
        ),
        Some("ephemeral") => (
            "ephemeral.",
            remain.get(1..).unwrap_or_default(),
            "An ephemeral resource name is required.",
        ),
        _ => ("", remain, "A resource type name is required."),
    };
    let (Some(type_step), Some(name_step)) = (remain.first(), remain.get(1)) else {
        return Err(error(
            "Invalid address",
            "Resource specification must include a resource type and name.",
            span(remain),
        ));
    };
    let Part::Name(type_name) = &type_step.part else {
        return Err(error("Invalid address", name_detail, type_step.range));
    };
    let Part::Name(resource_name) = &name_step.part else {
        return Err(error(
            "Invalid address",
            "A resource name is required.",
            name_step.range,
        ));
    };
    match (remain.get(2), remain.get(3)) {
        (None, _) => {}
        (Some(extra), None) => {
            return Err(error(
                "Resource instance address with keys is not allowed",
                "Resource address cannot be a resource instance (e.g. \"null_resource.a[0]\"), it must be a resource instead (e.g. \"null_resource.a\").",
                extra.range,
            ))
        }
        (Some(_), Some(second)) => {
            return Err(error(
                "Invalid address",
                "Unexpected extra operators after address.",
                second.range,
            ))
        }
    }
    let mut address: String = path
        .iter()
        .map(|module| format!("module.{module}."))
        .collect();
    address.push_str(&format!("{prefix}{type_name}.{resource_name}"));
    Ok(address)
}

/// `addrs.ParseModule`: `module.A[.module.B…]`, as OpenTofu prints it.
pub(super) fn module(steps: &[ParsedStep]) -> Result<String, AddressError> {
    let (path, remain) = module_prefix(steps)?;
    if let Some(first) = remain.first() {
        return Err(error(
            "Module address expected",
            "It's not allowed to reference anything other than module here.",
            first.range,
        ));
    }
    Ok(path
        .iter()
        .map(|module| format!("module.{module}"))
        .collect::<Vec<_>>()
        .join("."))
}

/// What an `expect_failures` element refers to.
pub(super) enum TestingReference {
    /// Something whose custom conditions can fail: an input variable, an
    /// output value, a check block, a resource or data source.
    Checkable,
    /// Anything else, as OpenTofu prints it, with the subject's range.
    Other { subject: String, range: TextRange },
}

/// `addrs.ParseRefFromTestingScope`: `output.NAME` and `check.NAME`
/// besides what `addrs.ParseRef` reads.
pub(super) fn testing_reference(steps: &[ParsedStep]) -> Result<TestingReference, RefError> {
    let Some(root) = steps.first() else {
        return Err(RefError {
            summary: "Invalid reference",
            detail: "A reference needs a name.".to_owned(),
            range: TextRange::default(),
        });
    };
    let root_name = match &root.part {
        Part::Name(name) if name == "output" || name == "check" => Some(name.as_str()),
        _ => None,
    };
    if let Some(root_name) = root_name {
        return match steps.get(1) {
            Some(ParsedStep {
                part: Part::Name(_),
                ..
            }) => Ok(TestingReference::Checkable),
            Some(step) => Err(RefError {
                summary: "Invalid reference",
                detail: format!("The \"{root_name}\" object does not support this operation."),
                range: step.range,
            }),
            None => Err(RefError {
                summary: "Invalid reference",
                detail: format!(
                    "The \"{root_name}\" object cannot be accessed directly. Instead, access one of its attributes."
                ),
                range: root.range,
            }),
        };
    }
    let step_refs: Vec<StepRef<'_>> = steps.iter().map(StepRef::from).collect();
    let reference = parse_ref(&step_refs)?;
    Ok(match reference.subject {
        Referenceable::Variable(_) | Referenceable::Resource { .. } => TestingReference::Checkable,
        subject => TestingReference::Other {
            subject: subject.to_string(),
            range: reference.range,
        },
    })
}
