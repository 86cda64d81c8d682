//! OpenTofu's functions where people type them: their names in completion
//! where an expression may stand (a snippet with the parameters, `core::`
//! names too), hover on a function name (signature and description), and
//! signature help inside a call's parentheses with the parameter the cursor
//! is on.
//!
//! Provider-defined functions (`provider::NAME::FN`, or
//! `provider::NAME::ALIAS::FN`) get the same three from the schema of the
//! provider NAME stands for, when the analysis was given it: after
//! `provider::` completion offers `provider::NAME::` for each local name
//! whose provider has functions (a partial `prov` offers them among the
//! built-ins, as a partial `core` offers `core::` names), and after
//! `provider::NAME::` that provider's functions. A name that starts with
//! `provider:` is never completed as a built-in, so a provider without a
//! schema gets nothing (OpenTofu's built-in `terraform` provider always
//! has one). Left out: offering a provider configuration's aliases after
//! `provider::NAME::` (functions are offered after one that is typed).
//!
//! Everything here reads the file's text, not the syntax model: while a
//! call is being typed (`upper(`) the file does not parse. Comments, string
//! literals and heredoc text come from the forgiving lexer, so nothing is
//! offered or found inside them. The built-ins' signatures are OpenTofu's
//! metadata as `tofu-eval` keeps it; both kinds are turned into one
//! `FunctionDoc` (`function_doc.rs`), so labels, snippets and markdown
//! read the same. JSON files get nothing: their expressions live inside
//! strings.

use std::path::Path;

use tofu_diagnostics::ModuleAnalysis;
use tofu_eval::functions::{Signature, SIGNATURES};
use tofu_module::provider_schemas::provider_function_name;
use tofu_module::ModuleFile;
use tofu_syntax::TextRange;

use crate::function_doc::{FunctionDoc, SignatureHelp};
use crate::lexer::{in_literal, is_literal, lex_native};
use crate::snapshot::Snapshot;

/// A function offered by completion: its name, the snippet that calls
/// it, its signature, and the partial name it replaces. A provider's
/// namespace (`provider::time::`) is offered the same way, with its
/// insert text as snippet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FunctionProposal {
    pub label: String,
    pub snippet: String,
    pub signature: String,
    /// A provider function's summary and description; `None` for a
    /// built-in, whose description completion looks up when asked
    /// ([`function_description`]), and for a namespace.
    pub documentation: Option<String>,
    /// `provider::NAME::`, which names no function yet.
    pub namespace: bool,
    pub replace: TextRange,
}

impl Snapshot {
    /// Signature help at byte `offset` of the file at `path`: the innermost
    /// call of a built-in function, or of a provider function the
    /// analysis has the schema of, whose parentheses hold the cursor.
    pub fn signature_help(&self, path: &Path, offset: u32) -> Option<SignatureHelp> {
        let found = self.find_file(path)?;
        let file = found.file()?;
        if !file.role.is_loaded() || file.is_json() {
            return None;
        }
        let (function, n_commas) = enclosing_call(&file.text, found.analysis(), offset)?;
        Some(function.signature_help(n_commas))
    }
}

/// The functions at `offset`, when a partial name (or nothing) there
/// stands where an expression may: after `=`, an operator, `(`, `[`, `,`,
/// `?`, `:`, `${`, `in` or `if`. A name that starts with `provider:` gets
/// only what [`provider_function_completions`] offers. `None` elsewhere
/// (the other completions then have their say) and inside comments and
/// strings.
pub(crate) fn function_completions(
    file: &ModuleFile,
    analysis: &ModuleAnalysis,
    offset: u32,
) -> Option<Vec<FunctionProposal>> {
    if file.is_json() {
        return None;
    }
    let before = file.text.get(..offset as usize)?;
    if let Some(proposals) = provider_function_completions(analysis, before) {
        return Some(proposals);
    }
    let mut start = name_start(before);
    // `core:` is `core::` half typed (`:` triggers completion).
    if let Some(head) = before.strip_suffix("core:") {
        if start == before.len() && !head.ends_with(|c: char| is_identifier_char(c) || c == ':') {
            start = head.len();
        }
    }
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
    let with_providers = !partial.is_empty() && "provider::".starts_with(partial);
    let replace = TextRange::from_usize(start, offset as usize);
    let plain = SIGNATURES
        .iter()
        .map(|signature| (signature.name.to_owned(), signature));
    let core = SIGNATURES
        .iter()
        .filter(|_| with_core)
        .map(|signature| (format!("core::{}", signature.name), signature));
    let mut proposals: Vec<FunctionProposal> = plain
        .chain(core)
        .map(|(label, signature)| {
            let function = FunctionDoc::builtin(signature);
            FunctionProposal {
                snippet: function.snippet(&label),
                label,
                signature: function.label(),
                documentation: None,
                namespace: false,
                replace,
            }
        })
        .collect();
    if with_providers {
        proposals.extend(provider_namespaces(analysis, replace));
    }
    Some(proposals)
}

/// After a name that starts with `provider:` standing where an expression
/// may (`before` is the text up to the cursor): `provider::NAME::` for the
/// providers with functions while NAME is being typed, then that
/// provider's functions (also after `provider::NAME::ALIAS::`), each
/// replacing the whole name typed so far. `None` for any other name.
fn provider_function_completions(
    analysis: &ModuleAnalysis,
    before: &str,
) -> Option<Vec<FunctionProposal>> {
    let start = qualified_name_start(before);
    let typed = before.get(start..)?;
    if !typed.starts_with("provider:")
        || !stands_for_expression(before.get(..start)?)
        || in_literal(&lex_native(before), tofu_syntax::text::to_u32(before.len()))
    {
        return None;
    }
    let replace = TextRange::from_usize(start, before.len());
    let parts: Vec<&str> = typed.split("::").collect();
    let qualifier = match parts.as_slice() {
        [_] | [_, _] => return Some(provider_namespaces(analysis, replace)),
        [_, local_name, _] => (*local_name, None),
        [_, local_name, alias, _] => (*local_name, Some(*alias)),
        _ => return Some(Vec::new()),
    };
    let (local_name, alias) = qualifier;
    let (_, schema) = analysis.provider_schema(local_name);
    let Some(schema) = schema else {
        return Some(Vec::new());
    };
    let prefix = match alias {
        Some(alias) => format!("provider::{local_name}::{alias}::"),
        None => format!("provider::{local_name}::"),
    };
    let proposals = schema
        .functions
        .iter()
        .map(|(function_name, function)| {
            let label = format!("{prefix}{function_name}");
            let function = FunctionDoc::provided(&label, function);
            FunctionProposal {
                snippet: function.snippet(&label),
                signature: function.label(),
                documentation: Some(function.documentation()).filter(|text| !text.is_empty()),
                namespace: false,
                label,
                replace,
            }
        })
        .collect();
    Some(proposals)
}

/// `provider::NAME::` for each local name whose provider's schema has
/// functions.
fn provider_namespaces(analysis: &ModuleAnalysis, replace: TextRange) -> Vec<FunctionProposal> {
    analysis
        .provider_local_names()
        .into_iter()
        .filter(|(_, schema)| !schema.functions.is_empty())
        .map(|(local_name, schema)| {
            let (address, _) = analysis.provider_schema(&local_name);
            let label = format!("provider::{local_name}::");
            FunctionProposal {
                snippet: label.clone(),
                signature: format!("{} functions of {address}", schema.functions.len()),
                documentation: None,
                namespace: true,
                label,
                replace,
            }
        })
        .collect()
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
    Some((FunctionDoc::builtin(signature).hover_markdown(), range))
}

/// Hover on the name of a call of a provider function
/// (`provider::NAME::FN` or `provider::NAME::ALIAS::FN` before its `(`),
/// from the schema of the provider NAME stands for: markdown, and the
/// name's range.
pub(crate) fn provider_function_hover(
    file: &ModuleFile,
    analysis: &ModuleAnalysis,
    offset: u32,
) -> Option<(String, TextRange)> {
    if !file.role.is_loaded() || file.is_json() {
        return None;
    }
    let text = &file.text;
    let start = qualified_name_start(text.get(..offset as usize)?);
    let after = text.get(start..)?;
    let name = after
        .find(|c: char| !is_qualified_name_char(c))
        .and_then(|end| after.get(..end))
        .unwrap_or(after);
    let rest = after.get(name.len()..)?.trim_start_matches([' ', '\t']);
    if !rest.starts_with('(') {
        return None;
    }
    let range = TextRange::from_usize(start, start + name.len());
    let line_end = after.find('\n').map_or(text.len(), |len| start + len);
    if in_literal(&lex_native(text.get(..line_end)?), range.start + 1) {
        return None;
    }
    Some((provider_function(analysis, name)?.hover_markdown(), range))
}

/// The provider function called as `name` (`provider::NAME::FN` or
/// `provider::NAME::ALIAS::FN`), from the schema of the provider NAME
/// stands for. `ProviderNames::function` answers the evaluator and keeps
/// no descriptions, so this reads the schema itself.
fn provider_function(analysis: &ModuleAnalysis, name: &str) -> Option<FunctionDoc> {
    let (local_name, function_name) = provider_function_name(name)?;
    let (_, schema) = analysis.provider_schema(local_name);
    let function = schema?.functions.get(function_name)?;
    Some(FunctionDoc::provided(name, function))
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

/// A character of a name with its namespaces (`provider::time::now`).
fn is_qualified_name_char(c: char) -> bool {
    is_identifier_char(c) || c == ':'
}

/// Where the name with its namespaces that ends `text` starts.
fn qualified_name_start(text: &str) -> usize {
    let name_len: usize = text
        .chars()
        .rev()
        .take_while(|c| is_qualified_name_char(*c))
        .map(char::len_utf8)
        .sum();
    text.len() - name_len
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
/// How far back signature help looks for the call's `(`.
const MAX_CALL_SCAN_BYTES: usize = 16 * 1024;

/// The function (built-in, or from a provider's schema) whose call's
/// parentheses hold `offset`, and the number of commas between its `(` and
/// the cursor at the call's own level. Brackets, braces and parentheses
/// that are not such a call are arguments: their commas do not count.
fn enclosing_call(
    text: &str,
    analysis: &ModuleAnalysis,
    offset: u32,
) -> Option<(FunctionDoc, usize)> {
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
                if let Some(function) = called_provider_function(analysis, name_text) {
                    return Some((function, n_commas));
                }
                let name = text_word_before(name_text);
                let after_dot = name_text
                    .get(..name_text.len() - name.len())
                    .is_some_and(|rest| rest.ends_with(['.', ':']));
                if let Some(signature) = signature_of(name).filter(|_| !after_dot) {
                    return Some((FunctionDoc::builtin(signature), n_commas));
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

/// The provider function whose name ends `name_text` (the text before a
/// call's `(`), when it stands where an expression may.
fn called_provider_function(analysis: &ModuleAnalysis, name_text: &str) -> Option<FunctionDoc> {
    let start = qualified_name_start(name_text);
    if !stands_for_expression(name_text.get(..start)?) {
        return None;
    }
    provider_function(analysis, name_text.get(start..)?)
}
