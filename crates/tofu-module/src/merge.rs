//! Override merging (`merging.md`): the effective configuration with provenance.

use tofu_syntax::Diagnostic;

use crate::analysis::ModuleAnalysis;
use crate::input::Config;

#[derive(Debug, Default)]
pub struct EffectiveModule {}

pub(crate) fn merge(
    _module: &ModuleAnalysis,
    _config: &Config,
    _out: &mut Vec<Diagnostic>,
) -> EffectiveModule {
    EffectiveModule::default()
}
