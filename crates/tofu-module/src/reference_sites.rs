//! Where a module refers to its own declarations: every `var.X`, `local.X`,
//! `module.X`, `data.T.N`, `ephemeral.T.N` and `T.N` (a managed resource the
//! module declares) in every loaded file, with the range of the name, so that
//! editors can go to the effective declaration, list the uses and rename.
//! A `module.X.OUTPUT` site also carries the output it reads, which the
//! called module declares (editors follow it across the module boundary).
//!
//! Native expressions are read from the syntax model's traversals. In JSON,
//! strings are templates: a string holding `${` is read as one, and its
//! references are mapped back into the file; a string with escape sequences is
//! skipped, because its positions would not map one to one. `each`, `count`,
//! `self`, `path`, `terraform` and `tofu` refer to nothing declared; a name
//! that is not declared as a resource is not taken for one (a `for` symbol,
//! a provider configuration in `provider = aws.west`).
//!
//! Test files (`FileRole::Test`) are read too: their assertions and
//! `expect_failures` name the module's declarations, and there `output.NAME`
//! names an output of the module.

use tofu_syntax::{Body, Expr, FileId, TextRange};

use crate::address::{BlockAddress, ResourceMode};
use crate::expr::parse_ref::{parse_ref, Referenceable, StepRef};
use crate::expr::traversal::{ParsedStep, Part};
use crate::expr::walk;
use crate::loaded::FileRole;
use crate::merge::MergedModule;

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
    /// For `module.NAME.OUTPUT` (or `module.NAME[KEY].OUTPUT`): the output
    /// read from the call, and the range of its name. The called module
    /// declares it; editors follow it there.
    pub output: Option<(String, TextRange)>,
}

/// Every reference of the module's loaded files and test files to its own
/// declarations, in file order.
pub fn reference_sites(module: &MergedModule) -> Vec<ReferenceSite> {
    let mut sites = Vec::new();
    for file_id in module.primary.iter().chain(&module.overrides) {
        read_file(module, *file_id, &mut sites);
    }
    for file_id in test_files(module) {
        read_file(module, file_id, &mut sites);
    }
    sites.sort_by_key(|site| (site.file, site.range.start));
    sites
}

/// The references of one loaded file to the module's declarations, in file
/// order: [`reference_sites`] of that file alone, without reading the
/// others (what the cursor is on needs only its own file; a module of
/// 1,000 files costs a thousand times more to read whole).
pub fn file_reference_sites(module: &MergedModule, file: FileId) -> Vec<ReferenceSite> {
    let mut sites = Vec::new();
    let is_test_file = module
        .file(file)
        .is_some_and(|read| read.role == FileRole::Test);
    if module.primary.contains(&file) || module.overrides.contains(&file) || is_test_file {
        read_file(module, file, &mut sites);
    }
    sites.sort_by_key(|site| site.range.start);
    sites
}

/// The module's test files.
fn test_files(module: &MergedModule) -> impl Iterator<Item = FileId> + '_ {
    module
        .files
        .iter()
        .enumerate()
        .filter(|(_, file)| file.role == FileRole::Test)
        .map(|(index, _)| FileId(tofu_syntax::text::to_u32(index)))
}

fn read_file(module: &MergedModule, file_id: FileId, sites: &mut Vec<ReferenceSite>) {
    let Some(file) = module.file(file_id) else {
        return;
    };
    let Some(source) = &file.source else { return };
    let mut reader = SiteReader {
        module,
        file: file_id,
        text: &file.text,
        json: file.is_json(),
        test_file: file.role == FileRole::Test,
        sites,
    };
    reader.body(&source.body);
}

struct SiteReader<'a> {
    module: &'a MergedModule,
    file: FileId,
    text: &'a str,
    json: bool,
    /// In a test file, `output.NAME` names an output of the module.
    test_file: bool,
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
        let found = walk::references(self.text, expr, self.json);
        for reference in found.references.iter().filter(|reference| reference.exact) {
            if let Some(site) = self.site(&reference.steps) {
                self.sites.push(site);
            }
        }
    }

    /// The site of a reference, if it names a declaration of the module.
    fn site(&self, steps: &[ParsedStep]) -> Option<ReferenceSite> {
        if self.test_file {
            if let Some(site) = self.output_site(steps) {
                return Some(site);
            }
        }
        let step_refs: Vec<StepRef<'_>> = steps.iter().map(StepRef::from).collect();
        let parsed = parse_ref(&step_refs).ok()?;
        // The step holding the declaration's name: `var.NAME`, `TYPE.NAME`,
        // `data.TYPE.NAME`.
        let mut output = None;
        let (target, name_step) = match parsed.subject {
            Referenceable::Variable(name) => (RefTarget::Variable(name), 1),
            Referenceable::Local(name) => (RefTarget::Local(name), 1),
            Referenceable::ModuleCall {
                name,
                key,
                output: read,
            } => {
                // The output is the step after the name, or after its key.
                let output_step = if key.is_some() { 3 } else { 2 };
                output = read.zip(steps.get(output_step).map(|step| step.range));
                (RefTarget::ModuleCall(name), 1)
            }
            Referenceable::Resource {
                mode,
                type_name,
                name,
                ..
            } => {
                let prefixed = matches!(steps.first().map(|step| &step.part), Some(Part::Name(root)) if matches!(root.as_str(), "data" | "ephemeral" | "resource"));
                let target = resource(mode, &type_name, &name);
                if !prefixed {
                    // A bare name is a resource only if the module declares one.
                    let RefTarget::Resource(address) = &target else {
                        return None;
                    };
                    self.module.effective.get(address)?;
                }
                (target, if prefixed { 2 } else { 1 })
            }
            _ => return None,
        };
        let root_range = steps.first()?.range;
        let name_range = steps.get(name_step)?.range;
        Some(ReferenceSite {
            file: self.file,
            target,
            range: root_range.cover(name_range),
            name_range,
            output,
        })
    }
}

impl SiteReader<'_> {
    /// `output.NAME` in a test file.
    fn output_site(&self, steps: &[ParsedStep]) -> Option<ReferenceSite> {
        let [root, name, ..] = steps else {
            return None;
        };
        let (Part::Name(root_name), Part::Name(output)) = (&root.part, &name.part) else {
            return None;
        };
        (root_name == "output").then(|| ReferenceSite {
            file: self.file,
            target: RefTarget::Output(output.clone()),
            range: root.range.cover(name.range),
            name_range: name.range,
            output: None,
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
