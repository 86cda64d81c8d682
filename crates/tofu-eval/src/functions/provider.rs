//! Provider-defined functions (`provider::NAME::FUNCTION`) as OpenTofu
//! turns a provider's function spec into a cty function
//! (`providerFunction` in `context_functions.go`): each parameter takes
//! its declared type, refuses null unless it allows null, takes no
//! dynamically typed or marked value (marks come off the arguments and go
//! on the result), and the result has the declared return type.
//!
//! The scope gives the signature ([`Scope::provider_function`]: the
//! module's providers' schemas); the call itself (`CallFunction`) goes
//! through the caller's [`Environment::call_provider_function`], made only
//! when every argument is wholly known, as OpenTofu's gRPC client does
//! (an argument not wholly known gives an unknown result of the return
//! type, unless its parameter allows unknown values). An environment that
//! runs no provider leaves the result unknown, of the return type, so that
//! what reads it is still judged (`.nosuch` is "Unsupported attribute").
//!
//! [`Scope::provider_function`]: crate::Scope::provider_function
//! [`Environment::call_provider_function`]: crate::Environment::call_provider_function

use crate::types::Type;

/// A provider function's signature, and which provider and function a call
/// goes to.
#[derive(Clone, Debug, PartialEq)]
pub struct ProviderFunction {
    /// The provider's address as OpenTofu writes it
    /// (`registry.opentofu.org/hashicorp/time`).
    pub provider: String,
    /// The function's name in the provider (`rfc3339_parse`).
    pub function: String,
    pub parameters: Vec<ProviderParameter>,
    /// A final parameter taking zero or more arguments.
    pub variadic: Option<ProviderParameter>,
    pub return_type: Type,
}

/// One parameter of a provider function.
#[derive(Clone, Debug, PartialEq)]
pub struct ProviderParameter {
    pub name: String,
    pub ty: Type,
    pub allow_null: bool,
    pub allow_unknown: bool,
}

impl ProviderFunction {
    /// The parameter that takes the argument at `index`.
    pub fn parameter_at(&self, index: usize) -> Option<&ProviderParameter> {
        self.parameters.get(index).or(self.variadic.as_ref())
    }
}
