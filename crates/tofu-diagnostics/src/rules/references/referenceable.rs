//! What a reference found by [`super::scan`] refers to: OpenTofu's
//! `addrs.ParseRef`, through the one port in [`tofu_module::expr::parse_ref`].

use tofu_syntax::TextRange;

pub(super) use tofu_module::expr::parse_ref::{parse_provider_function, RefError, Referenceable};
use tofu_module::expr::parse_ref::{parse_ref, PartRef, StepRef};

use super::scan::{Reference, Step};

/// `addrs.ParseRef` on a reference found in an expression (its steps carry
/// no ranges: the rules report on the whole expression).
pub(super) fn parse_reference(reference: &Reference) -> Result<Referenceable, RefError> {
    let unplaced = |part| StepRef {
        part,
        range: TextRange::default(),
    };
    let steps: Vec<StepRef<'_>> = std::iter::once(unplaced(PartRef::Name(&reference.root)))
        .chain(reference.steps.iter().map(|step| {
            unplaced(match step {
                Step::Attr(name) => PartRef::Name(name),
                Step::Index(key) => PartRef::Index(key),
            })
        }))
        .collect();
    parse_ref(&steps).map(|parsed| parsed.subject)
}
