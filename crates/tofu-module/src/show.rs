//! The effective configuration as HCL native syntax with provenance comments:
//! what `tofu-lens show` prints and what hover puts in its code block.
//!
//! Values are slices of the user's own source (JSON values are valid HCL
//! expressions too), re-indented but never reprinted; a JSON property that
//! replaced native nested blocks is shown as the blocks it stands for, its
//! objects' properties as their arguments. Single-line attributes
//! get a trailing `# file:line` comment; a heredoc gets it on the line above,
//! where it cannot change the heredoc.

use std::fmt::Write as _;

use tofu_syntax::{Body, Expr, ExprKind, TextRange};

use crate::effective::*;
use crate::loaded::FileRole;
use crate::merge::MergedModule;

/// Which parts carry a provenance comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provenance {
    /// Every part names where it came from, and what it superseded (`show`).
    Full,
    /// Only parts that came from override files (hover).
    OverridesOnly,
}

/// One output line: code, and an optional comment aligned with its siblings.
struct Line {
    indent: usize,
    code: String,
    comment: Option<String>,
}

struct Renderer<'a> {
    module: &'a MergedModule,
    provenance: Provenance,
    lines: Vec<Line>,
}

/// Renders one effective block.
pub fn render_block(
    module: &MergedModule,
    block: &EffectiveBlock,
    provenance: Provenance,
) -> String {
    let mut renderer = Renderer::new(module, provenance);
    let header = header_text(&block.kind, &block.labels);
    let comment = match (provenance, block.base) {
        (Provenance::Full, Some(base)) => {
            let mut text = renderer.place(Origin {
                file: base.file,
                range: module.block(base).map(|b| b.header).unwrap_or_default(),
            });
            for over in &block.overrides {
                let range = module.block(*over).map(|b| b.header).unwrap_or_default();
                text.push_str(&format!(
                    ", changed by {}",
                    renderer.place(Origin {
                        file: over.file,
                        range
                    })
                ));
            }
            Some(text)
        }
        (Provenance::Full, None) => block.overrides.first().map(|over| {
            let range = module.block(*over).map(|b| b.header).unwrap_or_default();
            format!(
                "{} (no base: introduced by this override)",
                renderer.place(Origin {
                    file: over.file,
                    range
                })
            )
        }),
        (Provenance::OverridesOnly, _) => None,
    };
    if is_empty(&block.body) {
        renderer.push(0, format!("{header} {{}}"), comment);
    } else {
        renderer.push(0, format!("{header} {{"), comment);
        renderer.body(&block.body, 1, None);
        renderer.push(0, "}".to_owned(), None);
    }
    renderer.finish()
}

/// Renders one top-level block of `file` exactly as written, without merging:
/// what hover shows for a block that has no effective view (an override with
/// no base, a block OpenTofu rejects or drops, a `moved` block).
pub fn render_as_written(
    module: &MergedModule,
    file: tofu_syntax::FileId,
    block: &tofu_syntax::Block,
    provenance: Provenance,
) -> String {
    let mut renderer = Renderer::new(module, provenance);
    let labels: Vec<String> = block.labels.iter().map(|l| l.value.clone()).collect();
    let header = header_text(&block.kind, &labels);
    let body = EffectiveBody::as_written(file, &block.body);
    if is_empty(&body) {
        renderer.push(0, format!("{header} {{}}"), None);
    } else {
        renderer.push(0, format!("{header} {{"), None);
        renderer.body(&body, 1, None);
        renderer.push(0, "}".to_owned(), None);
    }
    renderer.finish()
}

/// True when `attr` is a JSON property that replaced native nested blocks of
/// its name and stands for blocks itself (an object, or an array of
/// objects): rendered as those blocks, and described as blocks by hover.
pub fn replaces_blocks(module: &MergedModule, attr: &EffectiveAttribute) -> bool {
    Renderer::new(module, Provenance::OverridesOnly)
        .json_blocks(attr)
        .is_some()
}

fn is_empty(body: &EffectiveBody) -> bool {
    body.attributes.is_empty() && body.blocks.is_empty()
}

/// Renders local values as one `locals` block.
pub fn render_locals<'a>(
    module: &MergedModule,
    locals: impl IntoIterator<Item = &'a EffectiveLocal>,
    provenance: Provenance,
) -> String {
    let mut renderer = Renderer::new(module, provenance);
    renderer.push(0, "locals {".to_owned(), None);
    let attributes: Vec<&EffectiveAttribute> =
        locals.into_iter().map(|local| &local.attribute).collect();
    renderer.attributes(&attributes, 1, None);
    renderer.push(0, "}".to_owned(), None);
    renderer.finish()
}

/// Renders the synthesized `terraform` view (`merging.md` §6.9).
pub fn render_terraform(module: &MergedModule, provenance: Provenance) -> String {
    let view = &module.effective.terraform;
    let mut renderer = Renderer::new(module, provenance);
    renderer.push(0, "terraform {".to_owned(), None);
    for required in &view.required_versions {
        let value = renderer.value_text(&required.attribute, 1);
        let place = renderer.place(required.attribute.origin);
        if required.checked {
            renderer.push(
                1,
                format!("required_version = {value}"),
                Some(format!("{place} (checked by OpenTofu)")),
            );
        } else {
            renderer.push(
                1,
                format!("# required_version = {value}"),
                Some(format!("{place} (ignored by OpenTofu 1.12: .tf file)")),
            );
        }
    }
    if !view.required_providers.is_empty() {
        renderer.push(1, "required_providers {".to_owned(), None);
        let entries: Vec<&EffectiveAttribute> = view.required_providers.iter().collect();
        renderer.attributes(&entries, 2, None);
        renderer.push(1, "}".to_owned(), None);
    }
    let nested: Vec<&EffectiveNestedBlock> = view
        .backend
        .iter()
        .chain(view.encryption.iter())
        .chain(view.provider_meta.iter())
        .collect();
    for block in nested {
        renderer.nested_block(block, 1, None);
    }
    renderer.push(0, "}".to_owned(), None);
    renderer.finish()
}

/// Renders the whole module: the terraform view, local values, then every
/// block in order of declaration.
pub fn render_module(module: &MergedModule, provenance: Provenance) -> String {
    let mut parts = Vec::new();
    if !module.effective.terraform.blocks.is_empty() {
        parts.push(render_terraform(module, provenance));
    }
    if !module.effective.locals.is_empty() {
        parts.push(render_locals(
            module,
            module.effective.locals.iter().map(|local| &**local),
            provenance,
        ));
    }
    for block in &module.effective.blocks {
        parts.push(render_block(module, block, provenance));
    }
    parts.join("\n")
}

fn header_text(kind: &str, labels: &[String]) -> String {
    let mut header = kind.to_owned();
    for label in labels {
        header.push_str(" \"");
        header.push_str(&label.replace('\\', "\\\\").replace('"', "\\\""));
        header.push('"');
    }
    header
}

impl<'a> Renderer<'a> {
    fn new(module: &'a MergedModule, provenance: Provenance) -> Renderer<'a> {
        Renderer {
            module,
            provenance,
            lines: Vec::new(),
        }
    }

    fn push(&mut self, indent: usize, code: String, comment: Option<String>) {
        self.lines.push(Line {
            indent,
            code,
            comment,
        });
    }

    /// `file:line` of an origin.
    fn place(&self, origin: Origin) -> String {
        self.module.place(origin.file, origin.range.start)
    }

    fn is_override(&self, origin: Origin) -> bool {
        self.module
            .file(origin.file)
            .is_some_and(|file| file.role == FileRole::Override)
    }

    /// The comment for a part, given the origin of the block around it (parts
    /// written in the same block as their parent need no comment of their own).
    fn comment_for(&self, origin: Origin, parent: Option<Origin>) -> Option<String> {
        let same_as_parent =
            parent.is_some_and(|p| p.file == origin.file && p.range.start <= origin.range.start);
        match self.provenance {
            Provenance::Full if !same_as_parent => Some(self.place(origin)),
            Provenance::OverridesOnly if !same_as_parent && self.is_override(origin) => {
                Some(self.place(origin))
            }
            _ => None,
        }
    }

    fn superseded_comment(&self, superseded: &[Origin]) -> Option<String> {
        if self.provenance != Provenance::Full || superseded.is_empty() {
            return None;
        }
        let places: Vec<String> = superseded
            .iter()
            .map(|origin| self.place(*origin))
            .collect();
        Some(format!("overrides {}", places.join(", ")))
    }

    /// The value's source text, continuation lines re-indented to `indent`.
    fn value_text(&self, attr: &EffectiveAttribute, indent: usize) -> String {
        let Some(file) = self.module.file(attr.origin.file) else {
            return String::new();
        };
        let text = attr.value.slice(&file.text);
        // JSON writes a type constraint as a string (`"type": "list(string)"`);
        // in native syntax that is the bare type.
        if file.is_json()
            && attr.name == "type"
            && text.len() >= 2
            && text.starts_with('"')
            && !text.contains('\\')
        {
            return text.trim_matches('"').to_owned();
        }
        if text.starts_with("<<") || !text.contains('\n') {
            return text.trim_end_matches(['\r', '\n']).to_owned();
        }
        let line = file.line_index.line_of(attr.origin.range.start);
        let original_indent: String = file
            .line_index
            .line_text(&file.text, line)
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect();
        let new_indent = "  ".repeat(indent);
        let mut lines = text.lines();
        let mut out = lines.next().unwrap_or_default().to_owned();
        for line in lines {
            out.push('\n');
            out.push_str(&new_indent);
            out.push_str(
                line.trim_end_matches('\r')
                    .strip_prefix(original_indent.as_str())
                    .unwrap_or(line.trim_start()),
            );
        }
        out
    }

    fn attributes(
        &mut self,
        attributes: &[&EffectiveAttribute],
        indent: usize,
        parent: Option<Origin>,
    ) {
        let (as_blocks, attributes): (Vec<&EffectiveAttribute>, Vec<&EffectiveAttribute>) =
            attributes
                .iter()
                .partition(|attr| self.json_blocks(attr).is_some());
        self.plain_attributes(&attributes, indent, parent);
        for attr in as_blocks {
            self.json_property_as_blocks(attr, indent, parent);
        }
    }

    fn plain_attributes(
        &mut self,
        attributes: &[&EffectiveAttribute],
        indent: usize,
        parent: Option<Origin>,
    ) {
        let width = attributes
            .iter()
            .filter(|attr| !self.value_text(attr, indent).contains('\n'))
            .map(|attr| attr.name.chars().count())
            .max()
            .unwrap_or(0);
        for attr in attributes {
            let value = self.value_text(attr, indent);
            let comment = self.comment_for(attr.origin, parent);
            let superseded = self.superseded_comment(&attr.superseded);
            if value.contains('\n') {
                if value.starts_with("<<") {
                    if let Some(comment) = comment {
                        self.push(indent, format!("# {comment}"), None);
                    }
                    self.push(indent, format!("{} = {value}", attr.name), None);
                } else {
                    self.push(indent, format!("{} = {value}", attr.name), comment);
                }
            } else {
                self.push(indent, format!("{:width$} = {value}", attr.name), comment);
            }
            if let Some(superseded) = superseded {
                self.push(indent, String::new(), Some(superseded));
            }
        }
    }

    /// The bodies a JSON property stands for when it replaced native nested
    /// blocks of its name (`merging.md` §3 rule 2 across syntaxes: an object
    /// is one block, an array of objects one block each): what OpenTofu
    /// makes of it, so it is shown as those blocks, not as a JSON value.
    /// `None` for any other attribute.
    fn json_blocks(&self, attr: &EffectiveAttribute) -> Option<Vec<&'a Expr>> {
        let file = self.module.file(attr.origin.file)?;
        if !file.is_json() {
            return None;
        }
        let replaced_blocks = attr
            .superseded
            .iter()
            .any(|origin| self.is_nested_block_header(*origin));
        if !replaced_blocks {
            return None;
        }
        let written = file.attribute_at(attr.origin.range)?;
        match &written.expr.kind {
            ExprKind::Object(_) => Some(vec![&written.expr]),
            ExprKind::Array(items)
                if !items.is_empty()
                    && items
                        .iter()
                        .all(|item| matches!(item.kind, ExprKind::Object(_))) =>
            {
                Some(items.iter().collect())
            }
            _ => None,
        }
    }

    /// True when `origin` is the header of a nested block (not an attribute).
    fn is_nested_block_header(&self, origin: Origin) -> bool {
        fn holds_header(body: &Body, header: TextRange) -> bool {
            body.blocks.iter().any(|block| {
                block.header == header
                    || (block.range.contains(header.start) && holds_header(&block.body, header))
            })
        }
        self.module
            .file(origin.file)
            .and_then(|file| file.source.as_ref())
            .is_some_and(|source| {
                source.body.blocks.iter().any(|block| {
                    block.range.contains(origin.range.start)
                        && holds_header(&block.body, origin.range)
                })
            })
    }

    /// A JSON property that stands for blocks, as those blocks: one
    /// `NAME { … }` per object, its properties as arguments.
    fn json_property_as_blocks(
        &mut self,
        attr: &EffectiveAttribute,
        indent: usize,
        parent: Option<Origin>,
    ) {
        let Some(bodies) = self.json_blocks(attr) else {
            return;
        };
        let file = attr.origin.file;
        for (index, body) in bodies.into_iter().enumerate() {
            let origin = Origin {
                file,
                range: body.range,
            };
            let comment = self.comment_for(origin, parent);
            let items = body.as_object().unwrap_or_default();
            if items.is_empty() {
                self.push(indent, format!("{} {{}}", attr.name), comment);
            } else {
                self.push(indent, format!("{} {{", attr.name), comment);
            }
            if index == 0 {
                if let Some(superseded) = self.superseded_comment(&attr.superseded) {
                    self.push(indent + 1, String::new(), Some(superseded));
                }
            }
            if items.is_empty() {
                continue;
            }
            let arguments: Vec<EffectiveAttribute> = items
                .iter()
                .filter_map(|item| {
                    Some(EffectiveAttribute {
                        name: item.key.as_str()?.to_owned(),
                        origin: Origin {
                            file,
                            range: item.key.range.cover(item.value.range),
                        },
                        value: item.value.range,
                        superseded: Vec::new(),
                    })
                })
                .collect();
            let arguments: Vec<&EffectiveAttribute> = arguments.iter().collect();
            self.plain_attributes(&arguments, indent + 1, Some(origin));
            self.push(indent, "}".to_owned(), None);
        }
    }

    fn body(&mut self, body: &EffectiveBody, indent: usize, parent: Option<Origin>) {
        let attributes: Vec<&EffectiveAttribute> = body.attributes.iter().collect();
        self.attributes(&attributes, indent, parent);
        for block in &body.blocks {
            self.nested_block(block, indent, parent);
        }
    }

    fn nested_block(
        &mut self,
        block: &EffectiveNestedBlock,
        indent: usize,
        parent: Option<Origin>,
    ) {
        let comment = self.comment_for(block.origin, parent);
        let header = header_text(&block.kind, &block.labels);
        if is_empty(&block.body) {
            self.push(indent, format!("{header} {{}}"), comment);
            if let Some(superseded) = self.superseded_comment(&block.superseded) {
                self.push(indent, String::new(), Some(superseded));
            }
            return;
        }
        self.push(indent, format!("{header} {{"), comment);
        if let Some(superseded) = self.superseded_comment(&block.superseded) {
            self.push(indent + 1, String::new(), Some(superseded));
        }
        self.body(&block.body, indent + 1, Some(block.origin));
        self.push(indent, "}".to_owned(), None);
    }

    fn finish(self) -> String {
        const MAX_COMMENT_COLUMN: usize = 48;
        // A multi-line value's last line carries its own indentation already.
        let code_width = |line: &Line| match line.code.rsplit_once('\n') {
            Some((_, last)) => last.chars().count(),
            None => line.indent * 2 + line.code.chars().count(),
        };
        let column = self
            .lines
            .iter()
            .filter(|line| line.comment.is_some() && !line.code.is_empty())
            .map(code_width)
            .filter(|width| *width <= MAX_COMMENT_COLUMN)
            .max()
            .unwrap_or(0)
            + 2;
        let mut out = String::new();
        for line in &self.lines {
            let mut text = String::new();
            if !line.code.is_empty() {
                text.push_str(&"  ".repeat(line.indent));
                text.push_str(&line.code);
            }
            if let Some(comment) = &line.comment {
                let width = if line.code.is_empty() {
                    0
                } else {
                    code_width(line)
                };
                let padding =
                    column
                        .saturating_sub(width)
                        .max(if line.code.is_empty() { 0 } else { 1 });
                text.push_str(&" ".repeat(padding));
                text.push_str("# ");
                text.push_str(comment);
            }
            let _ = writeln!(out, "{}", text.trim_end());
        }
        out
    }
}
