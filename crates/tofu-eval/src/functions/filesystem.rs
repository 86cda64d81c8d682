//! The filesystem functions. Paths as strings (`basename`, `dirname`, as
//! Go's `filepath` on Unix), and files read through the caller's
//! [`Environment`](super::Environment): `file`, `filebase64`, `fileexists`
//! and the file hashes. When the environment cannot read files, results
//! are unknown.
//!
//! Left out (unknown results): `fileset`, and rendering `templatefile`'s
//! template (which needs the template evaluator): it reports only a
//! template it cannot read. `abspath` and `pathexpand` ask the
//! environment for the working and home directories (unknown without).

use super::encoding::base64_encode;
use super::hash::hex_of;
use super::{Accepts, Arguments, FileError, FunctionError, Implementation, PLAIN};
use crate::go_text::{go_quote, path_clean};
use crate::types::Type;
use crate::value::{Marks, Value};

const MARKED: Accepts = Accepts {
    marked: true,
    ..PLAIN
};

/// `templatefile`'s variables: any type, known and not null.
const TEMPLATE_VARS: Accepts = Accepts {
    dynamic: true,
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
        "basename" => simple(|args| Ok(Value::string(base_name(&super::text(args, 0))))),
        "dirname" => simple(|args| Ok(Value::string(dir_name(&super::text(args, 0))))),
        "abspath" => simple(|args| {
            let path = super::text(args, 0);
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
            let path = super::text(args, 0);
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
        // Only whether the template can be read, as OpenTofu reads it
        // (`file`'s errors); it is not rendered, so the result is unknown.
        "templatefile" => Implementation {
            parameters: &[MARKED, TEMPLATE_VARS],
            variadic: PLAIN,
            result_type: None,
            run: |args| {
                with_file(args, |_, _, _| Ok(Value::dynamic_unknown()))
                    .map(|_| Value::dynamic_unknown())
            },
        },
        "file" => reading(|args| {
            with_file(args, |bytes, path, marks| {
                match String::from_utf8(bytes) {
                Ok(text) => Ok(Value::string(text).with_marks(marks)),
                Err(_) => Err(FunctionError::call(format!(
                    "contents of {} are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead",
                    shown(path, marks)
                ))),
            }
            })
        }),
        "filebase64" => reading(|args| {
            with_file(args, |bytes, _, marks| {
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
            let path = path_value.as_str().unwrap_or_default().to_owned();
            match args.environment.file_exists(&path_clean(&path)) {
                Ok(exists) => Ok(Value::bool(exists).with_marks(marks)),
                Err(FileError::Unavailable) => Ok(Value::unknown(Type::Bool)),
                Err(FileError::IsDirectory) => Err(FunctionError::argument(
                    1,
                    format!("{path} is a directory, not a file"),
                )),
                Err(FileError::NotFound) => Ok(Value::bool(false).with_marks(marks)),
                Err(FileError::Other(message)) => Err(FunctionError::call(message)),
            }
        }),
        _ => return None,
    })
}

fn shown(path: &str, marks: Marks) -> String {
    match (marks.ephemeral, marks.sensitive) {
        (true, true) => "(ephemeral sensitive value)".to_owned(),
        (true, false) => "(ephemeral value)".to_owned(),
        (false, true) => "(sensitive value)".to_owned(),
        (false, false) => go_quote(path),
    }
}

/// Reads the file the first argument names and hands its bytes on; an
/// environment without files gives an unknown string.
fn with_file(
    args: &Arguments,
    then: impl FnOnce(Vec<u8>, &str, Marks) -> Result<Value, FunctionError>,
) -> Result<Value, FunctionError> {
    let (path_value, marks) = args.get(0).unmark();
    let path = path_value.as_str().unwrap_or_default().to_owned();
    if path.starts_with('~') {
        return Ok(Value::unknown(Type::String));
    }
    let resolved = path_clean(&path);
    match args.environment.read_file(&resolved) {
        Ok(bytes) => then(bytes, &path, marks),
        Err(FileError::Unavailable) => Ok(Value::unknown(Type::String)),
        Err(FileError::NotFound) => Err(FunctionError::argument(
            0,
            format!(
                "no file exists at {}; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource",
                shown(&path, marks)
            ),
        )),
        Err(FileError::IsDirectory) => Err(FunctionError::argument(
            0,
            format!("failed to read file: read {resolved}: is a directory"),
        )),
        Err(FileError::Other(message)) => Err(FunctionError::argument(0, message)),
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
