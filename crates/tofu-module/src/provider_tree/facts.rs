//! What one merged module says about providers, as OpenTofu's
//! `validateProviderConfigs` reads a module (`configs.Module`): its
//! `required_providers` entries, its provider configurations, its module
//! calls with the providers they pass and what repeats them, its resources
//! with the provider they name, its backend and its first `import` block.
//!
//! [`ModuleFacts::read`] reads through [`ModuleRead`]: the view a module
//! rule is given (which records what it hands out) or the merged module
//! whole (for the module's interface). Only what decodes is kept: what
//! does not is a loading error, and nothing is validated after one.

use tofu_syntax::{Block, Expr, ExprKind, FileId, Location, TextRange};

use crate::address::{BlockAddress, ResourceMode};
use crate::declarations::Declarations;
use crate::effective::{
    EffectiveAttribute, EffectiveBlock, EffectiveBody, EffectiveTerraform, Origin,
};
use crate::expr::content::StringContent;
use crate::loaded::{BlockRef, ModuleFile};
use crate::merge::MergedModule;
use crate::provider_references::{configuration_alias, decoded_reference, DecodedReference};
use crate::provider_tree::{provider_key, ProviderType};
use crate::schema::PROVIDER_META_ARGUMENTS;

/// Where the facts are read from.
pub trait ModuleRead<'a> {
    fn effective_blocks(&self, wanted: &dyn Fn(&BlockAddress) -> bool) -> Vec<&'a EffectiveBlock>;
    fn file(&self, id: FileId) -> Option<&'a ModuleFile>;
    /// A file of which only what lies before byte `end` is read (a reader
    /// that records what it reads records no more).
    fn file_to(&self, id: FileId, end: u32) -> Option<&'a ModuleFile> {
        let _ = end;
        self.file(id)
    }
    fn block(&self, block: BlockRef) -> Option<&'a Block>;
    fn terraform(&self) -> &'a EffectiveTerraform;
    fn declarations(&self) -> &'a Declarations;
}

impl<'a> ModuleRead<'a> for &'a MergedModule {
    fn effective_blocks(&self, wanted: &dyn Fn(&BlockAddress) -> bool) -> Vec<&'a EffectiveBlock> {
        self.effective
            .blocks
            .iter()
            .map(|block| &**block)
            .filter(|block| wanted(&block.address))
            .collect()
    }

    fn file(&self, id: FileId) -> Option<&'a ModuleFile> {
        crate::loaded::LoadedModule::file(self, id)
    }

    fn block(&self, block: BlockRef) -> Option<&'a Block> {
        crate::loaded::LoadedModule::block(self, block)
    }

    fn terraform(&self) -> &'a EffectiveTerraform {
        &self.effective.terraform
    }

    fn declarations(&self) -> &'a Declarations {
        &self.declarations
    }
}

/// A `required_providers` entry (`RequiredProvider`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Required {
    pub name: String,
    pub provider: ProviderType,
    /// Its `configuration_aliases`, as keys (`NAME.ALIAS`, or `NAME` for an
    /// element without alias).
    pub alias_keys: Vec<String>,
    /// The entry's value (OpenTofu's `DeclRange` of it).
    pub value: Location,
}

/// A `provider` block, merged (`Provider`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Configuration {
    pub name: String,
    pub alias: Option<String>,
    /// It configures something (an argument or block that is no
    /// meta-argument, or a `version`); an empty one is a proxy.
    pub configured: bool,
    /// Its `for_each` argument.
    pub for_each: Option<Origin>,
    /// Its header (`DeclRange`).
    pub header: Location,
}

impl Configuration {
    pub fn key(&self) -> String {
        provider_key(&self.name, self.alias.as_deref())
    }
}

/// A provider reference (`ProviderConfigRef`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    pub name: String,
    pub alias: Option<String>,
    pub name_at: Location,
    /// Its instance key (`KeyExpression`).
    pub key_at: Option<Location>,
}

impl Reference {
    pub fn key(&self) -> String {
        provider_key(&self.name, self.alias.as_deref())
    }
}

/// One entry of a module call's `providers`: the child's name for the
/// configuration, and the configuration passed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Passed {
    pub in_child: Reference,
    pub in_parent: Reference,
}

/// A module call (`ModuleCall`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub name: String,
    /// The `source`, when it is a plain string.
    pub source: Option<String>,
    /// Its header (`DeclRange`).
    pub header: Location,
    /// What makes it incompatible with modules that configure their own
    /// providers: the value of `count`, `for_each` or `lifecycle`'s
    /// `enabled` (the first set, in that order), or the first reference of
    /// a non-empty `depends_on`.
    pub repetition: Option<Location>,
    /// Its `for_each` argument.
    pub for_each: Option<Origin>,
    /// Its `providers` entries, each child name once (the first).
    pub passed: Vec<Passed>,
}

/// A managed, data or ephemeral resource.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resource {
    pub mode: ResourceMode,
    pub type_name: String,
    pub name: String,
    pub header: Location,
    /// Its `provider` argument.
    pub provider: Option<Reference>,
    /// Its `for_each` argument.
    pub for_each: Option<Origin>,
}

/// What the module says about providers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModuleFacts {
    /// In source order.
    pub required: Vec<Required>,
    /// In order of first declaration.
    pub configurations: Vec<Configuration>,
    pub calls: Vec<Call>,
    pub resources: Vec<Resource>,
    /// The header of its `backend` block.
    pub backend: Option<Location>,
    /// The first `import` block's type keyword.
    pub first_import: Option<Location>,
}

impl ModuleFacts {
    /// Everything, with the resources `sets_provider` says set a
    /// `provider` argument and those whose implied provider
    /// `required_providers` lists under another name: the only resources
    /// the `provider-configurations` rule says something of. Reading no
    /// other resource keeps a keystroke in one from running the rule again.
    pub fn read_for_rules<'a>(
        module: &impl ModuleRead<'a>,
        sets_provider: &dyn Fn(&BlockAddress) -> bool,
    ) -> ModuleFacts {
        ModuleFacts::read_some(module, Some(sets_provider))
    }

    /// Everything but the resources, which are most of a module's blocks:
    /// for the summary callers read (built after every analysis) and the
    /// `child-modules` rule, which look at neither.
    pub fn read_without_resources<'a>(module: &impl ModuleRead<'a>) -> ModuleFacts {
        ModuleFacts::read_some(module, None)
    }

    fn read_some<'a>(
        module: &impl ModuleRead<'a>,
        resources: Option<&dyn Fn(&BlockAddress) -> bool>,
    ) -> ModuleFacts {
        let mut facts = ModuleFacts::default();
        let terraform = module.terraform();
        for entry in &terraform.required_providers {
            facts.required.extend(required(module, entry));
        }
        if let Some(backend) = terraform.backend.as_ref().filter(|b| b.kind == "backend") {
            facts.backend = Some(Location::new(backend.origin.file, backend.origin.range));
        }
        facts.first_import = module.declarations().other.iter().find_map(|&block_ref| {
            let block = module.block(block_ref)?;
            (block.kind == "import").then(|| Location::new(block_ref.file, block.kind_range))
        });
        let wanted_resource = |address: &BlockAddress, type_name: &str| {
            resources.is_some_and(|sets_provider| {
                sets_provider(address) || facts.listed_elsewhere(type_name).is_some()
            })
        };
        let blocks = module.effective_blocks(&|address| match address {
            BlockAddress::Provider { .. } | BlockAddress::Module(_) => true,
            BlockAddress::Resource { type_name, .. } => wanted_resource(address, type_name),
            _ => false,
        });
        for block in blocks {
            let Some(header) = header_of(module, block) else {
                continue;
            };
            match &block.address {
                BlockAddress::Provider { name, alias } => {
                    facts.configurations.push(Configuration {
                        name: name.clone(),
                        alias: alias.clone(),
                        // OpenTofu reads an overridden block's merged body
                        // leniently, so only a `version` makes it configured.
                        configured: if block.overrides.is_empty() {
                            is_configured(&block.body)
                        } else {
                            block.body.attribute("version").is_some()
                        },
                        for_each: origin_of(&block.body, "for_each"),
                        header,
                    });
                }
                BlockAddress::Module(name) => facts.calls.push(call(module, block, name, header)),
                BlockAddress::Resource {
                    mode,
                    type_name,
                    name,
                } => facts.resources.push(Resource {
                    mode: *mode,
                    type_name: type_name.clone(),
                    name: name.clone(),
                    header,
                    provider: block
                        .body
                        .attribute("provider")
                        .and_then(|attribute| reference(module, attribute, false)),
                    for_each: origin_of(&block.body, "for_each"),
                }),
                _ => {}
            }
        }
        facts
    }

    /// The entry of local name `name`.
    pub fn required(&self, name: &str) -> Option<&Required> {
        self.required.iter().find(|required| required.name == name)
    }

    /// The provider a resource of type `type_name` without a `provider`
    /// argument implies, with the `required_providers` entries that list it
    /// under another local name; `None` when there are none (or an entry
    /// has the implied name). Asked of every resource while the rule reads
    /// the module, so the implied provider is built only when an entry
    /// could list it.
    pub fn listed_elsewhere(&self, type_name: &str) -> Option<(ProviderType, Vec<&Required>)> {
        let implied = type_name.split('_').next().unwrap_or_default();
        if self.required.is_empty()
            || crate::names::provider_part_problem(implied).is_some()
            || self.required(implied).is_some()
        {
            return None;
        }
        let provider = ProviderType::implied(&crate::names::normalized_provider_part(implied));
        let listed: Vec<&Required> = self
            .required
            .iter()
            .filter(|required| required.provider == provider)
            .collect();
        (!listed.is_empty()).then_some((provider, listed))
    }

    /// The configuration of key `key` (`NAME` or `NAME.ALIAS`).
    pub fn configuration(&self, key: &str) -> Option<&Configuration> {
        self.configurations
            .iter()
            .find(|configuration| configuration.key() == key)
    }

    /// The provider this module means by local name `name` in a provider
    /// block or a `providers` entry, as its graph reads it
    /// (`Module.ProviderForLocalConfig`): its `required_providers` entry's,
    /// or the one the name implies (the built-in one for `terraform`).
    pub fn local_type(&self, name: &str) -> ProviderType {
        self.required(name)
            .map_or_else(|| ProviderType::implied(name), |r| r.provider.clone())
    }

    /// Whether a `provider` block of this module gives OpenTofu's graph a
    /// configuration of `provider` with `alias`.
    pub fn configures_node(&self, provider: &ProviderType, alias: Option<&str>) -> bool {
        self.configurations.iter().any(|configuration| {
            configuration.alias.as_deref().filter(|a| !a.is_empty())
                == alias.filter(|a| !a.is_empty())
                && self.local_type(&configuration.name) == *provider
        })
    }

    /// The provider a name of this module's `providers` maps and
    /// configurations stands for: its `required_providers` entry's, or the
    /// default one (the types `resolveProviderTypes` gives references).
    pub fn provider_of(&self, name: &str) -> ProviderType {
        self.required(name)
            .map_or_else(|| ProviderType::default_for(name), |r| r.provider.clone())
    }
}

/// The header of a merged block's base (or first override).
fn header_of<'a>(module: &impl ModuleRead<'a>, block: &EffectiveBlock) -> Option<Location> {
    let first = block.base.or_else(|| block.overrides.first().copied())?;
    let written = module.block(first)?;
    Some(Location::new(first.file, written.header))
}

fn origin_of(body: &EffectiveBody, name: &str) -> Option<Origin> {
    body.attribute(name).map(|attribute| attribute.origin)
}

fn value_of(body: &EffectiveBody, name: &str) -> Option<Location> {
    body.attribute(name)
        .map(|attribute| Location::new(attribute.origin.file, attribute.value))
}

/// Whether a provider block's body holds anything but meta-arguments
/// (OpenTofu reads what is left against an empty schema), or a version.
fn is_configured(body: &EffectiveBody) -> bool {
    let configures = |body: &EffectiveBody| {
        body.attributes
            .iter()
            .any(|attribute| !PROVIDER_META_ARGUMENTS.contains(&attribute.name.as_str()))
    };
    configures(body)
        || body.attribute("version").is_some()
        || body.blocks.iter().any(|block| match block.kind.as_str() {
            "_" => !block.body.blocks.is_empty() || !block.body.attributes.is_empty(),
            "lifecycle" | "locals" => false,
            _ => true,
        })
}

/// The written expression of an effective attribute, with its file.
fn written<'a>(
    module: &impl ModuleRead<'a>,
    attribute: &EffectiveAttribute,
) -> Option<(&'a ModuleFile, &'a Expr)> {
    let file = module.file_to(attribute.origin.file, attribute.origin.range.end)?;
    let written = file.attribute_at(attribute.origin.range)?;
    Some((file, &written.expr))
}

fn reference<'a>(
    module: &impl ModuleRead<'a>,
    attribute: &EffectiveAttribute,
    key: bool,
) -> Option<Reference> {
    let (file, expr) = written(module, attribute)?;
    reference_of(attribute.origin.file, file, expr, key)
}

fn reference_of(id: FileId, file: &ModuleFile, expr: &Expr, key: bool) -> Option<Reference> {
    let decoded = decoded_reference(id, file, expr, key)?;
    let (name_range, key_range) = if file.is_json() {
        opentofu_json_places(expr.range, &decoded)
    } else {
        (decoded.name_range, decoded.key_range)
    };
    Some(Reference {
        name: decoded.address.name,
        alias: decoded.address.alias,
        name_at: Location::new(id, name_range),
        key_at: key_range.map(|range| Location::new(id, range)),
    })
}

/// Where OpenTofu puts the name and the key of a reference written as the
/// JSON string at `string`: it parses the string's value again as native
/// syntax starting at the opening quote
/// (`hcl2shim.ConvertJSONExpressionToHCL`), so its places are offsets in
/// the value counted from the quote (the name first; a key a byte before
/// where the file has it, unless escapes made it the whole string).
fn opentofu_json_places(
    string: TextRange,
    decoded: &DecodedReference,
) -> (TextRange, Option<TextRange>) {
    let name_len = u32::try_from(decoded.address.name.len()).unwrap_or(0);
    let name = TextRange::new(string.start, string.start.saturating_add(name_len));
    let key = decoded.key_range.map(|range| {
        if range.start > string.start {
            TextRange::new(range.start.saturating_sub(1), range.end.saturating_sub(1))
        } else {
            range
        }
    });
    (name, key)
}

fn call<'a>(
    module: &impl ModuleRead<'a>,
    block: &EffectiveBlock,
    name: &str,
    header: Location,
) -> Call {
    let body = &block.body;
    let source = body
        .attribute("source")
        .and_then(|attribute| written(module, attribute))
        .and_then(|(file, expr)| string_value(file, expr));
    let enabled = body
        .blocks
        .iter()
        .filter(|nested| nested.kind == "lifecycle")
        .find_map(|lifecycle| value_of(&lifecycle.body, "enabled"));
    let repetition = value_of(body, "count")
        .or_else(|| value_of(body, "for_each"))
        .or(enabled)
        .or_else(|| first_dependency(module, body));
    let passed = body
        .attribute("providers")
        .and_then(|attribute| {
            let (file, expr) = written(module, attribute)?;
            Some(passed_providers(attribute.origin.file, file, expr))
        })
        .unwrap_or_default();
    Call {
        name: name.to_owned(),
        source,
        header,
        repetition,
        for_each: origin_of(body, "for_each"),
        passed,
    }
}

/// The entries of a `providers` map written as `expr` in `file` (a module
/// call's, or a test run's), each child name once (the first); entries
/// that are no references are left out (loading reports them).
pub fn passed_providers(id: FileId, file: &ModuleFile, expr: &Expr) -> Vec<Passed> {
    let mut passed: Vec<Passed> = Vec::new();
    for item in expr.as_object().unwrap_or_default() {
        let (Some(in_child), Some(in_parent)) = (
            reference_of(id, file, &item.key, true),
            reference_of(id, file, &item.value, false),
        ) else {
            continue;
        };
        if passed
            .iter()
            .any(|earlier| earlier.in_child.key() == in_child.key())
        {
            continue;
        }
        passed.push(Passed {
            in_child,
            in_parent,
        });
    }
    passed
}

/// The first reference of a non-empty `depends_on` list.
fn first_dependency<'a>(module: &impl ModuleRead<'a>, body: &EffectiveBody) -> Option<Location> {
    let attribute = body.attribute("depends_on")?;
    let (file, expr) = written(module, attribute)?;
    let first = expr.as_array()?.first()?;
    let range = match &first.kind {
        // A JSON string holds the reference: its content.
        ExprKind::String(_) | ExprKind::Template(_) if file.is_json() => {
            StringContent::of(&file.text, first).map_or(first.range, |content| {
                content.map(TextRange::from_usize(0, content.value.len()))
            })
        }
        _ => first.range,
    };
    Some(Location::new(attribute.origin.file, range))
}

/// A string's value (a JSON string's content too).
fn string_value(file: &ModuleFile, expr: &Expr) -> Option<String> {
    match &expr.kind {
        ExprKind::String(value) => Some(value.clone()),
        ExprKind::Template(_) if file.is_json() => {
            StringContent::of(&file.text, expr).map(|content| content.value)
        }
        _ => None,
    }
}

/// One `required_providers` entry as OpenTofu decodes it; `None` for one
/// it would not read (a loading error).
fn required<'a>(module: &impl ModuleRead<'a>, entry: &EffectiveAttribute) -> Option<Required> {
    let (file, expr) = written(module, entry)?;
    let id = entry.origin.file;
    let value = Location::new(id, expr.range);
    let name = entry.name.clone();
    let shorthand = matches!(
        expr.kind,
        ExprKind::String(_) | ExprKind::Number(_) | ExprKind::Bool(_)
    ) || (file.is_json() && matches!(expr.kind, ExprKind::Template(_)));
    if shorthand {
        return Some(Required {
            provider: ProviderType::implied(&name),
            name,
            alias_keys: Vec::new(),
            value,
        });
    }
    let items = expr.as_object()?;
    let mut provider = None;
    let mut alias_keys = Vec::new();
    for item in items {
        let key = match &item.key.kind {
            ExprKind::String(key) => key.as_str(),
            ExprKind::Traversal(traversal) if traversal.steps.is_empty() => &traversal.root,
            _ => continue,
        };
        match key {
            "source" => {
                provider = Some(ProviderType::from_source(&string_value(
                    file,
                    &item.value,
                )?)?)
            }
            "configuration_aliases" => {
                for element in item.value.as_array()? {
                    let alias = configuration_alias(id, file, element)?;
                    alias_keys.push(provider_key(&alias.name, alias.alias.as_deref()));
                }
            }
            _ => {}
        }
    }
    Some(Required {
        provider: provider.unwrap_or_else(|| ProviderType::implied(&name)),
        name,
        alias_keys,
        value,
    })
}
