//! Provider names, references, aliases, sources and `required_providers` entries
//! (`diagnostics.md` §2.7, §4.11–§4.13): `invalid-provider-local-name`,
//! `invalid-provider-reference`, `invalid-provider-alias`,
//! `invalid-provider-source`, `invalid-required-providers`, and the provider
//! part of `quoted-reference-deprecated`.

use tofu_syntax::Diagnostic;

use crate::analysis::ModuleAnalysis;

pub(crate) fn check(_module: &ModuleAnalysis, _out: &mut Vec<Diagnostic>) {}
