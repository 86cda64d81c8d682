//! Object constructors that set one key twice, which HCL accepts (the last
//! item wins; OpenTofu's `providers` map reports "Duplicate provider
//! address" on it) and hcl-edit refuses ("found redefined object key").
//!
//! [`mask`] gives each repeated key a stand-in of the same length, so that
//! hcl-edit parses the text with every offset unchanged; [`restore`] puts
//! the keys as written back into the parsed model. A key is masked only
//! where it starts with a name (`aws`, `aws.west`, `"aws"`): the name is the
//! part replaced, and the model holds it as a traversal's root or a plain
//! string's start. Anything else (an empty string, a parenthesized or
//! computed key, a template) is left to the parser's error, as is a file
//! that needs more than [`MAX_MASKS`] stand-ins.

use crate::model::{Body, Expr, ExprKind, TraversalStep};
use crate::text::TextRange;

/// How many repeated keys one file may have masked before the parser's
/// error is reported instead.
const MAX_MASKS: usize = 256;

/// One repeated key's name, replaced in the text by a stand-in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Mask {
    /// Where the name lies, in the text given to [`mask`].
    pub range: TextRange,
    pub written: String,
    pub stand_in: String,
}

/// The text with every repeated key's name replaced, and the masks; `None`
/// when hcl-edit's first error is something else than a repeated key, or
/// a repeated key cannot be masked.
pub(crate) fn mask(content: &str) -> Option<(String, Vec<Mask>)> {
    let mut masked = content.to_owned();
    let mut masks = Vec::new();
    while masks.len() < MAX_MASKS {
        let error = match hcl_edit::parser::parse_body(&masked) {
            Ok(_) => return Some((masked, masks)),
            Err(error) => error,
        };
        if !error.message().contains("redefined object key") {
            return Some((masked, masks)).filter(|(_, masks)| !masks.is_empty());
        }
        let mask = mask_at(&masked, error.location().offset())?;
        masked.replace_range(
            mask.range.start as usize..mask.range.end as usize,
            &mask.stand_in,
        );
        masks.push(mask);
    }
    None
}

/// Puts the names [`mask`] replaced back into `body`; `false` when one of
/// them was not found where it belongs (the parse is then not to be used).
pub(crate) fn restore(body: &mut Body, masks: &[Mask], base: u32) -> bool {
    let mut n_restored = 0;
    restore_in_body(body, masks, base, &mut n_restored);
    n_restored == masks.len()
}

/// The mask for the key starting at `offset` (where hcl-edit stops): its
/// name, after an opening quote for a string key.
fn mask_at(text: &str, offset: usize) -> Option<Mask> {
    let quoted = text.get(offset..)?.starts_with('"');
    let start = offset + usize::from(quoted);
    let name_length = text
        .get(start..)?
        .bytes()
        .take_while(|byte| is_name_byte(*byte))
        .count();
    let written = text.get(start..start + name_length)?;
    let first_is_letter = written
        .bytes()
        .next()
        .is_some_and(|byte| byte.is_ascii_alphabetic() || byte == b'_');
    if !first_is_letter {
        return None;
    }
    let stand_in = (0..4096)
        .map(|counter| stand_in(counter, name_length))
        .find(|candidate| !occurs_as_name(text, candidate))?;
    Some(Mask {
        range: TextRange::from_usize(start, start + name_length),
        written: written.to_owned(),
        stand_in,
    })
}

fn is_name_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-'
}

/// The `counter`th name of `length` letters (`length` ≥ 1).
fn stand_in(mut counter: usize, length: usize) -> String {
    const LETTERS: &[u8] = b"QZXJKVWYqzxjkvwy";
    let mut name = Vec::with_capacity(length);
    for _ in 0..length {
        let letter = LETTERS
            .get(counter % LETTERS.len())
            .copied()
            .unwrap_or(b'Q');
        name.push(letter);
        counter /= LETTERS.len();
    }
    String::from_utf8(name).unwrap_or_default()
}

/// Whether `name` appears in `text` as a whole name (not inside a longer one).
fn occurs_as_name(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(at, _)| {
        let before = at.checked_sub(1).and_then(|i| text.as_bytes().get(i));
        let after = text.as_bytes().get(at + name.len());
        !before.is_some_and(|byte| is_name_byte(*byte))
            && !after.is_some_and(|byte| is_name_byte(*byte))
    })
}

fn restore_in_body(body: &mut Body, masks: &[Mask], base: u32, n_restored: &mut usize) {
    for attribute in &mut body.attributes {
        restore_in_expr(&mut attribute.expr, masks, base, n_restored);
    }
    for block in &mut body.blocks {
        restore_in_body(&mut block.body, masks, base, n_restored);
    }
}

fn restore_in_expr(expr: &mut Expr, masks: &[Mask], base: u32, n_restored: &mut usize) {
    let children: Vec<&mut Expr> = match &mut expr.kind {
        ExprKind::Object(items) => items
            .iter_mut()
            .flat_map(|item| {
                restore_key(&mut item.key, masks, base, n_restored);
                [&mut item.key, &mut item.value]
            })
            .collect(),
        ExprKind::Template(template) => template.expressions.iter_mut().collect(),
        ExprKind::Array(children) => children.iter_mut().collect(),
        ExprKind::Operation(operation) => operation.operands.iter_mut().collect(),
        ExprKind::Traversal(traversal) => traversal
            .steps
            .iter_mut()
            .filter_map(|step| match step {
                TraversalStep::Index { key, .. } => Some(key.as_mut()),
                _ => None,
            })
            .collect(),
        ExprKind::Call(call) => call.args.iter_mut().collect(),
        ExprKind::For(for_expr) => std::iter::once(for_expr.collection.as_mut())
            .chain(for_expr.body.iter_mut())
            .collect(),
        ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::String(_) => {
            Vec::new()
        }
    };
    for child in children {
        restore_in_expr(child, masks, base, n_restored);
    }
}

/// Restores `key` when a mask lies at its start.
fn restore_key(key: &mut Expr, masks: &[Mask], base: u32, n_restored: &mut usize) {
    for mask in masks {
        let start = mask.range.start + base;
        let restored = match &mut key.kind {
            ExprKind::Traversal(traversal)
                if traversal.root_range.start == start && traversal.root == mask.stand_in =>
            {
                traversal.root = mask.written.clone();
                true
            }
            ExprKind::String(value) if key.range.start + 1 == start => {
                match value.strip_prefix(mask.stand_in.as_str()) {
                    Some(rest) => {
                        *value = format!("{}{rest}", mask.written);
                        true
                    }
                    None => false,
                }
            }
            _ => false,
        };
        if restored {
            *n_restored += 1;
            return;
        }
    }
}
