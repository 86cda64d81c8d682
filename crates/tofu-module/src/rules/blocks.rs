//! Per-block load-time checks (`diagnostics.md` §2.7, §4.15, §4.20):
//! `invalid-constant-argument`, `invalid-deprecated`, `duplicate-nested-block`,
//! `invalid-provisioner`, `invalid-check-block`, `invalid-address`,
//! `invalid-import`, `removed-block-lifecycle`, `invalid-encryption`.

use tofu_syntax::Diagnostic;

use crate::analysis::ModuleAnalysis;

pub(crate) fn check(_module: &ModuleAnalysis, _out: &mut Vec<Diagnostic>) {}
