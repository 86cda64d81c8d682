//! Evaluating a body against its provider's schema, as `EvaluateBlock`
//! does once the body decodes (`dynblock.Expand`, then `hcldec.Decode`):
//! every argument the schema declares, in the body and in its nested
//! blocks at any depth (an escaping block `_` counts as the body), each
//! value then converted to the argument's type as `hcldec` does
//! ("Incorrect attribute value type"; a constant's type is judged by
//! `decode`), and the `dynamic` blocks as `dynblock` expands them. A `dynamic` block's
//! `for_each` is evaluated ("Invalid dynamic for_each value" when it is
//! null or not a collection); when it is known, the `content` is evaluated
//! once per element (the same error once per element, as OpenTofu reports
//! it), its iterator (the block type, or `iterator = NAME`) the object
//! `{key, value}` of that element: an index, a map key or the set element
//! itself as `key`, the element as `value`, known where the elements are
//! known. An empty `for_each` evaluates no content; an unknown one makes
//! the content's arguments unknown without evaluating them, though the
//! `for_each` of `dynamic` blocks inside it is still evaluated (with the
//! iterator's key and value unknown).
//!
//! HCL suggests a function name only where the evaluation context has
//! functions of its own: for the body's arguments, those of static nested
//! blocks and the `for_each` of a `dynamic` block written in the body
//! itself; not inside a `dynamic` block's content, nor for the `for_each`
//! of a `dynamic` block inside another block (`dynblock` evaluates those
//! in child contexts).
//!
//! Left out (silent): a `dynamic` block that does not decode as `dynblock`
//! wants it (no or several `content` blocks, other arguments or blocks, an
//! `iterator` that is not a single name) and one with `labels` (no
//! provider at hand has block types with labels to check them against);
//! nested blocks with the wrong number of labels (decoding reports them);
//! nested blocks written in JSON files (properties a JSON body's schema
//! makes blocks; a JSON body's own arguments are evaluated); the elements of a `for_each` past [`MAX_ELEMENTS`].
//!
//! An attribute of a list or set of objects written as blocks
//! (`blocktoattr`) is evaluated as a nested block whose schema is its
//! element's, each of its arguments converted to the element's type.

use tofu_eval::{Type, Value, ValueKind};
use tofu_schema::{Block as SchemaBlock, Nesting};
use tofu_syntax::{Block, Body, Diagnostic, ExprKind, FileId, Location, Syntax};

use super::{blocktoattr, decode};
use crate::rules::expression_evaluation::{evaluate_expression, Context, Iteration};
use crate::rules::views::IdentityView;
use tofu_module::effective::EffectiveBody;
use tofu_module::expr::json::json_has_template;

/// Blocks nested deeper than this are not evaluated.
const MAX_DEPTH: usize = 32;

/// A `dynamic` block's content is evaluated for this many elements of its
/// `for_each` at most (OpenTofu evaluates it for every one).
const MAX_ELEMENTS: usize = 64;

/// Evaluates the arguments of `effective` the schema declares, and its
/// nested blocks, leaving out meta-arguments and meta-blocks.
pub(super) fn evaluate_body(
    view: &IdentityView<'_>,
    effective: &EffectiveBody,
    schema: &SchemaBlock,
    meta_arguments: &[&str],
    meta_blocks: &[&str],
    out: &mut Vec<Diagnostic>,
) {
    let mut arguments = Vec::new();
    argument_names(effective, &mut arguments);
    evaluate_parts(
        view,
        effective,
        schema,
        (meta_arguments, meta_blocks),
        &arguments,
        out,
    );
}

/// The names of the arguments of `effective`, an escaping block's among
/// them: a list of objects set by one is not written as blocks.
fn argument_names<'e>(effective: &'e EffectiveBody, names: &mut Vec<&'e str>) {
    names.extend(
        effective
            .attributes
            .iter()
            .map(|attribute| attribute.name.as_str()),
    );
    for nested in effective.blocks.iter().filter(|nested| nested.kind == "_") {
        argument_names(&nested.body, names);
    }
}

/// The arguments and nested blocks of `effective`; `arguments` are those
/// of the whole body.
fn evaluate_parts(
    view: &IdentityView<'_>,
    effective: &EffectiveBody,
    schema: &SchemaBlock,
    (meta_arguments, meta_blocks): (&[&str], &[&str]),
    arguments: &[&str],
    out: &mut Vec<Diagnostic>,
) {
    for attribute in &effective.attributes {
        if meta_arguments.contains(&attribute.name.as_str()) {
            continue;
        }
        let Some(attribute_schema) = schema.attributes.get(&attribute.name) else {
            continue;
        };
        let Some(file) = view.file(attribute.origin.file) else {
            continue;
        };
        let Some(written) = file.attribute_at(attribute.origin.range) else {
            continue;
        };
        argument(
            view,
            attribute.origin.file,
            written,
            attribute_schema,
            &Context::BODY,
            out,
        );
    }
    for nested in &effective.blocks {
        if nested.kind == "_" {
            evaluate_parts(view, &nested.body, schema, (&[], &[]), arguments, out);
            continue;
        }
        if meta_blocks.contains(&nested.kind.as_str()) {
            continue;
        }
        let Some(file) = view.file(nested.origin.file) else {
            continue;
        };
        if file.is_json() {
            continue;
        }
        let Some(block) = file.block_at(nested.range) else {
            continue;
        };
        let walk = Walk {
            view,
            file: nested.origin.file,
        };
        walk.nested_block(block, schema, arguments, &Expansion::BODY, 0, out);
    }
}

/// The walk over the blocks of one file.
struct Walk<'v, 'a> {
    view: &'v IdentityView<'a>,
    file: FileId,
}

/// Where a block stands in `dynblock`'s expansion.
struct Expansion {
    /// The iterators in scope, outermost first.
    iterations: Vec<Iteration>,
    /// False inside the content of a `dynamic` block whose `for_each` is
    /// unknown: its arguments are unknown, not evaluated.
    evaluates_arguments: bool,
    /// True for blocks written in the body itself, whose `dynamic`
    /// blocks' `for_each` is evaluated in the body's own context.
    in_body: bool,
}

impl Expansion {
    const BODY: Expansion = Expansion {
        iterations: Vec::new(),
        evaluates_arguments: true,
        in_body: true,
    };

    /// The context of a nested block's arguments.
    fn arguments(&self) -> Context<'_> {
        Context {
            iterations: &self.iterations,
            suggests_function_names: self.iterations.is_empty(),
        }
    }

    /// The context of a `dynamic` block's `for_each` at this place.
    fn for_each(&self) -> Context<'_> {
        Context {
            iterations: &self.iterations,
            suggests_function_names: self.in_body,
        }
    }

    /// The expansion inside a static nested block.
    fn inside(&self) -> Expansion {
        Expansion {
            iterations: self.iterations.clone(),
            evaluates_arguments: self.evaluates_arguments,
            in_body: false,
        }
    }

    /// The expansion inside a `dynamic` block's content, for one element.
    fn content(&self, iteration: Iteration, known: bool) -> Expansion {
        let mut iterations = self.iterations.clone();
        iterations.push(iteration);
        Expansion {
            iterations,
            evaluates_arguments: self.evaluates_arguments && known,
            in_body: false,
        }
    }
}

impl Walk<'_, '_> {
    /// One block written in a body whose schema is `schema` and whose
    /// arguments are `arguments`.
    fn nested_block(
        &self,
        block: &Block,
        schema: &SchemaBlock,
        arguments: &[&str],
        expansion: &Expansion,
        depth: usize,
        out: &mut Vec<Diagnostic>,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        if block.kind == "dynamic" {
            self.dynamic_block(block, schema, arguments, expansion, depth, out);
            return;
        }
        let Some(nested_schema) = schema.block_types.get(&block.kind) else {
            // An attribute written as a block has no labels.
            if let Some(element_schema) = written_as_blocks(schema, &block.kind, arguments)
                .filter(|_| block.labels.is_empty())
            {
                self.body(
                    &block.body,
                    &element_schema,
                    &expansion.inside(),
                    depth + 1,
                    out,
                );
            }
            return;
        };
        let n_labels = usize::from(nested_schema.nesting == Nesting::Map);
        if block.labels.len() != n_labels {
            return;
        }
        self.body(
            &block.body,
            &nested_schema.block,
            &expansion.inside(),
            depth + 1,
            out,
        );
    }

    /// The arguments and blocks of a nested block's body.
    fn body(
        &self,
        body: &Body,
        schema: &SchemaBlock,
        expansion: &Expansion,
        depth: usize,
        out: &mut Vec<Diagnostic>,
    ) {
        if expansion.evaluates_arguments {
            for attribute in &body.attributes {
                if let Some(attribute_schema) = schema.attributes.get(&attribute.name) {
                    argument(
                        self.view,
                        self.file,
                        attribute,
                        attribute_schema,
                        &expansion.arguments(),
                        out,
                    );
                }
            }
        }
        let arguments: Vec<&str> = body
            .attributes
            .iter()
            .map(|attribute| attribute.name.as_str())
            .collect();
        for nested in &body.blocks {
            self.nested_block(nested, schema, &arguments, expansion, depth, out);
        }
    }

    /// A `dynamic` block of a type `schema` declares: its `for_each`, then
    /// its content once per element.
    fn dynamic_block(
        &self,
        block: &Block,
        schema: &SchemaBlock,
        arguments: &[&str],
        expansion: &Expansion,
        depth: usize,
        out: &mut Vec<Diagnostic>,
    ) {
        let [label] = block.labels.as_slice() else {
            return;
        };
        let element_schema;
        let content_schema = match schema.block_types.get(&label.value) {
            Some(nested_schema) => &nested_schema.block,
            None => {
                let Some(written) = written_as_blocks(schema, &label.value, arguments) else {
                    return;
                };
                element_schema = written;
                &element_schema
            }
        };
        let Some(spec) = DynamicSpec::of(block) else {
            return;
        };
        let before = out.len();
        let Some(for_each) = evaluate_expression(
            self.view,
            self.file,
            &spec.for_each.expr,
            &expansion.for_each(),
            out,
        ) else {
            return;
        };
        if let Some(problem) = for_each_problem(&for_each) {
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_EXPRESSION_VALUE,
                    "Invalid dynamic for_each value",
                    Location::new(self.file, spec.for_each.expr.range),
                )
                .with_detail(problem),
            );
        }
        if out.len() > before || spec.has_labels {
            return;
        }
        let name = spec.iterator.unwrap_or(&label.value).to_owned();
        let (for_each, _) = for_each.unmark();
        // An unknown `for_each` makes one block whose arguments are unknown.
        let (elements, known) = match &for_each.kind {
            ValueKind::Unknown(_) => (
                vec![(Value::dynamic_unknown(), Value::dynamic_unknown())],
                false,
            ),
            _ => (elements(&for_each), true),
        };
        for (key, value) in elements.into_iter().take(MAX_ELEMENTS) {
            let iteration = Iteration {
                name: name.clone(),
                object: iterator_object(key, value),
            };
            self.body(
                &spec.content.body,
                content_schema,
                &expansion.content(iteration, known),
                depth + 1,
                out,
            );
        }
    }
}

/// The schema of one element of the attribute `name` of `schema` written
/// as blocks, when the body's `arguments` do not set it.
fn written_as_blocks(schema: &SchemaBlock, name: &str, arguments: &[&str]) -> Option<SchemaBlock> {
    if arguments.contains(&name) {
        return None;
    }
    blocktoattr::element_schema(schema, name)
}

/// One argument the schema declares: its value evaluated, then converted
/// to the argument's type as `hcldec` does (a constant's type is judged
/// by decoding).
fn argument(
    view: &IdentityView<'_>,
    file: FileId,
    attribute: &tofu_syntax::Attribute,
    schema: &tofu_schema::Attribute,
    context: &Context<'_>,
    out: &mut Vec<Diagnostic>,
) {
    let Some(value) = evaluate_expression(view, file, &attribute.expr, context, out) else {
        return;
    };
    let Some(identity_file) = view.file(file) else {
        return;
    };
    let Some(text) = identity_file.text(attribute.expr.range) else {
        return;
    };
    let constant = if identity_file.is_json() {
        !json_has_template(&attribute.expr)
    } else {
        decode::is_constant(&attribute.expr, Syntax::Native, text)
    };
    if constant {
        return;
    }
    out.extend(decode::incorrect_type(
        &attribute.name,
        &value,
        schema,
        Location::new(file, attribute.expr.range),
    ));
}

/// A `dynamic` block as `dynblock` decodes it.
struct DynamicSpec<'b> {
    for_each: &'b tofu_syntax::Attribute,
    iterator: Option<&'b str>,
    has_labels: bool,
    content: &'b Block,
}

impl<'b> DynamicSpec<'b> {
    /// `None` when it does not decode (`dynblock` then expands nothing).
    fn of(block: &'b Block) -> Option<DynamicSpec<'b>> {
        let body = &block.body;
        if body
            .attributes
            .iter()
            .any(|attribute| !matches!(attribute.name.as_str(), "for_each" | "iterator" | "labels"))
        {
            return None;
        }
        let [content] = body.blocks.as_slice() else {
            return None;
        };
        if content.kind != "content" || !content.labels.is_empty() {
            return None;
        }
        let iterator = match body.attribute("iterator") {
            None => None,
            Some(attribute) => match &attribute.expr.kind {
                ExprKind::Traversal(traversal) if traversal.steps.is_empty() => {
                    Some(traversal.root.as_str())
                }
                _ => return None,
            },
        };
        Some(DynamicSpec {
            for_each: body.attribute("for_each")?,
            iterator,
            has_labels: body.attribute("labels").is_some(),
            content,
        })
    }
}

/// What `dynblock` says of a `for_each` value it cannot iterate.
fn for_each_problem(for_each: &Value) -> Option<String> {
    let ty = for_each.ty();
    let iterable = matches!(
        ty,
        Type::List(_) | Type::Set(_) | Type::Map(_) | Type::Tuple(_) | Type::Object(_)
    );
    if !iterable && !ty.is_dynamic() {
        return Some(format!(
            "Cannot use a {} value in for_each. An iterable collection is required.",
            ty.friendly_name()
        ));
    }
    if for_each.is_null() {
        return Some("Cannot use a null value in for_each.".to_owned());
    }
    None
}

/// The elements of a known collection with cty's keys: an index for a
/// list or tuple, the key for a map or object, the element itself for a
/// set.
fn elements(collection: &Value) -> Vec<(Value, Value)> {
    if let ValueKind::Set { items, .. } = &collection.kind {
        return items
            .iter()
            .map(|item| (item.clone(), item.clone()))
            .collect();
    }
    collection
        .children()
        .into_iter()
        .map(|(key, value)| (key, value.clone()))
        .collect()
}

/// `dynblock`'s `iteration.Object()`.
fn iterator_object(key: Value, value: Value) -> Value {
    Value::object(
        [("key".to_owned(), key), ("value".to_owned(), value)]
            .into_iter()
            .collect(),
    )
}
