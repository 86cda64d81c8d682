//! Completion and hover from the schemas of a module's providers (when the
//! analysis was given them: `ModuleAnalysis::schemas`).
//!
//! - After `resource "`, `data "` or `ephemeral "`: the types of that mode
//!   of every provider the module has a schema for (by the local names
//!   standing for it: a type's prefix is its provider's local name).
//! - At the start of a line inside a resource, data source or ephemeral
//!   resource body (its top level): the arguments it may set and its nested
//!   block types not set yet, required ones first, with the type and
//!   whether it is required as detail; a required argument inserts
//!   `name = ` and a block `name {` with its required arguments.
//! - After `TYPE.NAME.` (or `data.TYPE.NAME.`): the type's attributes and
//!   nested block types.
//! - Hover on an argument or a nested block type of such a body, at any
//!   depth: its description, type, flags and deprecation.
//!
//! Left out: completion inside nested blocks, and the provider block's own
//! arguments.

use tofu_diagnostics::ModuleAnalysis;
use tofu_module::ResourceMode;
use tofu_schema::{Attribute, AttributeType, Block as SchemaBlock, NestedBlock, Nesting};
use tofu_syntax::{Block, ExprKind, TextRange};

/// One proposal, which `completion` turns into its items (the text it
/// replaces is the caller's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SchemaItem {
    pub label: String,
    /// A nested block type or a resource type, not an argument.
    pub block: bool,
    pub detail: String,
    /// The schema's description, when it has one.
    pub description: Option<String>,
    pub insert_text: String,
}

/// The mode a top-level block kind declares.
fn mode_of(kind: &str) -> Option<ResourceMode> {
    match kind {
        "resource" => Some(ResourceMode::Managed),
        "data" => Some(ResourceMode::Data),
        "ephemeral" => Some(ResourceMode::Ephemeral),
        _ => None,
    }
}

fn schema_mode(mode: ResourceMode) -> tofu_schema::ResourceMode {
    match mode {
        ResourceMode::Managed => tofu_schema::ResourceMode::Managed,
        ResourceMode::Data => tofu_schema::ResourceMode::Data,
        ResourceMode::Ephemeral => tofu_schema::ResourceMode::Ephemeral,
    }
}

/// The schema of a resource, data source or ephemeral resource block, as
/// written: its provider from its `provider` argument, else its type's
/// prefix.
fn block_schema<'a>(analysis: &'a ModuleAnalysis, block: &Block) -> Option<&'a SchemaBlock> {
    block_provider_schema(analysis, block).map(|(_, schema)| schema)
}

/// The provider of a resource, data source or ephemeral block, and the
/// schema of its type.
fn block_provider_schema<'a>(
    analysis: &'a ModuleAnalysis,
    block: &Block,
) -> Option<(tofu_schema::ProviderAddress, &'a SchemaBlock)> {
    let mode = mode_of(&block.kind)?;
    let type_name = &block.labels.first()?.value;
    let local_name = match block.body.attribute("provider").map(|attr| &attr.expr.kind) {
        Some(ExprKind::Traversal(traversal)) => traversal.root.clone(),
        _ => tofu_schema::requirements::implied_local_name(type_name).to_owned(),
    };
    let (address, provider) = analysis.provider_schema(&local_name);
    let schema = &provider?.schema_for(schema_mode(mode), type_name)?.block;
    Some((address, schema))
}

/// The resource types of `mode` completing the partial label before
/// `offset`, when the line before it is `resource "PARTIAL`, with the
/// partial label's range.
pub(crate) fn type_items(
    analysis: &ModuleAnalysis,
    line_before: &str,
    offset: u32,
) -> Option<(TextRange, Vec<SchemaItem>)> {
    let trimmed = line_before.trim_start();
    let (kind, rest) = trimmed.split_once(char::is_whitespace)?;
    let mode = mode_of(kind)?;
    let partial = rest.trim_start().strip_prefix('"')?;
    if partial.contains(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-')) {
        return None;
    }
    let replace = TextRange::from_usize(offset as usize - partial.len(), offset as usize);
    let mut items = Vec::new();
    for (local_name, provider) in analysis.provider_local_names() {
        let types = match mode {
            ResourceMode::Managed => &provider.resource_types,
            ResourceMode::Data => &provider.data_sources,
            ResourceMode::Ephemeral => &provider.ephemeral_resources,
        };
        for (type_name, schema) in types.iter() {
            if tofu_schema::requirements::implied_local_name(type_name) != local_name {
                continue;
            }
            items.push(SchemaItem {
                label: type_name.to_owned(),
                block: true,
                detail: first_line(&schema.block.description.text),
                description: non_empty(&schema.block.description.text),
                insert_text: type_name.to_owned(),
            });
        }
    }
    Some((replace, items))
}

/// The arguments and nested block types of `block`'s schema not set yet.
pub(crate) fn body_items(analysis: &ModuleAnalysis, block: &Block) -> Vec<SchemaItem> {
    let Some(schema) = block_schema(analysis, block) else {
        return Vec::new();
    };
    let set = |name: &str| {
        block.body.attribute(name).is_some() || block.body.blocks.iter().any(|b| b.kind == name)
    };
    let mut items: Vec<(bool, SchemaItem)> = Vec::new();
    for (name, attribute) in schema.attributes.iter() {
        // `id` is optional in every SDKv2 schema, but the SDK rejects a
        // configured one ("Invalid or unknown key").
        if !(attribute.required || attribute.optional) || set(name) || name == "id" {
            continue;
        }
        items.push((
            attribute.required,
            SchemaItem {
                label: name.to_owned(),
                block: false,
                detail: attribute_detail(attribute),
                description: non_empty(&attribute.description.text),
                insert_text: format!("{name} = "),
            },
        ));
    }
    for (name, nested) in schema.block_types.iter() {
        let repeats = matches!(nested.nesting, Nesting::List | Nesting::Set | Nesting::Map);
        if set(name) && !repeats {
            continue;
        }
        let required: Vec<&str> = nested
            .block
            .attributes
            .iter()
            .filter(|(_, attribute)| attribute.required)
            .map(|(name, _)| name)
            .collect();
        let mut insert_text = format!("{name} {{\n");
        for argument in &required {
            insert_text.push_str(&format!("  {argument} = \n"));
        }
        insert_text.push('}');
        items.push((
            nested.min_items > 0,
            SchemaItem {
                label: name.to_owned(),
                block: true,
                detail: block_detail(nested),
                description: non_empty(&nested.block.description.text),
                insert_text,
            },
        ));
    }
    // Required first, each group in name order (the schema's order).
    items.sort_by_key(|(required, _)| !*required);
    items.into_iter().map(|(_, item)| item).collect()
}

/// After `TYPE.NAME.` or `data.TYPE.NAME.` and a partial name: the type's
/// attributes and nested block types, when `TYPE.NAME` is declared, with
/// the partial name's range.
pub(crate) fn attribute_items(
    analysis: &ModuleAnalysis,
    line_before: &str,
    offset: u32,
) -> Option<(TextRange, Vec<SchemaItem>)> {
    let partial_len = line_before
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .map(char::len_utf8)
        .sum::<usize>();
    let before = line_before.get(..line_before.len() - partial_len)?;
    let reference = before.strip_suffix('.')?;
    let start = reference
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.'))
        .map_or(0, |at| at + 1);
    let parts: Vec<&str> = reference.get(start..)?.split('.').collect();
    let (mode, type_name, name) = match parts.as_slice() {
        ["data", type_name, name] => (ResourceMode::Data, *type_name, *name),
        ["ephemeral", type_name, name] => (ResourceMode::Ephemeral, *type_name, *name),
        [type_name, name] => (ResourceMode::Managed, *type_name, *name),
        _ => return None,
    };
    let address = tofu_module::BlockAddress::Resource {
        mode,
        type_name: type_name.to_owned(),
        name: name.to_owned(),
    };
    let declared = analysis.effective.get(&address)?;
    let local_name = declared
        .body
        .attribute("provider")
        .and_then(|attr| {
            let file = analysis.file(attr.origin.file)?;
            match &file.attribute_at(attr.origin.range)?.expr.kind {
                ExprKind::Traversal(traversal) => Some(traversal.root.clone()),
                _ => None,
            }
        })
        .unwrap_or_else(|| tofu_schema::requirements::implied_local_name(type_name).to_owned());
    let (_, provider) = analysis.provider_schema(&local_name);
    let schema = &provider?.schema_for(schema_mode(mode), type_name)?.block;
    let replace = TextRange::from_usize(offset as usize - partial_len, offset as usize);
    let attributes = schema
        .attributes
        .iter()
        .map(|(name, attribute)| SchemaItem {
            label: name.to_owned(),
            block: false,
            detail: attribute_detail(attribute),
            description: non_empty(&attribute.description.text),
            insert_text: name.to_owned(),
        });
    let blocks = schema.block_types.iter().map(|(name, nested)| SchemaItem {
        label: name.to_owned(),
        block: true,
        detail: block_detail(nested),
        description: non_empty(&nested.block.description.text),
        insert_text: name.to_owned(),
    });
    Some((replace, attributes.chain(blocks).collect()))
}

/// Hover on an argument or nested block type of a resource body at
/// `offset`: markdown, and the name's range.
pub(crate) fn hover(
    analysis: &ModuleAnalysis,
    block: &Block,
    offset: u32,
) -> Option<(String, TextRange)> {
    let (address, schema) = block_provider_schema(analysis, block)?;
    let (mut markdown, range) = schema_hover(schema, block, offset)?;
    // A schema nothing installed gave: say which version it is.
    if let Some(version) = analysis.schemas.from_cache(&address) {
        markdown.push_str(&format!(
            "\n\n---\nSchema of `{address}` {version} from tofu-lens's cache: the version the lock file pins, not installed here."
        ));
    } else if let Some(version) = analysis.schemas.fetched(&address) {
        markdown.push_str(&format!(
            "\n\n---\nSchema of `{address}` {version}, fetched and verified by tofu-lens: not installed here."
        ));
    }
    Some((markdown, range))
}

/// What `schema` (the block's type) says of the argument or nested block
/// type at `offset`.
fn schema_hover(
    mut schema: &SchemaBlock,
    block: &Block,
    offset: u32,
) -> Option<(String, TextRange)> {
    let mut body = &block.body;
    loop {
        if let Some(attribute) = body
            .attributes
            .iter()
            .find(|attribute| attribute.name_range.contains(offset))
        {
            let found = schema.attributes.get(&attribute.name)?;
            return Some((
                attribute_markdown(&attribute.name, found),
                attribute.name_range,
            ));
        }
        let nested = body
            .blocks
            .iter()
            .find(|nested| nested.range.contains(offset))?;
        let kind = if nested.kind == "dynamic" {
            nested.labels.first()?.value.as_str()
        } else {
            nested.kind.as_str()
        };
        let nested_schema = schema.block_types.get(kind)?;
        if nested.kind_range.contains(offset) {
            return Some((block_markdown(kind, nested_schema), nested.kind_range));
        }
        schema = &nested_schema.block;
        body = if nested.kind == "dynamic" {
            &nested.body.blocks_of_kind("content").next()?.body
        } else {
            &nested.body
        };
    }
}

fn attribute_type(attribute: &Attribute) -> String {
    match &attribute.ty {
        AttributeType::Type(ty) => ty.friendly_name(),
        AttributeType::Nested(nested) => format!("{} of objects", nested.nesting.as_str()),
    }
}

fn flags(attribute: &Attribute) -> Vec<&'static str> {
    let mut flags = Vec::new();
    if attribute.required {
        flags.push("required");
    } else if attribute.optional {
        flags.push("optional");
    }
    if attribute.computed {
        flags.push("computed");
    }
    if attribute.sensitive {
        flags.push("sensitive");
    }
    if attribute.write_only {
        flags.push("write-only");
    }
    if attribute.deprecated {
        flags.push("deprecated");
    }
    flags
}

fn attribute_detail(attribute: &Attribute) -> String {
    format!(
        "{}, {}",
        attribute_type(attribute),
        flags(attribute).join(", ")
    )
}

fn block_detail(nested: &NestedBlock) -> String {
    let mut detail = format!("block, {}", nested.nesting.as_str());
    if nested.min_items > 0 {
        detail.push_str(&format!(", at least {}", nested.min_items));
    }
    if nested.max_items > 0 {
        detail.push_str(&format!(", at most {}", nested.max_items));
    }
    detail
}

fn attribute_markdown(name: &str, attribute: &Attribute) -> String {
    let mut markdown = format!(
        "**{name}** `{}` ({})",
        attribute_type(attribute),
        flags(attribute).join(", ")
    );
    if attribute.deprecated {
        markdown.push_str("\n\n**Deprecated**");
        if !attribute.deprecation_message.is_empty() {
            markdown.push_str(": ");
            markdown.push_str(&attribute.deprecation_message);
        }
    }
    if !attribute.description.text.is_empty() {
        markdown.push_str("\n\n");
        markdown.push_str(&attribute.description.text);
    }
    markdown
}

fn block_markdown(name: &str, nested: &NestedBlock) -> String {
    let mut markdown = format!("**{name}** ({})", block_detail(nested));
    if nested.block.deprecated {
        markdown.push_str("\n\n**Deprecated**");
    }
    if !nested.block.description.text.is_empty() {
        markdown.push_str("\n\n");
        markdown.push_str(&nested.block.description.text);
    }
    markdown
}

/// `text`, unless it is empty (a schema without a description).
fn non_empty(text: &str) -> Option<String> {
    (!text.is_empty()).then(|| text.to_owned())
}

fn first_line(text: &str) -> String {
    crate::diagnostics::one_line(text, 60)
}
