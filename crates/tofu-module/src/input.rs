//! What the caller hands in for one module directory: its files as read
//! ([`InputFile`]) and the configuration that changes what is reported
//! ([`Config`]).

use std::sync::Arc;

use tofu_syntax::{Code, Severity};

use crate::version::Version;

/// One file of a module directory, as the caller read it (from disk or from an
/// editor buffer).
#[derive(Clone, Debug)]
pub struct InputFile {
    /// The file name within the directory (no path separators).
    pub name: String,
    pub content: FileContent,
}

impl InputFile {
    pub fn text(name: impl Into<String>, text: impl Into<Arc<str>>) -> InputFile {
        InputFile {
            name: name.into(),
            content: FileContent::Text(text.into()),
        }
    }
}

#[derive(Clone, Debug)]
pub enum FileContent {
    Text(Arc<str>),
    /// The bytes are not UTF-8. `text` is a lossy decoding (for display only);
    /// only the part before `first_bad_byte` is parsed.
    InvalidUtf8 {
        text: Arc<str>,
        first_bad_byte: u32,
    },
    /// The file could not be read; the message says why.
    Unreadable {
        message: String,
    },
}

impl FileContent {
    /// Decodes raw bytes as read from disk.
    pub fn from_bytes(bytes: Vec<u8>) -> FileContent {
        match String::from_utf8(bytes) {
            Ok(text) => FileContent::Text(text.into()),
            Err(error) => {
                let first_bad_byte = tofu_syntax::text::to_u32(error.utf8_error().valid_up_to());
                let text = String::from_utf8_lossy(error.as_bytes()).into_owned();
                FileContent::InvalidUtf8 {
                    text: text.into(),
                    first_bad_byte,
                }
            }
        }
    }
}

/// Configuration that changes what the analysis reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The OpenTofu version constraints are checked against (`tofuVersion`).
    pub tofu_version: String,
    /// Per-code severities the user chose (`diagnostics.severity`): `None`
    /// turns the code off. Codes not listed keep the rule's severity.
    pub severity_overrides: Vec<(Code, Option<Severity>)>,
    /// The values the user names for the directory run as the root module
    /// (`-var-file`, `-var`, `TF_VAR_*`; `crate::given_values`).
    pub values: crate::given_values::GivenValues,
}

pub const DEFAULT_TOFU_VERSION: &str = "1.12.6";

impl Config {
    /// The configured version's core (`MAJOR.MINOR.PATCH`; a prerelease suffix
    /// is dropped, as OpenTofu does), or the default when it does not parse.
    pub fn parsed_tofu_version(&self) -> Version {
        Version::parse(self.tofu_version.trim())
            .or_else(|_| Version::parse(DEFAULT_TOFU_VERSION))
            .map(|version| version.core())
            .unwrap_or(Version {
                components: vec![1, 12, 6],
                prerelease: None,
                metadata: None,
            })
    }

    /// True when `tofu_version` is usable (callers report it otherwise).
    pub fn tofu_version_is_valid(&self) -> bool {
        Version::parse(self.tofu_version.trim()).is_ok()
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            tofu_version: DEFAULT_TOFU_VERSION.to_owned(),
            severity_overrides: Vec::new(),
            values: crate::given_values::GivenValues::default(),
        }
    }
}
