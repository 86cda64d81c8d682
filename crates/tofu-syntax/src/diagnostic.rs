//! The one diagnostic shape (HCL's), diagnostic codes and suggested fixes.
//!
//! Every layer reports [`Diagnostic`]s; renderers (compiler text, JSON, LSP) live at
//! the edges. Codes are stable strings from `spec/diagnostics.md`: they are never
//! renamed or reused, because users filter on them in CI. This crate defines
//! what a code is, not which codes exist: each crate defines the codes it
//! reports, and `tofu_diagnostics::catalogue` lists them all, so adding a
//! code rebuilds only the crates above the one that reports it.

use std::sync::Arc;

use crate::text::TextRange;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Info,
    Hint,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        }
    }
}

/// A stable diagnostic code: its number, its user-facing name and the
/// severity it has unless a rule or the user lowers it.
///
/// Codes are constants of the crate that reports them (made with
/// [`define_codes!`]); the catalogue of every code, with what each means, is
/// `tofu_diagnostics::catalogue`, whose tests check that every code is in it
/// once. A code's number is its place in the catalogue, given once and never
/// changed or reused, as its name: diagnostics at the same place are listed
/// in that order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Code {
    number: u16,
    name: &'static str,
    default_severity: Severity,
}

impl Code {
    pub const fn new(number: u16, name: &'static str, default_severity: Severity) -> Code {
        Code {
            number,
            name,
            default_severity,
        }
    }

    /// The stable, user-facing name of the code.
    pub fn as_str(self) -> &'static str {
        self.name
    }

    /// The code's place in the catalogue.
    pub fn number(self) -> u16 {
        self.number
    }

    /// The catalogue's severity. A few codes are lowered case by case
    /// (`required-version-ignored` becomes a hint), which the rule does itself.
    pub fn default_severity(self) -> Severity {
        self.default_severity
    }
}

/// Defines codes as constants, and `DEFINED`, the list of them, which the
/// catalogue's tests compare with the catalogue:
///
/// ```text
/// define_codes! {
///     12 DUPLICATE_BLOCK => "duplicate-block", Error;
/// }
/// ```
#[macro_export]
macro_rules! define_codes {
    ($($number:literal $constant:ident => $name:literal, $severity:ident;)*) => {
        $(
            #[doc = concat!("`", $name, "`")]
            pub const $constant: $crate::Code =
                $crate::Code::new($number, $name, $crate::Severity::$severity);
        )*

        /// Every code defined here.
        pub const DEFINED: &[$crate::Code] = &[$($constant,)*];
    };
}

/// Identifies a file within one module analysis (an index into its file list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileId(pub u32);

/// A range in a file of the module, or the module directory itself (`range: None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    pub file: FileId,
    pub range: Option<TextRange>,
}

impl Location {
    pub fn new(file: FileId, range: TextRange) -> Location {
        Location {
            file,
            range: Some(range),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    pub location: Location,
    pub message: String,
}

/// A related place in a file of another module directory: the variable of a
/// called module that a caller's argument is judged against. It carries the
/// file's text as analysed, so that every consumer can place it without the
/// other module's analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelatedOutside {
    /// The file, relative to the diagnostic's module directory and
    /// `/`-separated (`modules/net/variables.tf`, `../shared/main.tf`).
    pub path: String,
    /// That file's text, which `range` indexes into.
    pub text: Arc<str>,
    pub range: TextRange,
    pub message: String,
}

/// One text replacement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEdit {
    pub file: FileId,
    pub range: TextRange,
    pub new_text: String,
}

/// A file a fix creates, named relative to the module directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewFile {
    pub name: String,
    pub text: String,
}

/// A suggested fix: a titled set of edits that should be applied together.
/// Build one with [`Fix::new`] and the `with_*` methods.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub title: String,
    pub edits: Vec<TextEdit>,
    /// Files to create (never one that exists: the engine checks).
    pub new_files: Vec<NewFile>,
    /// Safe fixes are applied by `check --fix`; the others are only offered.
    pub safe: bool,
}

impl Fix {
    /// A fix that is only offered (not applied by `check --fix`).
    pub fn new(title: impl Into<String>) -> Fix {
        Fix {
            title: title.into(),
            edits: Vec::new(),
            new_files: Vec::new(),
            safe: false,
        }
    }

    pub fn with_edit(mut self, file: FileId, range: TextRange, new_text: impl Into<String>) -> Fix {
        self.edits.push(TextEdit {
            file,
            range,
            new_text: new_text.into(),
        });
        self
    }

    pub fn with_new_file(mut self, name: impl Into<String>, text: impl Into<String>) -> Fix {
        self.new_files.push(NewFile {
            name: name.into(),
            text: text.into(),
        });
        self
    }

    /// Marks the fix as safe to apply without review (`check --fix`).
    pub fn safe(mut self) -> Fix {
        self.safe = true;
        self
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    /// A terse title, OpenTofu's wording where it has one.
    pub summary: String,
    /// Full sentences: what is wrong and what to do. Empty when there is nothing to add.
    pub detail: String,
    /// The tight range of the offending construct. `None` only for the module
    /// directory itself (then `subject.range` is `None` as well).
    pub subject: Location,
    pub related: Vec<Related>,
    /// Related places in other module directories.
    pub related_outside: Vec<RelatedOutside>,
    pub fix: Option<Fix>,
}

impl Diagnostic {
    pub fn new(code: Code, summary: impl Into<String>, subject: Location) -> Diagnostic {
        Diagnostic {
            code,
            severity: code.default_severity(),
            summary: summary.into(),
            detail: String::new(),
            subject,
            related: Vec::new(),
            related_outside: Vec::new(),
            fix: None,
        }
    }

    pub fn with_detail(mut self, detail: impl Into<String>) -> Diagnostic {
        self.detail = detail.into();
        self
    }

    pub fn with_related(mut self, location: Location, message: impl Into<String>) -> Diagnostic {
        self.related.push(Related {
            location,
            message: message.into(),
        });
        self
    }

    pub fn with_related_outside(mut self, related: RelatedOutside) -> Diagnostic {
        self.related_outside.push(related);
        self
    }

    pub fn with_severity(mut self, severity: Severity) -> Diagnostic {
        self.severity = severity;
        self
    }

    pub fn with_fix(mut self, fix: Fix) -> Diagnostic {
        self.fix = Some(fix);
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}
