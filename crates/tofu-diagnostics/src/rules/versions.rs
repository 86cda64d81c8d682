//! OpenTofu versions and language settings (`diagnostics.md` §2.5, §4.4–§4.6):
//! the constraints OpenTofu checks against `tofuVersion`
//! (`language.compatible_with.opentofu` anywhere, `required_version` in
//! `.tofu`/`.tofu.json` files), the `.tf` `required_version` it ignores, editions,
//! experiments, `terraform` settings 1.12 ignores, and version constraints
//! elsewhere (provider blocks, `required_providers`).
//!
//! Constraints are constants: `null` means none, numbers and bools become
//! strings, references and calls are errors. Nothing here evaluates anything.

use tofu_syntax::{
    Attribute, Block, Diagnostic, ExprKind, FileId, Fix, Location, Severity, TextRange,
};

use crate::rules::views::ModuleView;
use tofu_module::discovery;
use tofu_module::loaded::{is_tofu_name, FileRole, ModuleFile};
use tofu_module::schema::has_valid_labels;
use tofu_module::version::MALFORMED_DETAIL;
use tofu_module::version::{Constraints, Version};

/// The version older than every release that understands `language` blocks.
const LAST_RELEASE_WITHOUT_LANGUAGE_BLOCKS: &str = "1.11.0";

/// Checks the module's version constraints. It reads the files with
/// `language`, `terraform` or `provider` blocks, and the primary `.tofu`
/// files a fix may append to.
pub(crate) fn check(view: &ModuleView<'_>, out: &mut Vec<Diagnostic>) {
    let tofu_version = view.config().parsed_tofu_version();
    let mut ignored = Vec::new();
    for file_id in loaded_files(view) {
        let blocks = view.blocks_of_kinds(file_id, &["language", "terraform", "provider"]);
        if blocks.is_empty() {
            continue;
        }
        let Some(file) = view.file(file_id) else {
            continue;
        };
        let checker = FileChecker {
            view,
            file,
            file_id,
            tofu_version: &tofu_version,
        };
        for (_, block) in blocks {
            match block.kind.as_str() {
                _ if !has_valid_labels(block) => {}
                "language" => checker.language(block, out),
                "terraform" => checker.terraform(block, &mut ignored, out),
                _ => checker.provider(block, out),
            }
        }
    }
    report_ignored_required_versions(view, &tofu_version, ignored, out);
}

/// The files OpenTofu loads, in file order.
fn loaded_files<'a>(view: &'a ModuleView<'_>) -> impl Iterator<Item = FileId> + 'a {
    view.file_ids()
        .filter(|&id| view.role(id).is_some_and(FileRole::is_loaded))
}

/// A `required_version` in a `.tf`/`.tf.json` file, which OpenTofu ignores.
struct IgnoredRequiredVersion<'a> {
    file_id: FileId,
    file: &'a ModuleFile,
    attr: &'a Attribute,
}

impl IgnoredRequiredVersion<'_> {
    /// What makes two of them the same: the constraint as OpenTofu would read
    /// it, or the expression as written when it is no constant.
    fn key(&self) -> String {
        match constraint_text(self.file, self.attr) {
            ConstraintText::Text(text) => text.trim().to_owned(),
            _ => self.attr.expr.range.slice(&self.file.text).to_owned(),
        }
    }
}

/// One `required-version-ignored` per distinct constraint of the module, on
/// its first place in loading order (primary files first); the places that
/// repeat it (a `versions_override.tf` restating `versions.tf`) are related
/// places of that one diagnostic.
fn report_ignored_required_versions(
    view: &ModuleView<'_>,
    tofu_version: &Version,
    mut ignored: Vec<IgnoredRequiredVersion<'_>>,
    out: &mut Vec<Diagnostic>,
) {
    if ignored.is_empty() {
        return;
    }
    ignored.sort_by_key(|place| (place.file.role != FileRole::Primary, place.file_id));
    let reads_a_constraint = module_declares_checked_constraint(view);
    let mut reported: Vec<(String, usize)> = Vec::new();
    for place in &ignored {
        let key = place.key();
        if let Some(&(_, index)) = reported.iter().find(|(seen, _)| *seen == key) {
            if let Some(first) = out.get_mut(index) {
                first.related.push(tofu_syntax::Related {
                    location: Location::new(place.file_id, place.attr.range),
                    message: "the same constraint, also ignored".to_owned(),
                });
            }
            continue;
        }
        let checker = FileChecker {
            view,
            file: place.file,
            file_id: place.file_id,
            tofu_version,
        };
        reported.push((key, out.len()));
        out.push(checker.required_version_ignored(place.attr, reads_a_constraint));
    }
}

/// True when the module has a constraint OpenTofu reads: any
/// `compatible_with.opentofu` (override files included) or a `.tofu`
/// `required_version`.
fn module_declares_checked_constraint(view: &ModuleView<'_>) -> bool {
    loaded_files(view).any(|file_id| {
        let is_tofu = view.name(file_id).is_some_and(is_tofu_name);
        view.blocks_of_kinds(file_id, &["language", "terraform"])
            .into_iter()
            .any(|(_, block)| match block.kind.as_str() {
                "language" => block
                    .body
                    .blocks_of_kind("compatible_with")
                    .any(|c| c.body.attribute("opentofu").is_some()),
                _ => is_tofu && block.body.attribute("required_version").is_some(),
            })
    })
}

/// A constraint's value as OpenTofu reads constants.
enum ConstraintText {
    /// `null`: no constraint.
    None,
    Text(String),
    Invalid {
        summary: &'static str,
        detail: String,
    },
}

fn constraint_text(file: &ModuleFile, attr: &Attribute) -> ConstraintText {
    let expr = &attr.expr;
    match &expr.kind {
        ExprKind::Null => ConstraintText::None,
        ExprKind::String(text) => ConstraintText::Text(text.clone()),
        // JSON takes constant-evaluated strings verbatim, `${` included.
        ExprKind::Template(_) if file.is_json() => {
            let raw = expr.range.slice(&file.text);
            ConstraintText::Text(
                raw.get(1..raw.len().saturating_sub(1))
                    .unwrap_or_default()
                    .to_owned(),
            )
        }
        ExprKind::Number(number) => ConstraintText::Text(number.clone()),
        ExprKind::Bool(value) => ConstraintText::Text(value.to_string()),
        ExprKind::Call(_) => ConstraintText::Invalid {
            summary: "Function calls not allowed",
            detail: "Functions may not be called here.".to_owned(),
        },
        ExprKind::Traversal(_) | ExprKind::Template(_) => ConstraintText::Invalid {
            summary: "Variables not allowed",
            detail: "Variables may not be used here.".to_owned(),
        },
        _ => ConstraintText::Invalid {
            summary: "Invalid version constraint",
            detail: format!("A string value is required for {}.", attr.name),
        },
    }
}

struct FileChecker<'a> {
    view: &'a ModuleView<'a>,
    file: &'a ModuleFile,
    file_id: FileId,
    tofu_version: &'a Version,
}

impl FileChecker<'_> {
    fn at(&self, range: TextRange) -> Location {
        Location::new(self.file_id, range)
    }

    /// `invalid-version-constraint` for a constraint that is not a constant string.
    fn not_a_constant(&self, attr: &Attribute, summary: &str, detail: String) -> Diagnostic {
        Diagnostic::new(
            crate::codes::INVALID_VERSION_CONSTRAINT,
            summary,
            self.at(attr.expr.range),
        )
        .with_detail(detail)
    }

    fn is_override(&self) -> bool {
        self.file.role == FileRole::Override
    }

    /// Parses a constraint OpenTofu checks against its own version and reports
    /// what is wrong with it. Returns the parsed constraints when valid.
    fn checked_constraint(
        &self,
        attr: &Attribute,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Constraints> {
        let text = match constraint_text(self.file, attr) {
            ConstraintText::None => return None,
            ConstraintText::Text(text) => text,
            ConstraintText::Invalid { summary, detail } => {
                out.push(self.not_a_constant(attr, summary, detail));
                return None;
            }
        };
        let constraints = match Constraints::parse(&text) {
            Ok(constraints) => constraints,
            Err(_) => {
                out.push(
                    Diagnostic::new(
                        crate::codes::INVALID_VERSION_CONSTRAINT,
                        "Invalid version constraint",
                        self.at(attr.expr.range),
                    )
                    .with_detail(MALFORMED_DETAIL),
                );
                return None;
            }
        };
        if let Some(prerelease) = constraints.first_prerelease() {
            out.push(
                Diagnostic::new(crate::codes::INVALID_VERSION_CONSTRAINT, "Invalid required_version constraint", self.at(attr.range))
                    .with_detail(format!(
                        "Prerelease version constraints are not supported: {}. Remove the prerelease information from the constraint. Prerelease versions of OpenTofu will match constraints using their version core only.",
                        prerelease.text
                    )),
            );
            return None;
        }
        if !constraints.accepts(self.tofu_version) {
            out.push(
                Diagnostic::new(crate::codes::INCOMPATIBLE_TOFU_VERSION, "Incompatible module", self.at(attr.range)).with_detail(format!(
                    "This module is not compatible with OpenTofu v{}.\n\nTo proceed, either choose another supported OpenTofu version or update this version constraint. Version constraints are normally set for good reason, so updating the constraint may lead to other errors or unexpected behavior.",
                    self.tofu_version
                )),
            );
        }
        Some(constraints)
    }

    fn language(&self, block: &Block, out: &mut Vec<Diagnostic>) {
        // The version check runs on every file before decoding, override files too.
        let mut first_with_opentofu: Option<&Block> = None;
        for compatible_with in block.body.blocks_of_kind("compatible_with") {
            if let Some(first) = first_with_opentofu {
                if !self.is_override() {
                    out.push(
                        Diagnostic::new(crate::codes::DUPLICATE_COMPATIBLE_WITH, "Duplicate compatible_with block", self.at(block.header))
                            .with_detail("A language block may declare OpenTofu's compatible versions only once; merge the constraints into the first compatible_with block.")
                            .with_related(self.at(compatible_with.header), "the second compatible_with block")
                            .with_related(self.at(first.header), "the first one"),
                    );
                }
                continue;
            }
            let Some(attr) = compatible_with.body.attribute("opentofu") else {
                continue;
            };
            first_with_opentofu = Some(compatible_with);
            let Some(constraints) = self.checked_constraint(attr, out) else {
                continue;
            };
            let old_release = Version::parse(LAST_RELEASE_WITHOUT_LANGUAGE_BLOCKS).ok();
            if !self.is_override() && old_release.is_some_and(|v| constraints.accepts(&v)) {
                out.push(
                    Diagnostic::new(crate::codes::INEFFECTIVE_VERSION_CONSTRAINT, "Ineffective version constraint", self.at(attr.range))
                        .with_detail("This constraint accepts OpenTofu 1.11 and earlier, which do not read language blocks: they will load this module without checking it. Raise the lower bound to at least 1.12.0, or constrain older releases with required_version in a .tofu file."),
                );
            }
        }
        if self.is_override() {
            return;
        }
        if let Some(edition) = block.body.attribute("edition") {
            self.edition(edition, out);
        }
        if let Some(experiments) = block.body.attribute("experiments") {
            self.experiments(experiments, out);
        }
    }

    fn edition(&self, attr: &Attribute, out: &mut Vec<Diagnostic>) {
        let keyword = match &attr.expr.kind {
            ExprKind::String(text) if self.file.is_json() => Some(text.as_str()),
            _ => attr.expr.as_keyword(),
        };
        let version = self.tofu_version;
        let (summary, detail) = match keyword {
            Some("tofu2024") => return,
            None => (
                "Invalid language edition",
                format!("The \"edition\" argument expects a bare language edition keyword. OpenTofu {version} supports only language edition tofu2024, which is the default."),
            ),
            Some(keyword) if keyword.starts_with("TF") => (
                "Unsupported language edition",
                format!("OpenTofu v{version} does not support language edition \"tofu2024\". This module may be intended for use with other software."),
            ),
            Some(keyword) => {
                let relation = if keyword.as_bytes() > "tofu2024".as_bytes() { "newer" } else { "different" };
                (
                    "Unsupported language edition",
                    format!("OpenTofu v{version} only supports language edition tofu2024. This module requires a {relation} version of OpenTofu CLI."),
                )
            }
        };
        out.push(
            Diagnostic::new(
                crate::codes::UNSUPPORTED_EDITION,
                summary,
                self.at(attr.expr.range),
            )
            .with_detail(detail)
            .with_fix(
                Fix::new("Use edition tofu2024")
                    .with_edit(
                        self.file_id,
                        attr.expr.range,
                        if self.file.is_json() {
                            "\"tofu2024\""
                        } else {
                            "tofu2024"
                        },
                    )
                    .safe(),
            ),
        );
    }

    fn experiments(&self, attr: &Attribute, out: &mut Vec<Diagnostic>) {
        let Some(items) = attr.expr.as_array() else {
            out.push(
                Diagnostic::new(
                    crate::codes::UNSUPPORTED_EXPERIMENT,
                    "Invalid expression",
                    self.at(attr.expr.range),
                )
                .with_detail("A static list expression is required."),
            );
            return;
        };
        for item in items {
            let keyword = match &item.kind {
                ExprKind::String(text) if self.file.is_json() => Some(text.as_str()),
                _ => item.as_keyword(),
            };
            let diagnostic = match keyword {
                Some(keyword) => Diagnostic::new(
                    crate::codes::UNSUPPORTED_EXPERIMENT,
                    "Unknown experiment keyword",
                    self.at(item.range),
                )
                .with_detail(format!(
                    "There is no current experiment with the keyword \"{keyword}\"."
                )),
                None => Diagnostic::new(
                    crate::codes::UNSUPPORTED_EXPERIMENT,
                    "Invalid experiment keyword",
                    self.at(item.range),
                )
                .with_detail(
                    "A keyword is required here, naming an experiment: OpenTofu 1.12 has none.",
                ),
            };
            out.push(diagnostic);
        }
    }

    fn terraform<'a>(
        &self,
        block: &'a Block,
        ignored: &mut Vec<IgnoredRequiredVersion<'a>>,
        out: &mut Vec<Diagnostic>,
    ) where
        Self: 'a,
    {
        for attr in &block.body.attributes {
            match attr.name.as_str() {
                "required_version" if self.file.is_tofu() => {
                    self.checked_constraint(attr, out);
                }
                "required_version" => ignored.push(IgnoredRequiredVersion {
                    file_id: self.file_id,
                    file: self.file,
                    attr,
                }),
                "experiments" | "language" => out.push(
                    Diagnostic::new(
                        crate::codes::TERRAFORM_SETTING_IGNORED,
                        format!("The terraform block's \"{}\" argument is ignored by OpenTofu", attr.name),
                        self.at(attr.range),
                    )
                    .with_detail(format!(
                        "OpenTofu 1.12 ignores \"{}\" in terraform blocks without validating it: it is a Terraform setting. OpenTofu's own settings go in a language block.",
                        attr.name
                    )),
                ),
                _ => {}
            }
        }
        for required_providers in block.body.blocks_of_kind("required_providers") {
            for entry in &required_providers.body.attributes {
                self.provider_requirement(entry, out);
            }
        }
    }

    /// The `version` of a `required_providers` entry: syntax only.
    fn provider_requirement(&self, entry: &Attribute, out: &mut Vec<Diagnostic>) {
        let version = match &entry.expr.kind {
            ExprKind::String(_) | ExprKind::Number(_) => Some(entry),
            _ => None,
        };
        if let Some(shorthand) = version {
            self.syntax_only_constraint(shorthand, out);
            return;
        }
        let Some(items) = entry.expr.as_object() else {
            return;
        };
        for item in items {
            let key = item.key.as_keyword().or(item.key.as_str());
            if key != Some("version") {
                continue;
            }
            match &item.value.kind {
                ExprKind::String(text) => self.report_malformed(text, item.value.range, out),
                ExprKind::Template(_) if self.file.is_json() => {}
                ExprKind::Null => {}
                _ => out.push(
                    Diagnostic::new(
                        crate::codes::INVALID_VERSION_CONSTRAINT,
                        "Invalid version constraint",
                        self.at(item.value.range),
                    )
                    .with_detail("Version must be specified as a string."),
                ),
            }
        }
    }

    fn syntax_only_constraint(&self, attr: &Attribute, out: &mut Vec<Diagnostic>) {
        match constraint_text(self.file, attr) {
            ConstraintText::None => {}
            ConstraintText::Text(text) => self.report_malformed(&text, attr.expr.range, out),
            ConstraintText::Invalid { summary, detail } => {
                out.push(self.not_a_constant(attr, summary, detail));
            }
        }
    }

    fn report_malformed(&self, text: &str, range: TextRange, out: &mut Vec<Diagnostic>) {
        if Constraints::parse(text).is_err() {
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_VERSION_CONSTRAINT,
                    "Invalid version constraint",
                    self.at(range),
                )
                .with_detail(MALFORMED_DETAIL),
            );
        }
    }

    fn provider(&self, block: &Block, out: &mut Vec<Diagnostic>) {
        let Some(version) = block.body.attribute("version") else {
            return;
        };
        out.push(
            Diagnostic::new(
                crate::codes::PROVIDER_VERSION_DEPRECATED,
                "Version constraints inside provider configuration blocks are deprecated",
                self.at(version.expr.range),
            )
            .with_detail("OpenTofu 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of OpenTofu. To silence this warning, move the provider version constraint into the required_providers block."),
        );
        self.syntax_only_constraint(version, out);
    }

    /// `required-version-ignored` (`diagnostics.md` §4.5, with issue 16's
    /// severity): a **warning** only when the ignored constraint would reject
    /// the configured OpenTofu version and the module declares no constraint
    /// OpenTofu reads, since only then does ignoring it change anything; a
    /// **hint** otherwise (it accepts the version, it cannot be read as a
    /// constraint, or a constraint for OpenTofu sits beside it).
    fn required_version_ignored(&self, attr: &Attribute, reads_a_constraint: bool) -> Diagnostic {
        let mut detail = String::from(
            "OpenTofu 1.12 ignores required_version in .tf and .tf.json files, assuming it constrains Terraform; it does not even check its syntax. To constrain OpenTofu, use a language block (language { compatible_with { opentofu = \"…\" } }) or required_version in a .tofu file.",
        );
        let constraint = match constraint_text(self.file, attr) {
            ConstraintText::Text(text) => Constraints::parse(&text).ok().map(|c| (text, c)),
            _ => None,
        };
        let rejects_tofu_version = constraint
            .as_ref()
            .is_some_and(|(_, constraints)| !constraints.accepts(self.tofu_version));
        if constraint.is_some() {
            let verdict = if rejects_tofu_version {
                "would not accept OpenTofu v{V}: OpenTofu loads the module anyway, although the constraint excludes this version"
            } else {
                "would accept OpenTofu v{V}, so ignoring it changes nothing for this version"
            };
            detail.push_str(&format!(
                " This constraint {}.",
                verdict.replace("{V}", &self.tofu_version.to_string())
            ));
        }
        let severity = if rejects_tofu_version && !reads_a_constraint {
            Severity::Warning
        } else {
            Severity::Hint
        };
        if reads_a_constraint {
            detail.push_str(" The module also declares a constraint OpenTofu reads, so this one is evidently meant for Terraform.");
        }
        let mut diagnostic = Diagnostic::new(
            crate::codes::REQUIRED_VERSION_IGNORED,
            "required_version in a .tf file is ignored by OpenTofu",
            self.at(attr.range),
        )
        .with_severity(severity)
        .with_detail(detail);
        if let (Some((text, constraints)), false) = (constraint, reads_a_constraint) {
            if let Some(fix) = self.required_version_fix(&text, &constraints) {
                diagnostic = diagnostic.with_fix(fix);
            }
        }
        diagnostic
    }

    /// Declares the constraint where OpenTofu reads it: in a `.tofu` file that
    /// hides no `.tf` file (a new `versions.tofu` next to `versions.tf` would
    /// hide all of `versions.tf`).
    ///
    /// The constraint written never rejects the configured OpenTofu version:
    /// one that does is replaced by its lower bound (`~> 1.11.0` becomes
    /// `>= 1.11.0`), and when that still rejects it there is no fix.
    fn required_version_fix(&self, text: &str, constraints: &Constraints) -> Option<Fix> {
        let (written, constraints) = if constraints.accepts(self.tofu_version) {
            (text.trim().to_owned(), constraints.clone())
        } else {
            let bound = constraints.lower_bound()?;
            if !bound.accepts(self.tofu_version) {
                return None;
            }
            let text = bound.text.clone();
            (
                text,
                Constraints {
                    elements: vec![bound],
                },
            )
        };
        let quoted = format!("\"{}\"", written.replace('\\', "\\\\").replace('"', "\\\""));
        let excludes_old = Version::parse(LAST_RELEASE_WITHOUT_LANGUAGE_BLOCKS)
            .map(|old| !constraints.accepts(&old))
            .unwrap_or(false);
        let snippet = if excludes_old {
            format!("language {{\n  compatible_with {{\n    opentofu = {quoted}\n  }}\n}}\n")
        } else {
            format!("terraform {{\n  required_version = {quoted}\n}}\n")
        };
        let title = if excludes_old {
            format!("Constrain OpenTofu to {quoted} in a language block (.tofu file)")
        } else {
            format!("Constrain OpenTofu to {quoted} in a .tofu file")
        };
        // Append to an existing primary .tofu file (not JSON) if there is one.
        let existing = self.view.primary_files().iter().copied().find(|&id| {
            self.view
                .name(id)
                .is_some_and(|name| name.ends_with(".tofu"))
                && self
                    .view
                    .file(id)
                    .is_some_and(|file| file.read_error.is_none())
        });
        if let Some(id) = existing {
            let file = self.view.file(id)?;
            let end = tofu_syntax::text::to_u32(file.text.len());
            let separator = if file.text.is_empty() || file.text.ends_with('\n') {
                "\n"
            } else {
                "\n\n"
            };
            return Some(Fix::new(title).with_edit(
                id,
                TextRange::empty(end),
                format!("{separator}{snippet}"),
            ));
        }
        let taken = |name: &str| {
            let base = name.trim_end_matches(".tofu");
            self.view.file_ids().filter_map(|id| self.view.name(id)).any(|file_name| {
                file_name == name
                    || matches!(discovery::classify(file_name), discovery::FileClass::Config { base_name, .. } if base_name == base)
            })
        };
        let name = [
            "tofu_version.tofu",
            "opentofu_version.tofu",
            "tofu_version_constraint.tofu",
        ]
        .into_iter()
        .find(|name| !taken(name))?;
        Some(Fix::new(format!("{title}: create {name}")).with_new_file(name, snippet))
    }
}
