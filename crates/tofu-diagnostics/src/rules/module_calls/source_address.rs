//! Module source addresses as OpenTofu 1.12 reads a known `source` string
//! (`diagnostics.md` §4.8, §4.10): a local path, a module registry address,
//! or a remote address that go-getter's detectors claim.
//!
//! [`classify_source`] follows `addrs.ParseModuleSource` (no `version`) and
//! [`parse_registry`] follows `addrs.ParseModuleSourceRegistry` (with a
//! `version`), with the registry rules of `opentofu/registry-address` v2 and
//! the detector list of OpenTofu's `internal/getmodules` (GitHub, Git over
//! SSH, BitBucket, GCS, S3, then the file detector that refuses relative
//! paths).
//!
//! Deliberately left out: whatever cannot be judged from the string alone or
//! would need IDNA tables. Hostnames with non-ASCII characters, signed ports
//! and a trailing dot are [`RegistryVerdict::Unknown`]; forced getters
//! (`git::…`), URLs with a scheme, BitBucket (which asks the network), GCS,
//! S3 and absolute paths count as claimed even where go-getter would still
//! fail later. Strings with control characters are never judged. Every
//! uncertain case ends in a verdict the caller does not report.

use tofu_syntax::go_text::path_clean;

use tofu_module::module_source::is_local_source as is_local;
use tofu_syntax::go_text::go_quote;

/// What OpenTofu makes of a source string when the call sets no `version`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SourceVerdict {
    /// A local path, a registry address, or an address a detector claims.
    Accepted,
    /// No detector claims it and it is not absolute: go-getter's file detector
    /// refuses it (`MaybeRelativePathErr`). `package` is the address without
    /// its `//subdir` part, as OpenTofu's message quotes it.
    RelativePath { package: String },
    /// Another error OpenTofu reports while parsing ("Failed to parse module
    /// source address: REASON.").
    Invalid { reason: String },
    /// tofu-lens cannot tell; nothing is reported.
    Unknown,
}

/// What `ParseModuleSourceRegistry` makes of a source string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RegistryVerdict {
    Valid,
    /// Not a registry address; the reason is OpenTofu's wording.
    Invalid(String),
    /// The hostname cannot be judged without OpenTofu's IDNA rules.
    Unknown,
}

/// `addrs.ParseModuleSource`: local, registry, then remote detection.
pub(crate) fn classify_source(source: &str) -> SourceVerdict {
    if source.chars().any(char::is_control) {
        return SourceVerdict::Unknown;
    }
    if is_local(source) {
        return SourceVerdict::Accepted;
    }
    match parse_registry(source) {
        RegistryVerdict::Valid => SourceVerdict::Accepted,
        RegistryVerdict::Unknown => SourceVerdict::Unknown,
        RegistryVerdict::Invalid(_) => classify_remote(source),
    }
}

/// `addrs.ParseModuleSourceRegistry`, with `regaddr.ParseModuleSource`.
pub(crate) fn parse_registry(source: &str) -> RegistryVerdict {
    if source.chars().any(char::is_control) {
        return RegistryVerdict::Unknown;
    }
    if is_local(source) {
        return RegistryVerdict::Invalid(format!(
            "can't use local directory {} as a module registry address",
            go_quote(source)
        ));
    }
    let (package, subdir) = split_package_subdir(source);
    if let Some(reason) = subdir_leaves_package(&subdir) {
        return RegistryVerdict::Invalid(reason);
    }
    let parts: Vec<&str> = package.split('/').collect();
    let (host, rest) = match parts.as_slice() {
        [namespace, name, system] => (None, [*namespace, *name, *system]),
        [host, namespace, name, system] => (Some(*host), [*namespace, *name, *system]),
        _ => {
            return RegistryVerdict::Invalid(
                "a module registry source address must have either three or four slash-separated components"
                    .to_owned(),
            )
        }
    };
    if let Some(host) = host {
        let normalized = match normalize_hostname(host) {
            Hostname::Valid(normalized) => normalized,
            Hostname::Unknown => return RegistryVerdict::Unknown,
            Hostname::Invalid if host.contains("--") => {
                return RegistryVerdict::Invalid(format!(
                    "invalid module registry hostname {}; internationalized domain names must be given as direct unicode characters, not in punycode",
                    go_quote(host)
                ))
            }
            Hostname::Invalid => {
                return RegistryVerdict::Invalid(format!(
                    "invalid module registry hostname {}",
                    go_quote(host)
                ))
            }
        };
        if !normalized.contains('.') {
            return RegistryVerdict::Invalid(
                "invalid module registry hostname: must contain at least one dot".to_owned(),
            );
        }
        if normalized == "github.com" || normalized == "bitbucket.org" {
            return RegistryVerdict::Invalid(format!(
                "can't use {} as a module registry host, because it's reserved for installing directly from version control repositories",
                go_quote(&normalized)
            ));
        }
    }
    let [namespace, name, system] = rest;
    const NAME_RULE: &str = "must be between one and 64 characters, including ASCII letters, digits, dashes, and underscores, where dashes and underscores may not be the prefix or suffix";
    if !is_registry_name(namespace) {
        if namespace.contains('.') {
            return RegistryVerdict::Invalid("source address must have three more components after the hostname: the namespace, the name, and the target system".to_owned());
        }
        return RegistryVerdict::Invalid(format!(
            "invalid namespace {}: {NAME_RULE}",
            go_quote(namespace)
        ));
    }
    if !is_registry_name(name) {
        return RegistryVerdict::Invalid(format!(
            "invalid module name {}: {NAME_RULE}",
            go_quote(name)
        ));
    }
    let valid_system = (1..=64).contains(&system.len())
        && system
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    if !valid_system {
        if system.contains('?') {
            return RegistryVerdict::Invalid(
                "module registry addresses may not include a query string portion".to_owned(),
            );
        }
        return RegistryVerdict::Invalid(format!(
            "invalid target system {}: must be between one and 64 ASCII letters or digits",
            go_quote(system)
        ));
    }
    RegistryVerdict::Valid
}

/// `parseModuleSourceRemote` and go-getter's `Detect` with OpenTofu's
/// detectors, for a string that is neither local nor a registry address.
fn classify_remote(source: &str) -> SourceVerdict {
    let (package, subdir) = split_package_subdir(source);
    if let Some(reason) = subdir_leaves_package(&subdir) {
        return SourceVerdict::Invalid { reason };
    }
    if has_forced_getter(&package) {
        // `git::…`, `s3::…`: claimed. (go-getter still runs the detectors on
        // what follows `::`, so `git::stage` would fail too; rare enough to
        // stay silent, as the spec asks.)
        return SourceVerdict::Accepted;
    }
    let (address, _) = source_dir_subdir(&package);
    if has_url_scheme(&address) {
        return SourceVerdict::Accepted;
    }
    // GitHub, wrapped so that a query string does not count.
    let without_query = address.split('?').next().unwrap_or_default();
    if without_query.starts_with("github.com/") {
        if without_query.split('/').count() < 3 {
            return SourceVerdict::Invalid {
                reason: "GitHub URLs should be github.com/username/repo".to_owned(),
            };
        }
        return SourceVerdict::Accepted;
    }
    if ssh_user(&address) == Some("git") {
        return SourceVerdict::Accepted;
    }
    if address.starts_with("bitbucket.org/")
        || address.contains(".googleapis.com/")
        || address.contains(".amazonaws.com/")
    {
        // BitBucket asks the network; GCS and S3 may still refuse the URL.
        return SourceVerdict::Accepted;
    }
    if address.is_empty() {
        return SourceVerdict::Invalid {
            reason: format!("invalid source string: {package}"),
        };
    }
    if address.starts_with('/') {
        return SourceVerdict::Accepted;
    }
    if address.starts_with('\\') {
        // Absolute on Windows only.
        return SourceVerdict::Unknown;
    }
    SourceVerdict::RelativePath { package: address }
}

/// The reason a `//subdir` part makes the address invalid: it leads outside
/// of the package once cleaned.
fn subdir_leaves_package(subdir: &str) -> Option<String> {
    subdir.starts_with("../").then(|| {
        format!(
            "subdirectory path {} leads outside of the module package",
            go_quote(subdir)
        )
    })
}

/// `SplitPackageSubdir`: the package address and its cleaned `//subdir` part.
fn split_package_subdir(source: &str) -> (String, String) {
    let (package, subdir) = source_dir_subdir(source);
    if subdir.is_empty() {
        (package, subdir)
    } else {
        (package, path_clean(&subdir))
    }
}

/// go-getter's `SourceDirSubdir`: splits `ADDRESS//SUBDIR` (looking past a
/// `scheme://`), keeping a query string on the address.
fn source_dir_subdir(source: &str) -> (String, String) {
    let stop = source.find('?').unwrap_or(source.len());
    let before_query = source.get(..stop).unwrap_or_default();
    let offset = before_query.find("://").map_or(0, |at| at + 3);
    let Some(found) = before_query.get(offset..).and_then(|rest| rest.find("//")) else {
        return (source.to_owned(), String::new());
    };
    let at = offset + found;
    let mut package = source.get(..at).unwrap_or_default().to_owned();
    let mut subdir = source.get(at + 2..).unwrap_or_default().to_owned();
    if let Some(query_at) = subdir.find('?') {
        let query = subdir.split_off(query_at);
        package.push_str(&query);
    }
    (package, subdir)
}

/// go-getter's forced getter syntax `^[A-Za-z0-9]+::(.+)$`.
fn has_forced_getter(address: &str) -> bool {
    address.split_once("::").is_some_and(|(getter, rest)| {
        !getter.is_empty() && getter.bytes().all(|b| b.is_ascii_alphanumeric()) && !rest.is_empty()
    })
}

/// Whether Go's `url.Parse` finds a scheme: `^[A-Za-z][A-Za-z0-9+.-]*:`.
fn has_url_scheme(address: &str) -> bool {
    let mut bytes = address.bytes();
    if !bytes.next().is_some_and(|b| b.is_ascii_alphabetic()) {
        return false;
    }
    for b in bytes {
        match b {
            b':' => return true,
            b'+' | b'-' | b'.' => {}
            _ if b.is_ascii_alphanumeric() => {}
            _ => return false,
        }
    }
    false
}

/// The user of an scp-like address as go-getter's SSH pattern
/// `^(?:([^@]+)@)?([^:]+):/?(.+)$` reads it (`""` without a user), or `None`
/// when the pattern does not match.
fn ssh_user(address: &str) -> Option<&str> {
    fn host_and_path(rest: &str) -> bool {
        rest.split_once(':')
            .is_some_and(|(host, path)| !host.is_empty() && !path.is_empty())
    }
    if let Some((user, rest)) = address.split_once('@') {
        if !user.is_empty() && host_and_path(rest) {
            return Some(user);
        }
    }
    host_and_path(address).then_some("")
}

/// `^[0-9A-Za-z](?:[0-9A-Za-z-_]{0,62}[0-9A-Za-z])?$`
fn is_registry_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    let (Some(first), Some(last)) = (bytes.first(), bytes.last()) else {
        return false;
    };
    bytes.len() <= 64
        && first.is_ascii_alphanumeric()
        && last.is_ascii_alphanumeric()
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'-' || *b == b'_')
}

enum Hostname {
    /// The form OpenTofu compares (lowercase, port `443` dropped).
    Valid(String),
    Invalid,
    Unknown,
}

/// `svchost.ForComparison` for ASCII hostnames: `idna.Lookup` with STD3 rules
/// and hyphen checks, plus an optional port up to 65535.
fn normalize_hostname(given: &str) -> Hostname {
    let (name, port) = match given.split_once(':') {
        Some((name, port)) => (name, Some(port)),
        None => (given, None),
    };
    let port_suffix = match port {
        None => String::new(),
        Some(port) if port.starts_with(['+', '-']) => return Hostname::Unknown,
        Some(port) if port.is_empty() || !port.bytes().all(|b| b.is_ascii_digit()) => {
            return Hostname::Invalid
        }
        Some(port) => match port.parse::<u32>() {
            Ok(443) => String::new(),
            Ok(number) if number <= 65535 => format!(":{number}"),
            _ => return Hostname::Invalid,
        },
    };
    if name.is_empty() {
        return Hostname::Invalid;
    }
    if !name.is_ascii() || name.ends_with('.') {
        return Hostname::Unknown;
    }
    for label in name.split('.') {
        let lowercase = label.to_ascii_lowercase();
        if label.starts_with("xn--") {
            return Hostname::Invalid;
        }
        if lowercase.starts_with("xn--") {
            return Hostname::Unknown;
        }
        let valid = !label.is_empty()
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label.get(2..4) != Some("--");
        if !valid {
            return Hostname::Invalid;
        }
    }
    Hostname::Valid(format!("{}{port_suffix}", name.to_ascii_lowercase()))
}

#[cfg(test)]
mod tests;
