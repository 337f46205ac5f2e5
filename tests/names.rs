//! Every public type of the library and the binary has a name of its own:
//! two `Ledger`s or `Outcome`s in one codebase make a reader open both files
//! to learn which one a signature means (issue 49 found six `Entry`s). The
//! clap mirrors of `src/choices.rs` are generated under their library
//! type's name on purpose, and are not `pub struct` lines.

use std::collections::BTreeMap;

use crate::common::imports::{rust_files, src};

/// The type a line declares public (`pub struct X`, `pub(crate) enum X`, ...).
fn declared(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix("pub")?;
    let rest = match rest.strip_prefix('(') {
        Some(scoped) => &scoped[scoped.find(')')? + 1..],
        None => rest,
    };
    let rest = ["struct ", "enum ", "trait ", "type "].iter().find_map(|k| rest.trim_start().strip_prefix(k))?;
    let name: &str = &rest[..rest.find(|c: char| !c.is_alphanumeric() && c != '_').unwrap_or(rest.len())];
    name.starts_with(|c: char| c.is_ascii_uppercase()).then_some(name)
}

#[test]
fn no_two_public_types_share_a_name() {
    let mut seen: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in rust_files(&src()) {
        let text = std::fs::read_to_string(&file).unwrap();
        let shown = file.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap().display().to_string();
        for (i, line) in text.lines().enumerate() {
            if let Some(name) = declared(line) {
                seen.entry(name.to_string()).or_default().push(format!("{shown}:{}", i + 1));
            }
        }
    }
    let shared: Vec<String> = seen
        .into_iter()
        .filter(|(_, at)| at.len() > 1)
        .map(|(name, at)| format!("{name} ({})", at.join(", ")))
        .collect();
    assert!(shared.is_empty(), "public types sharing a name: {shared:?}");
}

#[test]
fn the_reader_sees_every_kind_of_declaration() {
    assert_eq!(declared("pub struct Ledger<'a, E> {"), Some("Ledger"));
    assert_eq!(declared("    pub(crate) enum Via {"), Some("Via"));
    assert_eq!(declared("pub type Keyed<T> = (u128, T);"), Some("Keyed"));
    assert_eq!(declared("pub trait OptionEntry: Sync {"), Some("OptionEntry"));
    assert_eq!(declared("pub fn entry() {}"), None);
}
