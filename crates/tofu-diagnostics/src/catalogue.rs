//! The catalogue: every diagnostic code tofu-lens reports, in the order of
//! their numbers, with what each means (the user docs, `docs/diagnostics.md`
//! and SARIF's rule descriptions read it).
//!
//! Codes are constants of the crate that reports them ([`crate::codes`],
//! `tofu_module::codes`); the tests here check that each is listed once, at
//! the place its number gives, so no code can be reported without being
//! documented. Names and numbers are never changed or reused: users filter
//! on names in CI, in `.tofu-lens.toml` and in suppression comments.

use tofu_syntax::Code;

use crate::codes::*;

/// One code of the catalogue.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub code: Code,
    /// What the code means, in one or two sentences (the user docs).
    pub explanation: &'static str,
}

macro_rules! catalogue {
    ($($code:ident => $explanation:literal;)*) => {
        /// Every code, in the order of their numbers.
        pub const CATALOGUE: &[Entry] = &[$(Entry { code: $code, explanation: $explanation },)*];
    };
}

catalogue! {
    SYNTAX_ERROR => "A file cannot be parsed: native or JSON syntax errors, bytes that are not UTF-8, a BOM or nothing at all in a JSON file; or a string of a JSON file is no valid template where tofu validate evaluates it (HCL's template errors, once per evaluated string). The rest of the module is still analysed.";
    FILE_UNREADABLE => "A configuration file or the module directory cannot be read (permissions, a symlink named like a configuration file that leads nowhere readable).";
    FILE_SHADOWED => "A .tf or .tf.json file is hidden by the .tofu or .tofu.json file of the same base name: OpenTofu does not read it at all.";
    FILE_IGNORED => "An open document ends in a configuration extension, but OpenTofu skips its name (it starts with a dot, ends with ~, or is #…#).";
    UNSUPPORTED_BLOCK => "A block type that the schema OpenTofu defines for this place does not allow, or (with the provider's schema) a nested block type the provider does not define.";
    UNSUPPORTED_ARGUMENT => "An argument that the schema OpenTofu defines for this place does not allow, or (with the provider's schema) an argument of a resource, data source, ephemeral resource or provider body the provider does not define.";
    MISSING_REQUIRED_ARGUMENT => "A required argument of an OpenTofu-defined block is missing (output value in primary files, moved from/to, import to, removed from, condition and error_message), or an argument the provider's schema requires in a resource, data source, ephemeral resource or provider body.";
    INVALID_BLOCK_LABELS => "A block has too many or too few labels; OpenTofu drops it.";
    INVALID_NAME => "A block label or local value name is not an identifier.";
    DUPLICATE_ARGUMENT => "The same argument appears twice in one body.";
    MISPLACED_REQUIRED_PROVIDERS => "A required_providers block outside a terraform block.";
    DUPLICATE_BLOCK => "Two primary-file declarations with the same identity (variable, output, module call, resource, data, ephemeral resource, check, provider configuration with its alias, required_providers, encryption, provider_meta, import target).";
    DUPLICATE_LOCAL => "A local value defined in two locals blocks.";
    DUPLICATE_BACKEND => "More than one backend or cloud block where OpenTofu allows one, or both a backend and a cloud block.";
    OVERRIDE_MISSING_BASE => "An override block (or local value) whose target is not declared in any primary file.";
    OVERRIDE_DEPENDS_ON => "A non-empty depends_on in an override block: OpenTofu refuses to override it.";
    OVERRIDE_FORBIDDEN_BLOCK => "A block OpenTofu does not allow in override files (language, check, moved, import, removed; validation, precondition, postcondition inside an override block).";
    OVERRIDE_INEFFECTIVE => "An override that OpenTofu accepts but ignores, such as lifecycle enabled, replace_triggered_by, or an empty depends_on list.";
    INVALID_VARIABLE_DEFAULT => "A variable's default does not convert to its type, or is null while nullable = false; checked in each block and again after each override is merged.";
    INCOMPATIBLE_TOFU_VERSION => "A version constraint OpenTofu checks (compatible_with.opentofu, required_version in a .tofu file) rejects the configured OpenTofu version; every other diagnostic of the directory is then withheld.";
    INVALID_VERSION_CONSTRAINT => "A version constraint OpenTofu parses is malformed, not a constant, or names a prerelease where OpenTofu forbids it.";
    INEFFECTIVE_VERSION_CONSTRAINT => "A compatible_with.opentofu constraint accepts OpenTofu 1.11, which cannot read language blocks, so it protects nothing.";
    REQUIRED_VERSION_IGNORED => "required_version in a .tf or .tf.json file: OpenTofu 1.12 ignores it. A warning when the constraint would reject the configured OpenTofu version, a hint otherwise (it accepts the version, or the module also has a constraint OpenTofu reads); reported once per distinct constraint.";
    TERRAFORM_SETTING_IGNORED => "experiments or language in a terraform block: OpenTofu 1.12 ignores both.";
    UNSUPPORTED_EDITION => "A language block's edition is not the keyword tofu2024.";
    UNSUPPORTED_EXPERIMENT => "A language block enables an experiment; OpenTofu 1.12 has none.";
    DUPLICATE_COMPATIBLE_WITH => "A second compatible_with block in a language block after one that declared opentofu.";
    PROVIDER_VERSION_DEPRECATED => "A version argument in a provider block, which OpenTofu deprecates.";
    MODULE_SOURCE_MISSING => "A module block in a primary file has no source, even if an override supplies one.";
    MODULE_SOURCE_NOT_STATIC => "A module call's source or version uses something unknown while loading (resources, module outputs, provider functions, non-const variables).";
    MODULE_VERSION_LOCAL_SOURCE => "A module call sets version but its source is a local path.";
    MODULE_INVALID_REGISTRY_SOURCE => "A module call sets version but its source is not a valid registry address.";
    MODULE_INVALID_SOURCE => "A module source is neither a local path, a registry address nor a remote address; a bare directory name needs ./ in front.";
    RESERVED_BLOCK_TYPE => "A nested block type OpenTofu reserves (locals and provider in module blocks, locals in resources, lifecycle in providers and provisioners).";
    RESERVED_ARGUMENT_NAME => "count, depends_on or source in a provider block.";
    RESERVED_VARIABLE_NAME => "A variable named like a module-block meta-argument (source, version, count, for_each, depends_on, providers, lifecycle, locals, provider, _).";
    REPETITION_CONFLICT => "Two or more of count, for_each and lifecycle enabled in one block.";
    INVALID_PROVIDER_LOCAL_NAME => "A provider local name that is not a valid, normalised name.";
    INVALID_PROVIDER_REFERENCE => "A provider reference that is not of the form NAME or NAME.ALIAS.";
    INVALID_PROVIDER_ALIAS => "A provider alias that is not an identifier, or for_each on a provider without alias.";
    INVALID_PROVIDER_FOR_EACH => "A provider's for_each that OpenTofu cannot evaluate while loading: it uses something unknown then (resources, module outputs, each, provider functions, non-const variables), or its value is no map or set of strings.";
    INVALID_PROVIDER_SOURCE => "A required_providers source that is not a provider address.";
    INVALID_REQUIRED_PROVIDERS => "A required_providers entry of the wrong shape.";
    QUOTED_REFERENCE_DEPRECATED => "A reference or keyword written in quotes where OpenTofu expects it bare.";
    INVALID_TYPE_CONSTRAINT => "A variable type that is not a valid type constraint.";
    QUOTED_TYPE_CONSTRAINT => "A variable type written in quotes, the pre-0.12 form.";
    INVALID_CONSTANT_ARGUMENT => "An argument OpenTofu evaluates while loading is not a constant of the right type.";
    IGNORED_OBJECT_ATTRIBUTE => "A default sets an object attribute that the variable's type does not have.";
    INVALID_DEPRECATED => "A deprecated argument that is empty.";
    CONSTANT_CONDITION => "A condition with no reference at all: it can never change.";
    CONDITION_SELF_REFERENCE => "A precondition or postcondition refers to its own resource instead of self.";
    VALIDATION_CONDITION_REFERENCE => "A validation condition does not refer to the variable it validates.";
    INVALID_IGNORE_CHANGES => "ignore_changes is neither all nor a static list of attribute references.";
    INVALID_REPLACE_TRIGGERED_BY => "replace_triggered_by holds something other than resource references, count.index and each.key.";
    INVALID_DEPENDS_ON => "depends_on is not a static list of references.";
    DUPLICATE_NESTED_BLOCK => "A second lifecycle, connection or _ block where one is allowed, or a second nested block of a type the provider's schema allows once.";
    INVALID_PROVISIONER => "A removed vendor provisioner, or an invalid when / on_failure keyword.";
    DESTROY_PROVISIONER_REFERENCE => "A destroy-time provisioner refers to something other than self, count.index, each.key, path, terraform or tofu.";
    INVALID_CHECK_BLOCK => "A check block without a valid assert, with two data blocks, or with count, for_each or lifecycle in its data block.";
    INVALID_ADDRESS => "A moved, removed or import address of the wrong form.";
    INVALID_IMPORT => "An import block with a misplaced provider, or with neither or both of id and identity.";
    REMOVED_BLOCK_LIFECYCLE => "A removed block without lifecycle destroy, or whose destroy provisioners will not run.";
    INVALID_ENCRYPTION => "Duplicate or invalid blocks in an encryption configuration.";
    UNDECLARED_REFERENCE => "A reference to an input variable, local value, resource, data source, ephemeral resource or module call the module does not declare, or to a data source scoped to a check from outside it; reported as tofu validate does.";
    RESOURCE_INSTANCE_KEY => "A resource reference whose instance key does not match the resource: none where count or for_each needs one, one where neither is set, or the .count attribute OpenTofu removed.";
    UNAVAILABLE_REFERENCE => "each, count or self where OpenTofu provides none: each.* without for_each, count.index without count, self outside provisioners, connections and postconditions.";
    INVALID_REFERENCE => "A reference OpenTofu cannot read: a malformed traversal, an attribute count, each, path, terraform or tofu does not have, an index that is not an instance key, an attribute of an object in depends_on, or (with the provider's schema) an attribute a resource or data source does not have.";
    SELF_REFERENCING_LOCAL => "A local value that uses its own result.";
    REFERENCE_CYCLE => "Objects whose references form a cycle. OpenTofu reports the cycle without a place; tofu-lens puts it on one reference of the cycle and relates the others.";
    DUPLICATE_MODULE_ARGUMENT => "A module call sets an argument twice: in its body and in its escaping _ block.";
    UNDECLARED_MODULE_INPUT => "A module call passes an argument the called module declares no variable for (local modules, or registry ones after tofu init).";
    MISSING_MODULE_INPUT => "A module call leaves out a variable the called module declares without a default.";
    UNDECLARED_MODULE_OUTPUT => "A reference to an output the called module does not declare (module.NAME.OUTPUT).";
    MODULE_CALL_LOOP => "A module call whose source leads back to the calling module, directly or through other calls.";
    CHILD_MODULE_BACKEND => "A called module has a backend block, which has no effect outside the root module (reported on the call, the block related).";
    CHILD_MODULE_IMPORT => "A called module has an import block; import blocks are allowed only in the root module (reported on the call, the block related).";
    LEGACY_MODULE_REPETITION => "A module call uses count, for_each, enabled or depends_on, but the module, or one it calls without them, configures its own providers.";
    PROVIDER_OVERRIDE => "A module call passes a provider configuration the called module configures itself.";
    MISSING_PROVIDER_CONFIGURATION => "A module call passes no configuration for one of the called module's configuration_aliases (an error), or for a provider the called module passes on to its own calls (a warning).";
    UNDEFINED_PROVIDER_REFERENCE => "A providers entry names a provider local name the module it is about neither requires nor configures (an error for a child's name of a non-default provider).";
    PROVIDER_TYPE_MISMATCH => "A module call passes a configuration of one provider where the called module requires another.";
    DUPLICATE_REQUIRED_PROVIDER => "A provider required under two local names, or under another name than its provider blocks or resource types imply.";
    INVALID_PROVIDER_INSTANCE => "A provider reference with an instance key where the configuration has no for_each, or without one where it has; or an instance key on the left of a providers entry.";
    PROVIDER_FOR_EACH_MATCHES => "A resource or module call uses a provider configuration's instances with that configuration's own for_each: removing an element would fail to plan.";
    REDUNDANT_EMPTY_PROVIDER => "A called module has empty provider blocks, which required_providers replaces (reported on the call, the blocks related).";
    UNDECLARED_VALUE => "A .tfvars file sets a variable the module does not declare (tofu plan warns; OpenTofu gives no place, tofu-lens puts it on the value); a --var for one is an error, as plan stops there (at the start of the module's first file).";
    INVALID_VARIABLE_VALUE => "A constant value for an input variable (in a .tfvars file, or a module call's argument) does not convert to the variable's type (OpenTofu puts it on the variable's declaration; tofu-lens on the value, the declaration related); a --var or TF_VAR_ value that does not convert, or does not parse, on the declaration as OpenTofu.";
    INVALID_RESOURCE_TYPE => "A resource, data source or ephemeral resource type its provider does not support (with the provider's schema), in its block or in a reference to it.";
    INVALID_BLOCK_COUNT => "Fewer or more nested blocks of one type than the provider's schema allows (Insufficient, Too many, Missing).";
    INVALID_ARGUMENT_VALUE => "A constant argument value in a resource, data source, ephemeral resource or provider body does not convert to the type the provider's schema gives the argument.";
    PROVIDER_VALIDATION => "What the provider's own validators report about a resource, data source, ephemeral resource or provider configuration (ValidateResourceConfig and its kin, as tofu validate calls them with the provider installed): value formats, conflicting or missing arguments. The provider decides the severity; reported only when the provider may run.";
    UNUSED_DECLARATION => "A variable, local value or data source that nothing in the module refers to (tofu-lens's own, as tflint's terraform_unused_declarations; off in check unless --unused or the configuration turns it on).";
    UNUSED_SUPPRESSION => "A # tofu-lens-ignore: CODE comment suppresses nothing: no diagnostic with that code starts on the line after it, or the code does not exist (tofu-lens's own; OpenTofu ignores comments).";
    INVALID_TEST_KEYWORD => "A test file's run command or plan_options mode is not one of its keywords (apply or plan; normal or refresh-only), written without quotes.";
    INCOMPATIBLE_PLAN_OPTIONS => "A test run's plan_options set refresh = false in refresh-only mode.";
    DUPLICATE_TEST_BLOCK => "A test file or run holds a block it may hold once (variables, plan_options, module), or two mocks or overrides of the same target, or two mock providers of one address.";
    INVALID_TEST_ADDRESS => "An address in a test file OpenTofu cannot read: an expect_failures element that is no checkable object, a plan_options replace or target that is no static reference, an override target of the wrong kind.";
    TEST_WOULD_FAIL => "tofu validate accepts it, but tofu test fails: an assertion refers to an input variable, local value, output value or resource the module does not declare, or to run; or an assertion of a run with command = plan is known false with the values the run gives (\"Test assertion failed\", its message as detail: the directory's automatic values files or defaults, then the test file's and the run's constant variables; runs are judged in order up to the first that may fail otherwise, as a failed run makes tofu test skip the rest). tofu-lens's warning, with tofu test's wording.";
    UNKNOWN_FUNCTION => "A call to a function OpenTofu does not have (with \"Did you mean\"), or in a namespace it does not know, or of a provider the module does not require (what tofu validate reports).";
    INVALID_FUNCTION_CALL => "A call to a built-in function that fails when validate evaluates it: too few or too many arguments, an argument of the wrong type or value, or the function's own error.";
    INVALID_EXPRESSION_VALUE => "An expression tofu validate cannot evaluate with the values it knows: operands of the wrong type, an index or attribute a known value lacks, conditional results of inconsistent types, a bad for expression.";
    SENSITIVE_OUTPUT => "An output value whose value is marked sensitive (a sensitive input variable, a sensitive(…) call, an attribute the provider's schema marks sensitive, directly or through local values) does not set sensitive = true (what tofu validate reports for the module it runs in).";
    MODULE_DIR_UNREADABLE => "A module call whose local source names a directory that does not exist (or is no directory): tofu init stops with Unreadable module directory, so nothing else is said of the call or its module tree.";
    CONDITION_FAILED => "A condition whose result is known is false, null or no bool: an output's precondition as tofu validate evaluates it (a known local value, a constant), with the error message the block gives.";
    REDUNDANT_IGNORE_CHANGES => "ignore_changes names an attribute the provider's schema marks computed and not optional: no configured value to ignore, so the element has no effect (tofu validate's warning, on the resource type).";
    OVERRIDE_ARGUMENT_IGNORED => "An argument or block that OpenTofu silently ignores: it sits in a resource, data source, ephemeral resource, provider configuration or module call that an override file changes, whose merged body OpenTofu decodes leniently, dropping whatever the schema (or the called module) does not define; outside such blocks the same mistake is an error.";
    EPHEMERAL_OUTPUT => "An output value whose value is marked ephemeral (an ephemeral input variable or ephemeral resource, and whatever carries the mark through local values and functions) does not set ephemeral = true (tofu validate's \"Output does not allow ephemeral value\", on the value).";
    MISSING_PROVIDER => "A `providers` entry names a provider configuration the calling module does not have when OpenTofu's validate builds its graph (no required_providers entry or provider block in the root, nor one passed to a module below): OpenTofu stops with \"missing provider\" and no place.";
    PLAN_VARIABLE_VALIDATION => "What tofu plan reports before it contacts a provider: an input variable's value from the directory's automatic .tfvars files, the values files and values the user names (--var-file, --var, TF_VAR_, the varFiles setting) or its default fails one of its validation rules (OpenTofu's \"Invalid value for variable\", on the variable's header; only in a directory holding terraform.tfvars or *.auto.tfvars, or one the user names values for, where plan is run); or a module call's argument, known only with those values, gives the called module's variable a value that fails one of its rules (on the argument, as module-argument-validation), in each instance of a call whose count or for_each the values decide, with its count.index or each (a finding two instances share is given once; a call with no instance is not judged).";
    PLAN_CONDITION_FAILED => "What tofu plan reports before it contacts a provider: a resource's or data source's precondition, a resource's postcondition (self is the object plan plans: the arguments its provider may not change have their configured values, what is computed stays unknown) or an output's precondition is false with the input variables' known values (from the directory's automatic .tfvars files, or defaults); what reads a resource whose plan failed is not judged, as plan skips it; a resource whose count or for_each the values decide is judged in each instance, with its count.index or each.key and each.value (a finding two instances share is given once).";
    PLAN_CHECK_FAILED => "What tofu plan warns about before it contacts a provider: a check block's assertion is false with the input variables' known values (\"Check block assertion failed\").";
    PLAN_INVALID_VALUE => "What tofu plan reports before it contacts a provider and tofu validate does not: an expression fails only with the input variables' known values (a negative count, a function that rejects them, an index out of range), or a lifecycle enabled argument that is null, sensitive or no bool (\"Invalid enabled argument\"; one known false leaves the resource or call without instances, so nothing in it is judged).";
    PLAN_MOVE_STATEMENT => "What tofu plan reports of moved blocks once it knows what the configuration declares, and tofu validate does not: a move to the same address (\"Redundant move statement\"), from an object still declared (\"Moved object still exists\"), or two moves giving one object two destinations or one destination two sources (\"Ambiguous move statements\"); and, when none of those is found, statements that chain or nest into a cycle (\"Cyclic dependency in move statements\", which OpenTofu gives without a place: on the first statement it lists).";
    MODULE_ARGUMENT_VALIDATION => "A module call's argument gives the called module's variable a value known in tofu validate (a constant, a known local value) that fails one of the variable's validation rules, judged in the child as OpenTofu judges it (\"Invalid value for variable\", on the argument, with where the rule is); with the input variables' values of tofu plan, the same failure is plan-variable-validation.";
    PLAN_IMPORT_TARGET => "What tofu plan reports of import blocks before its walk, and tofu validate does not: an import whose to names a managed resource the configuration does not declare (\"Configuration for import target does not exist\", on the import keyword; a call of the module that does not exist counts, what a declared call's module holds is not judged). Plan stops there: the rest of the plan-* family is withheld.";
    PLAN_REMOVED_STATEMENT => "What tofu plan reports of removed blocks before its walk, and tofu validate does not: a removed block whose from the module still declares (\"Removed resource block still exists\", \"Removed module block still exists\", on the removed keyword), judged when no import target is missing. Plan stops there: the rest of the plan-* family is withheld.";
    PROVIDER_PACKAGE_MISMATCH => "The provider package tofu init installed for the module matches none of the hashes its .terraform.lock.hcl records, so tofu-lens never runs it and tofu validate fails (\"the cached package ... does not match any of the checksums recorded in the dependency lock file\"; OpenTofu gives it no place: on the provider's required_providers entry, else on the first block using it). Run tofu init.";
    PROVIDER_SCHEMA_UNAVAILABLE => "Information: tofu init installed something for the module, but the schema of one of its providers could not be read (not installed for this platform or at the lock file's version, a provider that failed to start, ...), so the bodies using it are judged without it. Once per provider, with the reason.";
    PLAN_REQUIRED_VARIABLE => "What tofu plan -input=false reports while it collects the input variables' values, in a directory it is run in (one with an automatic values file, or values the user names): a variable without a default that no values file, -var or TF_VAR_ sets (\"No value for required variable\", on the variable's declaration). Plan stops there: no value is converted or validated, and the rest of the plan-* family is withheld.";
    SENSITIVE_VALIDATION_MESSAGE => "A variable's validation rule fails with a value tofu validate knows (a module call's constant argument) and its error message shows a sensitive value (the variable is declared sensitive, or the value is): OpenTofu hides the message and reports \"Error message refers to sensitive values\" besides \"Invalid value for variable\" (whose detail then says the message is not displayed). OpenTofu places it on the child's error_message; tofu-lens on the caller's argument, with the message as a related place. Wrap what may be shown in nonsensitive().";
    SENSITIVE_CONDITION_MESSAGE => "The error message of a condition tofu validate evaluates (an output's precondition with known values) shows a sensitive value: OpenTofu does not display it, whether the condition holds or not (\"Error message refers to sensitive values\", a warning on the error_message), and a failed condition says only that its message is invalid.";
    PLAN_SENSITIVE_VALIDATION_MESSAGE => "With tofu plan's values, a variable's validation rule fails and its error message shows a sensitive value: \"Error message refers to sensitive values\" on the error_message (a child's: on the caller's argument, the message a related place), and \"Invalid value for variable\" says the message is not displayed, as plan reports them.";
    PLAN_SENSITIVE_CONDITION_MESSAGE => "With tofu plan's values, the error message of a precondition, a check block's assertion or an output's precondition shows a sensitive value: plan warns \"Error message refers to sensitive values\" on the error_message each time it evaluates the condition, whether the condition holds or not, and a failed condition says only that its message is invalid.";
}

/// Every code, in the order of their numbers.
pub fn all_codes() -> impl Iterator<Item = Code> {
    CATALOGUE.iter().map(|entry| entry.code)
}

/// The code with this user-facing name.
pub fn code_named(name: &str) -> Option<Code> {
    all_codes().find(|code| code.as_str() == name)
}

/// What `code` means, from the catalogue (empty for a code not in it, which
/// the tests below rule out).
pub fn explanation(code: Code) -> &'static str {
    CATALOGUE
        .iter()
        .find(|entry| entry.code == code)
        .map_or("", |entry| entry.explanation)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_defined_code_is_catalogued_once_at_its_number() {
        let mut defined: Vec<Code> = crate::codes::DEFINED
            .iter()
            .chain(tofu_module::codes::DEFINED)
            .copied()
            .collect();
        defined.sort();
        let catalogued: Vec<Code> = all_codes().collect();
        assert_eq!(
            catalogued, defined,
            "the catalogue lists exactly the defined codes, by number"
        );
        for (place, code) in catalogued.iter().enumerate() {
            assert_eq!(
                usize::from(code.number()),
                place + 1,
                "{} is numbered by its place",
                code.as_str()
            );
        }
    }

    #[test]
    fn code_names_round_trip_and_are_unique() {
        let mut names: Vec<&str> = all_codes().map(Code::as_str).collect();
        for code in all_codes() {
            assert_eq!(code_named(code.as_str()), Some(code));
            assert!(
                !explanation(code).is_empty(),
                "{} is explained",
                code.as_str()
            );
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(
            names.len(),
            123,
            "the catalogue has 121 codes (63 load-time, 3 of loading the module tree, 9 of building the configuration, 21 of validate's and the module tree, 8 of provider schemas, 12 of plan's, 5 of test files') and unused-suppression"
        );
    }
}
