//! Which value `tofu plan`, run in a module directory, gives each input
//! variable: the one place `plan-values`, the `values` rule, hover and the
//! console learn it from.
//!
//! OpenTofu's precedence, lowest first (`collectVariableValues`): a
//! `TF_VAR_NAME` environment variable, `terraform.tfvars`,
//! `terraform.tfvars.json`, the `*.auto.tfvars(.json)` files by name, then
//! every `-var-file` and `-var` in command-line order; a later assignment
//! of a name replaces an earlier one. The variable's default applies only
//! when nothing assigns it.
//!
//! What the user chooses ([`GivenValues`]) is part of the analysis's
//! [`crate::Config`]: a `-var-file` names a values file among the
//! directory's inputs (the caller adds one from elsewhere as an input named
//! by its path relative to the directory, `../common.tfvars`); a `-var` or
//! `TF_VAR_` value is raw text, read as OpenTofu reads it by the variable's
//! type ([`parse_raw_value`]).

use std::collections::BTreeMap;

use tofu_eval::{TypeConstraint, Value};
use tofu_syntax::{Attribute, FileId};

use crate::discovery::{auto_values_order, is_auto_values_file};
use crate::loaded::{FileRole, ModuleFile};
use crate::types::constant_value;

/// The values a user names for a module directory run as the root module
/// (`tofu plan -var-file … -var …`, `TF_VAR_*`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GivenValues {
    /// `TF_VAR_NAME=VALUE` of the environment, as (NAME, VALUE).
    pub environment: Vec<(String, String)>,
    /// `-var-file` and `-var`, in command-line order.
    pub given: Vec<GivenValue>,
}

/// One `-var-file` or `-var`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GivenValue {
    /// A values file, by its name among the directory's inputs.
    File(String),
    /// `-var NAME=VALUE`.
    Var { name: String, value: String },
}

impl GivenValues {
    /// True when the user named nothing.
    pub fn is_empty(&self) -> bool {
        self.environment.is_empty() && self.given.is_empty()
    }

    /// The values files named, in order.
    pub fn files(&self) -> impl Iterator<Item = &str> {
        self.given.iter().filter_map(|given| match given {
            GivenValue::File(name) => Some(name.as_str()),
            GivenValue::Var { .. } => None,
        })
    }
}

/// Where a raw value came from: OpenTofu names it in its messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawSource {
    CommandLine,
    Environment,
}

impl RawSource {
    /// How OpenTofu's messages say where the value of `name` was set
    /// (`nonFileSource`).
    pub fn described(self, name: &str) -> String {
        match self {
            RawSource::CommandLine => format!("set using -var=\"{name}=...\""),
            RawSource::Environment => format!("set using the TF_VAR_{name} environment variable"),
        }
    }
}

/// One assignment of a value to a variable.
#[derive(Clone, Copy, Debug)]
pub enum Assignment<'a> {
    /// `NAME = VALUE` in a values file: the file, the attribute's index in
    /// its body, and the attribute.
    File {
        file: FileId,
        index: usize,
        attribute: &'a Attribute,
    },
    /// `-var NAME=VALUE` or `TF_VAR_NAME`: the text as given.
    Raw { text: &'a str, source: RawSource },
}

/// The files of a module, by id, as assignments are looked up in them.
pub type Files<'a> = [(FileId, &'a ModuleFile)];

/// The values files `tofu plan` reads by itself, in its order: those of the
/// directory itself (not one a caller added from elsewhere).
pub fn automatic_files<'a>(files: &Files<'a>) -> Vec<(FileId, &'a ModuleFile)> {
    let mut auto: Vec<(FileId, &'a ModuleFile)> = files
        .iter()
        .filter(|(_, file)| {
            file.role == FileRole::Values
                && !file.name.contains('/')
                && is_auto_values_file(&file.name)
        })
        .copied()
        .collect();
    auto.sort_by(|a, b| auto_values_order(&a.1.name).cmp(&auto_values_order(&b.1.name)));
    auto
}

/// Every assignment plan reads, in precedence order (a later one of a name
/// replaces an earlier one): the environment's, the automatic files', then
/// the named files' and `-var`s in order. A named file that is not among
/// the inputs gives nothing.
pub fn all_assignments<'a>(
    files: &Files<'a>,
    given: &'a GivenValues,
) -> Vec<(&'a str, Assignment<'a>)> {
    let mut all = Vec::new();
    for (name, text) in &given.environment {
        all.push((
            name.as_str(),
            Assignment::Raw {
                text,
                source: RawSource::Environment,
            },
        ));
    }
    let file_assignments = |file: FileId, module_file: &'a ModuleFile| {
        module_file
            .source
            .as_ref()
            .map(|source| {
                source
                    .body
                    .attributes
                    .iter()
                    .enumerate()
                    .map(move |(index, attribute)| {
                        (
                            attribute.name.as_str(),
                            Assignment::File {
                                file,
                                index,
                                attribute,
                            },
                        )
                    })
            })
            .into_iter()
            .flatten()
    };
    for (file, module_file) in automatic_files(files) {
        all.extend(file_assignments(file, module_file));
    }
    for chosen in &given.given {
        match chosen {
            GivenValue::File(name) => {
                let found = files
                    .iter()
                    .find(|(_, file)| file.role == FileRole::Values && file.name == *name);
                if let Some(&(file, module_file)) = found {
                    all.extend(file_assignments(file, module_file));
                }
            }
            GivenValue::Var { name, value } => all.push((
                name.as_str(),
                Assignment::Raw {
                    text: value,
                    source: RawSource::CommandLine,
                },
            )),
        }
    }
    all
}

/// The assignment plan uses for each name: the last one.
pub fn assignments<'a>(
    files: &Files<'a>,
    given: &'a GivenValues,
) -> BTreeMap<&'a str, Assignment<'a>> {
    all_assignments(files, given).into_iter().collect()
}

/// `file`'s path relative to `dir` (both absolute and normalised), with
/// `/` between its parts: `..` for each part of `dir` they do not share.
pub fn relative_name(dir: &std::path::Path, file: &std::path::Path) -> String {
    let dir_parts: Vec<_> = dir.components().collect();
    let file_parts: Vec<_> = file.components().collect();
    let shared = dir_parts
        .iter()
        .zip(&file_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let mut parts: Vec<String> = Vec::new();
    parts.extend(dir_parts.iter().skip(shared).map(|_| "..".to_owned()));
    parts.extend(
        file_parts
            .iter()
            .skip(shared)
            .map(|part| part.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

/// Why a raw value could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawValueError {
    pub summary: String,
    pub detail: String,
}

/// Whether OpenTofu reads a `-var` or `TF_VAR_` value of a variable as
/// the text itself (`VariableParseLiteral`): without a `type` argument, or
/// with a primitive type; otherwise it parses the text as an expression.
pub fn reads_literally(type_written: bool, constraint: &TypeConstraint) -> bool {
    !type_written || constraint.ty.is_primitive()
}

/// A `-var` or `TF_VAR_` value as OpenTofu reads it: the text itself when
/// `literal` ([`reads_literally`]), otherwise the text parsed as one
/// native-syntax expression evaluated without variables or functions.
pub fn parse_raw_value(text: &str, literal: bool) -> Result<Value, RawValueError> {
    if literal {
        return Ok(Value::string(text));
    }
    let parsed = crate::expr::content::parse_expression(text).map_err(|error| RawValueError {
        summary: error.summary,
        detail: error.detail,
    })?;
    constant_value(&parsed.expr, parsed.text.as_str()).map_err(|errors| {
        let first = errors.into_iter().next();
        RawValueError {
            summary: first
                .as_ref()
                .map_or_else(|| "Invalid expression".to_owned(), |e| e.summary.clone()),
            detail: first.map(|e| e.detail).unwrap_or_default(),
        }
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::path::Path;
    use tofu_eval::format_value;

    #[test]
    fn raw_values_are_text_for_primitive_types_and_expressions_otherwise() {
        let shown = |text: &str, literal: bool| match parse_raw_value(text, literal) {
            Ok(value) => format_value(&value),
            Err(error) => format!("error: {}", error.summary),
        };
        assert_eq!(shown("[1, 2]", true), "\"[1, 2]\"");
        assert_eq!(shown("[1, 2]", false), "[\n  1,\n  2,\n]");
        assert_eq!(shown("{a = \"b\"}", false), "{\n  \"a\" = \"b\"\n}");
        assert_eq!(shown("[a]", false), "error: Variables not allowed");
        assert!(shown("[1,", false).starts_with("error: "));
    }

    #[test]
    fn the_parsing_mode_follows_the_declared_type() {
        let number = TypeConstraint::of(tofu_eval::Type::Number);
        let list = TypeConstraint::of(tofu_eval::Type::list(tofu_eval::Type::String));
        assert!(reads_literally(true, &number));
        assert!(!reads_literally(true, &list));
        assert!(!reads_literally(true, &TypeConstraint::any()));
        // No `type` argument: the text itself, whatever it looks like.
        assert!(reads_literally(false, &TypeConstraint::any()));
    }

    #[test]
    fn names_relative_to_the_module_directory() {
        let name = |dir: &str, file: &str| relative_name(Path::new(dir), Path::new(file));
        assert_eq!(name("/w/env", "/w/env/prod.tfvars"), "prod.tfvars");
        assert_eq!(name("/w/env", "/w/env/vars/a.tfvars"), "vars/a.tfvars");
        assert_eq!(
            name("/w/env/prod", "/w/common.tfvars"),
            "../../common.tfvars"
        );
    }
}
