//! A zip writer for tests: archives laid out the way Go's archive/zip
//! writes provider packages (sizes in the central directory, a data
//! descriptor flag on streamed entries, Unix modes), CRCs left zero.

use super::{CENTRAL_DIRECTORY_HEADER, END_OF_CENTRAL_DIRECTORY, LOCAL_FILE_HEADER};

pub struct Entry<'a> {
    pub name: &'a str,
    pub content: &'a [u8],
    pub mode: u32,
    pub deflate: bool,
}

/// A zip archive of `entries` (CRCs left zero: the reader does not check them).
pub fn zip(entries: &[Entry<'_>]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for entry in entries {
        let data = if entry.deflate {
            miniz_oxide::deflate::compress_to_vec(entry.content, 6)
        } else {
            entry.content.to_vec()
        };
        let method: u16 = if entry.deflate { 8 } else { 0 };
        let offset = u32::try_from(out.len()).unwrap();
        let (compressed, size) = (
            u32::try_from(data.len()).unwrap(),
            u32::try_from(entry.content.len()).unwrap(),
        );
        let name_length = u16::try_from(entry.name.len()).unwrap();
        // Local header, sizes zero and flag 8 as a streaming writer leaves them.
        out.extend(LOCAL_FILE_HEADER.to_le_bytes());
        out.extend([20, 0, 8, 0]);
        out.extend(method.to_le_bytes());
        out.extend([0; 4 + 4 + 4 + 4]);
        out.extend(name_length.to_le_bytes());
        out.extend([0, 0]);
        out.extend(entry.name.as_bytes());
        out.extend(&data);
        central.extend(CENTRAL_DIRECTORY_HEADER.to_le_bytes());
        central.extend([0x1e, 0x03, 20, 0, 8, 0]);
        central.extend(method.to_le_bytes());
        central.extend([0; 4 + 4]);
        central.extend(compressed.to_le_bytes());
        central.extend(size.to_le_bytes());
        central.extend(name_length.to_le_bytes());
        central.extend([0; 2 + 2 + 2 + 2]);
        central.extend((entry.mode << 16).to_le_bytes());
        central.extend(offset.to_le_bytes());
        central.extend(entry.name.as_bytes());
    }
    let central_offset = u32::try_from(out.len()).unwrap();
    let central_size = u32::try_from(central.len()).unwrap();
    out.extend(central);
    out.extend(END_OF_CENTRAL_DIRECTORY.to_le_bytes());
    out.extend([0; 4]);
    let count = u16::try_from(entries.len()).unwrap();
    out.extend(count.to_le_bytes());
    out.extend(count.to_le_bytes());
    out.extend(central_size.to_le_bytes());
    out.extend(central_offset.to_le_bytes());
    out.extend([0, 0]);
    out
}
