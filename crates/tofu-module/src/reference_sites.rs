//! Where a module refers to its own declarations: every `var.X`, `local.X`,
//! `module.X`, `data.T.N`, `ephemeral.T.N` and `T.N` (a managed resource the
//! module declares) in every loaded file, with the range of the name, so that
//! editors can go to the effective declaration, list the uses and rename.
//!
//! Native expressions are read from the syntax model's traversals. In JSON,
//! strings are templates: a string holding `${` is read as one, and its
//! references are mapped back into the file; a string with escape sequences is
//! skipped, because its positions would not map one to one. `each`, `count`,
//! `self`, `path`, `terraform` and `tofu` refer to nothing declared; a name
//! that is not declared as a resource is not taken for one (a `for` symbol,
//! a provider configuration in `provider = aws.west`).

use tofu_syntax::{Body, Expr, ExprKind, FileId, TextRange, Traversal, TraversalStep};

use crate::address::{BlockAddress, ResourceMode};
use crate::phases::MergedModule;

/// What a reference names.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RefTarget {
    Variable(String),
    Local(String),
    ModuleCall(String),
    /// An output: never referred to inside its module (callers read it as
    /// `module.CALL.NAME`), but named by its declaration.
    Output(String),
    /// A managed, data or ephemeral resource.
    Resource(BlockAddress),
}

/// One use of a declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReferenceSite {
    pub file: FileId,
    pub target: RefTarget,
    /// From the root to the name (`var.region`, `aws_instance.web`).
    pub range: TextRange,
    /// The name itself (`region`, `web`): what a rename replaces.
    pub name_range: TextRange,
}

/// Every reference of the module's loaded files to its own declarations, in
/// file order.
pub fn reference_sites(module: &MergedModule) -> Vec<ReferenceSite> {
    let mut sites = Vec::new();
    for file_id in module.primary.iter().chain(&module.overrides) {
        let Some(file) = module.file(*file_id) else {
            continue;
        };
        let Some(source) = &file.source else { continue };
        let mut reader = SiteReader {
            module,
            file: *file_id,
            text: &file.text,
            json: file.is_json(),
            sites: &mut sites,
        };
        reader.body(&source.body);
    }
    sites.sort_by_key(|site| (site.file, site.range.start));
    sites
}

struct SiteReader<'a> {
    module: &'a MergedModule,
    file: FileId,
    text: &'a str,
    json: bool,
    sites: &'a mut Vec<ReferenceSite>,
}

impl SiteReader<'_> {
    fn body(&mut self, body: &Body) {
        for attr in &body.attributes {
            self.expr(&attr.expr);
        }
        for block in &body.blocks {
            self.body(&block.body);
        }
    }

    fn expr(&mut self, expr: &Expr) {
        if self.json {
            self.json_expr(expr);
            return;
        }
        let mut found = Vec::new();
        expr.walk(&mut |child| {
            if let ExprKind::Traversal(traversal) = &child.kind {
                found.extend(self.site(traversal, 0));
            }
        });
        self.sites.extend(found);
    }

    /// JSON: strings holding `${` are templates; arrays and objects are
    /// walked (object keys are templates too).
    fn json_expr(&mut self, expr: &Expr) {
        match &expr.kind {
            ExprKind::Template(_) => self.json_template(expr.range),
            ExprKind::Array(items) => items.iter().for_each(|item| self.json_expr(item)),
            ExprKind::Object(items) => {
                for item in items {
                    self.json_expr(&item.key);
                    self.json_expr(&item.value);
                }
            }
            _ => {}
        }
    }

    /// The references in a JSON string at `range` (quotes included), read by
    /// the native parser as the content of a quoted string.
    fn json_template(&mut self, range: TextRange) {
        let literal = range.slice(self.text);
        let Some(content) = literal
            .strip_prefix('"')
            .and_then(|rest| rest.strip_suffix('"'))
        else {
            return;
        };
        if content.contains('\\') || content.contains('\n') {
            return;
        }
        const PREFIX: &str = "x = \"";
        let wrapper = format!("{PREFIX}{content}\"\n");
        let parsed = tofu_syntax::parse("template.tf", &wrapper);
        let Some(attr) = parsed.body.attributes.first() else {
            return;
        };
        // Content offset 0 is the byte after the opening quote.
        let delta = i64::from(range.start) + 1 - i64::try_from(PREFIX.len()).unwrap_or(0);
        let mut found = Vec::new();
        attr.expr.walk(&mut |child| {
            if let ExprKind::Traversal(traversal) = &child.kind {
                found.extend(self.site(traversal, delta));
            }
        });
        self.sites.extend(found);
    }

    /// The site of a traversal, if it names a declaration; ranges shifted by
    /// `delta` bytes.
    fn site(&self, traversal: &Traversal, delta: i64) -> Option<ReferenceSite> {
        let attr = |index: usize| match traversal.steps.get(index) {
            Some(TraversalStep::Attr { name, range }) => Some((name.as_str(), *range)),
            _ => None,
        };
        let (target, name_range) = match traversal.root.as_str() {
            "var" => {
                let (name, range) = attr(0)?;
                (RefTarget::Variable(name.to_owned()), range)
            }
            "local" => {
                let (name, range) = attr(0)?;
                (RefTarget::Local(name.to_owned()), range)
            }
            "module" => {
                let (name, range) = attr(0)?;
                (RefTarget::ModuleCall(name.to_owned()), range)
            }
            "data" | "ephemeral" | "resource" => {
                let (type_name, _) = attr(0)?;
                let (name, range) = attr(1)?;
                let mode = match traversal.root.as_str() {
                    "data" => ResourceMode::Data,
                    "ephemeral" => ResourceMode::Ephemeral,
                    _ => ResourceMode::Managed,
                };
                (resource(mode, type_name, name), range)
            }
            "each" | "count" | "self" | "path" | "terraform" | "tofu" => return None,
            type_name => {
                let (name, range) = attr(0)?;
                let target = resource(ResourceMode::Managed, type_name, name);
                let RefTarget::Resource(address) = &target else {
                    return None;
                };
                self.module.effective.get(address)?;
                (target, range)
            }
        };
        let shift = |range: TextRange| {
            let start = u32::try_from(i64::from(range.start) + delta).ok()?;
            let end = u32::try_from(i64::from(range.end) + delta).ok()?;
            Some(TextRange::new(start, end))
        };
        Some(ReferenceSite {
            file: self.file,
            target,
            range: shift(traversal.root_range.cover(name_range))?,
            name_range: shift(name_range)?,
        })
    }
}

fn resource(mode: ResourceMode, type_name: &str, name: &str) -> RefTarget {
    RefTarget::Resource(BlockAddress::Resource {
        mode,
        type_name: type_name.to_owned(),
        name: name.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use super::*;
    use crate::{analyze, Config, InputFile, ParseCache};

    fn sites(files: &[(&str, &str)]) -> Vec<String> {
        let inputs: Vec<InputFile> = files
            .iter()
            .map(|(name, text)| InputFile::text(*name, *text))
            .collect();
        let module = analyze(&inputs, &Config::default(), &mut ParseCache::new());
        reference_sites(&module)
            .iter()
            .map(|site| {
                let file = module.file(site.file).unwrap();
                format!(
                    "{} {:?} [{}] [{}]",
                    file.name,
                    site.target,
                    site.range.slice(&file.text),
                    site.name_range.slice(&file.text)
                )
            })
            .collect()
    }

    #[test]
    fn references_in_native_and_json_files() {
        let found = sites(&[
            (
                "main.tf",
                r#"variable "region" {}
locals {
  name = "web-${var.region}"
  ids  = [for i in aws_instance.web : i.id]
}
resource "aws_instance" "web" {
  count = length(module.net.ids) + each.key
  tags  = { Name = local.name, Zone = data.aws_az.a.name }
  provider = aws.west
}
data "aws_az" "a" {}
"#,
            ),
            (
                "out.tf.json",
                r#"{"output": {"x": {"value": "${var.region}-${local.name}", "plain": "var.region", "esc": "\"${var.region}\""}}}"#,
            ),
        ]);
        assert_eq!(
            found,
            [
                "main.tf Variable(\"region\") [var.region] [region]",
                "main.tf Resource(Resource { mode: Managed, type_name: \"aws_instance\", name: \"web\" }) [aws_instance.web] [web]",
                "main.tf ModuleCall(\"net\") [module.net] [net]",
                "main.tf Local(\"name\") [local.name] [name]",
                "main.tf Resource(Resource { mode: Data, type_name: \"aws_az\", name: \"a\" }) [data.aws_az.a] [a]",
                "out.tf.json Variable(\"region\") [var.region] [region]",
                "out.tf.json Local(\"name\") [local.name] [name]",
            ]
            .map(str::to_owned)
        );
    }
}
