//! The schema model: what one provider says about its provider
//! configuration, resource types, data sources, ephemeral resources and
//! functions, in OpenTofu's terms (`configschema.Block`, `Attribute`,
//! `NestedBlock`, `Object`; `providers.FunctionSpec`).
//!
//! Plain data with public fields, built once by a decoder (the plugin
//! protocol's responses or `tofu providers schema -json`) and then only
//! read. Every named collection is a [`ByName`]: sorted by name, looked up
//! by binary search, so the model is compact (boxed slices, no hash
//! tables) and iterates in the order OpenTofu prints. No IO here.

use tofu_eval::Type;

/// Items sorted by name, unique names (the last of duplicates wins, as a
/// Go map built from a list keeps the last).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ByName<T> {
    items: Box<[(Box<str>, T)]>,
}

impl<T> Default for ByName<T> {
    fn default() -> Self {
        ByName {
            items: Box::default(),
        }
    }
}

impl<T> ByName<T> {
    /// Sorts `items` by name, keeping the last of duplicate names.
    pub fn from_unsorted(mut items: Vec<(Box<str>, T)>) -> ByName<T> {
        // A stable sort keeps duplicates in input order; keep the last one.
        items.sort_by(|(left, _), (right, _)| left.cmp(right));
        let mut unique: Vec<(Box<str>, T)> = Vec::with_capacity(items.len());
        for item in items {
            match unique.last_mut() {
                Some(last) if last.0 == item.0 => *last = item,
                _ => unique.push(item),
            }
        }
        ByName {
            items: unique.into_boxed_slice(),
        }
    }

    /// The item named `name`.
    pub fn get(&self, name: &str) -> Option<&T> {
        let index = self
            .items
            .binary_search_by(|(item, _)| item.as_ref().cmp(name))
            .ok()?;
        self.items.get(index).map(|(_, item)| item)
    }

    /// Names and items, sorted by name.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &T)> {
        self.items.iter().map(|(name, item)| (name.as_ref(), item))
    }

    /// The names, sorted.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &str> {
        self.items.iter().map(|(name, _)| name.as_ref())
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// Everything one provider's schema holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProviderSchema {
    /// The `provider` block's schema.
    pub provider: Schema,
    /// The schema of `provider_meta` blocks, when the provider has one.
    pub provider_meta: Option<Schema>,
    /// Managed resource types (`resource` blocks).
    pub resource_types: ByName<Schema>,
    /// Data sources (`data` blocks).
    pub data_sources: ByName<Schema>,
    /// Ephemeral resource types (`ephemeral` blocks).
    pub ephemeral_resources: ByName<Schema>,
    /// Provider-defined functions (`provider::NAME::FUNCTION`).
    pub functions: ByName<Function>,
    /// Identity schemas of managed resource types that have one.
    pub resource_identities: ByName<ResourceIdentitySchema>,
}

/// One block type's schema with its version.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Schema {
    /// The schema version (for state upgrades).
    pub version: i64,
    pub block: Block,
}

/// A block's schema: its arguments and attributes, and its nested block types.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Block {
    pub attributes: ByName<Attribute>,
    pub block_types: ByName<NestedBlock>,
    pub description: Description,
    pub deprecated: bool,
    pub deprecation_message: Box<str>,
}

/// One attribute: an argument when it is required or optional, an
/// attribute only the provider sets when it is only computed.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    pub ty: AttributeType,
    pub description: Description,
    pub required: bool,
    pub optional: bool,
    pub computed: bool,
    pub sensitive: bool,
    pub deprecated: bool,
    pub write_only: bool,
    pub deprecation_message: Box<str>,
}

/// An attribute's type: a cty type, or nested attributes (protocol 6's
/// `nested_type`) whose value is an object or a collection of objects.
#[derive(Clone, Debug, PartialEq)]
pub enum AttributeType {
    Type(Type),
    Nested(Box<NestedAttributes>),
}

/// Nested attributes (`configschema.Object`).
#[derive(Clone, Debug, PartialEq)]
pub struct NestedAttributes {
    /// Single, list, set or map (never group).
    pub nesting: Nesting,
    pub attributes: ByName<Attribute>,
}

/// A nested block type (`configschema.NestedBlock`).
#[derive(Clone, Debug, PartialEq)]
pub struct NestedBlock {
    pub nesting: Nesting,
    pub block: Block,
    /// The fewest blocks allowed; 0 is no minimum.
    pub min_items: u64,
    /// The most blocks allowed; 0 is no maximum.
    pub max_items: u64,
}

/// How nested blocks or nested attributes repeat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nesting {
    Single,
    /// Like single, but the block is never null: absent means all its
    /// attributes are null.
    Group,
    List,
    Set,
    Map,
    /// A value the provider sent that OpenTofu does not know.
    Invalid,
}

impl Nesting {
    /// The name `tofu providers schema -json` uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Nesting::Single => "single",
            Nesting::Group => "group",
            Nesting::List => "list",
            Nesting::Set => "set",
            Nesting::Map => "map",
            Nesting::Invalid => "invalid",
        }
    }
}

/// A description and how to render it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Description {
    pub text: Box<str>,
    pub kind: DescriptionKind,
}

/// Plain text or Markdown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DescriptionKind {
    #[default]
    Plain,
    Markdown,
}

impl DescriptionKind {
    pub fn as_str(self) -> &'static str {
        match self {
            DescriptionKind::Plain => "plain",
            DescriptionKind::Markdown => "markdown",
        }
    }
}

/// A provider-defined function's signature (`providers.FunctionSpec`).
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// Positional parameters, in order.
    pub parameters: Box<[FunctionParameter]>,
    /// A final parameter taking zero or more arguments.
    pub variadic_parameter: Option<Box<FunctionParameter>>,
    pub return_type: Type,
    pub summary: Box<str>,
    pub description: Description,
    pub deprecation_message: Box<str>,
}

/// One parameter of a provider function.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionParameter {
    pub name: Box<str>,
    pub ty: Type,
    /// Null arguments are passed to the provider rather than refused.
    pub allow_null_value: bool,
    /// Unknown arguments are passed to the provider rather than making the
    /// result unknown.
    pub allow_unknown_values: bool,
    pub description: Description,
}

/// The identity schema of a managed resource type.
#[derive(Clone, Debug, PartialEq)]
pub struct ResourceIdentitySchema {
    pub version: i64,
    pub attributes: ByName<IdentityAttribute>,
}

/// One attribute of a resource identity.
#[derive(Clone, Debug, PartialEq)]
pub struct IdentityAttribute {
    pub ty: Type,
    pub description: Box<str>,
    pub required_for_import: bool,
    pub optional_for_import: bool,
}

impl ProviderSchema {
    /// The schema of a resource, data source or ephemeral resource type.
    pub fn schema_for(&self, mode: ResourceMode, type_name: &str) -> Option<&Schema> {
        match mode {
            ResourceMode::Managed => self.resource_types.get(type_name),
            ResourceMode::Data => self.data_sources.get(type_name),
            ResourceMode::Ephemeral => self.ephemeral_resources.get(type_name),
        }
    }
}

/// Which kind of resource block a type name is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResourceMode {
    /// `resource`
    Managed,
    /// `data`
    Data,
    /// `ephemeral`
    Ephemeral,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_name_sorts_finds_and_keeps_the_last_duplicate() {
        let items = ByName::from_unsorted(vec![
            (Box::from("b"), 1),
            (Box::from("a"), 2),
            (Box::from("b"), 3),
        ]);
        assert_eq!(items.names().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(items.get("b"), Some(&3));
        assert_eq!(items.get("c"), None);
        assert_eq!(items.len(), 2);
    }
}
