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
//! stays free of it. Attribute types are tofu-eval's cty types
//! ([`tofu_eval::Type`]), read from and written as their JSON form by
//! [`types`].
//!
//! For the provider's own validators: a configuration (tofu-eval's
//! [`tofu_eval::Value`], with unknowns; marks are dropped) written as cty's
//! msgpack ([`msgpack`]) for a block's implied type ([`Block::implied_type`]), and
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
mod decoder_type;
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
pub use types::{type_from_json, type_from_json_text, type_to_json, write_type_json, TypeError};
