//! cty's `unify`: the one type that several types all convert to (for a
//! list of mixed elements, the two branches of a conditional, `coalesce`),
//! preferring the type the others convert to safely (`string` over
//! `number` and `bool`), objects into maps and tuples into lists when their
//! shapes differ.

use std::collections::VecDeque;

use super::conversion_exists;
use crate::types::Type;

/// The unified type, or `None` when there is none.
pub fn unify(types: &[Type], unsafe_allowed: bool) -> Option<Type> {
    if types.is_empty() {
        return None;
    }
    let count = |test: fn(&Type) -> bool| types.iter().filter(|ty| test(ty)).count();
    let n_maps = count(Type::is_map);
    let n_lists = count(Type::is_list);
    let n_sets = count(Type::is_set);
    let n_objects = count(Type::is_object);
    let n_tuples = count(Type::is_tuple);
    let n_dynamic = count(Type::is_dynamic);
    let n_types = types.len();
    if n_maps > 0 && n_maps + n_dynamic == n_types {
        return collections(Type::map, types, unsafe_allowed, n_dynamic > 0);
    }
    if n_maps > 0 && n_maps + n_objects + n_dynamic == n_types {
        if let Some(unified) = objects_as_maps(types, unsafe_allowed) {
            return Some(unified);
        }
    } else if n_lists > 0 && n_lists + n_dynamic == n_types {
        return collections(Type::list, types, unsafe_allowed, n_dynamic > 0);
    } else if n_lists > 0 && n_lists + n_tuples + n_dynamic == n_types {
        if let Some(unified) = tuples_as_lists(types, unsafe_allowed) {
            return Some(unified);
        }
    } else if n_sets > 0 && n_sets + n_dynamic == n_types {
        return collections(Type::set, types, unsafe_allowed, n_dynamic > 0);
    } else if n_objects > 0 && n_objects + n_dynamic == n_types {
        return object_types(types, unsafe_allowed, n_dynamic > 0);
    } else if n_tuples > 0 && n_tuples + n_dynamic == n_types {
        return tuple_types(types, unsafe_allowed, n_dynamic > 0);
    } else if n_objects > 0 && n_tuples > 0 {
        return None;
    }
    'preferences: for want_index in preference_order(types) {
        let Some(want) = types.get(want_index) else {
            continue;
        };
        for (index, ty) in types.iter().enumerate() {
            if index == want_index || ty == want {
                continue;
            }
            if !conversion_exists(ty, want, unsafe_allowed) {
                continue 'preferences;
            }
        }
        return Some(want.clone());
    }
    None
}

fn all_convert(types: &[Type], to: &Type, unsafe_allowed: bool) -> bool {
    types
        .iter()
        .all(|ty| ty == to || conversion_exists(ty, to, unsafe_allowed))
}

fn collections(
    make: fn(Type) -> Type,
    types: &[Type],
    unsafe_allowed: bool,
    has_dynamic: bool,
) -> Option<Type> {
    if has_dynamic {
        return Some(Type::Dynamic);
    }
    let elements: Vec<Type> = types
        .iter()
        .filter_map(|ty| ty.element().cloned())
        .collect();
    let unified = make(unify(&elements, unsafe_allowed)?);
    all_convert(types, &unified, unsafe_allowed).then_some(unified)
}

fn objects_as_maps(types: &[Type], unsafe_allowed: bool) -> Option<Type> {
    let objects: Vec<Type> = types.iter().filter(|ty| ty.is_object()).cloned().collect();
    let as_map = object_types_to_map(&objects, unsafe_allowed)?;
    let mapped: Vec<Type> = types
        .iter()
        .map(|ty| {
            if ty.is_object() {
                as_map.clone()
            } else {
                ty.clone()
            }
        })
        .collect();
    unify(&mapped, unsafe_allowed).filter(Type::is_map)
}

fn tuples_as_lists(types: &[Type], unsafe_allowed: bool) -> Option<Type> {
    let tuples: Vec<Type> = types.iter().filter(|ty| ty.is_tuple()).cloned().collect();
    let as_list = tuple_types_to_list(&tuples, unsafe_allowed)?;
    let listed: Vec<Type> = types
        .iter()
        .map(|ty| {
            if ty.is_tuple() {
                as_list.clone()
            } else {
                ty.clone()
            }
        })
        .collect();
    unify(&listed, unsafe_allowed).filter(Type::is_list)
}

fn object_types(types: &[Type], unsafe_allowed: bool, has_dynamic: bool) -> Option<Type> {
    if has_dynamic {
        return Some(Type::Dynamic);
    }
    let attribute_sets: Vec<&crate::ObjectType> = types
        .iter()
        .filter_map(|ty| match ty {
            Type::Object(object) => Some(&**object),
            _ => None,
        })
        .collect();
    let first = attribute_sets.first()?;
    if attribute_sets
        .iter()
        .any(|attributes| attributes.names().ne(first.names()))
    {
        return object_types_to_map(types, unsafe_allowed);
    }
    let mut unified = Vec::with_capacity(first.len());
    for name in first.names() {
        let across: Vec<Type> = attribute_sets
            .iter()
            .filter_map(|attributes| attributes.attribute(name).cloned())
            .collect();
        unified.push((name, unify(&across, unsafe_allowed)?));
    }
    let unified = Type::object(unified);
    if all_convert(types, &unified, unsafe_allowed) {
        Some(unified)
    } else {
        object_types_to_map(types, unsafe_allowed)
    }
}

fn object_types_to_map(types: &[Type], unsafe_allowed: bool) -> Option<Type> {
    let attribute_types: Vec<Type> = types
        .iter()
        .flat_map(|ty| match ty {
            Type::Object(object) => object.types().cloned().collect(),
            _ => Vec::new(),
        })
        .collect();
    let unified = Type::map(unify(&attribute_types, unsafe_allowed)?);
    all_convert(types, &unified, unsafe_allowed).then_some(unified)
}

fn tuple_types(types: &[Type], unsafe_allowed: bool, has_dynamic: bool) -> Option<Type> {
    if has_dynamic {
        return Some(Type::Dynamic);
    }
    let element_lists: Vec<&[Type]> = types
        .iter()
        .filter_map(|ty| match ty {
            Type::Tuple(elements) => Some(&**elements),
            _ => None,
        })
        .collect();
    let first = element_lists.first()?;
    if element_lists
        .iter()
        .any(|elements| elements.len() != first.len())
    {
        return tuple_types_to_list(types, unsafe_allowed);
    }
    let mut unified = Vec::with_capacity(first.len());
    for index in 0..first.len() {
        let across: Vec<Type> = element_lists
            .iter()
            .filter_map(|elements| elements.get(index).cloned())
            .collect();
        unified.push(unify(&across, unsafe_allowed)?);
    }
    let unified = Type::tuple(unified);
    if all_convert(types, &unified, unsafe_allowed) {
        Some(unified)
    } else {
        tuple_types_to_list(types, unsafe_allowed)
    }
}

fn tuple_types_to_list(types: &[Type], unsafe_allowed: bool) -> Option<Type> {
    let element_types: Vec<Type> = types
        .iter()
        .flat_map(|ty| match ty {
            Type::Tuple(elements) => elements.to_vec(),
            _ => Vec::new(),
        })
        .collect();
    let unified = Type::list(unify(&element_types, unsafe_allowed)?);
    all_convert(types, &unified, unsafe_allowed).then_some(unified)
}

/// cty's `sortTypes`: a topological order where a type comes before the
/// types that convert to it less readily (`compareTypes`).
fn preference_order(types: &[Type]) -> Vec<usize> {
    let n_types = types.len();
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n_types];
    for (i, a) in types.iter().enumerate() {
        for (j, b) in types.iter().enumerate().skip(i + 1) {
            match compare_types(a, b) {
                std::cmp::Ordering::Less => push_edge(&mut edges, i, j),
                std::cmp::Ordering::Greater => push_edge(&mut edges, j, i),
                std::cmp::Ordering::Equal => {}
            }
        }
    }
    let mut in_degree = vec![0usize; n_types];
    for targets in &edges {
        for &target in targets {
            if let Some(degree) = in_degree.get_mut(target) {
                *degree += 1;
            }
        }
    }
    let mut queue: VecDeque<usize> = (0..n_types)
        .filter(|&index| in_degree.get(index) == Some(&0))
        .collect();
    let mut order = Vec::with_capacity(n_types);
    while let Some(index) = queue.pop_front() {
        order.push(index);
        for &target in edges.get(index).map(Vec::as_slice).unwrap_or_default() {
            if let Some(degree) = in_degree.get_mut(target) {
                *degree -= 1;
                if *degree == 0 {
                    queue.push_back(target);
                }
            }
        }
    }
    // Go's result slice keeps zeros for indexes a cycle left out.
    order.resize(n_types, 0);
    order
}

fn push_edge(edges: &mut [Vec<usize>], from: usize, to: usize) {
    if let Some(targets) = edges.get_mut(from) {
        targets.push(to);
    }
}

/// cty's `compareTypes`: `Less` when `a` is the more general of the two.
fn compare_types(a: &Type, b: &Type) -> std::cmp::Ordering {
    use std::cmp::Ordering::{Equal, Greater, Less};
    if a.is_dynamic() || b.is_dynamic() {
        return match (a.is_dynamic(), b.is_dynamic()) {
            (false, true) => Less,
            (true, false) => Greater,
            _ => Equal,
        };
    }
    if a.is_primitive() && b.is_primitive() && (*a == Type::String || *b == Type::String) {
        return match (*a == Type::String, *b == Type::String) {
            (false, true) => Greater,
            (true, false) => Less,
            _ => Equal,
        };
    }
    match (a, b) {
        (Type::List(x), Type::List(y))
        | (Type::Set(x), Type::Set(y))
        | (Type::Map(x), Type::Map(y)) => return compare_types(x, y),
        _ => {}
    }
    let swapped = matches!(
        (a, b),
        (Type::Tuple(_), Type::List(_))
            | (Type::Object(_), Type::Map(_))
            | (Type::Set(_), Type::Tuple(_))
            | (Type::Set(_), Type::List(_))
    );
    let (a, b) = if swapped { (b, a) } else { (a, b) };
    let flip = |ordering: std::cmp::Ordering| {
        if swapped {
            ordering.reverse()
        } else {
            ordering
        }
    };
    if b.is_set() && (a.is_tuple() || a.is_list()) {
        return flip(Less);
    }
    if a.is_list() && b.is_tuple() {
        return flip(Less);
    }
    if a.is_map() && b.is_object() {
        return flip(Less);
    }
    let supers = |pairs: Vec<(&Type, &Type)>| {
        let mut a_super = false;
        let mut b_super = false;
        for (x, y) in pairs {
            match compare_types(x, y) {
                Less => a_super = true,
                Greater => b_super = true,
                Equal => {}
            }
        }
        match (a_super, b_super) {
            (true, false) => flip(Less),
            (false, true) => flip(Greater),
            _ => Equal,
        }
    };
    match (a, b) {
        (Type::Object(x), Type::Object(y)) => {
            if x.names().ne(y.names()) {
                return Equal;
            }
            supers(x.types().zip(y.types()).collect())
        }
        (Type::Tuple(x), Type::Tuple(y)) => {
            if x.len() != y.len() {
                return Equal;
            }
            supers(x.iter().zip(y.iter()).collect())
        }
        _ => Equal,
    }
}
