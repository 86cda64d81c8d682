//! Reference rules on blocks as written (`diagnostics.md` §2.7, §4.17–§4.19):
//! `constant-condition`, `condition-self-reference`,
//! `validation-condition-reference`, `invalid-ignore-changes`,
//! `invalid-replace-triggered-by`, `invalid-depends-on`,
//! `destroy-provisioner-reference`, and the reference/keyword part of
//! `quoted-reference-deprecated`.

use tofu_syntax::Diagnostic;

use crate::analysis::ModuleAnalysis;

pub(crate) fn check(_module: &ModuleAnalysis, _out: &mut Vec<Diagnostic>) {}
