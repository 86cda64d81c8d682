//! Unpacking zips built here the way Go's archive/zip writes provider
//! packages (sizes in the central directory, a data descriptor flag on
//! streamed entries), and refusing the ones that would escape or lie.

use super::test_zip::{zip, Entry};
use super::*;

#[test]
fn stored_and_deflated_entries_unpack_with_their_modes() {
    let dir = tempfile::tempdir().unwrap();
    let executable = b"#!/bin/sh\necho provider\n".repeat(100);
    let archive = dir
        .path()
        .join("terraform-provider-x_1.0.0_linux_amd64.zip");
    fs::write(
        &archive,
        zip(&[
            Entry {
                name: "terraform-provider-x_v1.0.0",
                content: &executable,
                mode: 0o100755,
                deflate: true,
            },
            Entry {
                name: "docs/",
                content: b"",
                mode: 0o40755,
                deflate: false,
            },
            Entry {
                name: "docs/README.md",
                content: b"read me",
                mode: 0o100644,
                deflate: false,
            },
        ]),
    )
    .unwrap();
    let destination = dir.path().join("unpacked/linux_amd64");
    unpack_zip(&archive, &destination).unwrap();
    let unpacked = destination.join("terraform-provider-x_v1.0.0");
    assert_eq!(fs::read(&unpacked).unwrap(), executable);
    assert_eq!(
        fs::metadata(&unpacked).unwrap().permissions().mode() & 0o777,
        0o755
    );
    assert_eq!(
        fs::read(destination.join("docs/README.md")).unwrap(),
        b"read me"
    );
    assert_eq!(
        fs::metadata(destination.join("docs/README.md"))
            .unwrap()
            .permissions()
            .mode()
            & 0o777,
        0o644
    );
    let leftovers: Vec<_> = fs::read_dir(dir.path().join("unpacked")).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "no staging directory left");
}

#[test]
fn archives_that_escape_or_lie_are_refused_and_leave_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let cases: Vec<Vec<u8>> = vec![
        zip(&[Entry {
            name: "../outside",
            content: b"x",
            mode: 0o100644,
            deflate: false,
        }]),
        zip(&[Entry {
            name: "/etc/passwd",
            content: b"x",
            mode: 0o100644,
            deflate: false,
        }]),
        zip(&[Entry {
            name: "a\\..\\b",
            content: b"x",
            mode: 0o100644,
            deflate: false,
        }]),
        b"not a zip at all, just text that is long enough".to_vec(),
        zip(&[Entry {
            name: "a",
            content: b"x",
            mode: 0o100644,
            deflate: false,
        }])
        .into_iter()
        .take(40)
        .collect(),
    ];
    for (index, bytes) in cases.into_iter().enumerate() {
        let archive = dir.path().join(format!("{index}.zip"));
        fs::write(&archive, bytes).unwrap();
        let destination = dir.path().join(format!("out/{index}"));
        assert!(unpack_zip(&archive, &destination).is_err(), "case {index}");
        assert!(!destination.exists());
    }
    assert!(!dir.path().join("outside").exists());
    assert_eq!(fs::read_dir(dir.path().join("out")).unwrap().count(), 0);
}
