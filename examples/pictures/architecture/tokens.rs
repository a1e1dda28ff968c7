//! Rust cut into what the import reader needs: names, `::`, braces and the
//! marks a `use` is made of, each with its line. Comments, strings,
//! characters and numbers are left out, so that a path in a doc comment or
//! a message is not taken for an import.

/// What the reader sees of Rust.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Ident(String),
    Path,
    Open,
    Close,
    Comma,
    Star,
    Other(char),
}

pub(super) struct Token {
    pub(super) kind: Kind,
    pub(super) line: usize,
}

/// `"`, which opens and closes a string. (Written as its code point, so
/// that no quote in this file's code makes a tool that skims Rust for the
/// lengths of functions take the code between two of them for a string.)
const QUOTE: char = '\u{22}';

/// The tokens of `text`, each with its line (from 1).
pub(super) fn tokens(text: &str) -> Vec<Token> {
    let mut lexer = Lexer {
        chars: text.chars().collect(),
        at: 0,
        line: 1,
        tokens: Vec::new(),
    };
    while lexer.at < lexer.chars.len() {
        lexer.step();
    }
    lexer.tokens
}

/// A walk through the characters of a text: where it is, on which line,
/// and the tokens so far.
struct Lexer {
    chars: Vec<char>,
    at: usize,
    line: usize,
    tokens: Vec<Token>,
}

impl Lexer {
    /// Reads what starts at `at`: skips it, or pushes its token.
    fn step(&mut self) {
        let c = self.chars[self.at];
        let next = self.chars.get(self.at + 1).copied();
        match c {
            '\n' => {
                self.line += 1;
                self.at += 1;
            }
            c if c.is_whitespace() => self.at += 1,
            '/' if next == Some('/') => self.line_comment(),
            '/' if next == Some('*') => self.block_comment(),
            QUOTE => {
                self.at += 1;
                self.string();
            }
            '\'' => self.character(next),
            c if c.is_alphabetic() || c == '_' => self.word(),
            c if c.is_ascii_digit() => self.number(),
            c => self.mark(c, next),
        }
    }

    /// Pushes the token of a mark: `::`, a brace, a comma, a star, or
    /// another.
    fn mark(&mut self, c: char, next: Option<char>) {
        let kind = match c {
            ':' if next == Some(':') => {
                self.at += 1;
                Kind::Path
            }
            '{' => Kind::Open,
            '}' => Kind::Close,
            ',' => Kind::Comma,
            '*' => Kind::Star,
            c => Kind::Other(c),
        };
        self.tokens.push(Token {
            kind,
            line: self.line,
        });
        self.at += 1;
    }

    /// Skips a `//` comment, up to its line's end.
    fn line_comment(&mut self) {
        while self.at < self.chars.len() && self.chars[self.at] != '\n' {
            self.at += 1;
        }
    }

    /// Skips a `/* … */` comment, and those nested in it.
    fn block_comment(&mut self) {
        let chars = &self.chars;
        let mut open = 0;
        while self.at < chars.len() {
            if chars[self.at] == '/' && chars.get(self.at + 1) == Some(&'*') {
                open += 1;
                self.at += 2;
            } else if chars[self.at] == '*' && chars.get(self.at + 1) == Some(&'/') {
                open -= 1;
                self.at += 2;
                if open == 0 {
                    break;
                }
            } else {
                if chars[self.at] == '\n' {
                    self.line += 1;
                }
                self.at += 1;
            }
        }
    }

    /// Skips to past the `"` that closes a string opened before `at`.
    fn string(&mut self) {
        let chars = &self.chars;
        while self.at < chars.len() && chars[self.at] != QUOTE {
            if chars[self.at] == '\\' {
                self.at += 1;
            }
            if chars.get(self.at) == Some(&'\n') {
                self.line += 1;
            }
            self.at += 1;
        }
        self.at += 1;
    }

    /// Skips a character (`'a'`, `'\n'`, `'\u{1F600}'`), or the `'` of a
    /// lifetime, whose name is then read as a name.
    fn character(&mut self, next: Option<char>) {
        let chars = &self.chars;
        if next == Some('\\') {
            self.at += 3;
            while self.at < chars.len() && chars[self.at] != '\'' {
                self.at += 1;
            }
            self.at += 1;
        } else if chars.get(self.at + 2) == Some(&'\'') {
            self.at += 3;
        } else {
            self.at += 1;
        }
    }

    /// Reads a name; or skips a raw string (`r"…"`, `r#"…"#`, `br##"…"##`),
    /// or the `r#` of a raw name (`r#type`, then read as the name).
    fn word(&mut self) {
        let start = self.at;
        while self.at < self.chars.len()
            && (self.chars[self.at].is_alphanumeric() || self.chars[self.at] == '_')
        {
            self.at += 1;
        }
        let word: String = self.chars[start..self.at].iter().collect();
        if matches!(word.as_str(), "r" | "br" | "cr") {
            let hashes = self.chars[self.at..]
                .iter()
                .take_while(|&&c| c == '#')
                .count();
            if self.chars.get(self.at + hashes) == Some(&QUOTE) {
                return self.raw_string(hashes);
            }
            if hashes == 1 {
                self.at += 1;
                return;
            }
        }
        self.tokens.push(Token {
            kind: Kind::Ident(word),
            line: self.line,
        });
    }

    /// Skips a raw string with `hashes` `#`s, from its first `#` (or `"`).
    fn raw_string(&mut self, hashes: usize) {
        self.at += hashes + 1;
        let close: Vec<char> = std::iter::once(QUOTE)
            .chain(std::iter::repeat_n('#', hashes))
            .collect();
        while self.at < self.chars.len() && !self.chars[self.at..].starts_with(&close) {
            if self.chars[self.at] == '\n' {
                self.line += 1;
            }
            self.at += 1;
        }
        self.at += close.len();
    }

    /// Skips a number: `12`, `0xFF_u64`, `1.5e3` (but not the `.` of `1..2`).
    fn number(&mut self) {
        let chars = &self.chars;
        while self.at < chars.len()
            && (chars[self.at].is_alphanumeric()
                || chars[self.at] == '_'
                || (chars[self.at] == '.'
                    && chars.get(self.at + 1).is_some_and(char::is_ascii_digit)))
        {
            self.at += 1;
        }
    }
}
