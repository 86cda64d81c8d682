//! The one diagnostic shape (HCL's), the stable code catalogue and suggested fixes.
//!
//! Every layer reports [`Diagnostic`]s; renderers (compiler text, JSON, LSP) live at
//! the edges. Codes are stable strings from `spec/diagnostics.md`: they are never
//! renamed or reused, because users filter on them in CI.

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

macro_rules! codes {
    ($($variant:ident => $name:literal, $severity:ident, $explanation:literal;)*) => {
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

            /// What the code means, in one or two sentences (the user docs).
            pub fn explanation(self) -> &'static str {
                match self {
                    $(Code::$variant => $explanation,)*
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
    SyntaxError => "syntax-error", Error, "A file cannot be parsed: native or JSON syntax errors, bytes that are not UTF-8, a BOM or nothing at all in a JSON file. The rest of the module is still analysed.";
    FileUnreadable => "file-unreadable", Error, "A configuration file or the module directory cannot be read (permissions, a symlink named like a configuration file that leads nowhere readable).";
    FileShadowed => "file-shadowed", Hint, "A .tf or .tf.json file is hidden by the .tofu or .tofu.json file of the same base name: OpenTofu does not read it at all.";
    FileIgnored => "file-ignored", Hint, "An open document ends in a configuration extension, but OpenTofu skips its name (it starts with a dot, ends with ~, or is #…#).";
    UnsupportedBlock => "unsupported-block", Error, "A block type that the schema OpenTofu defines for this place does not allow, or (with the provider's schema) a nested block type the provider does not define.";
    UnsupportedArgument => "unsupported-argument", Error, "An argument that the schema OpenTofu defines for this place does not allow, or (with the provider's schema) an argument of a resource, data source, ephemeral resource or provider body the provider does not define.";
    MissingRequiredArgument => "missing-required-argument", Error, "A required argument of an OpenTofu-defined block is missing (output value in primary files, moved from/to, import to, removed from, condition and error_message), or an argument the provider's schema requires in a resource, data source, ephemeral resource or provider body.";
    InvalidBlockLabels => "invalid-block-labels", Error, "A block has too many or too few labels; OpenTofu drops it.";
    InvalidName => "invalid-name", Error, "A block label or local value name is not an identifier.";
    DuplicateArgument => "duplicate-argument", Error, "The same argument appears twice in one body.";
    MisplacedRequiredProviders => "misplaced-required-providers", Error, "A required_providers block outside a terraform block.";
    DuplicateBlock => "duplicate-block", Error, "Two primary-file declarations with the same identity (variable, output, module call, resource, data, ephemeral resource, check, provider configuration with its alias, required_providers, encryption, provider_meta, import target).";
    DuplicateLocal => "duplicate-local", Error, "A local value defined in two locals blocks.";
    DuplicateBackend => "duplicate-backend", Error, "More than one backend or cloud block where OpenTofu allows one, or both a backend and a cloud block.";
    OverrideMissingBase => "override-missing-base", Error, "An override block (or local value) whose target is not declared in any primary file.";
    OverrideDependsOn => "override-depends-on", Error, "A non-empty depends_on in an override block: OpenTofu refuses to override it.";
    OverrideForbiddenBlock => "override-forbidden-block", Error, "A block OpenTofu does not allow in override files (language, check, moved, import, removed; validation, precondition, postcondition inside an override block).";
    OverrideIneffective => "override-ineffective", Warning, "An override that OpenTofu accepts but ignores, such as lifecycle enabled, replace_triggered_by, or an empty depends_on list.";
    InvalidVariableDefault => "invalid-variable-default", Error, "A variable's default does not convert to its type, or is null while nullable = false; checked in each block and again after each override is merged.";
    IncompatibleTofuVersion => "incompatible-tofu-version", Error, "A version constraint OpenTofu checks (compatible_with.opentofu, required_version in a .tofu file) rejects the configured OpenTofu version; every other diagnostic of the directory is then withheld.";
    InvalidVersionConstraint => "invalid-version-constraint", Error, "A version constraint OpenTofu parses is malformed, not a constant, or names a prerelease where OpenTofu forbids it.";
    IneffectiveVersionConstraint => "ineffective-version-constraint", Warning, "A compatible_with.opentofu constraint accepts OpenTofu 1.11, which cannot read language blocks, so it protects nothing.";
    RequiredVersionIgnored => "required-version-ignored", Warning, "required_version in a .tf or .tf.json file: OpenTofu 1.12 ignores it. A warning when the constraint would reject the configured OpenTofu version, a hint otherwise (it accepts the version, or the module also has a constraint OpenTofu reads); reported once per distinct constraint.";
    TerraformSettingIgnored => "terraform-setting-ignored", Hint, "experiments or language in a terraform block: OpenTofu 1.12 ignores both.";
    UnsupportedEdition => "unsupported-edition", Error, "A language block's edition is not the keyword tofu2024.";
    UnsupportedExperiment => "unsupported-experiment", Error, "A language block enables an experiment; OpenTofu 1.12 has none.";
    DuplicateCompatibleWith => "duplicate-compatible-with", Error, "A second compatible_with block in a language block after one that declared opentofu.";
    ProviderVersionDeprecated => "provider-version-deprecated", Warning, "A version argument in a provider block, which OpenTofu deprecates.";
    ModuleSourceMissing => "module-source-missing", Error, "A module block in a primary file has no source, even if an override supplies one.";
    ModuleSourceNotStatic => "module-source-not-static", Error, "A module call's source or version uses something unknown while loading (resources, module outputs, provider functions, non-const variables).";
    ModuleVersionLocalSource => "module-version-local-source", Error, "A module call sets version but its source is a local path.";
    ModuleInvalidRegistrySource => "module-invalid-registry-source", Error, "A module call sets version but its source is not a valid registry address.";
    ModuleInvalidSource => "module-invalid-source", Error, "A module source is neither a local path, a registry address nor a remote address; a bare directory name needs ./ in front.";
    ReservedBlockType => "reserved-block-type", Error, "A nested block type OpenTofu reserves (locals and provider in module blocks, locals in resources, lifecycle in providers and provisioners).";
    ReservedArgumentName => "reserved-argument-name", Error, "count, depends_on or source in a provider block.";
    ReservedVariableName => "reserved-variable-name", Error, "A variable named like a module-block meta-argument (source, version, count, for_each, depends_on, providers, lifecycle, locals, provider, _).";
    RepetitionConflict => "repetition-conflict", Error, "Two or more of count, for_each and lifecycle enabled in one block.";
    InvalidProviderLocalName => "invalid-provider-local-name", Error, "A provider local name that is not a valid, normalised name.";
    InvalidProviderReference => "invalid-provider-reference", Error, "A provider reference that is not of the form NAME or NAME.ALIAS.";
    InvalidProviderAlias => "invalid-provider-alias", Error, "A provider alias that is not an identifier, or for_each on a provider without alias.";
    InvalidProviderForEach => "invalid-provider-for-each", Error, "A provider's for_each that OpenTofu cannot evaluate while loading: it uses something unknown then (resources, module outputs, each, provider functions, non-const variables), or its value is no map or set of strings.";
    InvalidProviderSource => "invalid-provider-source", Error, "A required_providers source that is not a provider address.";
    InvalidRequiredProviders => "invalid-required-providers", Error, "A required_providers entry of the wrong shape.";
    QuotedReferenceDeprecated => "quoted-reference-deprecated", Warning, "A reference or keyword written in quotes where OpenTofu expects it bare.";
    InvalidTypeConstraint => "invalid-type-constraint", Error, "A variable type that is not a valid type constraint.";
    QuotedTypeConstraint => "quoted-type-constraint", Error, "A variable type written in quotes, the pre-0.12 form.";
    InvalidConstantArgument => "invalid-constant-argument", Error, "An argument OpenTofu evaluates while loading is not a constant of the right type.";
    IgnoredObjectAttribute => "ignored-object-attribute", Warning, "A default sets an object attribute that the variable's type does not have.";
    InvalidDeprecated => "invalid-deprecated", Error, "A deprecated argument that is empty.";
    ConstantCondition => "constant-condition", Error, "A condition with no reference at all: it can never change.";
    ConditionSelfReference => "condition-self-reference", Error, "A precondition or postcondition refers to its own resource instead of self.";
    ValidationConditionReference => "validation-condition-reference", Error, "A validation condition does not refer to the variable it validates.";
    InvalidIgnoreChanges => "invalid-ignore-changes", Error, "ignore_changes is neither all nor a static list of attribute references.";
    InvalidReplaceTriggeredBy => "invalid-replace-triggered-by", Error, "replace_triggered_by holds something other than resource references, count.index and each.key.";
    InvalidDependsOn => "invalid-depends-on", Error, "depends_on is not a static list of references.";
    DuplicateNestedBlock => "duplicate-nested-block", Error, "A second lifecycle, connection or _ block where one is allowed, or a second nested block of a type the provider's schema allows once.";
    InvalidProvisioner => "invalid-provisioner", Error, "A removed vendor provisioner, or an invalid when / on_failure keyword.";
    DestroyProvisionerReference => "destroy-provisioner-reference", Error, "A destroy-time provisioner refers to something other than self, count.index, each.key, path, terraform or tofu.";
    InvalidCheckBlock => "invalid-check-block", Error, "A check block without a valid assert, with two data blocks, or with count, for_each or lifecycle in its data block.";
    InvalidAddress => "invalid-address", Error, "A moved, removed or import address of the wrong form.";
    InvalidImport => "invalid-import", Error, "An import block with a misplaced provider, or with neither or both of id and identity.";
    RemovedBlockLifecycle => "removed-block-lifecycle", Warning, "A removed block without lifecycle destroy, or whose destroy provisioners will not run.";
    InvalidEncryption => "invalid-encryption", Error, "Duplicate or invalid blocks in an encryption configuration.";
    UndeclaredReference => "undeclared-reference", Error, "A reference to an input variable, local value, resource, data source, ephemeral resource or module call the module does not declare, or to a data source scoped to a check from outside it; reported as tofu validate does.";
    ResourceInstanceKey => "resource-instance-key", Error, "A resource reference whose instance key does not match the resource: none where count or for_each needs one, one where neither is set, or the .count attribute OpenTofu removed.";
    UnavailableReference => "unavailable-reference", Error, "each, count or self where OpenTofu provides none: each.* without for_each, count.index without count, self outside provisioners, connections and postconditions.";
    InvalidReference => "invalid-reference", Error, "A reference OpenTofu cannot read: a malformed traversal, an attribute count, each, path, terraform or tofu does not have, an index that is not an instance key, an attribute of an object in depends_on, or (with the provider's schema) an attribute a resource or data source does not have.";
    SelfReferencingLocal => "self-referencing-local", Error, "A local value that uses its own result.";
    ReferenceCycle => "reference-cycle", Error, "Objects whose references form a cycle. OpenTofu reports the cycle without a place; tofu-lens puts it on one reference of the cycle and relates the others.";
    DuplicateModuleArgument => "duplicate-module-argument", Error, "A module call sets an argument twice: in its body and in its escaping _ block.";
    UndeclaredModuleInput => "undeclared-module-input", Error, "A module call passes an argument the called module declares no variable for (local modules, or registry ones after tofu init).";
    MissingModuleInput => "missing-module-input", Error, "A module call leaves out a variable the called module declares without a default.";
    UndeclaredModuleOutput => "undeclared-module-output", Error, "A reference to an output the called module does not declare (module.NAME.OUTPUT).";
    ModuleCallLoop => "module-call-loop", Error, "A module call whose source leads back to the calling module, directly or through other calls.";
    ModuleDirUnreadable => "module-dir-unreadable", Error, "A module call whose local source names a directory that does not exist (or is no directory): tofu init stops with Unreadable module directory, so nothing else is said of the call or its module tree.";
    ChildModuleBackend => "child-module-backend", Warning, "A called module has a backend block, which has no effect outside the root module (reported on the call, the block related).";
    ChildModuleImport => "child-module-import", Error, "A called module has an import block; import blocks are allowed only in the root module (reported on the call, the block related).";
    LegacyModuleRepetition => "legacy-module-repetition", Error, "A module call uses count, for_each, enabled or depends_on, but the module, or one it calls without them, configures its own providers.";
    ProviderOverride => "provider-override", Error, "A module call passes a provider configuration the called module configures itself.";
    MissingProviderConfiguration => "missing-provider-configuration", Error, "A module call passes no configuration for one of the called module's configuration_aliases (an error), or for a provider the called module passes on to its own calls (a warning).";
    UndefinedProviderReference => "undefined-provider-reference", Warning, "A providers entry names a provider local name the module it is about neither requires nor configures (an error for a child's name of a non-default provider).";
    ProviderTypeMismatch => "provider-type-mismatch", Error, "A module call passes a configuration of one provider where the called module requires another.";
    DuplicateRequiredProvider => "duplicate-required-provider", Warning, "A provider required under two local names, or under another name than its provider blocks or resource types imply.";
    InvalidProviderInstance => "invalid-provider-instance", Error, "A provider reference with an instance key where the configuration has no for_each, or without one where it has; or an instance key on the left of a providers entry.";
    ProviderForEachMatches => "provider-for-each-matches", Warning, "A resource or module call uses a provider configuration's instances with that configuration's own for_each: removing an element would fail to plan.";
    RedundantEmptyProvider => "redundant-empty-provider", Warning, "A called module has empty provider blocks, which required_providers replaces (reported on the call, the blocks related).";
    UndeclaredValue => "undeclared-value", Warning, "A .tfvars file sets a variable the module does not declare (tofu plan warns; OpenTofu gives no place, tofu-lens puts it on the value).";
    InvalidVariableValue => "invalid-variable-value", Error, "A constant value for an input variable (in a .tfvars file, or a module call's argument) does not convert to the variable's type (OpenTofu puts it on the variable's declaration; tofu-lens on the value, the declaration related).";
    InvalidResourceType => "invalid-resource-type", Error, "A resource, data source or ephemeral resource type its provider does not support (with the provider's schema), in its block or in a reference to it.";
    InvalidBlockCount => "invalid-block-count", Error, "Fewer or more nested blocks of one type than the provider's schema allows (Insufficient, Too many, Missing).";
    InvalidArgumentValue => "invalid-argument-value", Error, "A constant argument value in a resource, data source, ephemeral resource or provider body does not convert to the type the provider's schema gives the argument.";
    ProviderValidation => "provider-validation", Error, "What the provider's own validators report about a resource, data source, ephemeral resource or provider configuration (ValidateResourceConfig and its kin, as tofu validate calls them with the provider installed): value formats, conflicting or missing arguments. The provider decides the severity; reported only when the provider may run.";
    UnusedDeclaration => "unused-declaration", Hint, "A variable, local value or data source that nothing in the module refers to (tofu-lens's own, as tflint's terraform_unused_declarations; off in check unless --unused or the configuration turns it on).";
    UnusedSuppression => "unused-suppression", Warning, "A # tofu-lens-ignore: CODE comment suppresses nothing: no diagnostic with that code starts on the line after it, or the code does not exist (tofu-lens's own; OpenTofu ignores comments).";
    InvalidTestKeyword => "invalid-test-keyword", Error, "A test file's run command or plan_options mode is not one of its keywords (apply or plan; normal or refresh-only), written without quotes.";
    IncompatiblePlanOptions => "incompatible-plan-options", Error, "A test run's plan_options set refresh = false in refresh-only mode.";
    DuplicateTestBlock => "duplicate-test-block", Error, "A test file or run holds a block it may hold once (variables, plan_options, module), or two mocks or overrides of the same target, or two mock providers of one address.";
    InvalidTestAddress => "invalid-test-address", Error, "An address in a test file OpenTofu cannot read: an expect_failures element that is no checkable object, a plan_options replace or target that is no static reference, an override target of the wrong kind.";
    TestWouldFail => "test-would-fail", Warning, "tofu validate accepts it, but tofu test fails: an assertion refers to an input variable, local value, output value or resource the module does not declare, or to run (tofu-lens's warning, with tofu test's wording).";
    UnknownFunction => "unknown-function", Error, "A call to a function OpenTofu does not have (with \"Did you mean\"), or in a namespace it does not know, or of a provider the module does not require (what tofu validate reports).";
    InvalidFunctionCall => "invalid-function-call", Error, "A call to a built-in function that fails when validate evaluates it: too few or too many arguments, an argument of the wrong type or value, or the function's own error.";
    InvalidExpressionValue => "invalid-expression-value", Error, "An expression tofu validate cannot evaluate with the values it knows: operands of the wrong type, an index or attribute a known value lacks, conditional results of inconsistent types, a bad for expression.";
    SensitiveOutput => "sensitive-output", Error, "An output value whose value is marked sensitive (a sensitive input variable, a sensitive(…) call, an attribute the provider's schema marks sensitive, directly or through local values) does not set sensitive = true (what tofu validate reports for the module it runs in).";
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
        assert_eq!(
            names.len(),
            102,
            "the catalogue has 101 codes (63 load-time, 2 of loading the module tree, 9 of building the configuration, 16 of validate's and the module tree, 4 of provider schemas, 2 of plan's, 5 of test files') and unused-suppression"
        );
    }
}
