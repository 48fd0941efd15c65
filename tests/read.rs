//! `RootSet::read` / `read_to_string` and their `Snapshot` twins: the
//! open's rules (beneath the root, regular files only, never blocking on a
//! FIFO), then the whole content.

#![cfg(unix)]

use mcp_roots::{ErrorKind, RootSet, Roots};

fn tree() -> (tempfile::TempDir, String) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let top = tmp.path().to_str().expect("utf-8").to_owned();
    std::fs::create_dir(format!("{top}/root")).expect("mkdir");
    std::fs::write(format!("{top}/root/small.md"), "small").expect("write");
    std::fs::write(format!("{top}/root/big.bin"), vec![7u8; 100_000]).expect("write");
    std::fs::write(format!("{top}/root/latin1.txt"), [0xe9u8, 0x0a]).expect("write");
    std::fs::write(format!("{top}/secret"), "secret").expect("write");
    std::os::unix::fs::symlink("../secret", format!("{top}/root/out")).expect("symlink");
    let fifo = format!("{top}/root/fifo");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        fifo.as_str(),
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
        0,
    )
    .expect("mkfifo");
    (tmp, top)
}

#[test]
fn reads_whole_files_inside_and_refuses_the_rest() {
    let (_tmp, top) = tree();
    let set = RootSet::from_uris([format!("{top}/root")]);
    assert_eq!(
        set.read_to_string(&format!("{top}/root/small.md")).unwrap(),
        "small"
    );
    assert_eq!(
        set.read(&format!("{top}/root/big.bin")).unwrap(),
        vec![7u8; 100_000]
    );
    let uri = format!("file://{top}/root/small.md");
    assert_eq!(set.read(&uri).unwrap(), b"small");
    let refused = [
        (format!("{top}/secret"), ErrorKind::OutsideRoots),
        (format!("{top}/root/../secret"), ErrorKind::OutsideRoots),
        (format!("{top}/root/out"), ErrorKind::OutsideRoots),
        (format!("{top}/root/fifo"), ErrorKind::NotARegularFile),
        (format!("{top}/root"), ErrorKind::NotARegularFile),
        (format!("{top}/root/missing"), ErrorKind::NotFound),
        (format!("{top}/root/small.md/"), ErrorKind::NotADirectory),
        ("root/small.md".to_owned(), ErrorKind::NotAbsolute),
    ];
    for (input, kind) in &refused {
        assert_eq!(set.read(input).unwrap_err().kind(), *kind, "{input}");
        assert_eq!(
            set.read_to_string(input).unwrap_err().kind(),
            *kind,
            "{input}"
        );
    }
    let latin1 = set
        .read_to_string(&format!("{top}/root/latin1.txt"))
        .unwrap_err();
    assert_eq!(latin1.kind(), ErrorKind::Io);
    assert_eq!(
        set.read(&format!("{top}/root/latin1.txt")).unwrap(),
        [0xe9, 0x0a]
    );
}

#[test]
fn a_snapshot_reads_untracked_and_refuses_under_a_removed_root() {
    let (_tmp, top) = tree();
    let roots = Roots::default();
    roots.replace_uris([format!("{top}/root")]);
    let snap = roots.load();
    assert_eq!(
        snap.read_to_string(&format!("{top}/root/small.md"))
            .unwrap(),
        "small"
    );
    assert_eq!(roots.tracked(), 0, "a whole read leaves nothing open");
    roots.replace_uris(Vec::<String>::new());
    let late = snap.read(&format!("{top}/root/small.md")).unwrap_err();
    assert_eq!(late.kind(), ErrorKind::ScopeLost);
}

/// `read_with`: the same open as `read` (the same refusals, before the
/// closure runs), the length from the open's `fstat`, the closure's error
/// as `io`, and on a snapshot the same `scope_lost` once the root is gone.
#[test]
fn read_with_hands_over_the_open_file_and_its_length() {
    use std::io::Read as _;
    let (_tmp, top) = tree();
    let set = RootSet::from_uris([format!("{top}/root")]);
    for (name, want) in [
        ("small.md", b"small".to_vec()),
        ("big.bin", vec![7u8; 100_000]),
    ] {
        let got = set
            .read_with(&format!("{top}/root/{name}"), |file, len| {
                let mut data = Vec::new();
                file.read_to_end(&mut data)?;
                Ok((len, data))
            })
            .unwrap();
        assert_eq!(got, (want.len() as u64, want), "{name}");
    }
    for (input, kind) in [
        (format!("{top}/root/out"), ErrorKind::OutsideRoots),
        (format!("{top}/root/fifo"), ErrorKind::NotARegularFile),
        (format!("{top}/root"), ErrorKind::NotARegularFile),
        (format!("{top}/root/missing"), ErrorKind::NotFound),
    ] {
        let err = set
            .read_with(&input, |_, _| -> std::io::Result<()> {
                panic!("the closure ran for a refused {input}")
            })
            .unwrap_err();
        assert_eq!(err.kind(), kind, "{input}");
    }
    let failed = set
        .read_with(
            &format!("{top}/root/small.md"),
            |_, _| -> std::io::Result<()> {
                Err(std::io::Error::other("the caller's own failure"))
            },
        )
        .unwrap_err();
    assert_eq!(failed.kind(), ErrorKind::Io);

    let roots = Roots::default();
    roots.replace_uris([format!("{top}/root")]);
    let snap = roots.load();
    assert_eq!(
        snap.read_with(&format!("{top}/root/small.md"), |_, len| Ok(len))
            .unwrap(),
        5
    );
    assert_eq!(
        roots.tracked(),
        0,
        "the file is closed when the closure returns"
    );
    roots.replace_uris(Vec::<String>::new());
    let late = snap
        .read_with(&format!("{top}/root/small.md"), |_, len| Ok(len))
        .unwrap_err();
    assert_eq!(late.kind(), ErrorKind::ScopeLost);
}
