//! The one diagnostic shape (HCL's), the stable code catalogue and suggested fixes.
//!
//! Every layer reports [`Diagnostic`]s; renderers (compiler text, JSON, LSP) live at
//! the edges. Codes are stable strings from `spec/diagnostics.md`: they are never
//! renamed or reused, because users filter on them in CI.

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

macro_rules! codes {
    ($($variant:ident => $name:literal, $severity:ident;)*) => {
        /// A diagnostic code of the catalogue (`spec/diagnostics.md`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $($variant,)*
        }

        impl Code {
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The stable, user-facing name of the code.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }

            /// The catalogue's severity. A few codes are lowered case by case
            /// (`required-version-ignored` becomes a hint), which the rule does itself.
            pub fn default_severity(self) -> Severity {
                match self {
                    $(Code::$variant => Severity::$severity,)*
                }
            }

            pub fn from_name(name: &str) -> Option<Code> {
                match name {
                    $($name => Some(Code::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

codes! {
    SyntaxError => "syntax-error", Error;
    FileUnreadable => "file-unreadable", Error;
    FileShadowed => "file-shadowed", Hint;
    FileIgnored => "file-ignored", Hint;
    UnsupportedBlock => "unsupported-block", Error;
    UnsupportedArgument => "unsupported-argument", Error;
    MissingRequiredArgument => "missing-required-argument", Error;
    InvalidBlockLabels => "invalid-block-labels", Error;
    InvalidName => "invalid-name", Error;
    DuplicateArgument => "duplicate-argument", Error;
    MisplacedRequiredProviders => "misplaced-required-providers", Error;
    DuplicateBlock => "duplicate-block", Error;
    DuplicateLocal => "duplicate-local", Error;
    DuplicateBackend => "duplicate-backend", Error;
    OverrideMissingBase => "override-missing-base", Error;
    OverrideDependsOn => "override-depends-on", Error;
    OverrideForbiddenBlock => "override-forbidden-block", Error;
    OverrideIneffective => "override-ineffective", Warning;
    InvalidVariableDefault => "invalid-variable-default", Error;
    IncompatibleTofuVersion => "incompatible-tofu-version", Error;
    InvalidVersionConstraint => "invalid-version-constraint", Error;
    IneffectiveVersionConstraint => "ineffective-version-constraint", Warning;
    RequiredVersionIgnored => "required-version-ignored", Warning;
    TerraformSettingIgnored => "terraform-setting-ignored", Hint;
    UnsupportedEdition => "unsupported-edition", Error;
    UnsupportedExperiment => "unsupported-experiment", Error;
    DuplicateCompatibleWith => "duplicate-compatible-with", Error;
    ProviderVersionDeprecated => "provider-version-deprecated", Warning;
    ModuleSourceMissing => "module-source-missing", Error;
    ModuleSourceNotStatic => "module-source-not-static", Error;
    ModuleVersionLocalSource => "module-version-local-source", Error;
    ModuleInvalidRegistrySource => "module-invalid-registry-source", Error;
    ModuleInvalidSource => "module-invalid-source", Error;
    ReservedBlockType => "reserved-block-type", Error;
    ReservedArgumentName => "reserved-argument-name", Error;
    ReservedVariableName => "reserved-variable-name", Error;
    RepetitionConflict => "repetition-conflict", Error;
    InvalidProviderLocalName => "invalid-provider-local-name", Error;
    InvalidProviderReference => "invalid-provider-reference", Error;
    InvalidProviderAlias => "invalid-provider-alias", Error;
    InvalidProviderSource => "invalid-provider-source", Error;
    InvalidRequiredProviders => "invalid-required-providers", Error;
    QuotedReferenceDeprecated => "quoted-reference-deprecated", Warning;
    InvalidTypeConstraint => "invalid-type-constraint", Error;
    QuotedTypeConstraint => "quoted-type-constraint", Error;
    InvalidConstantArgument => "invalid-constant-argument", Error;
    IgnoredObjectAttribute => "ignored-object-attribute", Warning;
    InvalidDeprecated => "invalid-deprecated", Error;
    ConstantCondition => "constant-condition", Error;
    ConditionSelfReference => "condition-self-reference", Error;
    ValidationConditionReference => "validation-condition-reference", Error;
    InvalidIgnoreChanges => "invalid-ignore-changes", Error;
    InvalidReplaceTriggeredBy => "invalid-replace-triggered-by", Error;
    InvalidDependsOn => "invalid-depends-on", Error;
    DuplicateNestedBlock => "duplicate-nested-block", Error;
    InvalidProvisioner => "invalid-provisioner", Error;
    DestroyProvisionerReference => "destroy-provisioner-reference", Error;
    InvalidCheckBlock => "invalid-check-block", Error;
    InvalidAddress => "invalid-address", Error;
    InvalidImport => "invalid-import", Error;
    RemovedBlockLifecycle => "removed-block-lifecycle", Warning;
    InvalidEncryption => "invalid-encryption", Error;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_names_round_trip_and_are_unique() {
        let mut names: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        for code in Code::ALL {
            assert_eq!(Code::from_name(code.as_str()), Some(*code));
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 62, "the catalogue has 62 codes");
    }
}
