//! Module calls after merging (`diagnostics.md` §2.6, §4.7, §4.8, §4.10):
//! `module-source-missing`, `module-source-not-static`,
//! `module-version-local-source`, `module-invalid-registry-source`,
//! `module-invalid-source`.

use tofu_syntax::Diagnostic;

use crate::analysis::ModuleAnalysis;

pub(crate) fn check(_module: &ModuleAnalysis, _out: &mut Vec<Diagnostic>) {}
