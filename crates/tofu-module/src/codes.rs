//! The diagnostic codes that loading and merging report (duplicates, override
//! rules, reference cycles, provider references as OpenTofu decodes them).
//! Every other code is defined with the rules that report it, in
//! `tofu-diagnostics`, whose catalogue lists them all.

tofu_syntax::define_codes! {
    12 DUPLICATE_BLOCK => "duplicate-block", Error;
    13 DUPLICATE_LOCAL => "duplicate-local", Error;
    14 DUPLICATE_BACKEND => "duplicate-backend", Error;
    15 OVERRIDE_MISSING_BASE => "override-missing-base", Error;
    16 OVERRIDE_DEPENDS_ON => "override-depends-on", Error;
    17 OVERRIDE_FORBIDDEN_BLOCK => "override-forbidden-block", Error;
    18 OVERRIDE_INEFFECTIVE => "override-ineffective", Warning;
    38 INVALID_PROVIDER_LOCAL_NAME => "invalid-provider-local-name", Error;
    39 INVALID_PROVIDER_REFERENCE => "invalid-provider-reference", Error;
    44 QUOTED_REFERENCE_DEPRECATED => "quoted-reference-deprecated", Warning;
    69 REFERENCE_CYCLE => "reference-cycle", Error;
}
