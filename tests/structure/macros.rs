//! The types that `macro_rules!` macros of `src/` define and write inherent
//! impls of, attributed to the file that invokes the macro (where the code
//! lands): `kernel_type! { pub struct Join = Kernel::Join; }` defines `Join`
//! and writes `impl Join { … }` in the invoking file, and a macro that
//! invokes another with its own parameter (`join_kernel!` invoking
//! `kernel_type!` with `$name`) does what that one does.

use std::collections::{BTreeMap, BTreeSet};

use super::text::{
    bracketed, definitions, identifier, inherent_impls, is_word, without_attributes, word_starts,
};

/// One rule of a macro: what it matches and what it writes.
pub struct Arm {
    matcher: String,
    body: String,
}

/// What a macro's expansion does with its parameters (named without `$`).
#[derive(Clone, Default, PartialEq)]
pub struct Effects {
    /// Parameters it defines a type of.
    pub defines: BTreeSet<String>,
    /// Parameters it writes an inherent impl of.
    pub impls: BTreeSet<String>,
}

/// The `macro_rules!` of `code`, by name.
pub fn macro_rules(code: &str) -> BTreeMap<String, Vec<Arm>> {
    let mut macros = BTreeMap::new();
    for (at, _) in code.match_indices("macro_rules!") {
        let rest = &code[at + "macro_rules!".len()..];
        let Some(name) = identifier(rest.trim_start()) else {
            continue;
        };
        let Some(open) = rest
            .find(['{', '(', '['])
            .map(|o| o + at + "macro_rules!".len())
        else {
            continue;
        };
        let Some((rules, _)) = bracketed(code, open) else {
            continue;
        };
        let mut arms = Vec::new();
        let mut from = 0;
        while let Some(open) = rules[from..].find(['(', '[', '{']).map(|o| o + from) {
            let Some((matcher, after)) = bracketed(rules, open) else {
                break;
            };
            let Some(body_open) = rules[after..].find(['{', '(', '[']).map(|o| o + after) else {
                break;
            };
            let Some((body, end)) = bracketed(rules, body_open) else {
                break;
            };
            arms.push(Arm {
                matcher: matcher.to_string(),
                body: body.to_string(),
            });
            from = end;
        }
        macros.insert(name.to_string(), arms);
    }
    macros
}

/// The arguments of every invocation of `name!` in `code`.
pub fn invocations<'a>(code: &'a str, name: &str) -> Vec<&'a str> {
    let call = format!("{name}!");
    code.match_indices(&call)
        .filter(|&(at, _)| word_starts(code, at))
        .filter_map(|(at, _)| {
            let rest = &code[at + call.len()..];
            let open = at + call.len() + (rest.len() - rest.trim_start().len());
            code[open..]
                .starts_with(['(', '[', '{'])
                .then(|| bracketed(code, open))
                .flatten()
                .map(|(args, _)| args)
        })
        .collect()
}

/// What an invocation with `args` binds `$param` to, by the arm's
/// `matcher`: the identifier after the word that comes before `$param:` in
/// the matcher (`struct` in `$vis:vis struct $name:ident`), or the first
/// one of the arguments where the parameter comes first (attributes and
/// visibility aside).
pub fn binding(matcher: &str, param: &str, args: &str) -> Option<String> {
    let at = matcher.find(&format!("${param}:"))?;
    let before = without_attributes(&matcher[..at]);
    let word = before
        .split_whitespace()
        .rfind(|token| !token.ends_with(":vis"))
        .filter(|token| token.chars().all(is_word));
    let args = without_attributes(args);
    let rest = match word {
        Some(word) => {
            let at = args
                .match_indices(word)
                .find(|&(at, _)| {
                    word_starts(&args, at) && !args[at + word.len()..].starts_with(is_word)
                })?
                .0;
            &args[at + word.len()..]
        }
        None => args
            .trim_start()
            .strip_prefix("pub")
            .map_or(args.as_str(), |after| {
                if after.starts_with(is_word) {
                    &args
                } else {
                    after
                }
            }),
    };
    identifier(rest.trim_start()).map(str::to_string)
}

/// Each macro's effects, with those of the macros it invokes with its own
/// parameters.
pub fn effects(macros: &BTreeMap<String, Vec<Arm>>) -> BTreeMap<String, Effects> {
    let param = |name: &str| name.strip_prefix('$').map(str::to_string);
    let mut all: BTreeMap<String, Effects> = macros
        .iter()
        .map(|(name, arms)| {
            let mut effects = Effects::default();
            for arm in arms {
                effects
                    .defines
                    .extend(definitions(&arm.body).iter().filter_map(|n| param(n)));
                effects
                    .impls
                    .extend(inherent_impls(&arm.body).iter().filter_map(|n| param(n)));
            }
            (name.clone(), effects)
        })
        .collect();
    loop {
        let before = all.clone();
        for (name, arms) in macros {
            for arm in arms {
                for (_, bound) in bound_in(&arm.body, macros, &before) {
                    let effects = all.get_mut(name).unwrap();
                    effects
                        .defines
                        .extend(bound.defines.iter().filter_map(|n| param(n)));
                    effects
                        .impls
                        .extend(bound.impls.iter().filter_map(|n| param(n)));
                }
            }
        }
        if all == before {
            return all;
        }
    }
}

/// For each invocation in `code` of a macro of `macros`, the names its
/// expansion defines and writes inherent impls of (a macro parameter,
/// `$name`, where `code` is a macro's body).
pub fn bound_in(
    code: &str,
    macros: &BTreeMap<String, Vec<Arm>>,
    effects: &BTreeMap<String, Effects>,
) -> Vec<(String, Effects)> {
    let mut found = Vec::new();
    for (name, arms) in macros {
        for args in invocations(code, name) {
            let mut bound = Effects::default();
            for arm in arms {
                let bind = |params: &BTreeSet<String>| -> Vec<String> {
                    params
                        .iter()
                        .filter_map(|p| binding(&arm.matcher, p, args))
                        .collect()
                };
                bound.defines.extend(bind(&effects[name].defines));
                bound.impls.extend(bind(&effects[name].impls));
            }
            found.push((name.clone(), bound));
        }
    }
    found
}
