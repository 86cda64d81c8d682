//! The references in an expression, for the reference rules: the one
//! walker of [`tofu_module::expr::walk`], its results in the rules' own terms (a
//! root name and the steps after it; no ranges, the rules report on whole
//! expressions).

use tofu_syntax::Expr;

use tofu_module::expr::traversal::Part;
use tofu_module::expr::walk::{self, FoundRef};

pub(super) use tofu_module::expr::walk::json_string_content;

/// One reference: a root name and the steps after it that HCL keeps in the
/// traversal (attributes and constant indexes).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Reference {
    pub root: String,
    pub steps: Vec<Step>,
}

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Step {
    Attr(String),
    Index(IndexKey),
}

pub(super) use tofu_module::expr::traversal::IndexKey;

impl Reference {
    /// The name of the attribute right after the root (`index` in `count.index`).
    pub fn first_attr(&self) -> Option<&str> {
        match self.steps.first() {
            Some(Step::Attr(name)) => Some(name),
            _ => None,
        }
    }

    fn from_found(found: FoundRef) -> Reference {
        let mut parts = found.steps.into_iter().map(|step| step.part);
        let root = match parts.next() {
            Some(Part::Name(root)) => root,
            _ => String::new(),
        };
        let steps = parts
            .map(|part| match part {
                Part::Name(name) => Step::Attr(name),
                Part::Index(key) => Step::Index(key),
            })
            .collect();
        Reference { root, steps }
    }
}

/// What an expression refers to.
#[derive(Debug, Default)]
pub(super) struct Found {
    pub references: Vec<Reference>,
    /// Full names of provider function calls, e.g. `provider::aws::arn_parse`.
    pub provider_functions: Vec<String>,
}

impl Found {
    fn from_walk(found: walk::Found) -> Found {
        Found {
            references: found
                .references
                .into_iter()
                .map(Reference::from_found)
                .collect(),
            provider_functions: found
                .provider_functions
                .into_iter()
                .map(|call| call.name)
                .collect(),
        }
    }
}

/// The references of a model expression of a file whose text is `text`.
pub(super) fn in_expr(text: &str, expr: &Expr, json: bool) -> Found {
    Found::from_walk(walk::references(text, expr, json))
}

/// The references of native expression source text (surrounding whitespace
/// allowed), or the parser's message when it does not parse.
pub(super) fn in_native_source(source: &str) -> Result<Found, String> {
    let parsed = tofu_module::expr::content::parse_expression(source.trim())
        .map_err(|error| error.detail)?;
    Ok(Found::from_walk(walk::references(
        &parsed.text,
        &parsed.expr,
        false,
    )))
}
