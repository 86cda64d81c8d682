//! The filesystem functions. Paths as strings (`basename`, `dirname`, as
//! Go's `filepath` on Unix), and files read through the caller's
//! [`Environment`](super::environment::Environment): `file`, `filebase64`, `fileexists`
//! and the file hashes. When the environment cannot read files, results
//! are unknown.
//!
//! `fileset` walks directories the environment lists (`glob.rs`);
//! `templatefile` is rendered by the evaluator (`eval/call.rs`).
//! `abspath` and `pathexpand` ask the
//! environment for the working and home directories (unknown without).

use super::encoding::base64_encode;
use super::environment::{Environment, FileError};
use super::hash::hex_of;
use super::implementation::{Accepts, Arguments, FunctionError, Implementation, PLAIN};
use crate::types::Type;
use crate::value::{Marks, Value};
use tofu_syntax::go_text::path_clean;

const MARKED: Accepts = Accepts {
    marked: true,
    ..PLAIN
};

pub(super) fn implementation(name: &str) -> Option<Implementation> {
    let simple = Implementation::simple;
    let reading = |run: fn(&Arguments) -> Result<Value, FunctionError>| Implementation {
        parameters: &[MARKED],
        variadic: PLAIN,
        result_type: None,
        run,
    };
    Some(match name {
        "basename" => simple(|args| {
            Ok(Value::string(base_name(&super::implementation::text(
                args, 0,
            ))))
        }),
        "dirname" => simple(|args| {
            Ok(Value::string(dir_name(&super::implementation::text(
                args, 0,
            ))))
        }),
        "abspath" => simple(|args| {
            let path = super::implementation::text(args, 0);
            if path.starts_with('/') {
                return Ok(Value::string(path_clean(&path)));
            }
            match args.environment.working_directory() {
                Some(directory) => Ok(Value::string(path_clean(&format!("{directory}/{path}")))),
                None => Ok(Value::unknown(Type::String)),
            }
        }),
        // go-homedir's `Expand`.
        "pathexpand" => simple(|args| {
            let path = super::implementation::text(args, 0);
            let Some(rest) = path.strip_prefix('~') else {
                return Ok(Value::string(path));
            };
            if !rest.is_empty() && !rest.starts_with(['/', '\\']) {
                return Err(FunctionError::call("cannot expand user-specific home dir"));
            }
            match args.environment.home_directory() {
                Some(home) => Ok(Value::string(path_clean(&format!("{home}/{rest}")))),
                None => Ok(Value::unknown(Type::String)),
            }
        }),
        "file" => reading(|args| {
            let (path, marks) = args.get(0).unmark();
            match file_text(args.environment, path.as_str().unwrap_or_default(), marks)? {
                Some(text) => Ok(Value::string(text).with_marks(marks)),
                None => Ok(Value::unknown(Type::String)),
            }
        }),
        "fileset" => Implementation {
            parameters: &[MARKED, MARKED],
            variadic: PLAIN,
            result_type: None,
            run: |args| {
                let (path, path_marks) = args.get(0).unmark();
                let (pattern, pattern_marks) = args.get(1).unmark();
                let marks = path_marks.union(pattern_marks);
                let files = super::glob::fileset(
                    args.environment,
                    path.as_str().unwrap_or_default(),
                    pattern.as_str().unwrap_or_default(),
                    marks,
                )?;
                let element = Type::String;
                Ok(match files {
                    Some(files) => {
                        Value::set(element, files.into_iter().map(Value::string).collect())
                    }
                    None => Value::unknown(Type::set(element)),
                }
                .with_marks(marks))
            },
        },
        "filebase64" => reading(|args| {
            with_file(args, |bytes, marks| {
                Ok(Value::string(base64_encode(&bytes)).with_marks(marks))
            })
        }),
        "filemd5" => reading(|args| {
            with_digest(args, |bytes| {
                use md5::Digest;
                hex_of(&md5::Md5::digest(bytes))
            })
        }),
        "filesha1" => reading(|args| {
            with_digest(args, |bytes| {
                use sha1::Digest;
                hex_of(&sha1::Sha1::digest(bytes))
            })
        }),
        "filesha256" => reading(|args| {
            with_digest(args, |bytes| {
                use sha2::Digest;
                hex_of(&sha2::Sha256::digest(bytes))
            })
        }),
        "filesha512" => reading(|args| {
            with_digest(args, |bytes| {
                use sha2::Digest;
                hex_of(&sha2::Sha512::digest(bytes))
            })
        }),
        "filebase64sha256" => reading(|args| {
            with_digest(args, |bytes| {
                use sha2::Digest;
                Value::string(base64_encode(&sha2::Sha256::digest(bytes)))
            })
        }),
        "filebase64sha512" => reading(|args| {
            with_digest(args, |bytes| {
                use sha2::Digest;
                Value::string(base64_encode(&sha2::Sha512::digest(bytes)))
            })
        }),
        "fileexists" => reading(|args| {
            let (path_value, marks) = args.get(0).unmark();
            let path = path_clean(path_value.as_str().unwrap_or_default());
            match args.environment.file_exists(&path) {
                Ok(exists) => Ok(Value::bool(exists).with_marks(marks)),
                Err(FileError::Unavailable) => Ok(Value::unknown(Type::Bool)),
                Err(FileError::IsDirectory) => Err(FunctionError::argument(
                    // OpenTofu's index 1 of a one-parameter function: the
                    // message is about the call.
                    1,
                    format!(
                        "{} is a directory, not a file",
                        super::implementation::redacted(&path, marks)
                    ),
                )),
                Err(FileError::NotFound) => Ok(Value::bool(false).with_marks(marks)),
                Err(FileError::Other(message)) => Err(FunctionError::call(message)),
            }
        }),
        _ => return None,
    })
}

/// OpenTofu's `File`: the text of the file at `path` (its marks say how
/// messages show it), `None` when the environment cannot read files, or
/// the error about the `path` argument (or the call, for a file that is
/// not UTF-8). `templatefile` reads its template through it too.
pub(crate) fn file_text(
    environment: &dyn Environment,
    path: &str,
    marks: Marks,
) -> Result<Option<String>, FunctionError> {
    let Some(bytes) = file_bytes(environment, path, marks)? else {
        return Ok(None);
    };
    String::from_utf8(bytes).map(Some).map_err(|_| {
        FunctionError::call(format!(
            "contents of {} are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead",
            super::implementation::redacted(path, marks)
        ))
    })
}

/// The bytes of the file at `path`, `None` when the environment cannot
/// read files (or the path starts with `~`, which needs the home
/// directory), or the error about the `path` argument.
fn file_bytes(
    environment: &dyn Environment,
    path: &str,
    marks: Marks,
) -> Result<Option<Vec<u8>>, FunctionError> {
    if path.starts_with('~') {
        return Ok(None);
    }
    let resolved = path_clean(path);
    match environment.read_file(&resolved) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(FileError::Unavailable) => Ok(None),
        Err(FileError::NotFound) => Err(FunctionError::argument(
            0,
            format!(
                "no file exists at {}; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource",
                super::implementation::redacted(path, marks)
            ),
        )),
        Err(FileError::IsDirectory) => Err(FunctionError::argument(
            0,
            format!("failed to read file: read {resolved}: is a directory"),
        )),
        Err(FileError::Other(message)) => Err(FunctionError::argument(0, message)),
    }
}

/// Reads the file the first argument names and hands its bytes on; an
/// environment without files gives an unknown string.
fn with_file(
    args: &Arguments,
    then: impl FnOnce(Vec<u8>, Marks) -> Result<Value, FunctionError>,
) -> Result<Value, FunctionError> {
    let (path, marks) = args.get(0).unmark();
    match file_bytes(args.environment, path.as_str().unwrap_or_default(), marks)? {
        Some(bytes) => then(bytes, marks),
        None => Ok(Value::unknown(Type::String)),
    }
}

/// The file hashes open the file themselves: their errors are Go's
/// `os.Open` and `io.Copy` errors, about the whole call.
fn with_digest(args: &Arguments, digest: fn(&[u8]) -> Value) -> Result<Value, FunctionError> {
    let (path_value, marks) = args.get(0).unmark();
    let path = path_value.as_str().unwrap_or_default().to_owned();
    if path.starts_with('~') {
        return Ok(Value::unknown(Type::String));
    }
    let resolved = path_clean(&path);
    match args.environment.read_file(&resolved) {
        Ok(bytes) => Ok(digest(&bytes).with_marks(marks)),
        Err(FileError::Unavailable) => Ok(Value::unknown(Type::String)),
        Err(FileError::NotFound) => Err(FunctionError::call(format!(
            "open {resolved}: no such file or directory"
        ))),
        Err(FileError::IsDirectory) => Err(FunctionError::call(format!(
            "read {resolved}: is a directory"
        ))),
        Err(FileError::Other(message)) => Err(FunctionError::call(message)),
    }
}

/// Go's `filepath.Base` on Unix.
fn base_name(path: &str) -> String {
    if path.is_empty() {
        return ".".to_owned();
    }
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return "/".to_owned();
    }
    trimmed.rsplit('/').next().unwrap_or(trimmed).to_owned()
}

/// Go's `filepath.Dir` on Unix.
fn dir_name(path: &str) -> String {
    let directory = match path.rfind('/') {
        Some(at) => path.get(..=at).unwrap_or_default(),
        None => "",
    };
    path_clean(directory)
}
