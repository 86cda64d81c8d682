//! A provider configuration's `for_each`, which OpenTofu evaluates while it
//! loads the module (`Provider.decodeStaticFields`, static evaluation with
//! `EvaluateForEachExpression`): `invalid-provider-for-each`.
//!
//! Reported, in OpenTofu's words: references to what is unknown while
//! loading (resources, module outputs, `each`, `count`, provider functions,
//! non-`const` variables, `terraform.applying`; the kinds of references
//! `module_calls::static_eval` judges for module sources, here with the
//! subject `provider.NAME.ALIAS.for_each`), and a value that is certainly no
//! map or set of strings: a literal `null`, string, number or bool, or a
//! tuple constructor, directly or through local values. Deliberately left
//! out: anything that depends on a variable's value (a root module's
//! variable without default makes `tofu init` ask for it, "Unable to
//! compute static value"), sets of other types and sensitive values, which
//! need an evaluation. An `alias` missing beside `for_each` is
//! `invalid-provider-alias` (`rules::providers`).

use tofu_syntax::{Diagnostic, Location};

use crate::rules::module_calls::static_eval::{StaticScope, StaticValue};
use crate::rules::views::ModuleView;
use tofu_module::address::BlockAddress;

/// The `provider-for-each` module rule.
pub(crate) fn check(view: &ModuleView<'_>, out: &mut Vec<Diagnostic>) {
    let mut scope = StaticScope::new(view);
    let providers =
        view.effective_blocks(|address| matches!(address, BlockAddress::Provider { .. }));
    for block in providers {
        let BlockAddress::Provider { name, alias } = &block.address else {
            continue;
        };
        let Some(written) = block
            .body
            .attribute("for_each")
            .and_then(|attribute| scope.written(attribute.origin))
        else {
            continue;
        };
        let subject = format!(
            "provider.{name}.{}.for_each",
            alias.as_deref().unwrap_or_default()
        );
        let problems = scope.problems(written, &subject, crate::codes::INVALID_PROVIDER_FOR_EACH);
        if !problems.is_empty() {
            // A `for_each` may name the same reference twice; one report
            // is enough.
            for problem in problems {
                if !out.contains(&problem) {
                    out.push(problem);
                }
            }
            continue;
        }
        let detail = match scope.value(written) {
            StaticValue::Null => {
                "The given \"for_each\" argument value is unsuitable: the given \"for_each\" argument value is null.".to_owned()
            }
            StaticValue::String(_) => unsuitable("string"),
            StaticValue::Number(_) => unsuitable("number"),
            StaticValue::Bool(_) => unsuitable("bool"),
            StaticValue::Collection("tuple") => unsuitable("tuple"),
            StaticValue::Collection(_) | StaticValue::Unknown => continue,
        };
        out.push(
            Diagnostic::new(
                crate::codes::INVALID_PROVIDER_FOR_EACH,
                "Invalid for_each argument",
                Location::new(written.file, written.expr.range),
            )
            .with_detail(detail),
        );
    }
}

/// OpenTofu's detail for a `for_each` value of a type it does not take.
fn unsuitable(type_name: &str) -> String {
    format!("The given \"for_each\" argument value is unsuitable: the \"for_each\" argument must be a map, or set of strings, and you have provided a value of type {type_name}.")
}
