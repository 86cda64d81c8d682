//! Provider names, references, aliases, sources and `required_providers` entries
//! (`diagnostics.md` §2.7, §4.11–§4.13): `invalid-provider-local-name`,
//! `invalid-provider-reference`, `invalid-provider-alias`,
//! `invalid-provider-source`, `invalid-required-providers`, and the provider
//! part of `quoted-reference-deprecated`.
//!
//! Like OpenTofu's decoding, the checks run on every block as written, in
//! primary and override files alike, before duplicates and merging; blocks
//! OpenTofu does not read are skipped: blocks with the wrong number of labels,
//! and `check` and `import` blocks of override files (which only get
//! `override-forbidden-block`). Where OpenTofu drops a block after an error
//! (an invalid provider name), nothing more in it is checked.
//!
//! One check runs on the merged module instead ([`implied_local_names`]): the
//! local name a `resource` or `data` block without a `provider` argument
//! implies must be valid. OpenTofu makes it while building the module tree,
//! which `tofu validate` does for the directory it runs in. Whether a
//! referenced provider configuration exists is not checked (`diagnostics.md`
//! §7).

mod required_providers;

use tofu_syntax::{Block, Diagnostic, Expr, ExprKind, Location};

use crate::rules::views::IdentityView;
use tofu_module::address::BlockAddress;
use tofu_module::loaded::FileView;
use tofu_module::names::is_identifier;
use tofu_module::schema::has_valid_labels;
use tofu_syntax::go_text::go_quote;

use tofu_module::expr::content::{parse_expression, StringContent};
use tofu_module::names;
use tofu_module::provider_references::expr_view::{has_references, Position};
use tofu_module::provider_references::{decode_reference, module_providers, FileScope};

pub(crate) fn check(view: FileView<'_>, out: &mut Vec<Diagnostic>) {
    let Some(source) = &view.file.source else {
        return;
    };
    if !view.file.role.is_loaded() {
        return;
    }
    let file = ProviderFile {
        scope: FileScope {
            id: view.id,
            file: view.file,
        },
    };
    for block in &source.body.blocks {
        if has_valid_labels(block) {
            file.top_level_block(block, out);
        }
    }
}

/// `invalid-provider-local-name` for the provider a resource type implies
/// (the type up to its first `_`: `aws` for `aws_instance`), for one
/// effective managed, data or ephemeral resource with no `provider`
/// argument, on its header; a name that is only not normalised (`AWS`) is
/// accepted. OpenTofu 1.12.6 checks this while building the module tree,
/// which it does only when loading reported no error, so the caller reports
/// it only then (both confirmed with `tofu validate`).
pub(crate) fn implied_local_name(view: &IdentityView<'_>, out: &mut Vec<Diagnostic>) {
    let Some(effective) = view.effective() else {
        return;
    };
    let BlockAddress::Resource { type_name, .. } = &effective.address else {
        return;
    };
    if effective.body.attribute("provider").is_some() {
        return;
    }
    let implied = type_name.split('_').next().unwrap_or_default();
    let Some(reason) = names::provider_part_problem(implied) else {
        return;
    };
    let Some((base, block)) = effective
        .base
        .and_then(|base| Some((base, view.block(base)?)))
    else {
        return;
    };
    out.push(
        Diagnostic::new(
            crate::codes::INVALID_PROVIDER_LOCAL_NAME,
            "Invalid provider local name",
            Location::new(base.file, block.header),
        )
        .with_detail(format!(
            "{} is an invalid implied provider local name: {reason}",
            go_quote(implied)
        )),
    );
}

/// One file as the checks of this family read it: its [`FileScope`] (the
/// decoding's, shared with loading), with the dispatch over block types.
struct ProviderFile<'a> {
    scope: FileScope<'a>,
}

impl<'a> std::ops::Deref for ProviderFile<'a> {
    type Target = FileScope<'a>;

    fn deref(&self) -> &FileScope<'a> {
        &self.scope
    }
}

impl ProviderFile<'_> {
    fn top_level_block(&self, block: &Block, out: &mut Vec<Diagnostic>) {
        match block.kind.as_str() {
            "provider" => self.provider_block(block, out),
            "terraform" => self.terraform_block(block, out),
            "resource" | "data" | "ephemeral" => self.provider_argument(block, out),
            "import" if self.primary() && self.import_target_is_read(block) => {
                self.provider_argument(block, out);
            }
            "check" if self.primary() => {
                for nested in block.body.blocks_of_kind("data") {
                    if nested.labels.len() == 2 {
                        self.provider_argument(nested, out);
                    }
                }
            }
            "module" => {
                if let Some(attr) = block.body.attribute("providers") {
                    module_providers(self, attr, out);
                }
            }
            _ => {}
        }
    }

    /// `provider "NAME"`: the name, then `alias` and `for_each`.
    fn provider_block(&self, block: &Block, out: &mut Vec<Diagnostic>) {
        let Some(label) = block.labels.first() else {
            return;
        };
        if let Some(diagnostic) = self.local_name_diagnostic(
            &label.value,
            "Invalid provider local name",
            block.header,
            Some(label.range),
        ) {
            out.push(diagnostic);
            // OpenTofu drops the block: nothing else in it is read.
            return;
        }
        let alias = block
            .body
            .attribute("alias")
            .map(|attr| (attr, self.decode_alias(&attr.expr)));
        if let Some((attr, decoded)) = &alias {
            let invalid = match decoded {
                DecodedAlias::Known(alias) => !is_identifier(alias),
                DecodedAlias::Failed => true,
                DecodedAlias::Unknown => false,
            };
            if invalid {
                out.push(
                    Diagnostic::new(
                        crate::codes::INVALID_PROVIDER_ALIAS,
                        "Invalid provider configuration alias",
                        self.at(attr.expr.range),
                    )
                    .with_detail("An alias must be a valid name. A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes."),
                );
            }
        }
        let Some(for_each) = block.body.attribute("for_each") else {
            return;
        };
        let alias_is_empty = match alias.as_ref().map(|(_, decoded)| decoded) {
            None | Some(DecodedAlias::Failed) => true,
            Some(DecodedAlias::Known(alias)) => alias.is_empty(),
            Some(DecodedAlias::Unknown) => false,
        };
        if alias_is_empty {
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_PROVIDER_ALIAS,
                    "Alias required when using \"for_each\"",
                    self.at(for_each.expr.range),
                )
                .with_detail(
                    "The for_each argument is allowed only for provider configurations with an alias.",
                ),
            );
        }
    }

    /// The string OpenTofu decodes `alias` to, with no evaluation context.
    fn decode_alias(&self, expr: &Expr) -> DecodedAlias {
        match &expr.kind {
            ExprKind::String(alias) => DecodedAlias::Known(alias.clone()),
            // JSON strings are taken verbatim without a context, `${` included.
            ExprKind::Template(_) if self.json() => StringContent::of(self.text(), expr)
                .map_or(DecodedAlias::Unknown, |content| {
                    DecodedAlias::Known(content.value)
                }),
            // Every number converts to a string that is no identifier.
            ExprKind::Number(number) => DecodedAlias::Known(number.clone()),
            ExprKind::Bool(value) => DecodedAlias::Known(value.to_string()),
            ExprKind::Template(_) | ExprKind::Operation(_) | ExprKind::For(_)
                if !has_references(expr) =>
            {
                DecodedAlias::Unknown
            }
            _ => DecodedAlias::Failed,
        }
    }

    /// `required_providers` and `provider_meta` inside a `terraform` block.
    fn terraform_block(&self, block: &Block, out: &mut Vec<Diagnostic>) {
        for nested in &block.body.blocks {
            match nested.kind.as_str() {
                "required_providers" if nested.labels.is_empty() => {
                    required_providers::check(self, nested, out);
                }
                "provider_meta" if nested.labels.len() == 1 => self.provider_meta(nested, out),
                _ => {}
            }
        }
    }

    /// `provider_meta "NAME"`: OpenTofu evaluates its arguments first and
    /// checks the name only when they are constants.
    fn provider_meta(&self, block: &Block, out: &mut Vec<Diagnostic>) {
        let Some(label) = block.labels.first() else {
            return;
        };
        let arguments_fail = !block.body.blocks.is_empty()
            || (!self.json()
                && block
                    .body
                    .attributes
                    .iter()
                    .any(|attr| has_references(&attr.expr)));
        if arguments_fail {
            return;
        }
        out.extend(self.local_name_diagnostic(
            &label.value,
            "Invalid provider local name",
            block.header,
            Some(label.range),
        ));
    }

    /// `provider = …` of a `resource`, `data`, `ephemeral` or `import` block.
    fn provider_argument(&self, block: &Block, out: &mut Vec<Diagnostic>) {
        if let Some(attr) = block.body.attribute("provider") {
            decode_reference(self, &attr.expr, "provider", Position::Value, out);
        }
    }

    /// OpenTofu reads an `import` block's `provider` only after its `to`
    /// decoded to a resource address (or when `to` is missing). This mirrors
    /// that address check closely enough to stay silent where OpenTofu is.
    fn import_target_is_read(&self, block: &Block) -> bool {
        let Some(to) = block.body.attribute("to") else {
            return true;
        };
        if !self.json() {
            return is_resource_address(&to.expr);
        }
        let Some(content) = StringContent::of(self.text(), &to.expr) else {
            return false;
        };
        parse_expression(&content.value).is_ok_and(|parsed| is_resource_address(&parsed.expr))
    }
}

/// What `alias` decodes to.
enum DecodedAlias {
    Known(String),
    /// Decoding failed (a reference, null, a collection): the alias is empty.
    Failed,
    /// A constant tofu-lens does not evaluate (a template, an operator).
    Unknown,
}

/// `[module.NAME[KEY]…].[data.|ephemeral.]TYPE.NAME[KEY]`, any key allowed,
/// as OpenTofu's import address reading (`staticImportAddress`) accepts it.
fn is_resource_address(expr: &Expr) -> bool {
    let ExprKind::Traversal(traversal) = &expr.kind else {
        return false;
    };
    if traversal.root_range.start != expr.range.start {
        return false;
    }
    enum Part<'a> {
        Name(&'a str),
        Index,
    }
    let mut parts = vec![Part::Name(&traversal.root)];
    for step in &traversal.steps {
        parts.push(match step {
            tofu_syntax::TraversalStep::Attr { name, .. } => Part::Name(name),
            tofu_syntax::TraversalStep::Index { .. } => Part::Index,
            tofu_syntax::TraversalStep::Splat { .. } => return false,
        });
    }
    let mut parts = parts.into_iter().peekable();
    while let Some(Part::Name("module")) = parts.peek() {
        parts.next();
        if !matches!(parts.next(), Some(Part::Name(_))) {
            return false;
        }
        if matches!(parts.peek(), Some(Part::Index)) {
            parts.next();
        }
    }
    if let Some(Part::Name("data" | "ephemeral")) = parts.peek() {
        parts.next();
    }
    let resource_type_and_name = matches!(
        (parts.next(), parts.next()),
        (Some(Part::Name(_)), Some(Part::Name(_)))
    );
    if matches!(parts.peek(), Some(Part::Index)) {
        parts.next();
    }
    resource_type_and_name && parts.next().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn to_expr(text: &str) -> Expr {
        let source = tofu_syntax::parse("main.tf", &format!("to = {text}\n"));
        source
            .body
            .attributes
            .into_iter()
            .next()
            .map(|attr| attr.expr)
            .unwrap_or_else(|| panic!("{text} does not parse"))
    }

    #[test]
    fn import_targets_that_decode_to_resource_addresses() {
        for address in [
            "aws_instance.web",
            "aws_instance.web[0]",
            "aws_instance.web[each.key]",
            "module.a.aws_instance.web",
            "module.a[\"x\"].module.b[var.i].aws_instance.web[1]",
            "data.aws_ami.x",
        ] {
            assert!(is_resource_address(&to_expr(address)), "{address}");
        }
        for address in [
            "aws_instance",
            "aws_instance.web.extra",
            "aws_instance.web[0][1]",
            "module.a",
            "module.a.aws_instance",
            "aws_instance.web[*]",
            "\"aws_instance.web\"",
            "(aws_instance.web)",
        ] {
            assert!(!is_resource_address(&to_expr(address)), "{address}");
        }
    }
}
