#!/usr/bin/env python3
"""Writes crates/tofu-eval/src/functions/iana_index.rs: the encodings
`textencodebase64` and `textdecodebase64` accept, as OpenTofu 1.12.6 finds
them (golang.org/x/text/encoding/ianaindex's `IANA` index, x/text v0.37.0,
the version OpenTofu's go.mod names): every name and alias the index
answers with an encoding (names it knows without an encoding are refused
as unknown names are), each encoding's IANA name (the one error messages
give), and for each single-byte encoding the character each of its 256
bytes decodes to (U+FFFD where the byte means nothing).

The answers are Go's own, asked through the index's API: a small program
(in a temporary directory, never in the repository) imports x/text, reads
the index's alias map and decodes each byte. Multi-byte encodings are
named for tofu-eval's implementations instead (UTF-8 and UTF-16 by hand,
the East Asian ones through encoding_rs), so no table of theirs is copied.

Usage: scripts/generate_iana_encodings.py
  Runs `go` from PATH (GO names another), fetching x/text through the Go
  module proxy as `go` does.
"""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "crates/tofu-eval/src/functions/iana_index.rs"

X_TEXT = "v0.37.0"

PROGRAM = """package main

import (
	"fmt"
	"runtime"
	"sort"
	"unicode/utf8"
	_ "unsafe"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/ianaindex"
)

// The index's names and aliases; the API answers one name at a time only.
//go:linkname ianaAliases golang.org/x/text/encoding/ianaindex.ianaAliases
var ianaAliases map[string]int

func main() {
	fmt.Println(runtime.Version())
	names := make([]string, 0, len(ianaAliases))
	for name := range ianaAliases {
		names = append(names, name)
	}
	sort.Strings(names)
	var encodings []encoding.Encoding
	index := map[encoding.Encoding]int{}
	for _, name := range names {
		found, err := ianaindex.IANA.Encoding(name)
		if err != nil || found == nil {
			continue
		}
		at, ok := index[found]
		if !ok {
			at = len(encodings)
			index[found] = at
			encodings = append(encodings, found)
		}
		fmt.Printf("alias %q %d\\n", name, at)
	}
	for at, found := range encodings {
		name, err := ianaindex.IANA.Name(found)
		if err != nil {
			name = ""
		}
		fmt.Printf("encoding %d %q\\n", at, name)
		fmt.Printf("bytes %d", at)
		for b := 0; b < 256; b++ {
			out, _ := found.NewDecoder().Bytes([]byte{byte(b)})
			r, size := utf8.DecodeRune(out)
			if size != len(out) {
				r = -1
			}
			fmt.Printf(" %x", r)
		}
		fmt.Println()
	}
}
"""

# Encodings of more than one byte a character, by IANA name: how tofu-eval
# implements each (by hand, or through encoding_rs where it agrees with x/text;
# see text_encoding.rs for what was compared).
MULTI_BYTE = {
    "UTF-8": "TextEncoding::Utf8",
    "UTF-16": "TextEncoding::Utf16 { big_endian: true, byte_order_mark: true }",
    "UTF-16BE": "TextEncoding::Utf16 { big_endian: true, byte_order_mark: false }",
    "UTF-16LE": "TextEncoding::Utf16 { big_endian: false, byte_order_mark: false }",
    "EUC-KR": 'TextEncoding::EncodingRs { label: "EUC-KR", encodes: true }',
    "Big5": 'TextEncoding::EncodingRs { label: "Big5", encodes: false }',
    "Extended_UNIX_Code_Packed_Format_for_Japanese": 'TextEncoding::EncodingRs { label: "EUC-JP", encodes: false }',
    "Shift_JIS": 'TextEncoding::EncodingRs { label: "Shift_JIS", encodes: false }',
    "GBK": 'TextEncoding::EncodingRs { label: "GBK", encodes: false }',
    "GB18030": "TextEncoding::NotImplemented",
    "ISO-2022-JP": "TextEncoding::NotImplemented",
    "HZ-GB-2312": "TextEncoding::NotImplemented",
}


ENUM = """/// How an encoding of the index reads and writes text.
#[derive(Debug)]
pub(super) enum TextEncoding {
    /// One byte a character: what each byte decodes to (U+FFFD: nothing).
    SingleByte(&'static [u16; 256]),
    Utf8,
    Utf16 {
        big_endian: bool,
        /// `UTF-16`: a byte order mark written, and read when present.
        byte_order_mark: bool,
    },
    /// Read (and, with `encodes`, written) by the encoding encoding_rs
    /// knows by this label; what x/text does not know is refused when read.
    EncodingRs {
        label: &'static str,
        encodes: bool,
    },
    /// Known to the index, not implemented here.
    NotImplemented,
}
"""


def rust_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def main():
    go = os.environ.get("GO", "go")
    with tempfile.TemporaryDirectory() as scratch:
        Path(scratch, "main.go").write_text(PROGRAM)
        Path(scratch, "go.mod").write_text(
            f"module ianaencodings\n\ngo 1.21\n\nrequire golang.org/x/text {X_TEXT}\n"
        )
        env = dict(os.environ, GOFLAGS="-mod=mod")
        run = subprocess.run([go, "run", "."], cwd=scratch, capture_output=True, text=True, env=env)
    if run.returncode != 0:
        print(run.stderr, file=sys.stderr)
        return 1
    lines = run.stdout.splitlines()
    go_version = lines[0]
    aliases, names, tables = [], {}, {}
    for line in lines[1:]:
        kind, rest = line.split(" ", 1)
        if kind == "alias":
            quoted, at = rest.rsplit(" ", 1)
            aliases.append((eval(quoted), int(at)))  # a Go %q of ASCII text
        elif kind == "encoding":
            at, quoted = rest.split(" ", 1)
            names[int(at)] = eval(quoted)
        elif kind == "bytes":
            at, *runes = rest.split(" ")
            tables[int(at)] = [int(rune, 16) for rune in runes]
    out = [
        "//! Generated by `scripts/generate_iana_encodings.py` from golang.org/x/text",
        f"//! {X_TEXT}'s `ianaindex.IANA` ({go_version}): its names and aliases with",
        "//! an encoding (sorted, as Go's map keys are matched: exactly, then",
        "//! lowercased), each encoding's IANA name, and what each byte of a",
        "//! single-byte encoding decodes to (U+FFFD: nothing); and the kinds of",
        "//! encoding tofu-eval implements (`text_encoding.rs`). Do not edit.",
        "",
        ENUM,
        "pub(super) const ALIASES: &[(&str, usize)] = &[",
    ]
    out += [f"    ({rust_string(name)}, {at})," for name, at in aliases]
    out += ["];", "", "pub(super) const ENCODINGS: &[(&str, TextEncoding)] = &["]
    for at in sorted(names):
        name = names[at]
        kind = MULTI_BYTE.get(name)
        if kind is None:
            table = tables[at]
            if any(rune < 0 or rune > 0xFFFF for rune in table):
                print(f"generate_iana_encodings: {name} is not one byte a character", file=sys.stderr)
                return 1
            rows = ["        " + " ".join(f"0x{rune:04x}," for rune in table[i:i + 8]) for i in range(0, 256, 8)]
            kind = "TextEncoding::SingleByte(&[\n" + "\n".join(rows) + "\n    ])"
        out.append(f"    ({rust_string(name)}, {kind}),")
    out += ["];", ""]
    OUT.write_text("\n".join(out))
    # The repository's layout for Rust (`cargo fmt --all` keeps it so).
    subprocess.run([os.environ.get("RUSTFMT", "rustfmt"), "--edition", "2021", str(OUT)], check=True)
    print(f"{OUT}: {len(aliases)} names and aliases, {len(names)} encodings ({go_version}, x/text {X_TEXT})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
