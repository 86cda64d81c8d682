//! Version constraints as OpenTofu parses them when loading a module: the
//! grammar and matching rules of HashiCorp `go-version` v1.8.0
//! (`diagnostics.md` §5).
//!
//! [`Constraints::parse`] reads a comma-separated list in which every element
//! is `ws [op] ws version ws`; [`Constraints::accepts`] says whether a version
//! satisfies every element, with go-version's prerelease rule and `~>`
//! semantics. [`Version::parse`] reads one version (a `v` prefix is allowed,
//! surrounding whitespace is not).
//!
//! Left out: the second, ruby-style parser OpenTofu uses at install time
//! (`apparentlymart/go-versions`, §5 "Second parser"); "or" lists, wildcards
//! and carets, which go-version does not have either; and everything about
//! where a constraint comes from (§4.4). Callers decide what to parse and
//! whether a prerelease is allowed ([`Constraints::first_prerelease`]).
//!
//! Invariants: nothing here panics, whatever the input. A parsed [`Version`]
//! has at least one component, each at most `i64::MAX`; its prerelease and
//! metadata, when present, are non-empty. Byte ranges lie within the parsed
//! text, on character boundaries. Comparisons reproduce go-version exactly,
//! quirks included (noted where they occur), so tofu-lens and OpenTofu agree
//! on every input.

use std::cmp::Ordering;
use std::fmt;
use std::ops::Range;

/// OpenTofu's detail for a constraint go-version refuses: its parser's own
/// error is not shown.
pub const MALFORMED_DETAIL: &str = "This string does not use correct version constraint syntax.";

/// The whitespace allowed around operators and versions (Go's `\s`: no `\v`).
const WHITESPACE: [char; 5] = [' ', '\t', '\n', '\r', '\x0C'];

/// Operators in the order they are tried: two-character ones first.
const OPERATORS: [(&str, Operator); 7] = [
    ("<=", Operator::LessEqual),
    (">=", Operator::GreaterEqual),
    ("!=", Operator::NotEqual),
    ("~>", Operator::Pessimistic),
    ("<", Operator::Less),
    (">", Operator::Greater),
    ("=", Operator::Equal),
];

/// A parsed version: numeric components (any count >= 1), optional
/// prerelease, metadata ignored.
///
/// The derived `PartialEq` is structural (`1.12` differs from `1.12.0`); use
/// [`Version::compare`] for version precedence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Version {
    /// The numeric components as written, leading zeros dropped (`1.12` has two).
    pub components: Vec<u64>,
    /// The prerelease without its separator (`beta.1` in `1.0.0-beta.1`,
    /// `beta1` in `1.0.0beta1`).
    pub prerelease: Option<String>,
    /// Build metadata after `+`: shown by `Display`, ignored when comparing.
    pub metadata: Option<String>,
}

/// A comparison operator of one constraint element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operator {
    /// `=`, or no operator at all.
    Equal,
    /// `!=`
    NotEqual,
    /// `>`
    Greater,
    /// `>=`
    GreaterEqual,
    /// `<`
    Less,
    /// `<=`
    LessEqual,
    /// `~>`: only the rightmost written component may grow.
    Pessimistic,
}

/// One element of a constraint list, such as `>= 1.2`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    /// The operator (`Equal` when none was written).
    pub operator: Operator,
    /// The version the operator compares against.
    pub version: Version,
    /// Byte range of this element within the parsed string (trimmed element text).
    pub range: Range<usize>,
    /// The element text, without surrounding whitespace.
    pub text: String,
}

/// A parsed constraint list: a version must satisfy every element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraints {
    /// The elements in written order (never empty after a successful parse).
    pub elements: Vec<Constraint>,
}

/// Why a version or constraint string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionError {
    /// A user-facing sentence, such as `Malformed constraint: >= 1.0,`.
    pub message: String,
    /// Byte range within the input of the offending element.
    pub range: Range<usize>,
}

/// Why [`parse_version`] failed.
enum Fault {
    /// The text does not match the `version` production.
    Malformed,
    /// A numeric component does not fit in a signed 64-bit integer.
    TooLarge,
}

impl Version {
    /// Parses the `version` production: `[v] num {.num} [pre] [+meta]`.
    ///
    /// # Errors
    /// `Malformed version: TEXT` when `text` is not a version (surrounding
    /// whitespace included) or a number exceeds `i64::MAX`; the range is the
    /// whole input.
    pub fn parse(text: &str) -> Result<Version, VersionError> {
        parse_version(text).map_err(|fault| VersionError {
            message: fault_message(fault, text),
            range: 0..text.len(),
        })
    }

    /// The same components without prerelease or metadata (OpenTofu checks
    /// its own version by its core: `1.13.0-beta1` is seen as `1.13.0`).
    pub fn core(&self) -> Version {
        Version {
            components: self.components.clone(),
            prerelease: None,
            metadata: None,
        }
    }

    /// Version precedence exactly as go-version's `Compare`: components
    /// compare numerically, missing ones count as 0 (`1.2.3.0` equals
    /// `1.2.3`); with equal components a prerelease sorts below the release;
    /// metadata is ignored.
    ///
    /// Prereleases compare part by part, numeric parts numerically and below
    /// alphanumeric ones (`1.0.0-rc1` < `1.0.0`). go-version quirks kept:
    /// prereleases count only when the component lists padded to three are
    /// identical, so `1.2.3.0` equals `1.2.3-beta`; a missing prerelease part
    /// sorts above an alphanumeric one (`beta` > `beta.x`); `01` and `1`
    /// each compare less than the other.
    pub fn compare(&self, other: &Version) -> Ordering {
        let mine = self.padded_components();
        let theirs = other.padded_components();
        if mine == theirs {
            return match (&self.prerelease, &other.prerelease) {
                (None, None) => Ordering::Equal,
                (None, Some(_)) => Ordering::Greater,
                (Some(_), None) => Ordering::Less,
                (Some(a), Some(b)) => compare_prereleases(a, b),
            };
        }
        let len = mine.len().max(theirs.len());
        (0..len)
            .map(|i| {
                let a = mine.get(i).copied().unwrap_or(0);
                let b = theirs.get(i).copied().unwrap_or(0);
                a.cmp(&b)
            })
            .find(|order| order.is_ne())
            .unwrap_or(Ordering::Equal)
    }

    /// The components padded with zeros to at least three, as go-version
    /// stores them (`1.12` becomes `1.12.0`).
    fn padded_components(&self) -> Vec<u64> {
        let mut components = self.components.clone();
        if components.len() < 3 {
            components.resize(3, 0);
        }
        components
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, component) in self.components.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "{component}")?;
        }
        if let Some(pre) = &self.prerelease {
            write!(f, "-{pre}")?;
        }
        if let Some(meta) = &self.metadata {
            write!(f, "+{meta}")?;
        }
        Ok(())
    }
}

impl Operator {
    /// The operator as written (`=` for `Equal`, also when none was written).
    pub fn as_str(self) -> &'static str {
        match self {
            Operator::Equal => "=",
            Operator::NotEqual => "!=",
            Operator::Greater => ">",
            Operator::GreaterEqual => ">=",
            Operator::Less => "<",
            Operator::LessEqual => "<=",
            Operator::Pessimistic => "~>",
        }
    }
}

impl fmt::Display for Operator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Constraint {
    /// Whether this element alone accepts `version` (go-version's rules).
    pub fn accepts(&self, version: &Version) -> bool {
        let wanted = &self.version;
        let order = version.compare(wanted);
        match self.operator {
            Operator::Equal => order == Ordering::Equal,
            Operator::NotEqual => order != Ordering::Equal,
            Operator::Greater => prerelease_allows(version, wanted) && order == Ordering::Greater,
            Operator::GreaterEqual => prerelease_allows(version, wanted) && order != Ordering::Less,
            Operator::Less => prerelease_allows(version, wanted) && order == Ordering::Less,
            Operator::LessEqual => prerelease_allows(version, wanted) && order != Ordering::Greater,
            Operator::Pessimistic => pessimistic_accepts(version, wanted),
        }
    }
}

impl Constraints {
    /// Parses a comma-separated list; every element must be a full constraint.
    ///
    /// # Errors
    /// On the first bad element: `Malformed constraint: ELEMENT` on the
    /// element's trimmed range, or `Malformed version: …` when a number
    /// exceeds `i64::MAX`. An empty element (`""`, `">= 1.0,"`) names the
    /// whole input and is reported on the comma that leaves it empty, or on
    /// the whole input when there is no comma.
    pub fn parse(text: &str) -> Result<Constraints, VersionError> {
        let mut elements = Vec::new();
        let mut start = 0;
        for raw in text.split(',') {
            if trim_ws(raw).is_empty() {
                return Err(empty_element_error(text, start..start + raw.len()));
            }
            elements.push(parse_element(start, raw)?);
            start += raw.len() + 1;
        }
        Ok(Constraints { elements })
    }

    /// true when every element accepts `version` (go-version matching rules
    /// incl. the prerelease rule and `~>`).
    pub fn accepts(&self, version: &Version) -> bool {
        self.elements.iter().all(|element| element.accepts(version))
    }

    /// The tightest lower bound the list sets, as a `>=` or `>` element:
    /// `~> 1.11.0`, `= 1.11.0` and `>= 1.11.0` all give `>= 1.11.0`. `None`
    /// when no element bounds versions from below (`< 2.0`, `!= 1.5`).
    pub fn lower_bound(&self) -> Option<Constraint> {
        let mut bound: Option<Constraint> = None;
        for element in &self.elements {
            let operator = match element.operator {
                Operator::Equal | Operator::GreaterEqual | Operator::Pessimistic => {
                    Operator::GreaterEqual
                }
                Operator::Greater => Operator::Greater,
                Operator::NotEqual | Operator::Less | Operator::LessEqual => continue,
            };
            let tighter = bound.as_ref().is_none_or(|current| {
                match element.version.compare(&current.version) {
                    Ordering::Greater => true,
                    Ordering::Equal => operator == Operator::Greater,
                    Ordering::Less => false,
                }
            });
            if tighter {
                let text = format!("{} {}", operator.as_str(), element.version);
                bound = Some(Constraint {
                    operator,
                    version: element.version.clone(),
                    range: 0..text.len(),
                    text,
                });
            }
        }
        bound
    }

    /// The first element that has a prerelease (OpenTofu's own constraints
    /// reject these).
    pub fn first_prerelease(&self) -> Option<&Constraint> {
        self.elements
            .iter()
            .find(|element| element.version.prerelease.is_some())
    }
}

impl fmt::Display for VersionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for VersionError {}

fn is_ws(c: char) -> bool {
    WHITESPACE.contains(&c)
}

fn trim_ws(text: &str) -> &str {
    text.trim_matches(is_ws)
}

/// Parses one non-blank element `raw` that starts at byte `start` of the list.
fn parse_element(start: usize, raw: &str) -> Result<Constraint, VersionError> {
    let lead = raw.len() - raw.trim_start_matches(is_ws).len();
    let text = trim_ws(raw);
    let range = start + lead..start + lead + text.len();
    let (operator, rest) = OPERATORS
        .iter()
        .find_map(|(written, operator)| text.strip_prefix(written).map(|rest| (*operator, rest)))
        .unwrap_or((Operator::Equal, text));
    let version_text = rest.trim_start_matches(is_ws);
    match parse_version(version_text) {
        Ok(version) => Ok(Constraint {
            operator,
            version,
            range,
            text: text.to_owned(),
        }),
        Err(Fault::Malformed) => Err(VersionError {
            message: format!("Malformed constraint: {text}"),
            range,
        }),
        Err(Fault::TooLarge) => Err(VersionError {
            message: fault_message(Fault::TooLarge, version_text),
            range,
        }),
    }
}

/// The error for a blank element occupying `element` of `text`.
fn empty_element_error(text: &str, element: Range<usize>) -> VersionError {
    let whole = trim_ws(text);
    let message = if whole.is_empty() {
        "Malformed constraint: empty string".to_owned()
    } else {
        format!("Malformed constraint: {whole}")
    };
    let range = if element.start > 0 {
        element.start - 1..element.start
    } else if element.end < text.len() {
        element.end..element.end + 1
    } else {
        0..text.len()
    };
    VersionError { message, range }
}

fn fault_message(fault: Fault, version_text: &str) -> String {
    match fault {
        Fault::Malformed => format!("Malformed version: {version_text}"),
        Fault::TooLarge => format!(
            "Malformed version: {version_text} (version numbers must not exceed {})",
            i64::MAX
        ),
    }
}

/// The `version` production (go-version's `VersionRegexpRaw`, anchored).
fn parse_version(text: &str) -> Result<Version, Fault> {
    let body = text.strip_prefix('v').unwrap_or(text);
    let numeric_len = numeric_prefix_len(body);
    if numeric_len == 0 {
        return Err(Fault::Malformed);
    }
    let (numeric, rest) = body.split_at_checked(numeric_len).ok_or(Fault::Malformed)?;
    let (pre_text, metadata) = match rest.split_once('+') {
        Some((pre, meta)) if valid_parts(meta) => (pre, Some(meta.to_owned())),
        Some(_) => return Err(Fault::Malformed),
        None => (rest, None),
    };
    let prerelease = if pre_text.is_empty() {
        None
    } else {
        Some(prerelease_of(pre_text).ok_or(Fault::Malformed)?.to_owned())
    };
    // Components are non-empty digit runs: parsing fails only on overflow.
    let components = numeric
        .split('.')
        .map(|digits| {
            digits
                .parse::<i64>()
                .ok()
                .and_then(|value| u64::try_from(value).ok())
                .ok_or(Fault::TooLarge)
        })
        .collect::<Result<Vec<u64>, Fault>>()?;
    Ok(Version {
        components,
        prerelease,
        metadata,
    })
}

/// Length of the longest prefix of the form `digits { "." digits }`.
fn numeric_prefix_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    let digits_from = |from: usize| {
        bytes.get(from..).map_or(0, |tail| {
            tail.iter().take_while(|byte| byte.is_ascii_digit()).count()
        })
    };
    let mut end = digits_from(0);
    if end == 0 {
        return 0;
    }
    while bytes.get(end) == Some(&b'.') {
        let run = digits_from(end + 1);
        if run == 0 {
            break;
        }
        end += 1 + run;
    }
    end
}

/// The prerelease captured from `text` (what follows the numbers, before any
/// `+`), as go-version's regexp captures it, or `None` when it does not match
/// the `pre` production. A leading `-` is a separator and dropped when what
/// follows can start a prerelease, otherwise it is the prerelease's first
/// character (`1.0.0-` has prerelease `-`, `1.0.0--x` has `-x`).
fn prerelease_of(text: &str) -> Option<&str> {
    if let Some(body) = text.strip_prefix('-') {
        if body
            .bytes()
            .next()
            .is_some_and(|first| first.is_ascii_digit() || is_prerelease_start(first))
        {
            return valid_parts(body).then_some(body);
        }
    }
    let starts_well = text.bytes().next().is_some_and(is_prerelease_start);
    (starts_well && valid_parts(text)).then_some(text)
}

fn is_prerelease_start(byte: u8) -> bool {
    byte.is_ascii_alphabetic() || byte == b'-' || byte == b'~'
}

/// `part { "." part }` with `part = ( alnum | "-" | "~" )+`.
fn valid_parts(text: &str) -> bool {
    text.split('.').all(|part| {
        !part.is_empty()
            && part
                .bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'~')
    })
}

/// go-version's `prereleaseCheck` for `>`, `>=`, `<`, `<=` and `~>`: a
/// constraint without a prerelease never accepts a prerelease version; one
/// with a prerelease accepts a prerelease version only with the same
/// (padded) components.
fn prerelease_allows(version: &Version, wanted: &Version) -> bool {
    match (version.prerelease.is_some(), wanted.prerelease.is_some()) {
        (true, true) => version.padded_components() == wanted.padded_components(),
        (true, false) => false,
        (false, _) => true,
    }
}

/// go-version's `constraintPessimistic`.
fn pessimistic_accepts(version: &Version, wanted: &Version) -> bool {
    if !prerelease_allows(version, wanted)
        || (wanted.prerelease.is_some() && version.prerelease.is_none())
    {
        return false;
    }
    if version.compare(wanted) == Ordering::Less {
        return false;
    }
    let written = wanted.padded_components();
    let checked = version.padded_components();
    // `~> 1.2.3.4` needs four components in the version.
    if written.len() > checked.len() {
        return false;
    }
    // All written components but the last must be equal.
    let fixed = wanted.components.len().saturating_sub(1);
    if written
        .iter()
        .zip(&checked)
        .take(fixed)
        .any(|(a, b)| a != b)
    {
        return false;
    }
    let last = written.len().saturating_sub(1);
    written.get(last) <= checked.get(last)
}

fn compare_prereleases(mine: &str, theirs: &str) -> Ordering {
    if mine == theirs {
        return Ordering::Equal;
    }
    let mut my_parts = mine.split('.');
    let mut their_parts = theirs.split('.');
    loop {
        match (my_parts.next(), their_parts.next()) {
            (None, None) => return Ordering::Equal,
            (a, b) => {
                let order = compare_part(a.unwrap_or(""), b.unwrap_or(""));
                if order.is_ne() {
                    return order;
                }
            }
        }
    }
}

/// go-version's `comparePart`, quirks included: numeric parts (as Go's
/// `strconv.ParseInt` sees them, so `-1` is numeric) sort below alphanumeric
/// ones; a missing part sorts below a numeric part but above an alphanumeric
/// one (`beta` > `beta.x`); numerically equal but differently written parts
/// (`01`, `1`) each compare less than the other.
fn compare_part(mine: &str, theirs: &str) -> Ordering {
    if mine == theirs {
        return Ordering::Equal;
    }
    let (my_value, my_numeric) = go_parse_int(mine);
    let (their_value, their_numeric) = go_parse_int(theirs);
    let greater = if mine.is_empty() {
        !their_numeric
    } else if theirs.is_empty() {
        my_numeric
    } else {
        match (my_numeric, their_numeric) {
            (true, false) => false,
            (false, true) => true,
            (false, false) if mine > theirs => true,
            _ => my_value > their_value,
        }
    };
    if greater {
        Ordering::Greater
    } else {
        Ordering::Less
    }
}

/// Go's `strconv.ParseInt(text, 10, 64)`: the value it returns (clamped on
/// overflow, 0 on a syntax error) and whether it returned no error.
fn go_parse_int(text: &str) -> (i64, bool) {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if digits.is_empty() {
        return (0, false);
    }
    let clamped = if negative { i64::MIN } else { i64::MAX };
    let mut magnitude: u64 = 0;
    for byte in digits.bytes() {
        if !byte.is_ascii_digit() {
            return (0, false);
        }
        match magnitude
            .checked_mul(10)
            .and_then(|m| m.checked_add(u64::from(byte - b'0')))
        {
            Some(m) => magnitude = m,
            None => return (clamped, false),
        }
    }
    let value = if negative {
        i64::try_from(-i128::from(magnitude))
    } else {
        i64::try_from(magnitude)
    };
    match value {
        Ok(value) => (value, true),
        Err(_) => (clamped, false),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn version(text: &str) -> Version {
        Version::parse(text).unwrap_or_else(|e| panic!("{text:?}: {}", e.message))
    }

    fn constraints(text: &str) -> Constraints {
        Constraints::parse(text).unwrap_or_else(|e| panic!("{text:?}: {}", e.message))
    }

    fn accepts(constraint: &str, candidate: &str) -> bool {
        constraints(constraint).accepts(&version(candidate))
    }

    #[test]
    fn valid_constraints_from_the_spec() {
        use Operator::*;
        // (input, [(operator, components, prerelease, metadata, trimmed range)])
        #[allow(clippy::type_complexity)]
        let cases: &[(
            &str,
            &[(Operator, &[u64], Option<&str>, Option<&str>, Range<usize>)],
        )] = &[
            ("1.2", &[(Equal, &[1, 2], None, None, 0..3)]),
            ("= 1.2", &[(Equal, &[1, 2], None, None, 0..5)]),
            ("v1.2.3", &[(Equal, &[1, 2, 3], None, None, 0..6)]),
            ("~>1.2", &[(Pessimistic, &[1, 2], None, None, 0..5)]),
            (
                ">= 1.2, < 2.0",
                &[
                    (GreaterEqual, &[1, 2], None, None, 0..6),
                    (Less, &[2, 0], None, None, 8..13),
                ],
            ),
            ("1.2.3.4", &[(Equal, &[1, 2, 3, 4], None, None, 0..7)]),
            (
                "1.0.0-beta.1",
                &[(Equal, &[1, 0, 0], Some("beta.1"), None, 0..12)],
            ),
            (
                "1.0.0beta1",
                &[(Equal, &[1, 0, 0], Some("beta1"), None, 0..10)],
            ),
            (
                "1.0.0+build.5",
                &[(Equal, &[1, 0, 0], None, Some("build.5"), 0..13)],
            ),
            ("1", &[(Equal, &[1], None, None, 0..1)]),
            (
                "= 1.2, >= 1.0",
                &[
                    (Equal, &[1, 2], None, None, 0..5),
                    (GreaterEqual, &[1, 0], None, None, 7..13),
                ],
            ),
            (
                ">= 2, < 1",
                &[
                    (GreaterEqual, &[2], None, None, 0..4),
                    (Less, &[1], None, None, 6..9),
                ],
            ),
            ("!=1.0", &[(NotEqual, &[1, 0], None, None, 0..5)]),
            ("<=1", &[(LessEqual, &[1], None, None, 0..3)]),
            (">1", &[(Greater, &[1], None, None, 0..2)]),
            ("<1", &[(Less, &[1], None, None, 0..2)]),
            (">=v1.2", &[(GreaterEqual, &[1, 2], None, None, 0..6)]),
            // Whitespace: space, tab, newline, carriage return, form feed.
            (
                " \t>=\n1.2\r\x0C",
                &[(GreaterEqual, &[1, 2], None, None, 2..8)],
            ),
            (
                "  >=1.2  ,\t<2  ",
                &[
                    (GreaterEqual, &[1, 2], None, None, 2..7),
                    (Less, &[2], None, None, 11..13),
                ],
            ),
            ("~>  1.2.0", &[(Pessimistic, &[1, 2, 0], None, None, 0..9)]),
            ("01.002", &[(Equal, &[1, 2], None, None, 0..6)]),
            (
                "9223372036854775807",
                &[(Equal, &[9_223_372_036_854_775_807], None, None, 0..19)],
            ),
            (
                "1.0.0-rc1+abc",
                &[(Equal, &[1, 0, 0], Some("rc1"), Some("abc"), 0..13)],
            ),
        ];
        for (input, expected) in cases {
            let parsed = constraints(input);
            assert_eq!(parsed.elements.len(), expected.len(), "{input:?}");
            for (element, (operator, components, pre, meta, range)) in
                parsed.elements.iter().zip(expected.iter())
            {
                assert_eq!(element.operator, *operator, "{input:?}");
                assert_eq!(element.version.components, *components, "{input:?}");
                assert_eq!(element.version.prerelease.as_deref(), *pre, "{input:?}");
                assert_eq!(element.version.metadata.as_deref(), *meta, "{input:?}");
                assert_eq!(element.range, *range, "{input:?}");
                assert_eq!(element.text, input[range.clone()], "{input:?}");
            }
        }
    }

    #[test]
    fn malformed_constraints() {
        // (input, message, range)
        let cases: &[(&str, &str, Range<usize>)] = &[
            ("", "Malformed constraint: empty string", 0..0),
            (" ", "Malformed constraint: empty string", 0..1),
            (">= 1.0,", "Malformed constraint: >= 1.0,", 6..7),
            (", >= 1.0", "Malformed constraint: , >= 1.0", 0..1),
            (">= 1.0, ,< 2", "Malformed constraint: >= 1.0, ,< 2", 6..7),
            ("1.0,,2.0", "Malformed constraint: 1.0,,2.0", 3..4),
            ("1.2.x", "Malformed constraint: 1.2.x", 0..5),
            ("*", "Malformed constraint: *", 0..1),
            ("^1.2", "Malformed constraint: ^1.2", 0..4),
            ("== 1.2", "Malformed constraint: == 1.2", 0..6),
            ("> = 1", "Malformed constraint: > = 1", 0..5),
            ("< = 1", "Malformed constraint: < = 1", 0..5),
            ("=> 1.0", "Malformed constraint: => 1.0", 0..6),
            ("~ 1.2", "Malformed constraint: ~ 1.2", 0..5),
            (">= 1.0 || < 0.5", "Malformed constraint: >= 1.0 || < 0.5", 0..15),
            (">= 1.0 < 2.0", "Malformed constraint: >= 1.0 < 2.0", 0..12),
            ("1.2 3", "Malformed constraint: 1.2 3", 0..5),
            ("1.2, x", "Malformed constraint: x", 5..6),
            ("1.", "Malformed constraint: 1.", 0..2),
            (".1", "Malformed constraint: .1", 0..2),
            ("1..2", "Malformed constraint: 1..2", 0..4),
            ("v", "Malformed constraint: v", 0..1),
            ("V1.2", "Malformed constraint: V1.2", 0..4),
            ("vv1", "Malformed constraint: vv1", 0..3),
            ("-1", "Malformed constraint: -1", 0..2),
            ("1.0.0-beta..1", "Malformed constraint: 1.0.0-beta..1", 0..13),
            ("1.0.0-beta.", "Malformed constraint: 1.0.0-beta.", 0..11),
            ("1.0.0+", "Malformed constraint: 1.0.0+", 0..6),
            ("1.0.0+a+b", "Malformed constraint: 1.0.0+a+b", 0..9),
            ("1.0.0_1", "Malformed constraint: 1.0.0_1", 0..7),
            ("1.0.0-ä", "Malformed constraint: 1.0.0-ä", 0..8),
            ("\x0B1.2", "Malformed constraint: \x0B1.2", 0..4),
            ("latest", "Malformed constraint: latest", 0..6),
            (
                ">= 99999999999999999999",
                "Malformed version: 99999999999999999999 (version numbers must not exceed 9223372036854775807)",
                0..23,
            ),
            (
                "1.9223372036854775808",
                "Malformed version: 1.9223372036854775808 (version numbers must not exceed 9223372036854775807)",
                0..21,
            ),
        ];
        for (input, message, range) in cases {
            let error = Constraints::parse(input).expect_err(input);
            assert_eq!(error.message, *message, "{input:?}");
            assert_eq!(error.range, *range, "{input:?}");
            assert_eq!(error.to_string(), *message);
        }
    }

    #[test]
    fn version_parse() {
        // (input, components, prerelease, metadata, display)
        #[allow(clippy::type_complexity)]
        let cases: &[(&str, &[u64], Option<&str>, Option<&str>, &str)] = &[
            ("1.12.6", &[1, 12, 6], None, None, "1.12.6"),
            ("v1.2.3", &[1, 2, 3], None, None, "1.2.3"),
            ("1.12", &[1, 12], None, None, "1.12"),
            (
                "1.0.0-beta.1",
                &[1, 0, 0],
                Some("beta.1"),
                None,
                "1.0.0-beta.1",
            ),
            ("1.0.0beta1", &[1, 0, 0], Some("beta1"), None, "1.0.0-beta1"),
            ("1.0.0-1", &[1, 0, 0], Some("1"), None, "1.0.0-1"),
            (
                "1.0.0-1-x.y",
                &[1, 0, 0],
                Some("1-x.y"),
                None,
                "1.0.0-1-x.y",
            ),
            ("1.0.0~rc", &[1, 0, 0], Some("~rc"), None, "1.0.0-~rc"),
            ("1.0.0--x", &[1, 0, 0], Some("-x"), None, "1.0.0--x"),
            ("1.0.0-", &[1, 0, 0], Some("-"), None, "1.0.0--"),
            ("1.0.0-.x", &[1, 0, 0], Some("-.x"), None, "1.0.0--.x"),
            ("1.2a", &[1, 2], Some("a"), None, "1.2-a"),
            (
                "1.0.0+build.5",
                &[1, 0, 0],
                None,
                Some("build.5"),
                "1.0.0+build.5",
            ),
            (
                "1.0.0-rc.1+b-2",
                &[1, 0, 0],
                Some("rc.1"),
                Some("b-2"),
                "1.0.0-rc.1+b-2",
            ),
            ("007", &[7], None, None, "7"),
        ];
        for (input, components, pre, meta, display) in cases {
            let parsed = version(input);
            assert_eq!(parsed.components, *components, "{input:?}");
            assert_eq!(parsed.prerelease.as_deref(), *pre, "{input:?}");
            assert_eq!(parsed.metadata.as_deref(), *meta, "{input:?}");
            assert_eq!(parsed.to_string(), *display, "{input:?}");
        }
        for input in ["", " 1.2", "1.2 ", "1.2.x", "1.2.*", "^1", ">= 1", "1,2"] {
            let error = Version::parse(input).expect_err(input);
            assert_eq!(error.message, format!("Malformed version: {input}"));
            assert_eq!(error.range, 0..input.len());
        }
        let error = Version::parse("99999999999999999999").unwrap_err();
        assert!(error
            .message
            .starts_with("Malformed version: 99999999999999999999"));
        let core = version("1.13.0-beta1+x").core();
        assert_eq!(core.to_string(), "1.13.0");
        assert_eq!(core.prerelease, None);
        assert_eq!(core.metadata, None);
    }

    #[test]
    fn comparisons() {
        use Ordering::*;
        let cases: &[(&str, &str, Ordering)] = &[
            ("1.12", "1.12.0", Equal),
            ("1.2.3.0", "1.2.3", Equal),
            ("1", "1.0.0.0.0", Equal),
            ("v1.2.3", "1.2.3", Equal),
            ("01.2", "1.2", Equal),
            ("1.0.0+a", "1.0.0+b", Equal),
            ("1.10", "1.9", Greater),
            ("1.2.3.1", "1.2.3", Greater),
            ("1.2", "1.2.0.1", Less),
            ("1.0.0-rc1", "1.0.0", Less),
            ("1.0.0", "1.0.0-rc1", Greater),
            ("1.0.0-alpha", "1.0.0-beta", Less),
            ("1.0.0-alpha.1", "1.0.0-alpha.2", Less),
            ("1.0.0-2", "1.0.0-10", Less),
            ("1.0.0-alpha.2", "1.0.0-alpha.10", Less),
            ("1.0.0-1", "1.0.0-alpha", Less),
            ("1.0.0-alpha", "1.0.0-1", Greater),
            ("1.0.0-alpha", "1.0.0-alpha.1", Less),
            ("1.0.0-rc1", "0.9.9", Greater),
            ("1.0.0-beta", "1.0.0-beta+meta", Equal),
            // go-version quirks.
            ("1.0.0-beta", "1.0.0-beta.x", Greater),
            ("1.0.0-01", "1.0.0-1", Less),
            ("1.0.0-1", "1.0.0-01", Less),
            ("1.2.3.0", "1.2.3-beta", Equal),
            ("1.0.0--1", "1.0.0-0", Less),
        ];
        for (a, b, expected) in cases {
            assert_eq!(version(a).compare(&version(b)), *expected, "{a} vs {b}");
        }
    }

    #[test]
    fn go_parse_int_matches_go() {
        let cases: &[(&str, (i64, bool))] = &[
            ("12", (12, true)),
            ("-3", (-3, true)),
            ("+4", (4, true)),
            ("", (0, false)),
            ("-", (0, false)),
            ("1a", (0, false)),
            ("9223372036854775807", (i64::MAX, true)),
            ("9223372036854775808", (i64::MAX, false)),
            ("-9223372036854775808", (i64::MIN, true)),
            ("-9223372036854775809", (i64::MIN, false)),
            // Fits in u64, then a syntax error: Go returns 0.
            ("9999999999999999999x", (0, false)),
            // Overflows u64 before the bad byte: Go returns the clamp.
            ("99999999999999999999x", (i64::MAX, false)),
        ];
        for (input, expected) in cases {
            assert_eq!(go_parse_int(input), *expected, "{input:?}");
        }
    }

    #[test]
    fn pessimistic_table() {
        // (constraint, accepted, rejected)
        let cases: &[(&str, &[&str], &[&str])] = &[
            ("~> 1", &["1.0.0", "1.5.0", "2.0.0", "99.0.0"], &["0.9.9"]),
            (
                "~> 1.2",
                &["1.2.0", "1.2.9", "1.9.9", "1.12.6"],
                &["2.0.0", "1.1.9", "0.2.0"],
            ),
            (
                "~> 1.2.0",
                &["1.2.0", "1.2.9", "1.2"],
                &["1.3.0", "1.1.9", "2.2.0"],
            ),
            (
                "~> 1.2.3",
                &["1.2.3", "1.2.10"],
                &["1.3.0", "1.2.2", "2.2.3"],
            ),
            (
                "~> 1.2.3.4",
                &["1.2.3.4", "1.2.3.9"],
                &["1.2.3", "1.2.4", "1.2.3.3", "1.2.4.0", "1.3.0.0"],
            ),
        ];
        for (constraint, accepted, rejected) in cases {
            for candidate in *accepted {
                assert!(
                    accepts(constraint, candidate),
                    "{constraint} should accept {candidate}"
                );
            }
            for candidate in *rejected {
                assert!(
                    !accepts(constraint, candidate),
                    "{constraint} should reject {candidate}"
                );
            }
        }
        // The equivalences of the spec's table, over a grid of versions.
        let equivalents = [
            ("~> 1", ">= 1.0.0"),
            ("~> 1.2", ">= 1.2.0, < 2.0.0"),
            ("~> 1.2.0", ">= 1.2.0, < 1.3.0"),
            ("~> 1.2.3", ">= 1.2.3, < 1.3.0"),
        ];
        for (pessimistic, explicit) in equivalents {
            for major in 0..4 {
                for minor in 0..5 {
                    for patch in 0..5 {
                        let candidate = format!("{major}.{minor}.{patch}");
                        assert_eq!(
                            accepts(pessimistic, &candidate),
                            accepts(explicit, &candidate),
                            "{pessimistic} vs {explicit} on {candidate}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn operators_and_prerelease_rule() {
        // (constraint, candidate, accepted)
        let cases: &[(&str, &str, bool)] = &[
            ("= 1.2", "1.2.0", true),
            ("1.2", "1.2.1", false),
            ("!= 1.2", "1.2.0", false),
            ("!= 1.2", "1.2.1", true),
            ("> 1.2", "1.2.1", true),
            ("> 1.2", "1.2.0", false),
            (">= 1.2", "1.2.0", true),
            ("< 1.2", "1.1.9", true),
            ("< 1.2", "1.2.0", false),
            ("<= 1.2", "1.2.0", true),
            ("<= 1.2", "1.2.1", false),
            (">= 2, < 1", "1.5.0", false),
            ("= 1.0.0+a", "1.0.0+b", true),
            // No prerelease in the constraint: never a prerelease version.
            (">= 1.0.0", "1.1.0-beta", false),
            ("< 2.0.0", "1.1.0-beta", false),
            ("< 1.0.0", "1.0.0-rc1", false),
            ("~> 1.0", "1.1.0-beta", false),
            // With a prerelease: prerelease versions of the same core only.
            (">= 1.0.0-beta", "1.0.0-rc", true),
            (">= 1.0.0-beta", "1.0.0-alpha", false),
            (">= 1.0.0-beta", "1.0.1-rc", false),
            (">= 1.0.0-beta", "1.0.0", true),
            (">= 1.0.0-beta", "1.0.1", true),
            ("> 1.0-beta", "1.0.0-rc", true),
            ("< 1.0.0-rc", "1.0.0-beta", true),
            ("< 1.0.0-rc", "0.9.0", true),
            ("<= 1.0.0-rc", "0.9.0-rc", false),
            // `~>` with a prerelease accepts only prereleases.
            ("~> 1.0.0-beta", "1.0.0", false),
            ("~> 1.0.0-beta", "1.0.0-rc", true),
            ("~> 1.0.0-beta", "1.0.0-alpha", false),
            ("~> 1.0.0-beta", "1.0.1-rc", false),
            // `=` and `!=` compare exactly.
            ("= 1.0.0-beta.1", "1.0.0-beta.1", true),
            ("= 1.0.0-beta.1", "1.0.0", false),
            ("= 1.0.0", "1.0.0-beta.1", false),
            ("!= 1.0.0-beta", "1.0.0", true),
            ("!= 1.0.0-beta", "1.0.0-beta", false),
        ];
        for (constraint, candidate, expected) in cases {
            assert_eq!(
                accepts(constraint, candidate),
                *expected,
                "{constraint} on {candidate}"
            );
        }
    }

    #[test]
    fn opentofu_versions() {
        // (constraint, accepts 1.12.6, accepts 1.11.0)
        let cases: &[(&str, bool, bool)] = &[
            (">= 1.10", true, true),
            ("~> 1.12.0", true, false),
            ("~> 1.12", true, false),
            ("~> 1.11", true, true),
            ("< 1.12", false, true),
            (">= 1.6, < 2.0", true, true),
            (">= 1.12.0", true, false),
            ("1.12.6", true, false),
            ("!= 1.12.6", false, true),
            ("> 1.11", true, false),
            ("<= 1.11", false, true),
            ("~> 1", true, true),
            ("999.9", false, false),
        ];
        let current = version("1.12.6");
        let older = version("1.11.0");
        for (constraint, on_current, on_older) in cases {
            let parsed = constraints(constraint);
            assert_eq!(
                parsed.accepts(&current),
                *on_current,
                "{constraint} on 1.12.6"
            );
            assert_eq!(parsed.accepts(&older), *on_older, "{constraint} on 1.11.0");
        }
        // A prerelease OpenTofu is checked by its core.
        let beta = version("1.13.0-beta1");
        assert!(!constraints(">= 1.13").accepts(&beta));
        assert!(constraints(">= 1.13").accepts(&beta.core()));
    }

    #[test]
    fn first_prerelease() {
        let cases: &[(&str, Option<&str>)] = &[
            (">= 1.0", None),
            (">= 1.0, < 2.0-beta", Some("< 2.0-beta")),
            ("1.0.0beta1, 1.0.0-rc", Some("1.0.0beta1")),
            ("1.0.0+meta", None),
        ];
        for (input, expected) in cases {
            let parsed = constraints(input);
            let found = parsed.first_prerelease().map(|c| c.text.as_str());
            assert_eq!(found, *expected, "{input:?}");
        }
    }

    #[test]
    fn odd_inputs_never_panic() {
        let long_digits = "9".repeat(10_000);
        let commas = ",".repeat(1000);
        let many = vec![">= 1"; 1000].join(",");
        let inputs = [
            "\0".to_owned(),
            "1.0\0".to_owned(),
            "é".to_owned(),
            ">= 1.0, ü".to_owned(),
            "1.0.0-日本".to_owned(),
            "～> 1".to_owned(),
            "🦀".to_owned(),
            ",🦀,".to_owned(),
            commas.clone(),
            format!(" {commas} "),
            long_digits.clone(),
            format!(">= {long_digits}"),
            format!("1.{long_digits}"),
            format!("1.0.0-{long_digits}"),
            format!("1.0.0-{long_digits}.{long_digits}"),
            format!("1.0.0+{long_digits}"),
            "v".repeat(1000),
            ".".repeat(1000),
            "-".repeat(1000),
            "1".repeat(1000) + "x",
            "~>".to_owned(),
            ">=".to_owned(),
            "!".to_owned(),
        ];
        for input in &inputs {
            if let Err(error) = Constraints::parse(input) {
                assert!(error.range.end <= input.len());
                assert!(input.get(error.range.clone()).is_some());
            }
            let _ = Version::parse(input);
        }
        let parsed = constraints(&many);
        assert_eq!(parsed.elements.len(), 1000);
        for element in &parsed.elements {
            assert_eq!(many.get(element.range.clone()), Some(">= 1"));
        }
        assert!(parsed.accepts(&version("1.0")));
        // Prerelease comparisons with huge or signed parts.
        let huge = version(&format!("1.0.0-{long_digits}"));
        let small = version("1.0.0-abc");
        let _ = huge.compare(&small);
        let _ = small.compare(&huge);
        assert!(constraints(&format!(">= 1.0.0-{long_digits}")).accepts(&huge));
        // Hand-built values that parsing never produces.
        let empty = Version {
            components: Vec::new(),
            prerelease: Some(String::new()),
            metadata: None,
        };
        let _ = empty.to_string();
        for operator in OPERATORS.map(|(_, operator)| operator) {
            let element = Constraint {
                operator,
                version: empty.clone(),
                range: 0..0,
                text: String::new(),
            };
            let _ = element.accepts(&empty);
            let _ = element.accepts(&version("1"));
        }
    }

    #[test]
    fn lower_bound_keeps_the_tightest_bound_from_below() {
        let cases: &[(&str, Option<&str>)] = &[
            ("~> 1.11.0", Some(">= 1.11.0")),
            ("= 1.5.7", Some(">= 1.5.7")),
            ("1.5.7", Some(">= 1.5.7")),
            (">= 1.3, < 2.0", Some(">= 1.3")),
            (">= 1.3, > 1.3", Some("> 1.3")),
            ("> 1.3, >= 1.3", Some("> 1.3")),
            (">= 0.13, ~> 1.5, != 1.6.0", Some(">= 1.5")),
            ("< 2.0", None),
            ("!= 1.5, <= 3", None),
        ];
        for (text, expected) in cases {
            let constraints = Constraints::parse(text).unwrap();
            let bound = constraints.lower_bound().map(|bound| bound.text);
            assert_eq!(bound.as_deref(), *expected, "{text}");
        }
    }
}
