//! Evaluating one attribute's expression as `tofu validate` does, for the
//! rules that report what evaluation finds (`evaluation`: local values,
//! outputs, module arguments; `provider_schema`: the arguments a provider's
//! schema declares in a resource body): every reference but `path.module`
//! and `path.root` (`.`) an unknown value of any type, files read through
//! the `ModuleFiles` the caller gave the analysis, each error as a
//! diagnostic of its family (`unknown-function`, `invalid-function-call`,
//! `invalid-expression-value`). Expressions written in JSON files are not
//! evaluated (their ranges are the string's).

use tofu_eval::{evaluate, Environment, EvalDiagnostic, Reference, Referenced, Scope};
use tofu_syntax::{Code, Diagnostic, FileId, Location, TextRange, TraversalStep};

use crate::effective::EffectiveAttribute;
use crate::rules::views::IdentityFile;
use crate::rules::IdentityView;

/// Reports what evaluating one attribute's value finds.
pub(crate) fn evaluate_attribute(
    view: &IdentityView<'_>,
    attribute: &EffectiveAttribute,
    out: &mut Vec<Diagnostic>,
) {
    let file_id = attribute.origin.file;
    let Some((file, expr)) = view.native_expr(attribute) else {
        return;
    };
    let scope = UnknownReferences {
        file: &file,
        module_files: view.module_files(),
    };
    let evaluation = evaluate(expr, &scope);
    out.extend(
        evaluation
            .diagnostics
            .into_iter()
            .map(|found| diagnostic(file_id, found)),
    );
}

/// One evaluation error as a diagnostic of its family.
fn diagnostic(file: FileId, found: EvalDiagnostic) -> Diagnostic {
    let code = match found.summary.as_str() {
        "Call to unknown function" | "Unknown function namespace" => Code::UnknownFunction,
        "Not enough function arguments"
        | "Too many function arguments"
        | "Invalid function argument"
        | "Error in function call" => Code::InvalidFunctionCall,
        _ => Code::InvalidExpressionValue,
    };
    Diagnostic::new(code, found.summary, Location::new(file, found.subject))
        .with_detail(found.detail)
}

/// Every reference is an unknown value of any type but `path.module` and
/// `path.root`, which validate knows (`.`); files are read through what
/// the caller gave the analysis.
struct UnknownReferences<'f, 'v, 'a> {
    file: &'f IdentityFile<'v, 'a>,
    module_files: &'a dyn Environment,
}

impl Scope for UnknownReferences<'_, '_, '_> {
    fn reference(&self, reference: &Reference<'_>) -> Result<Referenced, Vec<EvalDiagnostic>> {
        let first = match reference.steps.first() {
            Some(TraversalStep::Attr { name, .. }) => Some(name.as_str()),
            _ => None,
        };
        if let ("path", Some("module" | "root")) = (reference.root, first) {
            return Ok(Referenced {
                value: tofu_eval::Value::string("."),
                n_steps: 1,
            });
        }
        Ok(Referenced {
            value: tofu_eval::Value::dynamic_unknown(),
            n_steps: reference.steps.len(),
        })
    }

    fn environment(&self) -> &dyn Environment {
        self.module_files
    }

    fn describe_range(&self, range: TextRange) -> String {
        self.file.describe(range).unwrap_or_default()
    }
}
