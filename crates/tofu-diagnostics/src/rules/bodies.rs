//! Checks on the bodies of blocks as written, before anything is merged,
//! against OpenTofu's own schemas (the table in `tofu_module::schema`,
//! `diagnostics.md` §4.1): `unsupported-block`,
//! `unsupported-argument`, `missing-required-argument`, `invalid-block-labels`
//! and `misplaced-required-providers`; names (`invalid-name`,
//! `reserved-variable-name`, `reserved-block-type`, `reserved-argument-name`,
//! §4.9); `repetition-conflict`; and duplicate `import` targets.
//!
//! Bodies that providers, provisioners, backends or child modules define are
//! out of scope: only the meta-arguments and meta-blocks OpenTofu itself
//! defines are checked there. Contents of `validation`, `precondition`,
//! `postcondition`, `assert` and `check` blocks are read in primary files only,
//! and `language`/`moved`/`import`/`removed` blocks of override files are not
//! read at all (they get `override-forbidden-block`).

use tofu_syntax::{
    Attribute, Block, Body, Diagnostic, ExprKind, FileId, Location, TextRange, TraversalStep,
};

use crate::rules::views::ModuleView;
use tofu_module::expr::suggest::did_you_mean;
use tofu_module::loaded::{FileRole, FileView};
use tofu_module::names::is_identifier;
use tofu_module::schema::{
    top_level, BlockSchema, ASSERT, ENCRYPTION, FALLBACK, MANAGED_LIFECYCLE_ARGUMENTS,
    PRECONDITION, TERRAFORM, TOP_LEVEL, VALIDATION,
};

pub(crate) fn check(view: FileView<'_>, out: &mut Vec<Diagnostic>) {
    let file = view.file;
    {
        let Some(source) = &file.source else { return };
        let checker = Checker {
            file: view.id,
            json: file.is_json(),
            primary: file.role == FileRole::Primary,
        };
        for attr in &source.body.attributes {
            let summary = if checker.json {
                "Extraneous JSON object property"
            } else {
                "Unsupported argument"
            };
            out.push(
                Diagnostic::new(
                    crate::codes::UNSUPPORTED_ARGUMENT,
                    summary,
                    checker.at(attr.name_range),
                )
                .with_detail(format!(
                    "An argument named \"{}\" is not expected here.",
                    attr.name
                )),
            );
        }
        for block in &source.body.blocks {
            checker.top_level_block(block, out);
        }
    }
}

struct Checker {
    file: FileId,
    json: bool,
    primary: bool,
}

impl Checker {
    fn at(&self, range: TextRange) -> Location {
        Location::new(self.file, range)
    }

    fn top_level_block(&self, block: &Block, out: &mut Vec<Diagnostic>) {
        if block.kind == "required_providers" {
            out.push(
                Diagnostic::new(
                    crate::codes::MISPLACED_REQUIRED_PROVIDERS,
                    "Invalid required_providers block",
                    self.at(block.kind_range),
                )
                .with_detail(
                    "A \"required_providers\" block must be nested inside a \"terraform\" block.",
                ),
            );
            return;
        }
        let Some(schema) = top_level(&block.kind) else {
            let (summary, mut detail) = if self.json {
                (
                    "Extraneous JSON object property",
                    format!("No argument or block type is named \"{}\".", block.kind),
                )
            } else {
                (
                    "Unsupported block type",
                    format!("Blocks of type \"{}\" are not expected here.", block.kind),
                )
            };
            if let Some(kind) =
                did_you_mean(&block.kind, TOP_LEVEL.iter().map(|schema| schema.kind))
            {
                detail.push_str(&format!(" Did you mean \"{kind}\"?"));
            }
            out.push(
                Diagnostic::new(
                    crate::codes::UNSUPPORTED_BLOCK,
                    summary,
                    self.at(block.kind_range),
                )
                .with_detail(detail),
            );
            return;
        };
        if let Some(diagnostic) = check_labels(self.file, self.json, block, schema.labels) {
            out.push(diagnostic);
            return;
        }
        self.names(block, out);
        let overridden = !self.primary;
        match block.kind.as_str() {
            "terraform" => self.terraform(block, out),
            "language" if !overridden => self.body(block, schema, out),
            "variable" => {
                self.body(block, schema, out);
                self.conditions(block, &VALIDATION, out);
            }
            "output" => {
                let postconditions: Vec<&Block> =
                    block.body.blocks_of_kind("postcondition").collect();
                for postcondition in &postconditions {
                    out.push(
                        Diagnostic::new(crate::codes::UNSUPPORTED_BLOCK, "Postconditions are not allowed", self.at(postcondition.kind_range))
                            .with_detail("Output values may have preconditions, but not postconditions: an output has no result to check after it is evaluated."),
                    );
                }
                self.body_except(block, schema, &["postcondition"], out);
                self.conditions(block, &PRECONDITION, out);
            }
            "locals" => {
                for nested in &block.body.blocks {
                    self.unexpected_block(nested, out);
                }
            }
            "resource" | "data" | "ephemeral" => self.resource(block, schema, out),
            "module" => {
                self.reserved_blocks(block, &["locals", "provider"], "module", out);
                self.meta_lifecycle(block, schema, None, out);
                self.repetition(block, out);
            }
            "provider" => {
                for attr in &block.body.attributes {
                    if matches!(attr.name.as_str(), "count" | "depends_on" | "source") {
                        out.push(
                            Diagnostic::new(crate::codes::RESERVED_ARGUMENT_NAME, "Reserved argument name in provider block", self.at(attr.name_range))
                                .with_detail(format!("The provider argument name \"{}\" is reserved for use by OpenTofu in a future version.", attr.name)),
                        );
                    }
                }
                self.reserved_blocks(block, &["lifecycle", "locals"], "provider", out);
            }
            "check" if !overridden => {
                self.body(block, schema, out);
                self.conditions(block, &ASSERT, out);
            }
            "moved" | "import" if !overridden => self.body(block, schema, out),
            "removed" if !overridden => {
                self.body(block, schema, out);
                if let Some(lifecycle_schema) = schema.nested("lifecycle") {
                    for lifecycle in block.body.blocks_of_kind("lifecycle") {
                        self.body(lifecycle, lifecycle_schema, out);
                    }
                }
            }
            _ => {}
        }
    }

    fn terraform(&self, block: &Block, out: &mut Vec<Diagnostic>) {
        self.body(block, &TERRAFORM, out);
        for nested in &block.body.blocks {
            match nested.kind.as_str() {
                "required_providers" | "provider_meta" => {
                    for inner in &nested.body.blocks {
                        self.unexpected_block(inner, out);
                    }
                }
                "encryption" => self.encryption(nested, out),
                _ => {}
            }
        }
    }

    /// An `encryption` block, two levels deep: its targets, and their
    /// `fallback` blocks (whose own bodies are not read).
    fn encryption(&self, block: &Block, out: &mut Vec<Diagnostic>) {
        self.body(block, &ENCRYPTION, out);
        for nested in &block.body.blocks {
            let Some(schema) = ENCRYPTION.nested(&nested.kind) else {
                continue;
            };
            match nested.kind.as_str() {
                "state" | "plan" => self.body(nested, schema, out),
                "remote_state_data_sources" => {
                    self.body(nested, schema, out);
                    // Every block inside, known or not, is read as a target.
                    let default = schema.nested("default").unwrap_or(&FALLBACK);
                    for inner in &nested.body.blocks {
                        self.body(inner, schema.nested(&inner.kind).unwrap_or(default), out);
                    }
                }
                _ => continue,
            }
            for fallback in nested.body.blocks_of_kind("fallback") {
                self.body(fallback, &FALLBACK, out);
            }
        }
    }

    fn resource(&self, block: &Block, schema: &BlockSchema, out: &mut Vec<Diagnostic>) {
        let kind = block.kind.as_str();
        self.reserved_blocks(block, &["locals"], kind, out);
        match kind {
            "resource" => self.meta_lifecycle(block, schema, None, out),
            "data" => self.meta_lifecycle(
                block,
                schema,
                Some("Invalid data resource lifecycle argument"),
                out,
            ),
            _ => {
                self.meta_lifecycle(
                    block,
                    schema,
                    Some("Invalid lifecycle configuration for ephemeral resource"),
                    out,
                );
                for nested in &block.body.blocks {
                    if matches!(nested.kind.as_str(), "connection" | "provisioner") {
                        out.push(
                            Diagnostic::new(
                                crate::codes::UNSUPPORTED_BLOCK,
                                "Invalid configuration block for ephemeral resource",
                                self.at(nested.header),
                            )
                            .with_detail(format!(
                                "The block type \"{}\" cannot be used in ephemeral resources. This is meant to be used strictly in \"resource\" blocks.",
                                nested.kind
                            )),
                        );
                    }
                }
            }
        }
        for provisioner in block.body.blocks_of_kind("provisioner") {
            self.reserved_blocks(provisioner, &["lifecycle"], "provisioner", out);
        }
        self.repetition(block, out);
    }

    /// A `lifecycle` block of `resource`, `data`, `ephemeral` or `module`
    /// (`schema` is the block's). `special_summary` is the wording for a
    /// managed resource's argument in another kind of block (data and
    /// ephemeral resources accept only `enabled`).
    fn meta_lifecycle(
        &self,
        block: &Block,
        schema: &BlockSchema,
        special_summary: Option<&str>,
        out: &mut Vec<Diagnostic>,
    ) {
        let Some(lifecycle_schema) = schema.nested("lifecycle") else {
            return;
        };
        for lifecycle in block.body.blocks_of_kind("lifecycle") {
            for attr in &lifecycle.body.attributes {
                if lifecycle_schema.defines_argument(&attr.name) {
                    continue;
                }
                match special_summary {
                    Some(summary) if MANAGED_LIFECYCLE_ARGUMENTS.contains(&attr.name.as_str()) => {
                        // The ephemeral wording points at the lifecycle header.
                        let range = if block.kind == "ephemeral" {
                            lifecycle.header
                        } else {
                            attr.name_range
                        };
                        let detail = if block.kind == "ephemeral" {
                            format!("The lifecycle argument \"{}\" cannot be used in ephemeral resources. This is meant to be used strictly in \"resource\" blocks.", attr.name)
                        } else {
                            format!("The lifecycle argument \"{}\" is defined only for managed resources (\"resource\" blocks), and is not valid for data resources.", attr.name)
                        };
                        out.push(
                            Diagnostic::new(
                                crate::codes::UNSUPPORTED_ARGUMENT,
                                summary,
                                self.at(range),
                            )
                            .with_detail(detail),
                        );
                    }
                    _ => out.push(self.unsupported_argument(attr)),
                }
            }
            for nested in &lifecycle.body.blocks {
                match lifecycle_schema.nested(&nested.kind) {
                    Some(condition) => {
                        if let Some(diagnostic) =
                            check_labels(self.file, self.json, nested, condition.labels)
                        {
                            out.push(diagnostic);
                        } else if self.primary {
                            self.body(nested, condition, out);
                        }
                    }
                    None => out.push(self.unsupported_block(nested)),
                }
            }
        }
    }

    /// `validation`/`precondition`/`assert` blocks: read in primary files only.
    fn conditions(&self, block: &Block, condition: &BlockSchema, out: &mut Vec<Diagnostic>) {
        if !self.primary {
            return;
        }
        for nested in block.body.blocks_of_kind(condition.kind) {
            if nested.labels.is_empty() {
                self.body(nested, condition, out);
            }
        }
    }

    fn body(&self, block: &Block, schema: &BlockSchema, out: &mut Vec<Diagnostic>) {
        self.body_except(block, schema, &[], out);
    }

    /// Checks a body against a schema; `already_reported` names nested block
    /// types the caller reports itself. Arguments are required in primary
    /// files only.
    fn body_except(
        &self,
        block: &Block,
        schema: &BlockSchema,
        already_reported: &[&str],
        out: &mut Vec<Diagnostic>,
    ) {
        let body: &Body = &block.body;
        for attr in &body.attributes {
            if !schema.arguments.contains(&attr.name.as_str()) {
                out.push(self.unsupported_argument(attr));
            }
        }
        for nested in &body.blocks {
            if already_reported.contains(&nested.kind.as_str()) {
                continue;
            }
            match schema.nested(&nested.kind) {
                Some(nested_schema) => {
                    if let Some(diagnostic) =
                        check_labels(self.file, self.json, nested, nested_schema.labels)
                    {
                        out.push(diagnostic);
                    }
                }
                None => out.push(self.unsupported_block(nested)),
            }
        }
        let required = if self.primary { schema.required } else { &[] };
        for required in required {
            if body.attribute(required).is_none() {
                let at = if self.json { body.close } else { body.open };
                let at = at.unwrap_or(block.header);
                let at = if self.json {
                    at
                } else {
                    TextRange::empty(at.start)
                };
                out.push(
                    Diagnostic::new(
                        crate::codes::MISSING_REQUIRED_ARGUMENT,
                        "Missing required argument",
                        self.at(at),
                    )
                    .with_detail(format!(
                        "The argument \"{required}\" is required, but no definition was found."
                    )),
                );
            }
        }
    }

    fn unsupported_argument(&self, attr: &Attribute) -> Diagnostic {
        let summary = if self.json {
            "Extraneous JSON object property"
        } else {
            "Unsupported argument"
        };
        Diagnostic::new(
            crate::codes::UNSUPPORTED_ARGUMENT,
            summary,
            self.at(attr.name_range),
        )
        .with_detail(format!(
            "An argument named \"{}\" is not expected here.",
            attr.name
        ))
    }

    fn unsupported_block(&self, block: &Block) -> Diagnostic {
        let (summary, detail) = if self.json {
            (
                "Extraneous JSON object property",
                format!("No argument or block type is named \"{}\".", block.kind),
            )
        } else {
            (
                "Unsupported block type",
                format!("Blocks of type \"{}\" are not expected here.", block.kind),
            )
        };
        Diagnostic::new(
            crate::codes::UNSUPPORTED_BLOCK,
            summary,
            self.at(block.kind_range),
        )
        .with_detail(detail)
    }

    /// A block in a free-form body (`locals`, `required_providers`, `provider_meta`).
    fn unexpected_block(&self, block: &Block, out: &mut Vec<Diagnostic>) {
        out.push(
            Diagnostic::new(
                crate::codes::UNSUPPORTED_BLOCK,
                format!("Unexpected \"{}\" block", block.kind),
                self.at(block.kind_range),
            )
            .with_detail("Blocks are not allowed here."),
        );
    }

    fn reserved_blocks(
        &self,
        block: &Block,
        reserved: &[&str],
        kind: &str,
        out: &mut Vec<Diagnostic>,
    ) {
        for nested in &block.body.blocks {
            if reserved.contains(&nested.kind.as_str()) {
                out.push(
                    Diagnostic::new(crate::codes::RESERVED_BLOCK_TYPE, format!("Reserved block type name in {kind} block"), self.at(nested.kind_range))
                        .with_detail(format!("The block type name \"{}\" is reserved for use by OpenTofu in a future version.", nested.kind)),
                );
            }
        }
    }

    /// `count`, `for_each` and `lifecycle { enabled }` exclude each other.
    fn repetition(&self, block: &Block, out: &mut Vec<Diagnostic>) {
        let mut found: Vec<(&str, TextRange)> = Vec::new();
        for name in ["count", "for_each"] {
            if let Some(attr) = block.body.attribute(name) {
                found.push((name, attr.name_range));
            }
        }
        if let Some(enabled) = block
            .body
            .blocks_of_kind("lifecycle")
            .find_map(|lifecycle| lifecycle.body.attribute("enabled"))
        {
            found.push(("enabled", enabled.name_range));
        }
        if found.len() < 2 {
            return;
        }
        let mut names: Vec<&str> = found.iter().map(|(name, _)| *name).collect();
        names.sort_unstable();
        let quoted: Vec<String> = names.iter().map(|name| format!("\"{name}\"")).collect();
        let listed = match quoted.as_slice() {
            [a, b] => format!("{a} and {b}"),
            [a, b, c] => format!("{a}, {b}, and {c}"),
            _ => quoted.join(", "),
        };
        let start = found
            .iter()
            .map(|(_, r)| r.start)
            .min()
            .unwrap_or(block.header.start);
        let end = found
            .iter()
            .map(|(_, r)| r.end)
            .max()
            .unwrap_or(block.header.end);
        out.push(
            Diagnostic::new(crate::codes::REPETITION_CONFLICT, format!("Invalid combination of {listed}"), self.at(TextRange::new(start, end)))
                .with_detail(format!(
                    "The {listed} meta-arguments are mutually-exclusive. Only one {} be used to be explicit about the number of {} to be created.",
                    // OpenTofu's module message says "should", the others "may".
                    if block.kind == "module" { "should" } else { "may" },
                    match block.kind.as_str() {
                        "data" => "data sources",
                        "ephemeral" => "ephemeral resources",
                        "module" => "module instances",
                        _ => "resources",
                    }
                )),
        );
    }

    /// `invalid-name` and `reserved-variable-name` on labels.
    fn names(&self, block: &Block, out: &mut Vec<Diagnostic>) {
        let (first, second): (Option<&str>, Option<&str>) = match block.kind.as_str() {
            "variable" => (Some("Invalid variable name"), None),
            "output" => (Some("Invalid output name"), None),
            "module" => (Some("Invalid module instance name"), None),
            "resource" => (
                Some("Invalid resource type name"),
                Some("Invalid resource name"),
            ),
            "data" => (
                Some("Invalid data source name"),
                Some("Invalid data resource name"),
            ),
            "ephemeral" => (
                Some("Invalid ephemeral resource type name"),
                Some("Invalid ephemeral resource name"),
            ),
            "check" => (Some("Invalid check block name"), None),
            "locals" => {
                for attr in &block.body.attributes {
                    if !is_identifier(&attr.name) {
                        out.push(invalid_name(
                            self.at(attr.name_range),
                            "Invalid local value name",
                        ));
                    }
                }
                return;
            }
            _ => (None, None),
        };
        for (label, summary) in block.labels.iter().zip([first, second]) {
            let Some(summary) = summary else { continue };
            if !is_identifier(&label.value) {
                out.push(invalid_name(self.at(label.range), summary));
            } else if block.kind == "variable" && is_reserved_variable_name(&label.value) {
                out.push(
                    Diagnostic::new(crate::codes::RESERVED_VARIABLE_NAME, "Invalid variable name", self.at(label.range)).with_detail(format!(
                        "The variable name \"{}\" is reserved due to its special meaning inside module blocks.",
                        label.value
                    )),
                );
            }
        }
    }
}

fn invalid_name(at: Location, summary: &str) -> Diagnostic {
    Diagnostic::new(crate::codes::INVALID_NAME, summary, at)
        .with_detail("A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.")
}

fn is_reserved_variable_name(name: &str) -> bool {
    matches!(
        name,
        "source"
            | "version"
            | "count"
            | "for_each"
            | "depends_on"
            | "providers"
            | "_"
            | "lifecycle"
            | "locals"
            | "provider"
    )
}

/// `invalid-block-labels`: too many or too few labels, with HCL's wording.
pub(crate) fn check_labels(
    file: FileId,
    json: bool,
    block: &Block,
    label_names: &[&str],
) -> Option<Diagnostic> {
    let kind = &block.kind;
    let n_expected = label_names.len();
    let expected_list = label_names.join(", ");
    if let Some(extra) = block.labels.get(n_expected) {
        let detail = if n_expected == 0 {
            format!("No labels are expected for {kind} blocks.")
        } else {
            format!("Only {n_expected} labels ({expected_list}) are expected for {kind} blocks.")
        };
        return Some(
            Diagnostic::new(
                crate::codes::INVALID_BLOCK_LABELS,
                format!("Extraneous label for {kind}"),
                Location::new(file, extra.range),
            )
            .with_detail(detail),
        );
    }
    let missing = label_names.get(block.labels.len())?;
    let at = block
        .body
        .open
        .unwrap_or(TextRange::new(block.header.end, block.header.end));
    let summary = if json {
        "Missing block label".to_owned()
    } else {
        format!("Missing {missing} for {kind}")
    };
    Some(
        Diagnostic::new(
            crate::codes::INVALID_BLOCK_LABELS,
            summary,
            Location::new(file, at),
        )
        .with_detail(format!(
            "All {kind} blocks must have {n_expected} labels ({expected_list})."
        )),
    )
}

/// `duplicate-block` for `import` blocks of the primary files whose `to`
/// addresses are fully static and equal (`diagnostics.md` §4.2).
pub(crate) fn duplicate_imports(view: &ModuleView<'_>, out: &mut Vec<Diagnostic>) {
    let mut seen: Vec<(String, Location)> = Vec::new();
    for block_ref in &view.declarations().other {
        if view
            .name(block_ref.file)
            .is_some_and(|name| name.ends_with(".json"))
        {
            continue;
        }
        let Some(block) = view.block(*block_ref) else {
            continue;
        };
        if block.kind != "import" {
            continue;
        }
        let Some(address) = block
            .body
            .attribute("to")
            .and_then(|to| static_address(&to.expr))
        else {
            continue;
        };
        let here = Location::new(block_ref.file, block.header);
        match seen.iter().find(|(other, _)| *other == address) {
            Some((_, first)) => out.push(
                Diagnostic::new(crate::codes::DUPLICATE_BLOCK, format!("Duplicate import configuration for \"{address}\""), here)
                    .with_detail(format!(
                        "An import block for the resource \"{address}\" was already declared at {}. A resource can have only one import block.",
                        view.describe(*first)
                    ))
                    .with_related(*first, "first declared here"),
            ),
            None => seen.push((address, here)),
        }
    }
}

/// The text of a reference whose index keys are all constants, e.g.
/// `module.a["x"].aws_instance.b[0]`; `None` when anything is dynamic.
fn static_address(expr: &tofu_syntax::Expr) -> Option<String> {
    let ExprKind::Traversal(traversal) = &expr.kind else {
        return None;
    };
    let mut text = traversal.root.clone();
    for step in &traversal.steps {
        match step {
            TraversalStep::Attr { name, .. } => {
                text.push('.');
                text.push_str(name);
            }
            TraversalStep::Index { key, .. } => match &key.kind {
                ExprKind::Number(number) => text.push_str(&format!("[{number}]")),
                ExprKind::String(value) => text.push_str(&format!("[{value:?}]")),
                _ => return None,
            },
            TraversalStep::Splat { .. } => return None,
        }
    }
    Some(text)
}
