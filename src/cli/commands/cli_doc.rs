//! `table cli`: docs/CLI.md, written whole from the prose kept in
//! `src/cli/doc.md` and each command's `--help` as clap renders it, so the
//! reference cannot drift from the binary: tests/cli_doc.rs compares the
//! file with this command's output.
//!
//! doc.md holds the intro, the exit-code table and one `## \`hexcert ...\``
//! section of prose per command; each section gets its command's help
//! appended as a `text` block. A command without a section is refused (a
//! new subcommand must be written up before the reference can be written).

use std::fmt;
use std::path::Path;

use serde::Serialize;

use super::report::Reported;
use hexcert::error::HexError;

/// The prose of docs/CLI.md: everything but the help blocks.
const PROSE: &str = include_str!("../doc.md");

const SECTION: &str = "## `hexcert ";

/// `table cli`: the reference printed, or the file it was written to.
#[derive(Serialize)]
pub struct CliDocReport {
    #[serde(skip_serializing_if = "Option::is_none")]
    markdown: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    written: Option<String>,
}

impl fmt::Display for CliDocReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match (&self.markdown, &self.written) {
            (Some(text), _) => write!(f, "{text}"),
            (None, file) => {
                writeln!(f, "{}: written from the prose and every command's help", file.as_deref().unwrap_or(""))
            }
        }
    }
}

/// Every command `command` has below it, as the words that name it
/// (`["cubes", "run"]`), clap's own `help` left out; a family is named by
/// its members only.
fn leaves(command: &clap::Command, words: &[String]) -> Vec<Vec<String>> {
    let subs: Vec<&clap::Command> = command.get_subcommands().filter(|c| c.get_name() != "help").collect();
    if subs.is_empty() {
        return vec![words.to_vec()];
    }
    subs.into_iter()
        .flat_map(|sub| {
            let mut deeper = words.to_vec();
            deeper.push(sub.get_name().to_string());
            leaves(sub, &deeper)
        })
        .collect()
}

/// What `hexcert WORDS --help` prints: clap's own answer to that command
/// line, so the choice between its short and long layouts is clap's too.
fn help(root: &clap::Command, words: &[String]) -> Option<String> {
    let line = std::iter::once("hexcert").chain(words.iter().map(String::as_str)).chain(["--help"]);
    match root.clone().try_get_matches_from(line) {
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelp => Some(e.render().to_string()),
        _ => None,
    }
}

/// docs/CLI.md for the commands of `root`.
///
/// # Errors
///
/// `HexError::Internal` when a command has no section of prose in doc.md,
/// or (in a build with the solver, which has every command) a section names
/// no command.
pub fn reference(root: clap::Command) -> Result<String, HexError> {
    let commands = leaves(&root, &[]);
    let mut sections = PROSE.split_inclusive('\n').peekable();
    let mut out = String::new();
    while let Some(line) = sections.next_if(|l| !l.starts_with(SECTION)) {
        out.push_str(line);
    }
    let mut documented = Vec::new();
    while let Some(heading) = sections.next() {
        let mut body = String::from(heading);
        while let Some(line) = sections.next_if(|l| !l.starts_with(SECTION)) {
            body.push_str(line);
        }
        let name = heading.trim_end().trim_start_matches(SECTION).trim_end_matches('`');
        let words: Vec<String> = name.split_whitespace().map(String::from).collect();
        match help(&root, &words) {
            Some(text) => out.push_str(&format!("{}\n\n```text\n{text}```\n\n", body.trim_end())),
            None if cfg!(feature = "solver") => {
                return Err(HexError::Internal(format!(
                    "src/cli/doc.md has a section for `hexcert {name}`, no such command"
                )));
            }
            None => {}
        }
        documented.push(words);
    }
    if let Some(missing) = commands.iter().find(|c| !documented.contains(c)) {
        return Err(HexError::Internal(format!("src/cli/doc.md has no section for `hexcert {}`", missing.join(" "))));
    }
    Ok(out)
}

/// Prints docs/CLI.md, or writes it to `write` whole (only when it changed).
pub fn cli_doc(root: clap::Command, write: &[std::path::PathBuf]) -> Result<Reported, HexError> {
    let text = reference(root)?;
    let report = match write {
        [] => CliDocReport { markdown: Some(text), written: None },
        [path] => {
            write_if_changed(path, &text)?;
            CliDocReport { markdown: None, written: Some(path.display().to_string()) }
        }
        _ => return Err(HexError::Usage("`table cli --write` takes one file (docs/CLI.md)".into())),
    };
    Ok(Reported::new(report, hexcert::outcome::Outcome::Done))
}

fn write_if_changed(path: &Path, text: &str) -> Result<(), HexError> {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        hexcert::files::write_atomic(path, text.as_bytes())?;
    }
    Ok(())
}
