//! One file's imports, read from its tokens: what its `use`s bring in
//! (and which of those it re-exports), and the paths in its code.

use std::collections::BTreeMap;

use super::house::File;
use super::modules::{Crate, module_of};
use super::tokens::{Kind, Token, tokens};

/// One import: where, the path as written, and the path from the crate's
/// root it stands for.
pub(super) struct Import {
    pub(super) line: usize,
    pub(super) text: String,
    pub(super) path: Vec<String>,
}

/// Names, each with the path from the crate's root it stands for.
pub(super) type Names = BTreeMap<String, Vec<String>>;

/// The file's re-exports and all its imports. `crate_` need only know its
/// modules: the paths are made absolute, not yet followed.
pub(super) fn scan(crate_: &Crate, file: &File, text: &str) -> (Names, Vec<Import>) {
    let tokens = tokens(text);
    let mut scanner = Scanner {
        crate_,
        tokens: &tokens,
        binary: file.path.starts_with("bin/"),
        home: module_of(&file.path).unwrap_or_default(),
        at: 0,
        depth: 0,
        inline: Vec::new(),
        uses: Names::new(),
        exports: Names::new(),
        imports: Vec::new(),
        paths: Vec::new(),
    };
    scanner.walk();
    scanner.finish()
}

/// A walk through a file's tokens, and what it has found so far.
struct Scanner<'a> {
    crate_: &'a Crate,
    tokens: &'a [Token],
    /// Whether the file is the binary's, whose root is `queens_simd::`.
    binary: bool,
    /// The file's module.
    home: Vec<String>,
    /// The token the walk is at, and the depth of braces there.
    at: usize,
    depth: usize,
    /// The inline modules (`mod tests { … }`) open at this point, and the
    /// depth of braces each opened at.
    inline: Vec<(String, usize)>,
    /// The names its top-level `use`s bring in, and those it re-exports.
    uses: Names,
    exports: Names,
    imports: Vec<Import>,
    /// The paths in code (not in a `use`): line, module, segments. They
    /// are resolved at the end, when all the `use`s are known.
    paths: Vec<(usize, Vec<String>, Vec<String>)>,
}

impl Scanner<'_> {
    /// Reads every token: braces, inline modules, `use`s, paths in code.
    fn walk(&mut self) {
        let tokens = self.tokens;
        while self.at < tokens.len() {
            // Whether what was read there stepped past itself.
            let stepped = match &tokens[self.at].kind {
                Kind::Open => {
                    self.depth += 1;
                    false
                }
                Kind::Close => {
                    self.close();
                    false
                }
                Kind::Ident(word) if word == "mod" => self.inline_module(),
                Kind::Ident(word) if word == "use" => {
                    self.use_declaration();
                    true
                }
                Kind::Ident(word) => self.code_path(word),
                _ => false,
            };
            if !stepped {
                self.at += 1;
            }
        }
    }

    /// A `}`: it may close an inline module.
    fn close(&mut self) {
        if self
            .inline
            .last()
            .is_some_and(|&(_, opened)| opened == self.depth)
        {
            self.inline.pop();
        }
        self.depth = self.depth.saturating_sub(1);
    }

    /// At `mod`: if it is `mod name {`, opens that inline module, steps
    /// past its brace and says so (`mod name;` is a file of its own).
    fn inline_module(&mut self) -> bool {
        let tokens = self.tokens;
        let kind = |i: usize| tokens.get(i).map(|t| &t.kind);
        if let (Some(Kind::Ident(name)), Some(Kind::Open)) = (kind(self.at + 1), kind(self.at + 2))
        {
            self.inline.push((name.clone(), self.depth + 1));
            self.depth += 1;
            self.at += 3;
            return true;
        }
        false
    }

    /// At `use`: reads its tree, and steps past it.
    fn use_declaration(&mut self) {
        let tokens = self.tokens;
        let line = tokens[self.at].line;
        let public = exported(tokens, self.at);
        let mut leaves = Vec::new();
        self.at = use_tree(tokens, self.at + 1, Vec::new(), &mut leaves);
        let module = self.module_here();
        for leaf in leaves {
            let Some(path) = self.crate_.absolute(&module, &leaf.path, self.binary) else {
                continue;
            };
            // Only a top-level `use` brings a name into the whole file.
            if self.inline.is_empty()
                && let Some(name) = &leaf.name
            {
                self.uses.insert(name.clone(), path.clone());
                if public {
                    self.exports.insert(name.clone(), path.clone());
                }
            }
            self.imports.push(Import {
                line,
                text: leaf.path.join("::"),
                path,
            });
        }
    }

    /// At the name `word`: if a path in code starts there (`word::…`, not
    /// itself after a `::`), notes it, steps past it and says so.
    fn code_path(&mut self, word: &str) -> bool {
        let tokens = self.tokens;
        let kind = |i: usize| tokens.get(i).map(|t| &t.kind);
        let after_path = self.at > 0 && tokens[self.at - 1].kind == Kind::Path;
        if after_path || kind(self.at + 1) != Some(&Kind::Path) {
            return false;
        }
        let line = tokens[self.at].line;
        let mut segments = vec![word.to_owned()];
        self.at += 1;
        while let (Some(Kind::Path), Some(Kind::Ident(next))) = (kind(self.at), kind(self.at + 1)) {
            segments.push(next.clone());
            self.at += 2;
        }
        self.paths.push((line, self.module_here(), segments));
        true
    }

    /// The module at this point: the file's, and the inline modules open
    /// here.
    fn module_here(&self) -> Vec<String> {
        let mut module = self.home.clone();
        module.extend(self.inline.iter().map(|(name, _)| name.clone()));
        module
    }

    /// The re-exports and imports, with the paths in code added: from the
    /// root (`crate::`, …), into a child module (`dispatch::count` in
    /// `lib.rs`), or through a name a `use` of this file brought in
    /// (`join::pieces::Piece`).
    fn finish(mut self) -> (Names, Vec<Import>) {
        for (line, module, segments) in std::mem::take(&mut self.paths) {
            let path = self
                .crate_
                .absolute(&module, &segments, self.binary)
                .or_else(|| {
                    let (first, rest) = segments.split_first()?;
                    let mut path = self.uses.get(first)?.clone();
                    path.extend(rest.iter().cloned());
                    Some(path)
                });
            if let Some(path) = path {
                self.imports.push(Import {
                    line,
                    text: segments.join("::"),
                    path,
                });
            }
        }
        (self.exports, self.imports)
    }
}

/// Whether the `use` at `at` is public (`pub use`, `pub(crate) use`, …):
/// a re-export.
fn exported(tokens: &[Token], at: usize) -> bool {
    let before = |back: usize| at.checked_sub(back).map(|i| &tokens[i].kind);
    let is = |kind: Option<&Kind>, word: &str| matches!(kind, Some(Kind::Ident(w)) if w == word);
    is(before(1), "pub") || (before(1) == Some(&Kind::Other(')')) && is(before(4), "pub"))
}

/// One leaf of a `use` tree: its path, and the name it brings in (none for
/// a glob, `_` or `self` alone).
struct Leaf {
    path: Vec<String>,
    name: Option<String>,
}

/// Reads the `use` tree that starts at `at`, under `prefix`, into
/// `leaves`; returns where it ends.
fn use_tree(
    tokens: &[Token],
    mut at: usize,
    mut prefix: Vec<String>,
    leaves: &mut Vec<Leaf>,
) -> usize {
    loop {
        match tokens.get(at).map(|t| &t.kind) {
            Some(Kind::Path) => at += 1,
            Some(Kind::Ident(name)) => {
                at += 1;
                if name == "self" && !prefix.is_empty() {
                    // `a::{self, …}`: `a` itself.
                } else {
                    prefix.push(name.clone());
                }
                if tokens.get(at).is_some_and(|t| t.kind == Kind::Path) {
                    continue;
                }
                let mut name = prefix.last().cloned();
                if let Some(Kind::Ident(word)) = tokens.get(at).map(|t| &t.kind)
                    && word == "as"
                {
                    if let Some(Kind::Ident(alias)) = tokens.get(at + 1).map(|t| &t.kind) {
                        name = Some(alias.clone());
                    }
                    at += 2;
                }
                let name =
                    name.filter(|name| !matches!(name.as_str(), "_" | "self" | "super" | "crate"));
                leaves.push(Leaf { path: prefix, name });
                return at;
            }
            Some(Kind::Star) => {
                leaves.push(Leaf {
                    path: prefix,
                    name: None,
                });
                return at + 1;
            }
            Some(Kind::Open) => {
                at += 1;
                loop {
                    match tokens.get(at).map(|t| &t.kind) {
                        None => return at,
                        Some(Kind::Close) => return at + 1,
                        Some(Kind::Comma) => at += 1,
                        Some(_) => at = use_tree(tokens, at, prefix.clone(), leaves),
                    }
                }
            }
            _ => return at,
        }
    }
}
