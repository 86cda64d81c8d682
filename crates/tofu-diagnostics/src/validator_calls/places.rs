//! Where a provider's diagnostic about an attribute path points in the
//! configuration: OpenTofu's `tfdiags` `ElaborateFromConfigBody` (for a
//! diagnostic with a path) and the whole body's "missing item range" (for
//! one without), over a record of the body kept with each call.
//!
//! [`BodyPlaces`] is what the search needs of a body and nothing more:
//! each argument's expression (with the items of a list or the values of
//! an object written in place), each nested block's type, first label and
//! own places, and where HCL says the body lacks something. The rules are
//! OpenTofu's: a path's last `GetAttr` step is looked up as an argument of
//! the body the steps before it lead to (a step naming exactly one block,
//! or the block an index or key picks, goes into it; anything else stops
//! there); a final index points at the list item or object value, or at
//! the argument's name when the item is not there; what cannot be found is
//! the deepest body's missing item range.

use tofu_schema::plugin::messages::AttributePathStep;
use tofu_syntax::{FileId, Location, TextRange};

/// The places of one body (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BodyPlaces {
    pub(crate) missing: Location,
    pub(crate) attributes: Vec<AttributePlaces>,
    pub(crate) blocks: Vec<BlockPlaces>,
}

/// One argument's places.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct AttributePlaces {
    pub(crate) name: String,
    pub(crate) file: FileId,
    pub(crate) name_range: TextRange,
    pub(crate) expr: TextRange,
    /// The items of a list or tuple written in place (`[a, b]`).
    pub(crate) items: Option<Vec<TextRange>>,
    /// The keys of an object written in place and where each value starts;
    /// `None` for a key that is not a constant string.
    pub(crate) entries: Option<Vec<(Option<String>, TextRange)>>,
}

/// One nested block's places.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct BlockPlaces {
    pub(crate) kind: String,
    pub(crate) first_label: Option<String>,
    pub(crate) body: BodyPlaces,
}

impl BodyPlaces {
    /// Where a diagnostic about `path` points (the module doc's rules).
    pub fn locate(&self, path: &[AttributePathStep]) -> Location {
        let Some(last) = path.last() else {
            return self.missing;
        };
        if matches!(path.first(), Some(step) if is_index(step)) {
            return self.missing;
        }
        let (final_step, traverse, index) = if is_index(last) {
            let Some((_, before)) = path.split_last() else {
                return self.missing;
            };
            match before.last() {
                Some(final_step) => (final_step, before, Some(last)),
                None => return self.missing,
            }
        } else {
            (last, path, None)
        };
        let body = if traverse.len() > 1 {
            self.traverse(traverse)
        } else {
            self
        };
        let AttributePathStep::AttributeName(name) = final_step else {
            return body.missing;
        };
        let Some(attribute) = body.attributes.iter().find(|place| place.name == *name) else {
            return body.missing;
        };
        let range = match index {
            None => attribute.expr,
            Some(index) => attribute.indexed(index),
        };
        Location::new(attribute.file, range)
    }

    /// The body `steps` lead to (`traversePathSteps`).
    fn traverse(&self, steps: &[AttributePathStep]) -> &BodyPlaces {
        let mut body = self;
        let mut position = 0;
        while let Some(step) = steps.get(position) {
            let AttributePathStep::AttributeName(name) = step else {
                return body;
            };
            let next = steps.get(position + 1).filter(|next| is_index(next));
            if next.is_some() {
                position += 1;
            }
            position += 1;
            let blocks: Vec<&BlockPlaces> = body
                .blocks
                .iter()
                .filter(|block| block.kind == *name)
                .collect();
            if blocks.is_empty() {
                continue;
            }
            body = match next {
                None => match blocks.as_slice() {
                    [only] => &only.body,
                    _ => return body,
                },
                Some(AttributePathStep::ElementKeyInt(index)) => {
                    match usize::try_from(*index).ok().and_then(|at| blocks.get(at)) {
                        Some(block) => &block.body,
                        None => return body,
                    }
                }
                Some(AttributePathStep::ElementKeyString(key)) => {
                    match blocks
                        .iter()
                        .find(|block| block.first_label.as_deref() == Some(key.as_str()))
                    {
                        Some(block) => &block.body,
                        None => return body,
                    }
                }
                Some(AttributePathStep::AttributeName(_)) => return body,
            };
        }
        body
    }
}

impl AttributePlaces {
    /// `hclRangeFromIndexStepAndAttribute`.
    fn indexed(&self, index: &AttributePathStep) -> TextRange {
        match index {
            AttributePathStep::ElementKeyInt(at) => match &self.items {
                None => self.expr,
                Some(items) => usize::try_from(*at)
                    .ok()
                    .and_then(|at| items.get(at))
                    .copied()
                    .unwrap_or(self.name_range),
            },
            AttributePathStep::ElementKeyString(key) => match &self.entries {
                None => self.expr,
                Some(entries) => {
                    for (entry_key, value_start) in entries {
                        match entry_key {
                            None => return self.expr,
                            Some(entry_key) if entry_key == key => return *value_start,
                            Some(_) => {}
                        }
                    }
                    self.name_range
                }
            },
            AttributePathStep::AttributeName(_) => self.expr,
        }
    }
}

fn is_index(step: &AttributePathStep) -> bool {
    !matches!(step, AttributePathStep::AttributeName(_))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(start: u32, end: u32) -> TextRange {
        TextRange::new(start, end)
    }

    fn attribute(name: &str, expr: TextRange) -> AttributePlaces {
        AttributePlaces {
            name: name.to_owned(),
            file: FileId(0),
            name_range: range(expr.start - 5, expr.start - 3),
            expr,
            items: None,
            entries: None,
        }
    }

    fn body(
        missing: u32,
        attributes: Vec<AttributePlaces>,
        blocks: Vec<BlockPlaces>,
    ) -> BodyPlaces {
        BodyPlaces {
            missing: Location::new(FileId(0), range(missing, missing)),
            attributes,
            blocks,
        }
    }

    fn name(text: &str) -> AttributePathStep {
        AttributePathStep::AttributeName(text.to_owned())
    }

    #[test]
    fn an_argument_is_its_expression_and_anything_else_the_missing_item_range() {
        let places = body(1, vec![attribute("create_duration", range(20, 25))], vec![]);
        assert_eq!(
            places.locate(&[name("create_duration")]).range,
            Some(range(20, 25))
        );
        assert_eq!(places.locate(&[name("nope")]).range, Some(range(1, 1)));
        assert_eq!(places.locate(&[]).range, Some(range(1, 1)));
        assert_eq!(
            places.locate(&[AttributePathStep::ElementKeyInt(0)]).range,
            Some(range(1, 1))
        );
    }

    #[test]
    fn a_path_goes_into_the_one_block_it_names_or_the_block_its_index_picks() {
        let inner = |at: u32| {
            body(
                at,
                vec![attribute("create", range(at + 10, at + 15))],
                vec![],
            )
        };
        let one = body(
            1,
            vec![],
            vec![BlockPlaces {
                kind: "timeouts".to_owned(),
                first_label: None,
                body: inner(100),
            }],
        );
        assert_eq!(
            one.locate(&[name("timeouts"), name("create")]).range,
            Some(range(110, 115))
        );
        let two = body(
            1,
            vec![],
            vec![
                BlockPlaces {
                    kind: "rule".to_owned(),
                    first_label: None,
                    body: inner(100),
                },
                BlockPlaces {
                    kind: "rule".to_owned(),
                    first_label: None,
                    body: inner(200),
                },
            ],
        );
        assert_eq!(
            two.locate(&[
                name("rule"),
                AttributePathStep::ElementKeyInt(1),
                name("create")
            ])
            .range,
            Some(range(210, 215))
        );
        assert_eq!(
            two.locate(&[name("rule"), name("create")]).range,
            Some(range(1, 1)),
            "two blocks and no index: the outer body"
        );
    }

    #[test]
    fn a_final_index_points_at_the_item_or_else_the_name() {
        let mut list = attribute("triggers", range(20, 40));
        list.items = Some(vec![range(21, 25), range(27, 31)]);
        let mut map = attribute("labels", range(50, 70));
        map.entries = Some(vec![(Some("a".to_owned()), range(55, 58))]);
        let places = body(1, vec![list, map], vec![]);
        assert_eq!(
            places
                .locate(&[name("triggers"), AttributePathStep::ElementKeyInt(1)])
                .range,
            Some(range(27, 31))
        );
        assert_eq!(
            places
                .locate(&[name("triggers"), AttributePathStep::ElementKeyInt(5)])
                .range,
            Some(range(15, 17))
        );
        assert_eq!(
            places
                .locate(&[
                    name("labels"),
                    AttributePathStep::ElementKeyString("a".to_owned())
                ])
                .range,
            Some(range(55, 58))
        );
    }
}
