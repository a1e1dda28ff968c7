//! The paths code names items by: `use` trees flattened, and paths written
//! in code (`crate::Kernel::Auto`), resolved from `crate`, `$crate`,
//! `super`, `self` or the crate's name to a path from the crate's root
//! (inline `mod name { … }` blocks followed).

use super::text::{bracketed, identifier, is_word, word_starts};

/// A path from the crate's root, one segment each.
pub type ModPath = Vec<String>;

/// One path named in a file.
#[derive(Clone, Debug)]
pub struct Named {
    /// Resolved from the crate's root.
    pub path: ModPath,
    /// For a `use`: the name it brings in (the last segment, or its `as`).
    pub imported: Option<String>,
    /// Whether it is a `pub use` (a re-export), the only kind that may form
    /// the chain to a root re-export.
    pub public_use: bool,
    /// As written, for the message.
    pub written: String,
    /// The module it is written in (where a `use` brings its name).
    pub scope: ModPath,
}

/// The module a file is: `src/kernel/join/mod.rs` is `kernel::join`.
pub fn module_of(relative: &std::path::Path) -> ModPath {
    let mut module: ModPath = relative
        .iter()
        .map(|part| part.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(
        module.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        module.pop();
    }
    module
}

/// The inline modules of `code`: each `mod name {`'s name and byte range.
fn inline_modules(code: &str) -> Vec<(String, std::ops::Range<usize>)> {
    let mut modules = Vec::new();
    for (at, _) in code.match_indices("mod ") {
        if !word_starts(code, at) {
            continue;
        }
        let rest = code[at + 4..].trim_start();
        let Some(name) = identifier(rest) else {
            continue;
        };
        let after = &rest[name.len()..];
        if after.trim_start().starts_with('{') {
            let open = code.len() - after.trim_start().len();
            if let Some((_, end)) = bracketed(code, open) {
                modules.push((name.to_string(), open..end));
            }
        }
    }
    modules
}

/// `path` (segments as written) resolved in `module`, or `None` where it
/// leaves the crate (`core`, `std`, another crate). `root` is how the
/// crate names itself: `crate` inside it, its name outside.
fn resolve(written: &[String], module: &[String], root: &str) -> Option<ModPath> {
    let first = written.first()?.as_str();
    let mut path: ModPath = match first {
        "crate" | "$crate" if root == "crate" => Vec::new(),
        _ if first == root => Vec::new(),
        "self" | "super" if root == "crate" => module.to_vec(),
        "core" | "alloc" | "std" => return None,
        _ if root == "crate" && first.starts_with(char::is_lowercase) => module.to_vec(),
        _ if root == "crate" => return None,
        _ => return None,
    };
    let from = usize::from(matches!(first, "crate" | "$crate") || first == root);
    for segment in &written[from..] {
        match segment.as_str() {
            "super" => {
                path.pop();
            }
            "self" => {}
            other => path.push(other.to_string()),
        }
    }
    (!path.is_empty()).then_some(path)
}

/// Segments of `a::b::c` (trimmed, empty ones left out).
fn segments(text: &str) -> Vec<String> {
    text.split("::")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// Splits `text` at the commas outside brackets.
fn top_level_parts(text: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0usize, 0);
    for (at, c) in text.char_indices() {
        match c {
            '{' | '(' | '[' => depth += 1,
            '}' | ')' | ']' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(&text[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// A `use` tree flattened: each leaf's segments and the name it imports.
pub fn flatten(tree: &str, prefix: &[String], out: &mut Vec<(Vec<String>, String)>) {
    let tree = tree.trim();
    if tree.is_empty() || tree.ends_with('*') {
        return;
    }
    if let Some(open) = tree.find('{') {
        let mut base = prefix.to_vec();
        base.extend(segments(&tree[..open]));
        let Some((inner, _)) = bracketed(tree, open) else {
            return;
        };
        for part in top_level_parts(inner) {
            flatten(part, &base, out);
        }
        return;
    }
    let (path, alias) = match tree.split_once(" as ") {
        Some((path, alias)) => (path, Some(alias.trim())),
        None => (tree, None),
    };
    let mut full = prefix.to_vec();
    full.extend(segments(path));
    if full.last().is_some_and(|s| s == "self") {
        full.pop();
    }
    let Some(last) = full.last() else {
        return;
    };
    let imported = alias.unwrap_or(last).to_string();
    out.push((full, imported));
}

/// Every path `code` names, `code` being the file of `module` (with its
/// comments and literals out, see `text::code_of`).
pub fn named(code: &str, module: &[String], root: &str) -> Vec<Named> {
    let inline = inline_modules(code);
    let module_at = |at: usize| -> ModPath {
        let mut path = module.to_vec();
        let mut enclosing: Vec<_> = inline.iter().filter(|(_, r)| r.contains(&at)).collect();
        enclosing.sort_by_key(|(_, r)| r.start);
        path.extend(enclosing.into_iter().map(|(name, _)| name.clone()));
        path
    };
    let mut found = Vec::new();
    let mut uses = Vec::new();
    for (at, _) in code.match_indices("use ") {
        if !word_starts(code, at) {
            continue;
        }
        let Some(end) = code[at..].find(';').map(|e| at + e) else {
            continue;
        };
        uses.push(at..end);
        let before = code[..at].trim_end();
        let public_use = before.ends_with("pub");
        let mut leaves = Vec::new();
        flatten(&code[at + 4..end], &[], &mut leaves);
        let here = module_at(at);
        for (written, imported) in leaves {
            if let Some(path) = resolve(&written, &here, root) {
                found.push(Named {
                    path,
                    imported: Some(imported),
                    public_use,
                    written: written.join("::"),
                    scope: here.clone(),
                });
            }
        }
    }
    let mut starts = vec![
        "crate::".to_string(),
        "$crate::".into(),
        "super::".into(),
        "self::".into(),
    ];
    if root != "crate" {
        starts.push(format!("{root}::"));
    }
    for start in &starts {
        for (at, _) in code.match_indices(start) {
            let after_path = code[..at].ends_with(':');
            if !word_starts(code, at) || after_path || uses.iter().any(|r| r.contains(&at)) {
                continue;
            }
            let end = code[at..]
                .find(|c: char| !(is_word(c) || c == ':' || c == '$'))
                .map_or(code.len(), |e| at + e);
            let written = segments(code[at..end].trim_end_matches(':'));
            let scope = module_at(at);
            if let Some(path) = resolve(&written, &scope, root) {
                found.push(Named {
                    path,
                    imported: None,
                    public_use: false,
                    written: written.join("::"),
                    scope,
                });
            }
        }
    }
    found
}
