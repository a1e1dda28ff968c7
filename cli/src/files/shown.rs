//! Paths as a user would type them, in messages and JSON alike.

use std::path::Path;

/// `path` as the user would type it, the same in a message and in JSON:
/// as it is where every byte is printable UTF-8; otherwise in bash's ANSI-C
/// quoting, `$'…'`, so that it can be pasted into a shell and reach the
/// file: `\\`, `\'`, `\n`, `\t`, `\r`, and `\xNN` for every other byte
/// that is not printable or not valid UTF-8 (printable characters stay as
/// they are). Not printable: control characters (a newline would split a
/// message's one line) and the invisible ones that change how a line reads
/// (bidirectional overrides, zero widths, line separators).
pub fn path_text(path: &Path) -> String {
    let bytes = path.as_os_str().as_encoded_bytes();
    if let Ok(text) = std::str::from_utf8(bytes)
        && text.chars().all(printable)
    {
        return text.to_owned();
    }
    let mut quoted = String::from("$'");
    let hex = |quoted: &mut String, bytes: &[u8]| {
        for byte in bytes {
            quoted.push_str(&format!("\\x{byte:02x}"));
        }
    };
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => quoted.push_str("\\\\"),
                '\'' => quoted.push_str("\\'"),
                '\n' => quoted.push_str("\\n"),
                '\t' => quoted.push_str("\\t"),
                '\r' => quoted.push_str("\\r"),
                c if printable(c) => quoted.push(c),
                c => hex(&mut quoted, c.encode_utf8(&mut [0; 4]).as_bytes()),
            }
        }
        hex(&mut quoted, chunk.invalid());
    }
    quoted.push('\'');
    quoted
}

/// Whether `c` shows as itself on a terminal: not a control character, nor
/// an invisible one that reorders, hides or breaks what follows it.
fn printable(c: char) -> bool {
    !c.is_control()
        && !matches!(
            c,
            '\u{061c}' | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{2069}' | '\u{feff}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[cfg(unix)]
    fn path_of(bytes: &[u8]) -> PathBuf {
        use std::os::unix::ffi::OsStrExt;
        PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
    }

    #[cfg(unix)]
    #[test]
    fn a_path_is_shown_as_a_shell_would_take_it() {
        // Printable, whatever else it holds: as it is.
        for plain in ["records/shard-1.json", "a b/it's \\ \"é\".json", "$x`y`"] {
            assert_eq!(path_text(Path::new(plain)), plain);
        }
        let cases: [(&[u8], &str); 5] = [
            (b"nu/bad\xff\x01\".json", r#"$'nu/bad\xff\x01".json'"#),
            (b"two\nlines.json", r"$'two\nlines.json'"),
            (b"it's\t\\\r.json", r"$'it\'s\t\\\r.json'"),
            // A printable character stays, an invisible one is its bytes.
            (
                "é\u{202e}\x7f.json".as_bytes(),
                r"$'é\xe2\x80\xae\x7f.json'",
            ),
            // A byte that starts a character which never comes.
            (b"x\xe2\x80.json\x1b", r"$'x\xe2\x80.json\x1b'"),
        ];
        for (bytes, shown) in cases {
            assert_eq!(path_text(&path_of(bytes)), shown);
        }
    }
}
