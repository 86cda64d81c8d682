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

/// Two threads of one process unpacking one package at once (a module and
/// the module it calls, checked in parallel): each has a staging directory
/// of its own, and the one that renames second finds the package in place.
#[test]
fn one_package_unpacked_by_two_threads_at_once_is_unpacked_once() {
    let dir = tempfile::tempdir().unwrap();
    let content = vec![7u8; 4 * 1024 * 1024];
    let archive = dir.path().join("p.zip");
    fs::write(
        &archive,
        zip(&[Entry {
            name: "terraform-provider-x_v1.0.0",
            content: &content,
            mode: 0o100755,
            deflate: true,
        }]),
    )
    .unwrap();
    let destination = dir.path().join("unpacked").join("p");
    for _ in 0..8 {
        let _ = fs::remove_dir_all(&destination);
        let results: Vec<io::Result<()>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..2)
                .map(|_| scope.spawn(|| unpack_zip(&archive, &destination)))
                .collect();
            handles
                .into_iter()
                .map(|handle| handle.join().unwrap())
                .collect()
        });
        for result in results {
            result.unwrap();
        }
        let unpacked = fs::read(destination.join("terraform-provider-x_v1.0.0")).unwrap();
        assert_eq!(unpacked.len(), content.len());
        let left: Vec<_> = fs::read_dir(destination.parent().unwrap())
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        assert_eq!(left, ["p"], "no staging directory left");
    }
}
