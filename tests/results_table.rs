//! README.md's results table and docs/RESULTS.md's facts are what `hexcert
//! table results` prints from the records: the marked blocks are compared
//! with the command's code run on the repository's proofs/, counts/ and
//! grids/, and the printer and the embedding are held to their rules.

use std::path::Path;

use hexcert::results::{collect, embed, markdown, Sources};

const REGENERATE: &str = "cargo run --release -- table results --write README.md docs/RESULTS.md";

#[test]
fn the_documents_embed_the_results_the_records_state() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let results = collect(&Sources::under(root)).unwrap();
    for (file, wanted) in [("README.md", &["table"][..]), ("docs/RESULTS.md", &["claims", "counts"][..])] {
        let path = root.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let (fresh, names) = embed::embed(&text, &results, &path).unwrap();
        assert_eq!(names, wanted, "{file}'s marked blocks");
        assert!(fresh == text, "{file}'s blocks differ from the records: regenerate them with `{REGENERATE}`");
    }
}

#[test]
fn the_table_reads_every_certified_optimum_and_count_kind() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let table = markdown::table(&collect(&Sources::under(root)).unwrap());
    let row = |n: usize| table.lines().find(|l| l.starts_with(&format!("| {n} |"))).unwrap().to_string();
    // n = 4: level 1's minimum 0 needs no claim; the optimum rests on level 3's.
    assert!(row(4).starts_with("| 4 | **0** | **2**ᵛ | **3**ᵛ | **3**ᵛ ([n4](proofs/n4)) |"), "{}", row(4));
    // n = 11: level 3 lies between level 2's claim and the optimum, both 28.
    assert!(row(11).starts_with("| 11 | **18**ᵛ | **28**ᵛ | **28**ᵛ |"), "{}", row(11));
    assert!(row(14).contains("| 177096ᶜ | 29632635076608ˡʳ |"), "{}", row(14));
    assert!(row(19).contains("| **60**ᵛ ([n19](proofs/n19)) |"), "{}", row(19));
    // An open side: its best grid, no proof yet.
    assert!(row(20).contains("|  | ≤66 ([grid](grids/n20-p66.txt)) |"), "{}", row(20));
}

/// A document's text outside its markers is kept byte for byte; a broken
/// marker is refused, naming the file.
#[test]
fn embedding_rewrites_only_the_marked_blocks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let results = collect(&Sources::under(root)).unwrap();
    let origin = Path::new("doc.md");
    let document = "before\n<!-- table results: counts begin -->\nstale\n<!-- table results: counts end -->\nafter\n";
    let (fresh, names) = embed::embed(document, &results, origin).unwrap();
    assert_eq!(names, ["counts"]);
    assert!(fresh.starts_with("before\n<!-- table results: counts begin -->\n| count |"), "{fresh}");
    assert!(fresh.ends_with("<!-- table results: counts end -->\nafter\n"), "{fresh}");
    assert_eq!(embed::embed(&fresh, &results, origin).unwrap().0, fresh, "embedding twice changes nothing");
    for broken in [
        "<!-- table results: counts begin -->\nno end\n",
        "<!-- table results: nothing begin -->\n<!-- table results: nothing end -->\n",
        "<!-- table results: counts begin --> trailing\n",
    ] {
        let error = embed::embed(broken, &results, origin).unwrap_err().to_string();
        assert!(error.contains("doc.md"), "{error}");
    }
}

fn hexcert(args: &[&str]) -> std::process::Output {
    let root = env!("CARGO_MANIFEST_DIR");
    std::process::Command::new(env!("CARGO_BIN_EXE_hexcert")).current_dir(root).args(args).output().unwrap()
}

/// The command prints every block; `--write` refuses a document without
/// markers, in one line and without touching it; the options of the other
/// tables are refused with it.
#[test]
fn table_results_prints_and_writes_only_marked_documents() {
    let out = hexcert(&["table", "results"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    for heading in ["## table\n", "## claims\n", "## counts\n"] {
        assert!(text.contains(heading), "{text}");
    }
    let dir = crate::common::Scratch::new("results-write");
    let plain = dir.join("plain.md");
    std::fs::write(&plain, "no markers here\n").unwrap();
    let out = hexcert(&["table", "results", "--write", plain.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no block to write"));
    assert_eq!(std::fs::read_to_string(&plain).unwrap(), "no markers here\n");
    let marked = dir.join("marked.md");
    std::fs::write(&marked, "<!-- table results: table begin -->\n<!-- table results: table end -->\n").unwrap();
    assert_eq!(hexcert(&["table", "results", "--write", marked.to_str().unwrap()]).status.code(), Some(0));
    assert!(std::fs::read_to_string(&marked).unwrap().contains("| 3 | **2**ᵛ |"));
    assert_eq!(hexcert(&["table", "results", "--record", "x.json"]).status.code(), Some(2));
    assert_eq!(hexcert(&["table", "counts"]).status.code(), Some(2), "counts needs --n");
    assert_eq!(hexcert(&["table", "counts", "--n", "3", "--write", "README.md"]).status.code(), Some(2));
}
