//! cty's values as OpenTofu uses them: null (typed), unknown (typed, with
//! the "not null" refinement), the primitives, the collections and the
//! structural values, each carrying its marks (sensitive, ephemeral).
//!
//! Invariants the constructors keep, as cty's do: strings are in Unicode
//! normal form C; every element of a list, set or map has the element type;
//! a set holds no two equal known elements, in cty's order (see
//! [`set_order`]), and no marked element (marks move to the set itself, as
//! `cty.SetVal` hoists them). Objects and maps keep their keys sorted.
//!
//! Refinements other than "not null" (string prefixes, number bounds,
//! collection lengths) are only carried, for the values providers send
//! and receive: nothing here computes them, and `tofu console` never
//! prints them.

mod equality;
pub mod set_order;
mod tristate;

use std::collections::BTreeMap;

use unicode_normalization::UnicodeNormalization;

use crate::number::Number;
use crate::types::Type;

pub use tristate::Tristate;

/// The marks OpenTofu puts on values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Marks {
    pub sensitive: bool,
    pub ephemeral: bool,
}

impl Marks {
    pub const SENSITIVE: Marks = Marks {
        sensitive: true,
        ephemeral: false,
    };

    pub fn is_empty(self) -> bool {
        !self.sensitive && !self.ephemeral
    }

    pub fn union(self, other: Marks) -> Marks {
        Marks {
            sensitive: self.sensitive || other.sensitive,
            ephemeral: self.ephemeral || other.ephemeral,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Value {
    pub kind: ValueKind,
    pub marks: Marks,
}

#[derive(Clone, Debug)]
pub enum ValueKind {
    Null(Type),
    Unknown(Unknown),
    Bool(bool),
    Number(Number),
    String(String),
    List {
        element: Type,
        items: Vec<Value>,
    },
    Set {
        element: Type,
        items: Vec<Value>,
    },
    Map {
        element: Type,
        entries: BTreeMap<String, Value>,
    },
    Tuple(Vec<Value>),
    Object(BTreeMap<String, Value>),
}

/// An unknown value: its type, whether it is known not to be null, and
/// what else is known of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Unknown {
    pub ty: Type,
    pub not_null: bool,
    /// cty's other refinements, as a provider's value may carry them
    /// (nothing here computes them, and the console never prints them).
    pub refinements: Option<Box<Refinements>>,
}

/// What cty knows of an unknown value besides "not null": a string's
/// known prefix, a number's bounds (each with whether it is included), a
/// collection's length bounds. Each applies only to its kind of type.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Refinements {
    pub string_prefix: Option<String>,
    pub number_lower_bound: Option<(Number, bool)>,
    pub number_upper_bound: Option<(Number, bool)>,
    pub length_lower_bound: Option<u64>,
    pub length_upper_bound: Option<u64>,
}

impl From<ValueKind> for Value {
    fn from(kind: ValueKind) -> Value {
        Value {
            kind,
            marks: Marks::default(),
        }
    }
}

impl Value {
    pub fn null(ty: Type) -> Value {
        ValueKind::Null(ty).into()
    }

    /// `null` as written: of type `dynamic`.
    pub fn dynamic_null() -> Value {
        Value::null(Type::Dynamic)
    }

    pub fn unknown(ty: Type) -> Value {
        ValueKind::Unknown(Unknown {
            ty,
            not_null: false,
            refinements: None,
        })
        .into()
    }

    /// cty's `DynamicVal`.
    pub fn dynamic_unknown() -> Value {
        Value::unknown(Type::Dynamic)
    }

    pub fn unknown_not_null(ty: Type) -> Value {
        ValueKind::Unknown(Unknown {
            ty,
            not_null: true,
            refinements: None,
        })
        .into()
    }

    pub fn bool(value: bool) -> Value {
        ValueKind::Bool(value).into()
    }

    pub fn number(value: Number) -> Value {
        ValueKind::Number(value).into()
    }

    pub fn int(value: i64) -> Value {
        Value::number(Number::from_i64(value))
    }

    /// A string, normalised to NFC as `cty.StringVal` does.
    pub fn string(value: impl AsRef<str>) -> Value {
        let text = value.as_ref();
        let normalized = if unicode_normalization::is_nfc(text) {
            text.to_owned()
        } else {
            text.nfc().collect()
        };
        ValueKind::String(normalized).into()
    }

    /// A list; `element` is its element type (the items must have it).
    pub fn list(element: Type, items: Vec<Value>) -> Value {
        ValueKind::List { element, items }.into()
    }

    pub fn map(element: Type, entries: BTreeMap<String, Value>) -> Value {
        ValueKind::Map { element, entries }.into()
    }

    pub fn tuple(items: Vec<Value>) -> Value {
        ValueKind::Tuple(items).into()
    }

    pub fn object(attributes: BTreeMap<String, Value>) -> Value {
        ValueKind::Object(attributes).into()
    }

    pub fn empty_object() -> Value {
        Value::object(BTreeMap::new())
    }

    /// The value with these marks added.
    pub fn with_marks(mut self, marks: Marks) -> Value {
        self.marks = self.marks.union(marks);
        self
    }

    pub fn mark_sensitive(self) -> Value {
        self.with_marks(Marks::SENSITIVE)
    }

    /// The value without its own marks, and those marks.
    pub fn unmark(self) -> (Value, Marks) {
        let marks = self.marks;
        (
            Value {
                kind: self.kind,
                marks: Marks::default(),
            },
            marks,
        )
    }

    /// The value without any mark, nested ones included, and their union.
    pub fn unmark_deep(self) -> (Value, Marks) {
        let mut marks = self.marks;
        let kind = match self.kind {
            ValueKind::List { element, items } => ValueKind::List {
                element,
                items: unmark_all(items, &mut marks),
            },
            ValueKind::Set { element, items } => ValueKind::Set {
                element,
                items: unmark_all(items, &mut marks),
            },
            ValueKind::Tuple(items) => ValueKind::Tuple(unmark_all(items, &mut marks)),
            ValueKind::Map { element, entries } => ValueKind::Map {
                element,
                entries: unmark_entries(entries, &mut marks),
            },
            ValueKind::Object(attributes) => {
                ValueKind::Object(unmark_entries(attributes, &mut marks))
            }
            other => other,
        };
        (
            Value {
                kind,
                marks: Marks::default(),
            },
            marks,
        )
    }

    /// The union of all marks in the value, nested ones included.
    pub fn deep_marks(&self) -> Marks {
        let mut marks = self.marks;
        for (_, child) in self.children() {
            marks = marks.union(child.deep_marks());
        }
        marks
    }

    pub fn is_marked(&self) -> bool {
        !self.marks.is_empty()
    }

    pub fn is_sensitive(&self) -> bool {
        self.marks.sensitive
    }

    pub fn is_null(&self) -> bool {
        matches!(self.kind, ValueKind::Null(_))
    }

    pub fn is_known(&self) -> bool {
        !matches!(self.kind, ValueKind::Unknown(_))
    }

    /// Known, and so is everything inside it.
    pub fn is_wholly_known(&self) -> bool {
        self.is_known()
            && self
                .children()
                .iter()
                .all(|(_, child)| child.is_wholly_known())
    }

    /// The value's type.
    pub fn ty(&self) -> Type {
        match &self.kind {
            ValueKind::Null(ty) => ty.clone(),
            ValueKind::Unknown(unknown) => unknown.ty.clone(),
            ValueKind::Bool(_) => Type::Bool,
            ValueKind::Number(_) => Type::Number,
            ValueKind::String(_) => Type::String,
            ValueKind::List { element, .. } => Type::list(element.clone()),
            ValueKind::Set { element, .. } => Type::set(element.clone()),
            ValueKind::Map { element, .. } => Type::map(element.clone()),
            ValueKind::Tuple(items) => Type::Tuple(items.iter().map(Value::ty).collect()),
            ValueKind::Object(attributes) => Type::object(
                attributes
                    .iter()
                    .map(|(name, value)| (name.as_str(), value.ty())),
            ),
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            ValueKind::String(text) => Some(text),
            _ => None,
        }
    }

    pub fn as_number(&self) -> Option<&Number> {
        match &self.kind {
            ValueKind::Number(number) => Some(number),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.kind {
            ValueKind::Bool(value) => Some(value),
            _ => None,
        }
    }

    /// The elements of a list, set or tuple, or the values of a map or
    /// object, with their keys (an index or an attribute name), in cty's
    /// iteration order. Empty for anything else.
    pub fn children(&self) -> Vec<(Value, &Value)> {
        match &self.kind {
            ValueKind::List { items, .. }
            | ValueKind::Set { items, .. }
            | ValueKind::Tuple(items) => items
                .iter()
                .enumerate()
                .map(|(index, item)| (Value::int(i64::try_from(index).unwrap_or(i64::MAX)), item))
                .collect(),
            ValueKind::Map { entries, .. } | ValueKind::Object(entries) => entries
                .iter()
                .map(|(key, value)| (Value::string(key), value))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The items of a list, set or tuple.
    pub fn items(&self) -> Option<&[Value]> {
        match &self.kind {
            ValueKind::List { items, .. }
            | ValueKind::Set { items, .. }
            | ValueKind::Tuple(items) => Some(items),
            _ => None,
        }
    }

    /// The entries of a map or object.
    pub fn entries(&self) -> Option<&BTreeMap<String, Value>> {
        match &self.kind {
            ValueKind::Map { entries, .. } | ValueKind::Object(entries) => Some(entries),
            _ => None,
        }
    }

    /// The number of elements of a collection or structural value.
    pub fn length(&self) -> Option<usize> {
        match &self.kind {
            ValueKind::List { items, .. }
            | ValueKind::Set { items, .. }
            | ValueKind::Tuple(items) => Some(items.len()),
            ValueKind::Map { entries, .. } | ValueKind::Object(entries) => Some(entries.len()),
            _ => None,
        }
    }
}

fn unmark_all(items: Vec<Value>, marks: &mut Marks) -> Vec<Value> {
    items
        .into_iter()
        .map(|item| {
            let (item, item_marks) = item.unmark_deep();
            *marks = marks.union(item_marks);
            item
        })
        .collect()
}

fn unmark_entries(entries: BTreeMap<String, Value>, marks: &mut Marks) -> BTreeMap<String, Value> {
    entries
        .into_iter()
        .map(|(key, value)| {
            let (value, value_marks) = value.unmark_deep();
            *marks = marks.union(value_marks);
            (key, value)
        })
        .collect()
}
