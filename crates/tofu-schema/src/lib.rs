//! Provider schemas: what the arguments, nested blocks and attributes of a
//! provider's resource, data source, ephemeral resource and provider
//! configuration are, and where a schema comes from: the provider packages
//! `tofu init` installed, read by starting the provider as OpenTofu does,
//! or `tofu providers schema -json` output, kept in a cache on disk.
//!
//! The model ([`model`], [`types`]) is plain data that the rules of
//! `tofu-module` read, with its decoders ([`json_decode`] for `tofu
//! providers schema -json`, [`plugin::messages`] for the plugin protocol).
//! Finding packages ([`install`]), running providers ([`plugin`]), the
//! cache ([`cache`]) and putting them together ([`read`]) are the IO this
//! crate adds, kept apart from the model so that the engine's analysis
//! stays free of it. Attribute types are [`SchemaType`], a cty type as the
//! schema states it, meant to map onto tofu-eval's types.
//!
//! For the provider's own validators: [`ConfigValue`] (a configuration
//! with unknowns, shaped like tofu-eval's values) written as cty's msgpack
//! ([`msgpack`]) for a block's implied type ([`Block::implied_type`]), and
//! [`ProviderPool`] ([`pool`]), one running provider per provider and
//! workspace for the `Validate*` calls. [`requirements`] says which
//! providers a module needs; [`install::ProviderEnvironment`] is what the
//! binary reads from the environment and passes in.
//!
//! Invariants: no tokio (the plugin client is blocking, with deadlines), no
//! serde, no environment variables (the caller passes directories, platform
//! and trust in), only packages the lock file vouches for run
//! ([`RunnableProvider`]), and no provider process outlives the value that
//! started it (a client, or the pool).

pub mod address;
mod builtin;
pub mod cache;
pub mod config_value;
mod eval_values;
mod implied_type;
pub mod install;
pub mod json_decode;
pub mod json_encode;
pub mod model;
pub mod msgpack;
pub mod plugin;
pub mod pool;
pub mod read;
pub mod requirements;
pub mod types;

pub use address::ProviderAddress;
pub use builtin::builtin_schema;
pub use cache::{CacheKey, SchemaCache};
pub use config_value::{ConfigNumber, ConfigValue, Refinements, UnknownValue};
pub use install::ProviderEnvironment;
pub use json_decode::{decode_providers_schema_json, SchemaJsonError};
pub use json_encode::encode_providers_schema_json;
pub use model::*;
pub use msgpack::{decode_msgpack, encode_msgpack, MsgpackError};
pub use pool::{PoolError, PoolKey, PoolSettings, ProviderPool};
pub use read::{
    read_provider_schema, runnable_provider, LoadedSchema, MissingReason, RunnableProvider,
    SchemaOrigin, SchemaReadError, SchemaRequest,
};
pub use types::{ObjectType, SchemaType, TypeError};
