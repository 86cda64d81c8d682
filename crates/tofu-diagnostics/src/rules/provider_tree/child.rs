//! What the checks of one module's calls share: a call with what the tree
//! says its child is ([`Child`]), the providers the children know each
//! local name as ([`KnownNames`]), and how a diagnostic is made.

use std::collections::BTreeMap;

use tofu_syntax::{Code, Diagnostic, Location, RelatedOutside};

use tofu_module::interface::ModuleInterface;
use tofu_module::provider_tree::facts::Call;
use tofu_module::provider_tree::{ProviderType, SummaryPlace};

/// A call and what the tree says its child is.
pub(crate) struct Child<'f, 'a> {
    pub(crate) call: &'f Call,
    pub(crate) interface: &'a ModuleInterface,
    /// The child's directory relative to this one, where known.
    pub(crate) dir: Option<String>,
}

impl Child<'_, '_> {
    /// `module.NAME`, OpenTofu's name of the child module.
    pub(crate) fn path(&self) -> String {
        format!("module.{}", self.call.name)
    }

    /// A related location at `place` in the child.
    pub(crate) fn related(&self, place: &SummaryPlace, message: &str) -> Option<RelatedOutside> {
        let (dir, place) = (self.dir.as_deref()?, place.place.as_ref()?);
        let path = match dir {
            "." | "" => place.file.clone(),
            _ => format!("{dir}/{}", place.file),
        };
        Some(RelatedOutside {
            path,
            text: std::sync::Arc::clone(&place.text),
            range: place.header,
            message: message.to_owned(),
        })
    }
}

/// The providers the children of one module know each local name as, in
/// call order, each once: what OpenTofu writes into the module's
/// `providers` entries (`calls::child_type`).
pub(crate) type KnownNames = BTreeMap<String, Vec<ProviderType>>;

pub(super) fn known_names(children: &[Child<'_, '_>]) -> KnownNames {
    let mut known = KnownNames::new();
    let mut add = |name: &str, provider: ProviderType| {
        let types = known.entry(name.to_owned()).or_default();
        if !types.contains(&provider) {
            types.push(provider);
        }
    };
    for child in children {
        let providers = &child.interface.providers;
        for required in &providers.required {
            add(&required.name, required.provider.clone());
        }
        for configuration in &providers.configurations {
            if !providers
                .required
                .iter()
                .any(|r| r.name == configuration.name)
            {
                add(
                    &configuration.name,
                    ProviderType::default_for(&configuration.name),
                );
            }
        }
    }
    known
}

/// A diagnostic at `at`.
pub(super) fn diagnostic(code: Code, summary: &str, at: Location, detail: String) -> Diagnostic {
    Diagnostic::new(code, summary, at).with_detail(detail)
}
