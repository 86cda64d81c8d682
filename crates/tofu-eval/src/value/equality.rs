//! cty's two equalities: `Equals` (the `==` operator, `contains`, set
//! membership), which is unknown when an unknown value decides, and
//! `RawEquals` (the same value, unknowns and types included).
//!
//! Numbers are equal as cty's `rawNumberEqual` says: whole numbers by value,
//! others when their shortest decimal forms are the same (so numbers of
//! different precision that print alike are equal).

use super::{Tristate, Value, ValueKind};
use crate::number::Number;

impl Value {
    /// cty's `Equals`, marks ignored: unknown when an unknown value decides.
    pub fn equals(&self, other: &Value) -> Tristate {
        equals(self, other)
    }

    /// cty's `RawEquals`: the same value, unknowns and types included.
    pub fn raw_equals(&self, other: &Value) -> bool {
        raw_equals(self, other)
    }
}

fn equals(left: &Value, right: &Value) -> Tristate {
    let definitely_not_null = |value: &Value| match &value.kind {
        ValueKind::Null(_) => false,
        ValueKind::Unknown(unknown) => unknown.not_null,
        _ => true,
    };
    if (left.is_null() && definitely_not_null(right))
        || (right.is_null() && definitely_not_null(left))
    {
        return Tristate::False;
    }
    match (left.is_known(), right.is_known()) {
        (false, false) => return Tristate::Unknown,
        (true, false) | (false, true) => {
            let (known, unknown) = if left.is_known() {
                (left, right)
            } else {
                (right, left)
            };
            let unknown_ty = unknown.ty();
            if known.is_null() || unknown_ty.has_dynamic() || known.ty() == unknown_ty {
                return Tristate::Unknown;
            }
            return Tristate::False;
        }
        (true, true) => {}
    }
    match (left.is_null(), right.is_null()) {
        (true, true) => return Tristate::True,
        (true, false) | (false, true) => return Tristate::False,
        (false, false) => {}
    }
    if !left.is_wholly_known() || !right.is_wholly_known() {
        if left.ty() != right.ty() {
            return Tristate::False;
        }
    } else if left.ty() != right.ty() {
        return Tristate::False;
    }
    match (&left.kind, &right.kind) {
        (ValueKind::Number(a), ValueKind::Number(b)) => numbers_equal(a, b).into(),
        (ValueKind::Bool(a), ValueKind::Bool(b)) => (a == b).into(),
        (ValueKind::String(a), ValueKind::String(b)) => (a == b).into(),
        (ValueKind::List { items: a, .. }, ValueKind::List { items: b, .. })
        | (ValueKind::Tuple(a), ValueKind::Tuple(b))
        | (ValueKind::Set { items: a, .. }, ValueKind::Set { items: b, .. }) => {
            if a.len() != b.len() {
                return Tristate::False;
            }
            all_equal(a.iter().zip(b.iter()))
        }
        (ValueKind::Map { entries: a, .. }, ValueKind::Map { entries: b, .. })
        | (ValueKind::Object(a), ValueKind::Object(b)) => {
            if a.len() != b.len() || a.keys().ne(b.keys()) {
                return Tristate::False;
            }
            all_equal(a.values().zip(b.values()))
        }
        _ => Tristate::False,
    }
}

fn all_equal<'v>(pairs: impl Iterator<Item = (&'v Value, &'v Value)>) -> Tristate {
    let mut result = Tristate::True;
    for (a, b) in pairs {
        match equals(a, b) {
            Tristate::False => return Tristate::False,
            Tristate::Unknown => result = Tristate::Unknown,
            Tristate::True => {}
        }
    }
    result
}

/// cty's `rawNumberEqual`.
pub(crate) fn numbers_equal(a: &Number, b: &Number) -> bool {
    let sign = |n: &Number| {
        if n.is_zero() {
            0
        } else if n.is_negative() {
            -1
        } else {
            1
        }
    };
    if sign(a) != sign(b) {
        return false;
    }
    match (a.is_integer(), b.is_integer()) {
        (true, true) => a == b,
        (false, false) => {
            if a.is_infinite() || b.is_infinite() {
                return a == b;
            }
            a.text('f', -1) == b.text('f', -1)
        }
        _ => false,
    }
}

fn raw_equals(left: &Value, right: &Value) -> bool {
    if left.marks != right.marks {
        return false;
    }
    match (&left.kind, &right.kind) {
        (ValueKind::Null(a), ValueKind::Null(b)) => a == b,
        (ValueKind::Unknown(a), ValueKind::Unknown(b)) => a == b,
        (ValueKind::Number(a), ValueKind::Number(b)) => numbers_equal(a, b),
        (ValueKind::Bool(a), ValueKind::Bool(b)) => a == b,
        (ValueKind::String(a), ValueKind::String(b)) => a == b,
        (
            ValueKind::List {
                element: ta,
                items: a,
            },
            ValueKind::List {
                element: tb,
                items: b,
            },
        )
        | (
            ValueKind::Set {
                element: ta,
                items: a,
            },
            ValueKind::Set {
                element: tb,
                items: b,
            },
        ) => ta == tb && a.len() == b.len() && a.iter().zip(b).all(|(a, b)| raw_equals(a, b)),
        (ValueKind::Tuple(a), ValueKind::Tuple(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| raw_equals(a, b))
        }
        (
            ValueKind::Map {
                element: ta,
                entries: a,
            },
            ValueKind::Map {
                element: tb,
                entries: b,
            },
        ) => {
            ta == tb
                && a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|((ka, va), (kb, vb))| ka == kb && raw_equals(va, vb))
        }
        (ValueKind::Object(a), ValueKind::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|((ka, va), (kb, vb))| ka == kb && raw_equals(va, vb))
        }
        _ => false,
    }
}
