//! The provider's RPCs as tofu-lens calls them, on either protocol: the
//! schema (`GetProviderSchema`, with `GetResourceIdentitySchemas` and
//! `GetFunctions` as OpenTofu adds them), the `Validate*` calls a server
//! makes while the user types, and `StopProvider`.
//!
//! [`ProviderClient`] owns one running provider; a server keeps one per
//! provider and workspace and calls it from one thread at a time.
//! Configuration values for the `Validate*` calls are msgpack
//! `DynamicValue`s the caller encodes (with unknowns where `validate` has
//! them); this module only carries them.

use std::path::Path;

use tofu_eval::Value;

use super::grpc::{GrpcError, STATUS_UNIMPLEMENTED};
use super::http2::Http2Error;
use super::messages::{
    decode_diagnostics_field, decode_functions_response, decode_identity_schemas_response,
    decode_provider_schema_response, DiagnosticSeverity, MessageError, ProtocolVersion,
    ProviderDiagnostic,
};
use super::process::{PluginError, ProviderProcess, Timeouts};
use super::protobuf::MessageWriter;
use crate::model::{Block, ByName, ProviderSchema};
use crate::msgpack::{encode_msgpack, MsgpackError};

/// Why a schema could not be read from a running provider.
#[derive(Debug)]
pub enum ClientError {
    Plugin(PluginError),
    /// The response was not a message of the expected shape.
    Message {
        method: &'static str,
        error: MessageError,
    },
    /// The provider answered with error diagnostics.
    Diagnostics {
        method: &'static str,
        diagnostics: Vec<ProviderDiagnostic>,
    },
}

impl From<PluginError> for ClientError {
    fn from(error: PluginError) -> ClientError {
        ClientError::Plugin(error)
    }
}

impl std::fmt::Display for ClientError {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClientError::Plugin(error) => write!(formatter, "{error}"),
            ClientError::Message { method, error } => {
                write!(
                    formatter,
                    "{method} returned a malformed response: {}",
                    error.message
                )
            }
            ClientError::Diagnostics {
                method,
                diagnostics,
            } => {
                write!(formatter, "{method} reported errors:")?;
                for diagnostic in diagnostics {
                    write!(formatter, " {}", diagnostic.summary)?;
                    if !diagnostic.detail.is_empty() {
                        write!(formatter, ": {}", diagnostic.detail)?;
                    }
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for ClientError {}

impl ClientError {
    /// True when the provider cannot be used after this error: it did not
    /// start, a call timed out (it hangs), or the connection broke (it
    /// crashed). An answer that is an error (diagnostics, a gRPC status, a
    /// response that does not decode, a reset call) leaves it usable.
    pub fn ends_process(&self) -> bool {
        match self {
            ClientError::Plugin(PluginError::Call { error, .. }) => !matches!(
                error,
                GrpcError::Status { .. } | GrpcError::Transport(Http2Error::StreamReset(_))
            ),
            ClientError::Plugin(_) => true,
            ClientError::Message { .. } | ClientError::Diagnostics { .. } => false,
        }
    }

    /// True when a call or the handshake ran out of time.
    pub fn is_timeout(&self) -> bool {
        matches!(
            self,
            ClientError::Plugin(
                PluginError::HandshakeTimedOut { .. }
                    | PluginError::Call {
                        error: GrpcError::Transport(Http2Error::TimedOut),
                        ..
                    }
            )
        )
    }
}

/// A config value as the plugin protocol's `DynamicValue` carries it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DynamicValue {
    Msgpack(Vec<u8>),
    Json(Vec<u8>),
}

impl DynamicValue {
    /// A configuration value written as msgpack for a block of `block`'s
    /// schema, as OpenTofu writes it (`msgpack.Marshal(value,
    /// block.ImpliedType())`).
    pub fn from_config(value: &Value, block: &Block) -> Result<DynamicValue, MsgpackError> {
        encode_msgpack(value, &block.implied_type()).map(DynamicValue::Msgpack)
    }

    fn encode(&self) -> Vec<u8> {
        match self {
            DynamicValue::Msgpack(bytes) => MessageWriter::new().bytes(1, bytes).finish(),
            DynamicValue::Json(bytes) => MessageWriter::new().bytes(2, bytes).finish(),
        }
    }
}

/// What `CallFunction` answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FunctionAnswer {
    Result(DynamicValue),
    /// The provider's `FunctionError`.
    Error {
        text: String,
        /// The argument it blames (`function_argument`), if it says.
        argument: Option<i64>,
    },
}

/// One running provider.
pub struct ProviderClient {
    process: ProviderProcess,
}

impl ProviderClient {
    /// Starts the provider executable (see [`ProviderProcess::start`]).
    pub fn start(
        executable: &Path,
        socket_dir: Option<&Path>,
        timeouts: Timeouts,
    ) -> Result<ProviderClient, ClientError> {
        Ok(ProviderClient {
            process: ProviderProcess::start(executable, socket_dir, timeouts)?,
        })
    }

    pub fn protocol(&self) -> ProtocolVersion {
        self.process.protocol
    }

    /// The provider's process id.
    pub fn process_id(&self) -> u32 {
        self.process.id()
    }

    /// The schema as OpenTofu assembles it: `GetProviderSchema` (error
    /// diagnostics fail the read), the identity schemas (optional: any
    /// failure is ignored, as OpenTofu ignores it), and functions from
    /// `GetFunctions` that the schema response did not list.
    pub fn read_schema(&mut self) -> Result<ProviderSchema, ClientError> {
        let method = self.by_protocol("GetSchema", "GetProviderSchema");
        let bytes = self.process.call_provider(method, &[])?;
        let response = decode_provider_schema_response(&bytes, self.protocol())
            .map_err(|error| ClientError::Message { method, error })?;
        fail_on_errors(method, response.diagnostics)?;
        let mut schema = response.schema;
        if let Some(identities) = self.optional_call("GetResourceIdentitySchemas")? {
            if let Ok(decoded) = decode_identity_schemas_response(&identities) {
                if !has_errors(&decoded.diagnostics) {
                    schema.resource_identities = decoded.items;
                }
            }
        }
        if let Some(functions) = self.optional_call("GetFunctions")? {
            let decoded =
                decode_functions_response(&functions).map_err(|error| ClientError::Message {
                    method: "GetFunctions",
                    error,
                })?;
            if !has_errors(&decoded.diagnostics) && !decoded.items.is_empty() {
                schema.functions = merge_functions(&schema.functions, decoded.items);
            }
        }
        Ok(schema)
    }

    /// `ValidateResourceConfig` (protocol 5: `ValidateResourceTypeConfig`).
    pub fn validate_resource_config(
        &mut self,
        type_name: &str,
        config: &DynamicValue,
    ) -> Result<Vec<ProviderDiagnostic>, ClientError> {
        let method = self.by_protocol("ValidateResourceTypeConfig", "ValidateResourceConfig");
        // OpenTofu's ClientCapabilities: write_only_attributes_allowed.
        let capabilities = MessageWriter::new().flag(2, true).finish();
        let request = MessageWriter::new()
            .bytes(1, type_name.as_bytes())
            .bytes(2, &config.encode())
            .bytes(3, &capabilities)
            .finish();
        self.call_for_diagnostics(method, &request, 1)
    }

    /// `ValidateDataResourceConfig` (protocol 5: `ValidateDataSourceConfig`).
    pub fn validate_data_resource_config(
        &mut self,
        type_name: &str,
        config: &DynamicValue,
    ) -> Result<Vec<ProviderDiagnostic>, ClientError> {
        let method = self.by_protocol("ValidateDataSourceConfig", "ValidateDataResourceConfig");
        self.validate(method, type_name, config)
    }

    /// `ValidateEphemeralResourceConfig`.
    pub fn validate_ephemeral_resource_config(
        &mut self,
        type_name: &str,
        config: &DynamicValue,
    ) -> Result<Vec<ProviderDiagnostic>, ClientError> {
        self.validate("ValidateEphemeralResourceConfig", type_name, config)
    }

    /// `ValidateProviderConfig` (protocol 5: `PrepareProviderConfig`; its
    /// prepared config is not read, as OpenTofu no longer uses it).
    pub fn validate_provider_config(
        &mut self,
        config: &DynamicValue,
    ) -> Result<Vec<ProviderDiagnostic>, ClientError> {
        let method = self.by_protocol("PrepareProviderConfig", "ValidateProviderConfig");
        let request = MessageWriter::new().bytes(1, &config.encode()).finish();
        self.call_for_diagnostics(method, &request, 2)
    }

    /// `CallFunction` (both protocols): the result of function `name` for
    /// `arguments` (msgpack `DynamicValue`s), or the provider's
    /// `FunctionError` (its text, and the argument it blames, if any).
    pub fn call_function(
        &mut self,
        name: &str,
        arguments: &[DynamicValue],
    ) -> Result<FunctionAnswer, ClientError> {
        let method = "CallFunction";
        let mut request = MessageWriter::new();
        request.bytes(1, name.as_bytes());
        for argument in arguments {
            request.bytes(2, &argument.encode());
        }
        let bytes = self.process.call_provider(method, &request.finish())?;
        let message_error = |error: super::protobuf::WireError| ClientError::Message {
            method,
            error: error.into(),
        };
        let mut result = None;
        let mut error = None;
        let mut reader = super::protobuf::MessageReader::new(&bytes);
        while let Some((number, value)) = reader.next_field().map_err(message_error)? {
            match number {
                1 => {
                    let mut dynamic = super::protobuf::MessageReader::new(value.as_bytes());
                    while let Some((field, bytes)) = dynamic.next_field().map_err(message_error)? {
                        match field {
                            1 => result = Some(DynamicValue::Msgpack(bytes.as_bytes().to_vec())),
                            2 => result = Some(DynamicValue::Json(bytes.as_bytes().to_vec())),
                            _ => {}
                        }
                    }
                }
                2 => {
                    let mut text = String::new();
                    let mut argument = None;
                    let mut fields = super::protobuf::MessageReader::new(value.as_bytes());
                    while let Some((field, found)) = fields.next_field().map_err(message_error)? {
                        match field {
                            1 => text = found.as_str().map_err(message_error)?.to_owned(),
                            2 => argument = Some(found.as_i64()),
                            _ => {}
                        }
                    }
                    error = Some((text, argument));
                }
                _ => {}
            }
        }
        Ok(match error {
            Some((text, argument)) => FunctionAnswer::Error { text, argument },
            None => FunctionAnswer::Result(result.unwrap_or(DynamicValue::Msgpack(Vec::new()))),
        })
    }

    /// `StopProvider` (protocol 5: `Stop`): asks the provider to cancel
    /// what it is doing; its error text, if any.
    pub fn stop_provider(&mut self) -> Result<String, ClientError> {
        let method = self.by_protocol("Stop", "StopProvider");
        let bytes = self.process.call_provider(method, &[])?;
        let mut reader = super::protobuf::MessageReader::new(&bytes);
        let mut text = String::new();
        while let Some((number, value)) =
            reader.next_field().map_err(|error| ClientError::Message {
                method,
                error: error.into(),
            })?
        {
            if number == 1 {
                text = value.as_str().unwrap_or_default().to_owned();
            }
        }
        Ok(text)
    }

    /// The method's name on this provider's protocol.
    fn by_protocol(&self, five: &'static str, six: &'static str) -> &'static str {
        match self.protocol() {
            ProtocolVersion::Five => five,
            ProtocolVersion::Six => six,
        }
    }

    /// What the provider wrote to stderr so far.
    pub fn stderr(&self) -> String {
        self.process.stderr()
    }

    /// Shuts the provider down and reaps it.
    pub fn shutdown(self) {
        self.process.shutdown();
    }

    fn validate(
        &mut self,
        method: &'static str,
        type_name: &str,
        config: &DynamicValue,
    ) -> Result<Vec<ProviderDiagnostic>, ClientError> {
        let request = MessageWriter::new()
            .bytes(1, type_name.as_bytes())
            .bytes(2, &config.encode())
            .finish();
        self.call_for_diagnostics(method, &request, 1)
    }

    /// Calls `method` and reads the diagnostics from field `field` of its
    /// response.
    fn call_for_diagnostics(
        &mut self,
        method: &'static str,
        request: &[u8],
        field: u32,
    ) -> Result<Vec<ProviderDiagnostic>, ClientError> {
        let bytes = self.process.call_provider(method, request)?;
        decode_diagnostics_field(&bytes, field)
            .map_err(|error| ClientError::Message { method, error })
    }

    /// A call a provider may not implement: `None` when it says so.
    fn optional_call(&mut self, method: &str) -> Result<Option<Vec<u8>>, ClientError> {
        match self.process.call_provider(method, &[]) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(PluginError::Call {
                error: GrpcError::Status { code, .. },
                ..
            }) if code == STATUS_UNIMPLEMENTED => Ok(None),
            // Older providers may answer other statuses for methods they
            // do not know; the schema read does not depend on these.
            Err(PluginError::Call {
                error: GrpcError::Status { .. },
                ..
            }) => Ok(None),
            Err(error) => Err(error.into()),
        }
    }
}

fn has_errors(diagnostics: &[ProviderDiagnostic]) -> bool {
    diagnostics
        .iter()
        .any(|diagnostic| diagnostic.severity == DiagnosticSeverity::Error)
}

fn fail_on_errors(
    method: &'static str,
    diagnostics: Vec<ProviderDiagnostic>,
) -> Result<(), ClientError> {
    if has_errors(&diagnostics) {
        Err(ClientError::Diagnostics {
            method,
            diagnostics: diagnostics
                .into_iter()
                .filter(|diagnostic| diagnostic.severity == DiagnosticSeverity::Error)
                .collect(),
        })
    } else {
        Ok(())
    }
}

/// The schema's functions, plus those only `GetFunctions` listed.
fn merge_functions<T: Clone>(from_schema: &ByName<T>, from_call: ByName<T>) -> ByName<T> {
    let mut merged: Vec<(Box<str>, T)> = from_call
        .iter()
        .filter(|(name, _)| from_schema.get(name).is_none())
        .map(|(name, item)| (Box::from(name), item.clone()))
        .collect();
    merged.extend(
        from_schema
            .iter()
            .map(|(name, item)| (Box::from(name), item.clone())),
    );
    ByName::from_unsorted(merged)
}
