//! One shape for a function as the editor shows it, whether OpenTofu
//! builds it in (`tofu_eval::functions::Signature`) or a provider's schema
//! defines it (`tofu_schema::Function`): its label
//! (`format(format string, args... dynamic) string`), the snippet that
//! calls it, hover's markdown and signature help. Completion, hover and
//! signature help (`functions.rs`) all format through it, so built-in and
//! provider functions read alike and the formatting lives in one place.
//!
//! It knows nothing of where the cursor is or which provider a name
//! stands for; `functions.rs` finds the function and hands it here.

use std::fmt::Write as _;

use tofu_eval::functions::Signature;

/// A function as the editor shows it, built-in or from a provider's
/// schema: hover, completion and signature help all format this, so the
/// two kinds read alike.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FunctionDoc {
    /// The name in the signature's label: a built-in's plain name (also
    /// for `core::upper`), a provider function's name as written.
    name: String,
    /// The fixed parameters, then the variadic one.
    parameters: Vec<ParameterDoc>,
    return_type: String,
    /// Markdown paragraphs: the description (a provider function's
    /// summary first, its deprecation last), the empty ones left out.
    paragraphs: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct ParameterDoc {
    name: String,
    ty: String,
    description: String,
    variadic: bool,
}

impl ParameterDoc {
    /// `str string`, or `args... dynamic` for the variadic parameter.
    fn label(&self) -> String {
        let dots = if self.variadic { "..." } else { "" };
        format!("{}{dots} {}", self.name, self.ty)
    }
}

impl FunctionDoc {
    pub(crate) fn builtin(signature: &Signature) -> FunctionDoc {
        let parameter =
            |parameter: &tofu_eval::functions::Parameter, variadic: bool| ParameterDoc {
                name: parameter.name.to_owned(),
                ty: parameter.ty.to_owned(),
                description: parameter.description.to_owned(),
                variadic,
            };
        let fixed = signature
            .parameters
            .iter()
            .map(|fixed| parameter(fixed, false));
        let variadic = signature
            .variadic
            .iter()
            .map(|variadic| parameter(variadic, true));
        FunctionDoc {
            name: signature.name.to_owned(),
            parameters: fixed.chain(variadic).collect(),
            return_type: signature.return_type.to_owned(),
            paragraphs: non_empty([signature.description.to_owned()]),
        }
    }

    /// Provider function `function`, called as `name`.
    pub(crate) fn provided(name: &str, function: &tofu_schema::Function) -> FunctionDoc {
        let parameter = |parameter: &tofu_schema::FunctionParameter, variadic: bool| ParameterDoc {
            name: parameter.name.to_string(),
            ty: tofu_module::types::constraint_text(&parameter.ty),
            description: parameter.description.text.to_string(),
            variadic,
        };
        let fixed = function
            .parameters
            .iter()
            .map(|fixed| parameter(fixed, false));
        let variadic = function
            .variadic_parameter
            .iter()
            .map(|variadic| parameter(variadic, true));
        let deprecation = (!function.deprecation_message.is_empty())
            .then(|| format!("**Deprecated**: {}", function.deprecation_message));
        FunctionDoc {
            name: name.to_owned(),
            parameters: fixed.chain(variadic).collect(),
            return_type: tofu_module::types::constraint_text(&function.return_type),
            paragraphs: non_empty(
                [
                    function.summary.to_string(),
                    function.description.text.to_string(),
                ]
                .into_iter()
                .chain(deprecation),
            ),
        }
    }

    /// `format(format string, args... dynamic) string`.
    pub(crate) fn label(&self) -> String {
        let parameters: Vec<String> = self.parameters.iter().map(ParameterDoc::label).collect();
        format!(
            "{}({}) {}",
            self.name,
            parameters.join(", "),
            self.return_type
        )
    }

    /// The paragraphs as one piece of markdown.
    pub(crate) fn documentation(&self) -> String {
        self.paragraphs.join("\n\n")
    }

    /// The snippet that calls the function as `called_as`: a placeholder
    /// per fixed parameter, or one for the variadic parameter when there
    /// is no other.
    pub(crate) fn snippet(&self, called_as: &str) -> String {
        let fixed: Vec<&ParameterDoc> = self
            .parameters
            .iter()
            .filter(|parameter| !parameter.variadic)
            .collect();
        let placeholders: Vec<&ParameterDoc> = if fixed.is_empty() {
            self.parameters.iter().take(1).collect()
        } else {
            fixed
        };
        let arguments: Vec<String> = placeholders
            .iter()
            .enumerate()
            .map(|(index, parameter)| format!("${{{}:{}}}", index + 1, parameter.name))
            .collect();
        format!("{called_as}({})", arguments.join(", "))
    }

    /// Hover's markdown: the signature, the paragraphs, and each
    /// parameter's description.
    pub(crate) fn hover_markdown(&self) -> String {
        let mut markdown = format!("```hcl\n{}\n```\n", self.label());
        for paragraph in &self.paragraphs {
            let _ = write!(markdown, "\n{paragraph}\n");
        }
        for parameter in &self.parameters {
            if !parameter.description.is_empty() {
                let _ = writeln!(
                    markdown,
                    "\n- `{}`: {}",
                    parameter.label(),
                    parameter.description
                );
            }
        }
        markdown
    }

    /// Signature help with the cursor after `n_commas` of the call's
    /// commas.
    pub(crate) fn signature_help(&self, n_commas: usize) -> SignatureHelp {
        let n_fixed = self
            .parameters
            .iter()
            .filter(|parameter| !parameter.variadic)
            .count();
        let has_variadic = self.parameters.len() > n_fixed;
        let active_parameter = if n_commas < n_fixed {
            Some(n_commas)
        } else {
            has_variadic.then_some(n_fixed)
        };
        SignatureHelp {
            label: self.label(),
            documentation: self.documentation(),
            parameters: self
                .parameters
                .iter()
                .map(|parameter| ParameterHelp {
                    label: parameter.label(),
                    documentation: (!parameter.description.is_empty())
                        .then(|| parameter.description.clone()),
                })
                .collect(),
            active_parameter: active_parameter.and_then(|index| u32::try_from(index).ok()),
        }
    }
}

/// The paragraphs that have text.
fn non_empty(paragraphs: impl IntoIterator<Item = String>) -> Vec<String> {
    paragraphs
        .into_iter()
        .filter(|paragraph| !paragraph.is_empty())
        .collect()
}

/// What signature help shows for the call around the cursor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureHelp {
    /// `format(format string, args... dynamic) string`.
    pub label: String,
    /// The function's description, as markdown.
    pub documentation: String,
    pub parameters: Vec<ParameterHelp>,
    /// The parameter the cursor is on; a variadic parameter stays active
    /// for every argument after the fixed ones. `None` past the last one.
    pub active_parameter: Option<u32>,
}

/// One parameter of a [`SignatureHelp`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParameterHelp {
    /// The parameter as it appears in the signature's label (`str string`).
    pub label: String,
    pub documentation: Option<String>,
}
