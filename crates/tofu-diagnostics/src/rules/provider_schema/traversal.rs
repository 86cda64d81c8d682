//! What a resource's schema says of the steps a reference reads from it
//! (`time_static.x.rfc3339`, `openstack_networking_port_v2.p.fixed_ip[0]
//! .subnet_id`): OpenTofu's `configschema.Block.StaticValidateTraversal`,
//! then HCL's `GetAttr` and `Index` on an unknown value of the attribute's
//! type (`hcl/ops.go`), each error in their words and on the step's range.
//!
//! The steps are those `expr::walk` keeps: a reference is cut at its first
//! splat or computed index, and what follows is evaluated on an unknown
//! value, which is never an error. Left out: a `null` key (never written in
//! a reference that names a resource).

use tofu_eval::Type;
use tofu_schema::{AttributeType, Block as SchemaBlock, Nesting};
use tofu_syntax::{Diagnostic, FileId, Location, TextRange};

use tofu_module::expr::suggest::edit_distance;
use tofu_module::expr::traversal::{IndexKey, ParsedStep, Part};
use tofu_module::names::is_identifier;
use tofu_syntax::go_text::go_quote;

/// The errors of reading `steps` from an object of `schema` (the first one
/// stops the reading, as it does in HCL).
pub(crate) fn validate_steps(
    schema: &SchemaBlock,
    steps: &[ParsedStep],
    file: FileId,
) -> Option<Diagnostic> {
    let error = |summary: &str, detail: String, range: TextRange| {
        Some(
            Diagnostic::new(
                crate::codes::INVALID_REFERENCE,
                summary,
                Location::new(file, range),
            )
            .with_detail(detail),
        )
    };
    let (next, after) = steps.split_first()?;
    let name = match &next.part {
        Part::Name(name) => name.as_str(),
        Part::Index(IndexKey::String(key)) if is_identifier(key) => {
            return error(
                "Invalid index operation",
                format!(
                    "Only attribute access is allowed here. Did you mean to access attribute {} using the dot operator?",
                    go_quote(key)
                ),
                next.range,
            );
        }
        Part::Index(_) => {
            return error(
                "Invalid index operation",
                "Only attribute access is allowed here, using the dot operator.".to_owned(),
                next.range,
            );
        }
    };
    if let Some(attribute) = schema.attributes.get(name) {
        let ty = match &attribute.ty {
            AttributeType::Type(ty) => ValueType::Schema(ty),
            AttributeType::Nested(nested) => ValueType::Nested(nested),
        };
        return traverse_unknown(ty, after, file);
    }
    if let Some(nested) = schema.block_types.get(name) {
        return nested_block_steps(name, nested, after, file);
    }
    let names: Vec<&str> = schema
        .attributes
        .names()
        .chain(schema.block_types.names())
        .collect();
    let mut sorted = names;
    sorted.sort_unstable();
    // OpenTofu sorts the names and takes the first one close enough.
    let suggestion = sorted
        .into_iter()
        .find(|candidate| edit_distance(name, candidate) < 3)
        .map(|found| format!(" Did you mean {}?", go_quote(found)))
        .unwrap_or_default();
    error(
        "Unsupported attribute",
        format!(
            "This object has no argument, nested block, or exported attribute named {}.{suggestion}",
            go_quote(name)
        ),
        next.range,
    )
}

/// `NestedBlock.staticValidateTraversal`.
fn nested_block_steps(
    name: &str,
    nested: &tofu_schema::NestedBlock,
    steps: &[ParsedStep],
    file: FileId,
) -> Option<Diagnostic> {
    if matches!(nested.nesting, Nesting::Single | Nesting::Group) {
        return validate_steps(&nested.block, steps, file);
    }
    let (next, after) = steps.split_first()?;
    let at = Location::new(file, next.range);
    match nested.nesting {
        Nesting::Set => Some(
            Diagnostic::new(crate::codes::INVALID_REFERENCE, "Cannot index a set value", at).with_detail(format!(
                "Block type {} is represented by a set of objects, and set elements do not have addressable keys. To find elements matching specific criteria, use a \"for\" expression with an \"if\" clause.",
                go_quote(name)
            )),
        ),
        Nesting::List => match next.part {
            Part::Index(_) => validate_steps(&nested.block, after, file),
            Part::Name(_) => Some(
                Diagnostic::new(crate::codes::INVALID_REFERENCE, "Invalid operation", at).with_detail(format!(
                    "Block type {} is represented by a list of objects, so it must be indexed using a numeric key, like .{name}[0].",
                    go_quote(name)
                )),
            ),
        },
        Nesting::Map => validate_steps(&nested.block, after, file),
        Nesting::Single | Nesting::Group | Nesting::Invalid => None,
    }
}

/// The type of an unknown value being read.
#[derive(Clone, Copy)]
enum ValueType<'s> {
    Schema(&'s Type),
    /// Nested attributes (protocol 6): an object, or a collection of them.
    Nested(&'s tofu_schema::NestedAttributes),
    /// One object of nested attributes.
    NestedObject(&'s tofu_schema::NestedAttributes),
}

/// HCL's traversal of an unknown value of type `ty`: the first error.
fn traverse_unknown(ty: ValueType<'_>, steps: &[ParsedStep], file: FileId) -> Option<Diagnostic> {
    let mut ty = ty;
    for step in steps {
        let at = Location::new(file, step.range);
        let next = match &step.part {
            Part::Name(name) => get_attr(ty, name),
            Part::Index(key) => index(ty, key),
        };
        match next {
            Step::Value(next) => ty = next,
            Step::Dynamic => return None,
            Step::Error(summary, detail) => {
                return Some(
                    Diagnostic::new(crate::codes::INVALID_REFERENCE, summary, at)
                        .with_detail(detail),
                )
            }
        }
    }
    None
}

/// What one step of a traversal gives.
enum Step<'s> {
    Value(ValueType<'s>),
    /// A value of no known type: nothing after it is an error.
    Dynamic,
    Error(&'static str, String),
}

const UNSUPPORTED_ATTRIBUTE: &str = "Unsupported attribute";
const INVALID_INDEX: &str = "Invalid index";

/// What a value's type is, for `GetAttr` and `Index`.
enum Shape<'s> {
    Primitive(&'static str),
    Dynamic,
    /// Attribute names and the type of each.
    Object(Vec<(&'s str, ValueType<'s>)>),
    List(ValueType<'s>),
    Set(ValueType<'s>),
    Map(ValueType<'s>),
    /// A tuple: its elements are of no type known here.
    Tuple,
}

fn shape(ty: ValueType<'_>) -> Shape<'_> {
    match ty {
        ValueType::Schema(schema_type) => match schema_type {
            Type::String => Shape::Primitive("string"),
            Type::Number => Shape::Primitive("number"),
            Type::Bool => Shape::Primitive("bool"),
            Type::Dynamic => Shape::Dynamic,
            Type::List(element) => Shape::List(ValueType::Schema(element)),
            Type::Set(element) => Shape::Set(ValueType::Schema(element)),
            Type::Map(element) => Shape::Map(ValueType::Schema(element)),
            Type::Tuple(_) => Shape::Tuple,
            Type::Object(object) => Shape::Object(
                object
                    .attributes()
                    .iter()
                    .map(|(name, ty)| (name.as_ref(), ValueType::Schema(ty)))
                    .collect(),
            ),
        },
        ValueType::Nested(nested) => match nested.nesting {
            Nesting::List => Shape::List(ValueType::NestedObject(nested)),
            Nesting::Set => Shape::Set(ValueType::NestedObject(nested)),
            Nesting::Map => Shape::Map(ValueType::NestedObject(nested)),
            Nesting::Single | Nesting::Group | Nesting::Invalid => {
                shape(ValueType::NestedObject(nested))
            }
        },
        ValueType::NestedObject(nested) => Shape::Object(
            nested
                .attributes
                .iter()
                .map(|(name, attribute)| {
                    let ty = match &attribute.ty {
                        AttributeType::Type(ty) => ValueType::Schema(ty),
                        AttributeType::Nested(inner) => ValueType::Nested(inner),
                    };
                    (name, ty)
                })
                .collect(),
        ),
    }
}

fn is_object(ty: ValueType<'_>) -> bool {
    matches!(shape(ty), Shape::Object(_))
}

fn get_attr<'s>(ty: ValueType<'s>, name: &str) -> Step<'s> {
    match shape(ty) {
        Shape::Object(attributes) => match attributes.iter().find(|(attr, _)| *attr == name) {
            Some((_, ty)) => Step::Value(*ty),
            None => Step::Error(
                UNSUPPORTED_ATTRIBUTE,
                format!("This object does not have an attribute named {}.", go_quote(name)),
            ),
        },
        Shape::Map(element) => Step::Value(element),
        Shape::Dynamic => Step::Dynamic,
        Shape::List(element) if is_object(element) => {
            let has = matches!(shape(element), Shape::Object(attributes) if attributes.iter().any(|(attr, _)| *attr == name));
            Step::Error(
                UNSUPPORTED_ATTRIBUTE,
                if has {
                    format!("Can't access attributes on a list of objects. Did you mean to access attribute {} for a specific element of the list, or across all elements of the list?", go_quote(name))
                } else {
                    "Can't access attributes on a list of objects. Did you mean to access an attribute for a specific element of the list, or across all elements of the list?".to_owned()
                },
            )
        }
        Shape::Set(element) if is_object(element) => Step::Error(
            UNSUPPORTED_ATTRIBUTE,
            "Can't access attributes on a set of objects. Did you mean to access an attribute across all elements of the set?".to_owned(),
        ),
        Shape::Primitive(name) => Step::Error(
            UNSUPPORTED_ATTRIBUTE,
            format!("Can't access attributes on a primitive-typed value ({name})."),
        ),
        Shape::List(_) | Shape::Set(_) | Shape::Tuple => Step::Error(
            UNSUPPORTED_ATTRIBUTE,
            "This value does not have any attributes.".to_owned(),
        ),
    }
}

fn index<'s>(ty: ValueType<'s>, key: &IndexKey) -> Step<'s> {
    let numeric = match key {
        IndexKey::Number(_) => true,
        IndexKey::String(text) => text.trim().parse::<f64>().is_ok(),
        IndexKey::Other => return Step::Dynamic,
    };
    match shape(ty) {
        Shape::Dynamic => Step::Dynamic,
        Shape::List(element) if numeric => Step::Value(element),
        Shape::Tuple if numeric => Step::Dynamic,
        Shape::List(_) | Shape::Tuple => Step::Error(
            INVALID_INDEX,
            "The given key does not identify an element in this collection value: a number is required.".to_owned(),
        ),
        Shape::Map(element) => Step::Value(element),
        // An unknown object indexed by a string is of no known type.
        Shape::Object(_) => Step::Dynamic,
        Shape::Set(_) => Step::Error(
            INVALID_INDEX,
            "Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set.".to_owned(),
        ),
        Shape::Primitive(_) => Step::Error(
            INVALID_INDEX,
            "This value does not have any indices.".to_owned(),
        ),
    }
}
