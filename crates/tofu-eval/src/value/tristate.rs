//! cty's three-valued bool: the result of comparing values that may be
//! unknown.

/// A bool that may be unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tristate {
    True,
    False,
    Unknown,
}

impl From<bool> for Tristate {
    fn from(value: bool) -> Tristate {
        if value {
            Tristate::True
        } else {
            Tristate::False
        }
    }
}
