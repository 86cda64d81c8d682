//! OpenTofu's built-in functions where people type them: their names in
//! completion where an expression may stand (a snippet with the
//! parameters, `core::` names too), hover on a function name (signature and
//! description), and signature help inside a call's parentheses with the
//! parameter the cursor is on.
//!
//! Everything here reads the file's text, not the syntax model: while a
//! call is being typed (`upper(`) the file does not parse. Comments, string
//! literals and heredoc text come from the forgiving lexer, so nothing is
//! offered or found inside them. The signatures are OpenTofu's metadata as
//! `tofu-eval` keeps it. A provider function (`provider::NAME::FN`) gets a
//! hover from its provider's schema (its signature, summary, description
//! and parameters' descriptions) when the analysis was given one; it is
//! not offered in completion nor in signature help yet. JSON files get
//! nothing: their expressions live inside strings.

use std::fmt::Write as _;
use std::path::Path;

use tofu_eval::functions::{Parameter, Signature, SIGNATURES};
use tofu_module::ModuleFile;
use tofu_syntax::TextRange;

use crate::lexer::{lex_native, LexKind, Lexeme};
use crate::snapshot::Snapshot;

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

/// A function offered by completion: its name, the snippet that calls
/// it, its signature, and the partial name it replaces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FunctionProposal {
    pub label: String,
    pub snippet: String,
    pub signature: String,
    pub replace: TextRange,
}

/// One parameter of a [`SignatureHelp`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParameterHelp {
    /// The parameter as it appears in the signature's label (`str string`).
    pub label: String,
    pub documentation: Option<String>,
}

impl Snapshot {
    /// Signature help at byte `offset` of the file at `path`: the innermost
    /// call of a built-in function whose parentheses hold the cursor.
    pub fn signature_help(&self, path: &Path, offset: u32) -> Option<SignatureHelp> {
        let found = self.find_file(path)?;
        let file = found.file()?;
        if !file.role.is_loaded() || file.is_json() {
            return None;
        }
        let (signature, n_commas) = enclosing_call(&file.text, offset)?;
        let parameters: Vec<ParameterHelp> = labelled_parameters(signature)
            .into_iter()
            .map(|(label, parameter)| ParameterHelp {
                label,
                documentation: (!parameter.description.is_empty())
                    .then(|| parameter.description.to_owned()),
            })
            .collect();
        let n_fixed = signature.parameters.len();
        let active_parameter = if n_commas < n_fixed {
            Some(n_commas)
        } else {
            signature.variadic.map(|_| n_fixed)
        };
        Some(SignatureHelp {
            label: signature_label(signature),
            documentation: signature.description.to_owned(),
            parameters,
            active_parameter: active_parameter.and_then(|index| u32::try_from(index).ok()),
        })
    }
}

/// The built-in functions at `offset`, when a partial name (or nothing)
/// there stands where an expression may: after `=`, an operator, `(`, `[`,
/// `,`, `?`, `:`, `${`, `in` or `if`. `None` elsewhere (the other
/// completions then have their say) and inside comments and strings.
pub(crate) fn function_completions(
    file: &ModuleFile,
    offset: u32,
) -> Option<Vec<FunctionProposal>> {
    if file.is_json() {
        return None;
    }
    let before = file.text.get(..offset as usize)?;
    let start = name_start(before);
    let before_name = before.get(..start)?;
    if before_name.ends_with("::")
        || !stands_for_expression(before_name)
        || in_literal(&lex_native(before), offset)
    {
        return None;
    }
    let partial = before.get(start..)?;
    let with_core =
        !partial.is_empty() && ("core::".starts_with(partial) || partial.starts_with("core::"));
    let replace = TextRange::from_usize(start, offset as usize);
    let plain = SIGNATURES
        .iter()
        .map(|signature| (signature.name.to_owned(), signature));
    let core = SIGNATURES
        .iter()
        .filter(|_| with_core)
        .map(|signature| (format!("core::{}", signature.name), signature));
    Some(
        plain
            .chain(core)
            .map(|(label, signature)| FunctionProposal {
                snippet: format!("{label}({})", snippet_arguments(signature)),
                label,
                signature: signature_label(signature),
                replace,
            })
            .collect(),
    )
}

/// Hover on the name of a call of a built-in function (`upper` or
/// `core::upper` before its `(`): markdown, and the name's range.
pub(crate) fn function_hover(file: &ModuleFile, offset: u32) -> Option<(String, TextRange)> {
    if !file.role.is_loaded() || file.is_json() {
        return None;
    }
    let text = &file.text;
    let start = name_start(text.get(..offset as usize)?);
    let after = text.get(start..)?;
    let name = name_at_start(after);
    let rest = after.get(name.len()..)?.trim_start_matches([' ', '\t']);
    if name.is_empty() || !rest.starts_with('(') || text.get(..start)?.ends_with(['.', ':']) {
        return None;
    }
    let signature = signature_of(name)?;
    let range = TextRange::from_usize(start, start + name.len());
    let line_end = after.find('\n').map_or(text.len(), |len| start + len);
    if in_literal(&lex_native(text.get(..line_end)?), range.start + 1) {
        return None;
    }
    let mut markdown = format!(
        "```hcl\n{}\n```\n\n{}\n",
        signature_label(signature),
        signature.description
    );
    for (label, parameter) in labelled_parameters(signature) {
        if !parameter.description.is_empty() {
            let _ = writeln!(markdown, "\n- `{label}`: {}", parameter.description);
        }
    }
    Some((markdown, range))
}

/// Hover on the name of a call of a provider function
/// (`provider::NAME::FN` or `provider::NAME::ALIAS::FN` before its `(`),
/// from the schema of the provider NAME stands for: markdown, and the
/// name's range.
pub(crate) fn provider_function_hover(
    file: &ModuleFile,
    analysis: &tofu_diagnostics::ModuleAnalysis,
    offset: u32,
) -> Option<(String, TextRange)> {
    if !file.role.is_loaded() || file.is_json() {
        return None;
    }
    let text = &file.text;
    let is_name_char = |c: char| is_identifier_char(c) || c == ':';
    let before = text.get(..offset as usize)?;
    let start = before.len()
        - before
            .chars()
            .rev()
            .take_while(|c| is_name_char(*c))
            .map(char::len_utf8)
            .sum::<usize>();
    let after = text.get(start..)?;
    let name = after
        .find(|c: char| !is_name_char(c))
        .and_then(|end| after.get(..end))
        .unwrap_or(after);
    let rest = after.get(name.len()..)?.trim_start_matches([' ', '\t']);
    if !rest.starts_with('(') {
        return None;
    }
    let (local_name, function_name) = tofu_module::provider_schemas::provider_function_name(name)?;
    let range = TextRange::from_usize(start, start + name.len());
    let line_end = after.find('\n').map_or(text.len(), |len| start + len);
    if in_literal(&lex_native(text.get(..line_end)?), range.start + 1) {
        return None;
    }
    let (_, schema) = analysis.provider_schema(local_name);
    let function = schema?.functions.get(function_name)?;
    let parameter_label = |parameter: &tofu_schema::FunctionParameter, variadic: bool| {
        format!(
            "{}{} {}",
            parameter.name,
            if variadic { "..." } else { "" },
            tofu_module::types::constraint_text(&parameter.ty)
        )
    };
    let mut parameters: Vec<(String, &tofu_schema::FunctionParameter)> = function
        .parameters
        .iter()
        .map(|parameter| (parameter_label(parameter, false), parameter))
        .collect();
    if let Some(variadic) = &function.variadic_parameter {
        parameters.push((parameter_label(variadic, true), variadic));
    }
    let labels: Vec<&str> = parameters.iter().map(|(label, _)| label.as_str()).collect();
    let mut markdown = format!(
        "```hcl\n{name}({}) {}\n```\n",
        labels.join(", "),
        tofu_module::types::constraint_text(&function.return_type)
    );
    for paragraph in [&*function.summary, &*function.description.text] {
        if !paragraph.is_empty() {
            let _ = write!(markdown, "\n{paragraph}\n");
        }
    }
    if !function.deprecation_message.is_empty() {
        let _ = write!(
            markdown,
            "\n**Deprecated**: {}\n",
            function.deprecation_message
        );
    }
    for (label, parameter) in &parameters {
        if !parameter.description.text.is_empty() {
            let _ = writeln!(markdown, "\n- `{label}`: {}", parameter.description.text);
        }
    }
    Some((markdown, range))
}

/// The description of the built-in function `name` (or `core::name`),
/// as markdown.
pub(crate) fn function_description(name: &str) -> Option<&'static str> {
    Some(signature_of(name)?.description)
}

/// A built-in function by its name or its `core::` name.
fn signature_of(name: &str) -> Option<&'static Signature> {
    let name = name.strip_prefix("core::").unwrap_or(name);
    SIGNATURES
        .binary_search_by(|signature| signature.name.cmp(name))
        .ok()
        .and_then(|index| SIGNATURES.get(index))
}

/// `format(format string, args... dynamic) string`.
fn signature_label(signature: &Signature) -> String {
    let parameters: Vec<String> = labelled_parameters(signature)
        .into_iter()
        .map(|(label, _)| label)
        .collect();
    format!(
        "{}({}) {}",
        signature.name,
        parameters.join(", "),
        signature.return_type
    )
}

/// Each parameter (the variadic one last) with its label in the signature.
fn labelled_parameters(signature: &Signature) -> Vec<(String, Parameter)> {
    let fixed = signature
        .parameters
        .iter()
        .map(|parameter| (format!("{} {}", parameter.name, parameter.ty), *parameter));
    let variadic = signature.variadic.iter().map(|parameter| {
        (
            format!("{}... {}", parameter.name, parameter.ty),
            *parameter,
        )
    });
    fixed.chain(variadic).collect()
}

/// The snippet between a call's parentheses: a placeholder per fixed
/// parameter, or one for the variadic parameter when there is no other.
fn snippet_arguments(signature: &Signature) -> String {
    let names: Vec<&str> = match (signature.parameters, signature.variadic) {
        ([], Some(variadic)) => vec![variadic.name],
        (fixed, _) => fixed.iter().map(|parameter| parameter.name).collect(),
    };
    names
        .iter()
        .enumerate()
        .map(|(index, name)| format!("${{{}:{name}}}", index + 1))
        .collect::<Vec<_>>()
        .join(", ")
}

fn is_identifier_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// Where the function name that ends `text` starts: an identifier, with a
/// `core::` before it.
fn name_start(text: &str) -> usize {
    let identifier_len: usize = text
        .chars()
        .rev()
        .take_while(|c| is_identifier_char(*c))
        .map(char::len_utf8)
        .sum();
    let start = text.len() - identifier_len;
    match text.get(..start) {
        Some(before) if before.ends_with("core::") => start - "core::".len(),
        _ => start,
    }
}

/// The function name that starts `text`: an identifier, or `core::` and one.
fn name_at_start(text: &str) -> &str {
    let identifier_end = |from: usize| {
        text.get(from..)
            .and_then(|rest| rest.find(|c: char| !is_identifier_char(c)))
            .map_or(text.len(), |len| from + len)
    };
    let end = match identifier_end(0) {
        4 if text.starts_with("core::") => identifier_end("core::".len()),
        end => end,
    };
    text.get(..end).unwrap_or_default()
}

/// True when what precedes a name (`text`) leaves room for an expression.
fn stands_for_expression(text: &str) -> bool {
    let trimmed = text.trim_end();
    if trimmed.ends_with("${") {
        return true;
    }
    let word = text_word_before(trimmed);
    if matches!(word, "in" | "if") {
        return true;
    }
    let Some(last) = trimmed.chars().next_back() else {
        return false;
    };
    if last == '=' {
        return !assigns_no_expression(trimmed);
    }
    matches!(
        last,
        '(' | '[' | ',' | '?' | ':' | '+' | '-' | '*' | '/' | '%' | '!' | '<' | '>' | '&' | '|'
    )
}

/// The function name (or bare word) that ends `text`.
fn text_word_before(text: &str) -> &str {
    text.get(name_start(text)..).unwrap_or_default()
}

/// Arguments whose value is not an expression where functions may stand:
/// a type constraint, references, a module's source and version.
const NO_EXPRESSION_ARGUMENTS: &[&str] = &[
    "type",
    "depends_on",
    "provider",
    "providers",
    "source",
    "version",
    "ignore_changes",
    "replace_triggered_by",
    "from",
    "to",
];

/// `text` ends with `NAME =` for one of [`NO_EXPRESSION_ARGUMENTS`] at
/// the start of its line.
fn assigns_no_expression(text: &str) -> bool {
    let Some(before_equals) = text.strip_suffix('=') else {
        return false;
    };
    let line = before_equals.rsplit('\n').next().unwrap_or_default().trim();
    NO_EXPRESSION_ARGUMENTS.contains(&line)
}

/// True when the cursor at `position` is inside a comment, a string's
/// literal text or heredoc text (an unterminated one ends at its line, so
/// its end counts).
fn in_literal(lexemes: &[Lexeme], position: u32) -> bool {
    lexemes.iter().any(|lexeme| {
        is_literal(lexeme.kind) && lexeme.range.start < position && position <= lexeme.range.end
    })
}

fn is_literal(kind: LexKind) -> bool {
    matches!(
        kind,
        LexKind::Comment | LexKind::String | LexKind::HeredocText | LexKind::HeredocMarker
    )
}

/// How far back signature help looks for the call's `(`.
const MAX_CALL_SCAN_BYTES: usize = 16 * 1024;

/// The built-in function whose call's parentheses hold `offset`, and the
/// number of commas between its `(` and the cursor at the call's own
/// level. Brackets, braces and parentheses that are not a built-in call
/// are arguments: their commas do not count.
fn enclosing_call(text: &str, offset: u32) -> Option<(&'static Signature, usize)> {
    let before = text.get(..offset as usize)?;
    let lexemes = lex_native(before);
    if in_literal(&lexemes, offset) {
        return None;
    }
    let literals: Vec<TextRange> = lexemes
        .iter()
        .filter(|lexeme| is_literal(lexeme.kind))
        .map(|lexeme| lexeme.range)
        .collect();
    // The literals that start before `at`, the last one nearest.
    let mut n_literals_before = literals.len();
    let scan_start = before.len().saturating_sub(MAX_CALL_SCAN_BYTES);
    let mut depth = 0usize;
    let mut n_commas = 0usize;
    let mut at = before.len();
    while at > scan_start {
        while n_literals_before > 0
            && literals
                .get(n_literals_before - 1)
                .is_some_and(|literal| literal.start as usize >= at)
        {
            n_literals_before -= 1;
        }
        let nearest = n_literals_before
            .checked_sub(1)
            .and_then(|index| literals.get(index));
        if let Some(literal) = nearest.filter(|literal| at <= literal.end as usize) {
            at = literal.start as usize;
            continue;
        }
        at -= 1;
        match before.as_bytes().get(at) {
            Some(b')' | b']' | b'}') => depth += 1,
            Some(b'(' | b'[' | b'{') if depth > 0 => depth -= 1,
            Some(b'(') => {
                let name_text = before.get(..at)?.trim_end_matches([' ', '\t']);
                let name = text_word_before(name_text);
                let after_dot = name_text
                    .get(..name_text.len() - name.len())
                    .is_some_and(|rest| rest.ends_with(['.', ':']));
                if let Some(signature) = signature_of(name).filter(|_| !after_dot) {
                    return Some((signature, n_commas));
                }
                n_commas = 0;
            }
            Some(b'[' | b'{') => n_commas = 0,
            Some(b',') if depth == 0 => n_commas += 1,
            _ => {}
        }
    }
    None
}
