//! Provider schemas: what the arguments, nested blocks and attributes of a
//! provider's resource, data source, ephemeral resource and provider
//! configuration are (types from `tofu-eval`), and where a schema comes
//! from: the provider packages `tofu init` installed, read by starting the
//! provider as OpenTofu does, or `tofu providers schema -json` output, kept
//! in a cache on disk.
//!
//! The model is plain data that the rules of `tofu-module` read; finding,
//! starting and caching providers is the IO this crate adds, kept apart
//! from the model so that the engine's analysis stays free of it.
