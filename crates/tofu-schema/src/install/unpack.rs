//! Unpacking a packed provider package (a `.zip` from a filesystem mirror)
//! into a directory, so it can run: the zip's central directory, its
//! stored and deflated entries, and their Unix permissions.
//!
//! Called only after the archive matched a `zh:` hash of the lock file,
//! so integrity comes from that hash (entries' CRCs are not checked
//! again). Entry names that would leave the directory (absolute, `..`,
//! backslashes) are refused, and so is more than 1 GiB unpacked. Zip64,
//! encryption and methods other than stored and deflate are refused: no
//! provider release uses them. The directory is written beside its final
//! name and renamed into place, so a half-unpacked package is never seen.

use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Component, Path};

/// The most an archive may unpack to.
const MAX_UNPACKED: u64 = 1024 * 1024 * 1024;

const END_OF_CENTRAL_DIRECTORY: u32 = 0x0605_4b50;
const CENTRAL_DIRECTORY_HEADER: u32 = 0x0201_4b50;
const LOCAL_FILE_HEADER: u32 = 0x0403_4b50;

/// Each unpacking's own staging directory, within this process.
static UNPACKING: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Unpacks `archive` into `destination` (which must not exist yet; its
/// parent is created). Two threads or processes unpacking the same
/// package each write a staging directory of their own; the first rename
/// wins, and the other finds the package in place, which is success.
pub fn unpack_zip(archive: &Path, destination: &Path) -> io::Result<()> {
    let bytes = fs::read(archive)?;
    let parent = destination
        .parent()
        .ok_or_else(|| invalid("the destination has no parent directory"))?;
    fs::create_dir_all(parent)?;
    let mut staging_name = destination.file_name().unwrap_or_default().to_os_string();
    let n = UNPACKING.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    staging_name.push(format!(".{}-{n}.unpacking", std::process::id()));
    let staging = destination.with_file_name(staging_name);
    let _ = fs::remove_dir_all(&staging);
    fs::create_dir(&staging)?;
    let mut write = |entry: Entry<'_>| -> io::Result<()> {
        match entry {
            Entry::Dir(relative) => fs::create_dir_all(staging.join(relative)),
            Entry::File(relative, content, mode) => {
                let target = staging.join(relative);
                if let Some(dir) = target.parent() {
                    fs::create_dir_all(dir)?;
                }
                fs::write(&target, content)?;
                let mode = if mode & 0o111 != 0 { 0o755 } else { 0o644 };
                fs::set_permissions(&target, fs::Permissions::from_mode(mode))
            }
        }
    };
    let unpacked = visit_entries(&bytes, &mut write).and_then(|()| {
        match fs::rename(&staging, destination) {
            // Another unpacking of the same package put it in place first.
            Err(_) if destination.is_dir() => {
                let _ = fs::remove_dir_all(&staging);
                Ok(())
            }
            renamed => renamed,
        }
    });
    if unpacked.is_err() {
        let _ = fs::remove_dir_all(&staging);
    }
    unpacked
}

/// Checks, without writing anything, that the zip archive `bytes` would
/// unpack: every entry inflates to its size, stays inside the directory,
/// and all of them together stay within the limit. A fetched package is
/// checked so before it is kept (`tofu-fetch`).
pub fn check_zip(bytes: &[u8]) -> io::Result<()> {
    visit_entries(bytes, &mut |_| Ok(()))
}

/// One entry of an archive, its path relative to the package directory.
pub(crate) enum Entry<'a> {
    Dir(&'a Path),
    /// Its content, inflated, and its Unix mode.
    File(&'a Path, Vec<u8>, u32),
}

/// Reads each entry of the zip archive `bytes` in order, checked as
/// [`unpack_zip`] checks them, and gives it to `visit`.
pub(crate) fn visit_entries(
    bytes: &[u8],
    visit: &mut dyn FnMut(Entry<'_>) -> io::Result<()>,
) -> io::Result<()> {
    let end = find_end_of_central_directory(bytes)?;
    let entry_count = usize::from(read_u16(bytes, end + 10)?);
    let mut offset = usize::try_from(read_u32(bytes, end + 16)?).map_err(|_| invalid("offset"))?;
    let mut total: u64 = 0;
    for _ in 0..entry_count {
        if read_u32(bytes, offset)? != CENTRAL_DIRECTORY_HEADER {
            return Err(invalid("a central directory entry without its signature"));
        }
        let flags = read_u16(bytes, offset + 8)?;
        let method = read_u16(bytes, offset + 10)?;
        let compressed_size = to_usize(read_u32(bytes, offset + 20)?)?;
        let size = read_u32(bytes, offset + 24)?;
        let name_length = usize::from(read_u16(bytes, offset + 28)?);
        let extra_length = usize::from(read_u16(bytes, offset + 30)?);
        let comment_length = usize::from(read_u16(bytes, offset + 32)?);
        let external_attributes = read_u32(bytes, offset + 38)?;
        let local_offset = to_usize(read_u32(bytes, offset + 42)?)?;
        let name = slice(bytes, offset + 46, name_length)?;
        let name =
            std::str::from_utf8(name).map_err(|_| invalid("an entry name that is not UTF-8"))?;
        offset += 46 + name_length + extra_length + comment_length;
        if flags & 1 != 0 {
            return Err(invalid("an encrypted entry"));
        }
        let relative = safe_relative_path(name)?;
        if name.ends_with('/') {
            visit(Entry::Dir(relative))?;
            continue;
        }
        total += u64::from(size);
        if total > MAX_UNPACKED {
            return Err(invalid("an archive that unpacks to more than 1 GiB"));
        }
        if read_u32(bytes, local_offset)? != LOCAL_FILE_HEADER {
            return Err(invalid("an entry without its local header"));
        }
        let local_name_length = usize::from(read_u16(bytes, local_offset + 26)?);
        let local_extra_length = usize::from(read_u16(bytes, local_offset + 28)?);
        let data = slice(
            bytes,
            local_offset + 30 + local_name_length + local_extra_length,
            compressed_size,
        )?;
        let content = match method {
            0 => data.to_vec(),
            8 => miniz_oxide::inflate::decompress_to_vec_with_limit(data, to_usize(size)?)
                .map_err(|_| invalid("an entry that does not inflate"))?,
            _ => {
                return Err(invalid(
                    "an entry compressed with a method other than deflate",
                ))
            }
        };
        if content.len() != to_usize(size)? {
            return Err(invalid("an entry whose size differs from its header"));
        }
        visit(Entry::File(
            relative,
            content,
            (external_attributes >> 16) & 0o777,
        ))?;
    }
    Ok(())
}

/// The end-of-central-directory record: searched backwards over at most
/// the longest comment a zip may have.
fn find_end_of_central_directory(bytes: &[u8]) -> io::Result<usize> {
    let last = bytes
        .len()
        .checked_sub(22)
        .ok_or_else(|| invalid("not a zip archive"))?;
    let first = last.saturating_sub(65_535);
    (first..=last)
        .rev()
        .find(|&offset| read_u32(bytes, offset).ok() == Some(END_OF_CENTRAL_DIRECTORY))
        .ok_or_else(|| invalid("not a zip archive (no central directory)"))
}

/// An entry name as a relative path that stays inside the directory.
fn safe_relative_path(name: &str) -> io::Result<&Path> {
    let path = Path::new(name.trim_end_matches('/'));
    let inside = !name.contains('\\')
        && !name.is_empty()
        && path
            .components()
            .all(|component| matches!(component, Component::Normal(_)));
    if inside {
        Ok(path)
    } else {
        Err(invalid("an entry name that leaves the package directory"))
    }
}

fn slice(bytes: &[u8], offset: usize, length: usize) -> io::Result<&[u8]> {
    offset
        .checked_add(length)
        .and_then(|end| bytes.get(offset..end))
        .ok_or_else(|| invalid("a truncated archive"))
}

fn read_u16(bytes: &[u8], offset: usize) -> io::Result<u16> {
    let pair = slice(bytes, offset, 2)?;
    Ok(u16::from_le_bytes([
        pair.first().copied().unwrap_or(0),
        pair.get(1).copied().unwrap_or(0),
    ]))
}

fn read_u32(bytes: &[u8], offset: usize) -> io::Result<u32> {
    let four: [u8; 4] = slice(bytes, offset, 4)?
        .try_into()
        .map_err(|_| invalid("a truncated archive"))?;
    Ok(u32::from_le_bytes(four))
}

fn to_usize(value: u32) -> io::Result<usize> {
    usize::try_from(value).map_err(|_| invalid("a size too large"))
}

fn invalid(message: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message.to_owned())
}

#[cfg(test)]
pub(crate) mod test_zip;
#[cfg(test)]
mod tests;
