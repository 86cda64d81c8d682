//! Variable defaults against their type constraints, in each block and after
//! each override is merged (`invalid-variable-default`, `merging.md` §6.1).

use tofu_syntax::Diagnostic;

use crate::analysis::ModuleAnalysis;

pub(crate) fn check(_module: &ModuleAnalysis, _out: &mut Vec<Diagnostic>) {}
