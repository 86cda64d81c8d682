//! The hashes OpenTofu records for provider packages in
//! `.terraform.lock.hcl`, computed as `tofu init` computes them:
//! `h1:` is Go's `dirhash.Hash1` over an unpacked package directory (each
//! file's SHA-256 and slash-separated relative path, one line each in
//! sorted path order, hashed again and written in base64), `zh:` the
//! SHA-256 of a packed `.zip`, in hex.
//!
//! `h1:` of a packed archive is its files' as they unpack
//! ([`package_hash_v1_zip`], what `tofu init` records for a package it
//! downloaded); reading installed packages checks a packed one by `zh:`
//! only. Symbolic links are followed
//! for the package directory itself (as `tofu init` links it in from a
//! cache) and for files inside, as Go's walk and open do; a directory
//! reached through a link inside the package is an error, as in Go.

use std::fmt::Write as _;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// `h1:` of the unpacked package in `package_dir`.
pub fn package_hash_v1(package_dir: &Path) -> io::Result<String> {
    let package_dir = fs::canonicalize(package_dir)?;
    let mut files = Vec::new();
    collect_files(&package_dir, "", &mut files)?;
    files.sort_by(|(left, _), (right, _)| left.cmp(right));
    let mut summary = Sha256::new();
    for (relative, path) in &files {
        if relative.contains('\n') {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "a file name with a newline cannot be hashed",
            ));
        }
        let mut line = hex(&file_sha256(path)?);
        line.push_str("  ");
        line.push_str(relative);
        line.push('\n');
        summary.update(line.as_bytes());
    }
    Ok(format!("h1:{}", base64(&summary.finalize())))
}

/// `h1:` of the package the zip archive `bytes` unpacks to, without
/// unpacking it (its entries checked as `unpack_zip` checks them).
pub fn package_hash_v1_zip(bytes: &[u8]) -> io::Result<String> {
    let mut files: Vec<(String, [u8; 32])> = Vec::new();
    crate::install::unpack::visit_entries(bytes, &mut |entry| {
        if let crate::install::unpack::Entry::File(relative, content, _) = entry {
            let relative = relative.to_string_lossy().into_owned();
            if relative.contains('\n') {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "a file name with a newline cannot be hashed",
                ));
            }
            files.push((relative, Sha256::digest(&content).into()));
        }
        Ok(())
    })?;
    files.sort_by(|(left, _), (right, _)| left.cmp(right));
    let mut summary = Sha256::new();
    for (relative, sum) in &files {
        summary.update(format!("{}  {relative}\n", hex(sum)).as_bytes());
    }
    Ok(format!("h1:{}", base64(&summary.finalize())))
}

/// `zh:` of the packed package archive at `archive`.
pub fn package_hash_zip(archive: &Path) -> io::Result<String> {
    Ok(format!("zh:{}", hex(&file_sha256(archive)?)))
}

/// What the file system says about a package's files without reading
/// them: each file's relative path, size, modification time and inode, in
/// path order (a directory or an archive alike). Equal fingerprints mean
/// the files were not replaced or rewritten through the file system's
/// usual interfaces, which is what lets a cache remember a package's hash
/// instead of reading tens of megabytes again. Never used to decide
/// whether to run a package: that always hashes.
pub fn package_fingerprint(package: &Path) -> io::Result<String> {
    use std::os::unix::fs::MetadataExt;
    let package = fs::canonicalize(package)?;
    let mut files = Vec::new();
    if fs::metadata(&package)?.is_dir() {
        collect_files(&package, "", &mut files)?;
    } else {
        files.push((String::new(), package.clone()));
    }
    files.sort_by(|(left, _), (right, _)| left.cmp(right));
    let mut fingerprint = format!("{}\n", package.display());
    for (relative, path) in files {
        let metadata = fs::metadata(&path)?;
        let _ = writeln!(
            fingerprint,
            "{} {} {} {} {relative}",
            metadata.len(),
            metadata.mtime(),
            metadata.mtime_nsec(),
            metadata.ino()
        );
    }
    Ok(fingerprint)
}

/// Whether `hash` (`h1:…`, `zh:…`) is one this crate can compute for a
/// package of the given kind.
pub fn hash_scheme_applies(hash: &str, packed: bool) -> bool {
    if packed {
        hash.starts_with("zh:")
    } else {
        hash.starts_with("h1:")
    }
}

/// Every file under `dir`, with its path relative to the package root
/// (slash-separated), walking without following directory links.
fn collect_files(dir: &Path, prefix: &str, files: &mut Vec<(String, PathBuf)>) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let relative = if prefix.is_empty() {
            name.into_owned()
        } else {
            format!("{prefix}/{name}")
        };
        if entry.file_type()?.is_dir() {
            collect_files(&entry.path(), &relative, files)?;
        } else {
            files.push((relative, entry.path()));
        }
    }
    Ok(())
}

fn file_sha256(path: &Path) -> io::Result<[u8; 32]> {
    let mut file = fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 256 * 1024];
    loop {
        let count = file.read(&mut buffer)?;
        if count == 0 {
            break;
        }
        hasher.update(buffer.get(..count).unwrap_or_default());
    }
    Ok(hasher.finalize().into())
}

fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        let _ = write!(out, "{byte:02x}");
    }
    out
}

/// Standard base64 with padding (Go's `base64.StdEncoding`).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let symbol =
        |index: u32| char::from(ALPHABET.get((index & 63) as usize).copied().unwrap_or(b'='));
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let [first, second, third] =
            [0, 1, 2].map(|index| chunk.get(index).copied().map(u32::from));
        let group = first.unwrap_or(0) << 16 | second.unwrap_or(0) << 8 | third.unwrap_or(0);
        out.push(symbol(group >> 18));
        out.push(symbol(group >> 12));
        out.push(if second.is_some() {
            symbol(group >> 6)
        } else {
            '='
        });
        out.push(if third.is_some() { symbol(group) } else { '=' });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_standard_encoding() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    #[test]
    fn h1_is_go_dirhash_over_sorted_relative_paths() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("b.txt"), "bee\n").unwrap();
        fs::create_dir(dir.path().join("sub")).unwrap();
        fs::write(dir.path().join("sub/a.txt"), "").unwrap();
        // sha256("bee\n") and sha256(""), then the summary of the two lines
        // in path order, as `sha256sum` and `base64` compute them.
        let lines = "c150e5a8a604acebd8d15bd7bf8ea96b2874bdcc91dee6319977d353251283b0  b.txt\n\
                     e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  sub/a.txt\n";
        let expected = format!("h1:{}", base64(&Sha256::digest(lines.as_bytes())));
        assert_eq!(package_hash_v1(dir.path()).unwrap(), expected);
        assert!(hash_scheme_applies(&expected, false));
        assert!(!hash_scheme_applies(&expected, true));
    }

    #[test]
    fn a_fingerprint_changes_when_a_file_is_rewritten() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("terraform-provider-x");
        fs::write(&file, "one").unwrap();
        let before = package_fingerprint(dir.path()).unwrap();
        assert_eq!(package_fingerprint(dir.path()).unwrap(), before);
        fs::write(&file, "two!").unwrap();
        assert_ne!(package_fingerprint(dir.path()).unwrap(), before);
        assert!(package_fingerprint(&file).is_ok());
    }

    #[test]
    fn zh_is_the_archives_sha256() {
        let dir = tempfile::tempdir().unwrap();
        let archive = dir.path().join("p.zip");
        fs::write(&archive, "").unwrap();
        assert_eq!(
            package_hash_zip(&archive).unwrap(),
            "zh:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
