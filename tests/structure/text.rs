//! Rust source read as text, enough for the structure checks: comments and
//! the insides of literals taken out, identifiers, bracketed groups,
//! definitions and inherent impls. Names may be macro parameters (`$name`),
//! so that a `macro_rules!` body reads like any other code.

/// `text` with its comments removed and its string and character literals
/// emptied (newlines kept), so that a type named in prose or in a message
/// is neither a definition nor an impl, and braces in strings do not count.
pub fn code_of(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let newlines = |from: usize, to: usize, out: &mut String| {
        out.extend(
            chars[from..to.min(chars.len())]
                .iter()
                .filter(|&&c| c == '\n'),
        );
    };
    while at < chars.len() {
        let (c, next) = (chars[at], chars.get(at + 1).copied());
        let after_word = at > 0 && is_word(chars[at - 1]);
        let end = if c == '/' && next == Some('/') {
            let end = chars[at..]
                .iter()
                .position(|&c| c == '\n')
                .map_or(chars.len(), |p| at + p);
            Some(end)
        } else if c == '/' && next == Some('*') {
            Some(block_comment_end(&chars, at))
        } else if c == '"' || (c == 'r' && !after_word && matches!(next, Some('"' | '#'))) {
            string_end(&chars, at).inspect(|_| out.push_str("\"\""))
        } else if c == '\'' {
            char_end(&chars, at).inspect(|_| out.push_str("' '"))
        } else {
            None
        };
        match end {
            Some(end) => {
                newlines(at, end, &mut out);
                at = end;
            }
            None => {
                out.push(c);
                at += 1;
            }
        }
    }
    out
}

/// Where the (nested) block comment at `at` ends.
fn block_comment_end(chars: &[char], mut at: usize) -> usize {
    let mut depth = 0;
    while at < chars.len() {
        match (chars[at], chars.get(at + 1)) {
            ('/', Some('*')) => (depth, at) = (depth + 1, at + 2),
            ('*', Some('/')) => {
                (depth, at) = (depth - 1, at + 2);
                if depth == 0 {
                    return at;
                }
            }
            _ => at += 1,
        }
    }
    at
}

/// Where the string literal at `at` (`"…"`, `r"…"`, `r#"…"#`) ends, if
/// one starts there.
fn string_end(chars: &[char], at: usize) -> Option<usize> {
    if chars[at] == '"' {
        let mut j = at + 1;
        while j < chars.len() && chars[j] != '"' {
            j += if chars[j] == '\\' { 2 } else { 1 };
        }
        return Some(j + 1);
    }
    let hashes = chars[at + 1..].iter().take_while(|&&c| c == '#').count();
    let mut j = at + 1 + hashes;
    if chars.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < chars.len() {
        if chars[j] == '"' && (1..=hashes).all(|k| chars.get(j + k) == Some(&'#')) {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(j)
}

/// Where the character literal at `at` ends; `None` for a lifetime.
fn char_end(chars: &[char], at: usize) -> Option<usize> {
    if chars.get(at + 1) == Some(&'\\') {
        let close = chars[at + 2..].iter().position(|&c| c == '\'')?;
        return Some(at + 2 + close + 1);
    }
    (chars.get(at + 2) == Some(&'\'')).then_some(at + 3)
}

/// Whether `c` may be part of an identifier.
pub fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whether a word may start at byte `at` of `code` (nothing word-like
/// before it).
pub fn word_starts(code: &str, at: usize) -> bool {
    !code[..at]
        .chars()
        .next_back()
        .is_some_and(|c| is_word(c) || c == '$')
}

/// The identifier (or macro parameter, `$name`) that starts `text`, if any.
pub fn identifier(text: &str) -> Option<&str> {
    let skip = usize::from(text.starts_with('$'));
    let end = text[skip..]
        .find(|c: char| !is_word(c))
        .map_or(text.len(), |e| e + skip);
    (end > skip).then(|| &text[..end])
}

/// The text inside the bracket that opens at byte `open` of `code` (`(`,
/// `[` or `{`), and the byte after its closing bracket.
pub fn bracketed(code: &str, open: usize) -> Option<(&str, usize)> {
    let mut depth = 0usize;
    for (offset, c) in code[open..].char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    let close = open + offset;
                    return Some((&code[open + 1..close], close + 1));
                }
            }
            _ => {}
        }
    }
    None
}

/// `code` without its attributes (`#[…]`) and the attribute repetitions of
/// macros (`$(#[$doc])*`).
pub fn without_attributes(code: &str) -> String {
    let mut out = String::new();
    let mut at = 0;
    while at < code.len() {
        let rest = &code[at..];
        let open = if rest.starts_with("$(#[") {
            Some(at + 1)
        } else if rest.starts_with("#[") || rest.starts_with("#![") {
            Some(at + rest.find('[').unwrap())
        } else {
            None
        };
        if let Some((_, after)) = open.and_then(|open| bracketed(code, open)) {
            at = after;
            if rest.starts_with('$') {
                at += code[at..].find(['*', '+', '?']).map_or(0, |p| p + 1);
            }
            continue;
        }
        let c = rest.chars().next().unwrap();
        out.push(c);
        at += c.len_utf8();
    }
    out
}

/// Whether the text before a `{` opens an `impl` or a `trait` block.
fn opens_impl_or_trait(header: &str) -> bool {
    let header = without_attributes(header);
    let mut rest = header.trim();
    loop {
        let before = rest;
        if let Some(after) = rest.strip_prefix("pub") {
            rest = match after.trim_start().strip_prefix('(') {
                Some(_) => after.split_once(')').map_or("", |(_, r)| r).trim_start(),
                None => after.trim_start(),
            };
        }
        for word in ["unsafe ", "default "] {
            rest = rest.strip_prefix(word).unwrap_or(rest).trim_start();
        }
        if rest == before {
            break;
        }
    }
    ["impl", "trait"].iter().any(|word| {
        rest.strip_prefix(word)
            .is_some_and(|after| !after.starts_with(is_word))
    })
}

/// The names `code` defines, once per definition: after `struct`, `enum`,
/// `union`, `trait`, and `type` where it is not an associated type (in an
/// `impl` or `trait` block). Macro parameters count (`struct $name`).
pub fn definitions(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut impl_blocks: Vec<bool> = Vec::new();
    let mut header_start = 0;
    for (at, c) in code.char_indices() {
        match c {
            '{' => {
                impl_blocks.push(opens_impl_or_trait(&code[header_start..at]));
                header_start = at + 1;
            }
            '}' => {
                impl_blocks.pop();
                header_start = at + 1;
            }
            ';' => header_start = at + 1,
            _ if c.is_ascii_lowercase() && word_starts(code, at) => {
                for keyword in ["struct", "enum", "union", "trait", "type"] {
                    let Some(after) = code[at..].strip_prefix(keyword) else {
                        continue;
                    };
                    let associated = keyword == "type" && impl_blocks.last() == Some(&true);
                    if !after.starts_with(char::is_whitespace) || associated {
                        continue;
                    }
                    if let Some(name) = identifier(after.trim_start()) {
                        names.push(name.to_string());
                    }
                }
            }
            _ => {}
        }
    }
    names
}

/// The types `code` writes inherent impls of: `impl Name {` or
/// `impl<…> Name<…> {` (or `impl $name {` in a macro), at the start of a
/// line, not `impl Trait for`.
pub fn inherent_impls(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in code.lines() {
        let Some(rest) = line.trim_start().strip_prefix("impl") else {
            continue;
        };
        let rest = match rest.strip_prefix('<') {
            Some(generic) => generic.split_once('>').map_or("", |(_, after)| after),
            None => rest,
        };
        if !rest.starts_with(' ') || rest.contains(" for ") || !rest.trim_end().ends_with('{') {
            continue;
        }
        if let Some(name) = identifier(rest.trim_start())
            && name.starts_with(|c: char| c.is_uppercase() || c == '$')
        {
            names.push(name.to_string());
        }
    }
    names
}
