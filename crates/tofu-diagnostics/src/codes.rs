//! The diagnostic codes the rules report, and, re-exported, those loading
//! and merging report (`tofu_module::codes`): every code under one path. What
//! each means is in [`crate::catalogue`].

pub use tofu_module::codes::{
    DUPLICATE_BACKEND, DUPLICATE_BLOCK, DUPLICATE_LOCAL, INVALID_PROVIDER_LOCAL_NAME,
    INVALID_PROVIDER_REFERENCE, OVERRIDE_DEPENDS_ON, OVERRIDE_FORBIDDEN_BLOCK,
    OVERRIDE_INEFFECTIVE, OVERRIDE_MISSING_BASE, QUOTED_REFERENCE_DEPRECATED, REFERENCE_CYCLE,
};

tofu_syntax::define_codes! {
    1 SYNTAX_ERROR => "syntax-error", Error;
    2 FILE_UNREADABLE => "file-unreadable", Error;
    3 FILE_SHADOWED => "file-shadowed", Hint;
    4 FILE_IGNORED => "file-ignored", Hint;
    5 UNSUPPORTED_BLOCK => "unsupported-block", Error;
    6 UNSUPPORTED_ARGUMENT => "unsupported-argument", Error;
    7 MISSING_REQUIRED_ARGUMENT => "missing-required-argument", Error;
    8 INVALID_BLOCK_LABELS => "invalid-block-labels", Error;
    9 INVALID_NAME => "invalid-name", Error;
    10 DUPLICATE_ARGUMENT => "duplicate-argument", Error;
    11 MISPLACED_REQUIRED_PROVIDERS => "misplaced-required-providers", Error;
    19 INVALID_VARIABLE_DEFAULT => "invalid-variable-default", Error;
    20 INCOMPATIBLE_TOFU_VERSION => "incompatible-tofu-version", Error;
    21 INVALID_VERSION_CONSTRAINT => "invalid-version-constraint", Error;
    22 INEFFECTIVE_VERSION_CONSTRAINT => "ineffective-version-constraint", Warning;
    23 REQUIRED_VERSION_IGNORED => "required-version-ignored", Warning;
    24 TERRAFORM_SETTING_IGNORED => "terraform-setting-ignored", Hint;
    25 UNSUPPORTED_EDITION => "unsupported-edition", Error;
    26 UNSUPPORTED_EXPERIMENT => "unsupported-experiment", Error;
    27 DUPLICATE_COMPATIBLE_WITH => "duplicate-compatible-with", Error;
    28 PROVIDER_VERSION_DEPRECATED => "provider-version-deprecated", Warning;
    29 MODULE_SOURCE_MISSING => "module-source-missing", Error;
    30 MODULE_SOURCE_NOT_STATIC => "module-source-not-static", Error;
    31 MODULE_VERSION_LOCAL_SOURCE => "module-version-local-source", Error;
    32 MODULE_INVALID_REGISTRY_SOURCE => "module-invalid-registry-source", Error;
    33 MODULE_INVALID_SOURCE => "module-invalid-source", Error;
    34 RESERVED_BLOCK_TYPE => "reserved-block-type", Error;
    35 RESERVED_ARGUMENT_NAME => "reserved-argument-name", Error;
    36 RESERVED_VARIABLE_NAME => "reserved-variable-name", Error;
    37 REPETITION_CONFLICT => "repetition-conflict", Error;
    40 INVALID_PROVIDER_ALIAS => "invalid-provider-alias", Error;
    41 INVALID_PROVIDER_FOR_EACH => "invalid-provider-for-each", Error;
    42 INVALID_PROVIDER_SOURCE => "invalid-provider-source", Error;
    43 INVALID_REQUIRED_PROVIDERS => "invalid-required-providers", Error;
    45 INVALID_TYPE_CONSTRAINT => "invalid-type-constraint", Error;
    46 QUOTED_TYPE_CONSTRAINT => "quoted-type-constraint", Error;
    47 INVALID_CONSTANT_ARGUMENT => "invalid-constant-argument", Error;
    48 IGNORED_OBJECT_ATTRIBUTE => "ignored-object-attribute", Warning;
    49 INVALID_DEPRECATED => "invalid-deprecated", Error;
    50 CONSTANT_CONDITION => "constant-condition", Error;
    51 CONDITION_SELF_REFERENCE => "condition-self-reference", Error;
    52 VALIDATION_CONDITION_REFERENCE => "validation-condition-reference", Error;
    53 INVALID_IGNORE_CHANGES => "invalid-ignore-changes", Error;
    54 INVALID_REPLACE_TRIGGERED_BY => "invalid-replace-triggered-by", Error;
    55 INVALID_DEPENDS_ON => "invalid-depends-on", Error;
    56 DUPLICATE_NESTED_BLOCK => "duplicate-nested-block", Error;
    57 INVALID_PROVISIONER => "invalid-provisioner", Error;
    58 DESTROY_PROVISIONER_REFERENCE => "destroy-provisioner-reference", Error;
    59 INVALID_CHECK_BLOCK => "invalid-check-block", Error;
    60 INVALID_ADDRESS => "invalid-address", Error;
    61 INVALID_IMPORT => "invalid-import", Error;
    62 REMOVED_BLOCK_LIFECYCLE => "removed-block-lifecycle", Warning;
    63 INVALID_ENCRYPTION => "invalid-encryption", Error;
    64 UNDECLARED_REFERENCE => "undeclared-reference", Error;
    65 RESOURCE_INSTANCE_KEY => "resource-instance-key", Error;
    66 UNAVAILABLE_REFERENCE => "unavailable-reference", Error;
    67 INVALID_REFERENCE => "invalid-reference", Error;
    68 SELF_REFERENCING_LOCAL => "self-referencing-local", Error;
    70 DUPLICATE_MODULE_ARGUMENT => "duplicate-module-argument", Error;
    71 UNDECLARED_MODULE_INPUT => "undeclared-module-input", Error;
    72 MISSING_MODULE_INPUT => "missing-module-input", Error;
    73 UNDECLARED_MODULE_OUTPUT => "undeclared-module-output", Error;
    74 MODULE_CALL_LOOP => "module-call-loop", Error;
    75 CHILD_MODULE_BACKEND => "child-module-backend", Warning;
    76 CHILD_MODULE_IMPORT => "child-module-import", Error;
    77 LEGACY_MODULE_REPETITION => "legacy-module-repetition", Error;
    78 PROVIDER_OVERRIDE => "provider-override", Error;
    79 MISSING_PROVIDER_CONFIGURATION => "missing-provider-configuration", Error;
    80 UNDEFINED_PROVIDER_REFERENCE => "undefined-provider-reference", Warning;
    81 PROVIDER_TYPE_MISMATCH => "provider-type-mismatch", Error;
    82 DUPLICATE_REQUIRED_PROVIDER => "duplicate-required-provider", Warning;
    83 INVALID_PROVIDER_INSTANCE => "invalid-provider-instance", Error;
    84 PROVIDER_FOR_EACH_MATCHES => "provider-for-each-matches", Warning;
    85 REDUNDANT_EMPTY_PROVIDER => "redundant-empty-provider", Warning;
    86 UNDECLARED_VALUE => "undeclared-value", Warning;
    87 INVALID_VARIABLE_VALUE => "invalid-variable-value", Error;
    88 INVALID_RESOURCE_TYPE => "invalid-resource-type", Error;
    89 INVALID_BLOCK_COUNT => "invalid-block-count", Error;
    90 INVALID_ARGUMENT_VALUE => "invalid-argument-value", Error;
    91 PROVIDER_VALIDATION => "provider-validation", Error;
    92 UNUSED_DECLARATION => "unused-declaration", Hint;
    93 UNUSED_SUPPRESSION => "unused-suppression", Warning;
    94 INVALID_TEST_KEYWORD => "invalid-test-keyword", Error;
    95 INCOMPATIBLE_PLAN_OPTIONS => "incompatible-plan-options", Error;
    96 DUPLICATE_TEST_BLOCK => "duplicate-test-block", Error;
    97 INVALID_TEST_ADDRESS => "invalid-test-address", Error;
    98 TEST_WOULD_FAIL => "test-would-fail", Warning;
    99 UNKNOWN_FUNCTION => "unknown-function", Error;
    100 INVALID_FUNCTION_CALL => "invalid-function-call", Error;
    101 INVALID_EXPRESSION_VALUE => "invalid-expression-value", Error;
    102 SENSITIVE_OUTPUT => "sensitive-output", Error;
    103 MODULE_DIR_UNREADABLE => "module-dir-unreadable", Error;
    104 CONDITION_FAILED => "condition-failed", Error;
    105 REDUNDANT_IGNORE_CHANGES => "redundant-ignore-changes", Warning;
    106 OVERRIDE_ARGUMENT_IGNORED => "override-argument-ignored", Warning;
    107 EPHEMERAL_OUTPUT => "ephemeral-output", Error;
    108 MISSING_PROVIDER => "missing-provider", Error;
    109 PLAN_VARIABLE_VALIDATION => "plan-variable-validation", Error;
    110 PLAN_CONDITION_FAILED => "plan-condition-failed", Error;
    111 PLAN_CHECK_FAILED => "plan-check-failed", Warning;
    112 PLAN_INVALID_VALUE => "plan-invalid-value", Error;
    113 PLAN_MOVE_STATEMENT => "plan-move-statement", Error;
    114 MODULE_ARGUMENT_VALIDATION => "module-argument-validation", Error;
    115 PLAN_IMPORT_TARGET => "plan-import-target", Error;
    116 PLAN_REMOVED_STATEMENT => "plan-removed-statement", Error;
    117 PROVIDER_PACKAGE_MISMATCH => "provider-package-mismatch", Error;
    118 PROVIDER_SCHEMA_UNAVAILABLE => "provider-schema-unavailable", Info;
    119 PLAN_REQUIRED_VARIABLE => "plan-required-variable", Error;
    120 SENSITIVE_VALIDATION_MESSAGE => "sensitive-validation-message", Error;
    121 SENSITIVE_CONDITION_MESSAGE => "sensitive-condition-message", Warning;
    122 PLAN_SENSITIVE_VALIDATION_MESSAGE => "plan-sensitive-validation-message", Error;
    123 PLAN_SENSITIVE_CONDITION_MESSAGE => "plan-sensitive-condition-message", Warning;
}

/// Whether `code` is one of what `tofu plan`'s walk reports from known
/// values (the `plan-*` family), which plan never reaches when validate
/// failed.
pub fn is_plan_walk(code: tofu_syntax::Code) -> bool {
    [
        PLAN_VARIABLE_VALIDATION,
        PLAN_CONDITION_FAILED,
        PLAN_CHECK_FAILED,
        PLAN_INVALID_VALUE,
        PLAN_MOVE_STATEMENT,
        PLAN_IMPORT_TARGET,
        PLAN_REMOVED_STATEMENT,
        PLAN_SENSITIVE_VALIDATION_MESSAGE,
        PLAN_SENSITIVE_CONDITION_MESSAGE,
    ]
    .contains(&code)
}
