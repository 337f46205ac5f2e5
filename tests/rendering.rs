//! Rendering, checked on pixels: the SVG is rasterised with resvg and colours
//! are sampled at positions the library's own `Layout` computes, away from the
//! digits, so no check depends on which fonts the machine has.

use std::path::{Path, PathBuf};

use hexcert::formats::read_grid_file;
use hexcert::geometry::Hexagon;
use hexcert::levels::Partial;
use hexcert::rendering::{
    penalty_stroke, render_svg, Layout, DUPLICATE_STROKE, EQUAL_STROKE, HIGH_FILL, PLUS_FILL, RADIUS, VALUE_FILLS,
};
use hexcert::validation::{evaluate, PenaltyKind};
use resvg::{tiny_skia, usvg};

fn solution(name: &str) -> Partial {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/published").join(name);
    read_grid_file(&path, None).expect("reference solution reads").partial
}

fn rasterise(svg: &str) -> tiny_skia::Pixmap {
    let mut options = usvg::Options::default();
    // Fonts only affect the digits, which no probe touches; load them so the
    // PNG written for people to look at shows digits where fonts exist.
    options.fontdb_mut().load_system_fonts();
    let tree = usvg::Tree::from_str(svg, &options).expect("the SVG parses");
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).expect("non-empty canvas");
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
}

fn hex_rgb(colour: &str) -> [u8; 3] {
    let c = colour.trim_start_matches('#');
    std::array::from_fn(|k| u8::from_str_radix(&c[2 * k..2 * k + 2], 16).expect("#rrggbb"))
}

fn pixel(pixmap: &tiny_skia::Pixmap, (x, y): (f64, f64)) -> [u8; 3] {
    let p = pixmap.pixel(x as u32, y as u32).expect("probe inside the canvas").demultiply();
    [p.red(), p.green(), p.blue()]
}

/// Within a few levels per channel: antialiasing never reaches a probe, but be lenient.
fn assert_colour(pixmap: &tiny_skia::Pixmap, at: (f64, f64), expected: &str, what: &str) {
    let got = pixel(pixmap, at);
    let want = hex_rgb(expected);
    let close = got.iter().zip(want).all(|(&g, w)| g.abs_diff(w) <= 6);
    assert!(close, "{what} at ({:.1}, {:.1}): got {got:?}, expected {expected} = {want:?}", at.0, at.1);
}

fn expected_fill(partial: &Partial, cell: usize) -> &'static str {
    let v = partial.values()[cell];
    if partial.level() < 6 && partial.is_plus(cell) {
        PLUS_FILL
    } else if v <= 4 {
        VALUE_FILLS[usize::from(v) - 1]
    } else {
        HIGH_FILL
    }
}

#[test]
fn every_cell_of_a_full_grid_has_its_value_colour() {
    let partial = solution("CLEAN-3-58");
    let hex = Hexagon::new(3).unwrap();
    let layout = Layout::new(&hex);
    let pixmap = rasterise(&render_svg(&hex, &partial));
    assert!(partial.values().iter().any(|&v| v >= 5), "the grid shows the light colour too");
    for cell in 0..hex.cell_count() {
        let what = format!("cell {cell} value {}", partial.values()[cell]);
        assert_colour(&pixmap, layout.fill_probe(&hex, cell), expected_fill(&partial, cell), &what);
    }
}

#[test]
fn level_2_partial_draws_plus_cells_grey_and_penalty_edges_red_and_orange() {
    // The published n = 8 grid has two equal-value edges, 2-2 and 1-1: both decided at level 2.
    let partial = solution("CLEAN-8-611").truncate(2).unwrap();
    let hex = Hexagon::new(8).unwrap();
    let layout = Layout::new(&hex);
    let evaluation = evaluate(&hex, &partial);
    let pixmap = rasterise(&render_svg(&hex, &partial));
    pixmap.save_png(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("level2-n8.png")).expect("PNG written");
    let pluses: Vec<usize> = (0..hex.cell_count()).filter(|&c| partial.is_plus(c)).collect();
    assert!(!pluses.is_empty());
    for cell in 0..hex.cell_count() {
        assert_colour(&pixmap, layout.fill_probe(&hex, cell), expected_fill(&partial, cell), &format!("cell {cell}"));
    }
    let red = evaluation.penalty_edges.iter().find(|e| e.kind == PenaltyKind::Equal).expect("an equal-value edge");
    assert_eq!(partial.values()[red.u], partial.values()[red.v]);
    assert_colour(&pixmap, layout.edge_midpoint(&hex, red.u, red.v), EQUAL_STROKE, "equal-value edge");
    let orange = evaluation.penalty_edges.iter().find(|e| e.kind == PenaltyKind::DuplicateSupport);
    let orange = orange.expect("a duplicate-support edge");
    assert_colour(&pixmap, layout.edge_midpoint(&hex, orange.u, orange.v), DUPLICATE_STROKE, "duplicate-support edge");
}

#[test]
fn every_penalty_edge_of_an_optimum_is_marked_and_no_useful_edge_is() {
    let partial = solution("CLEAN-8-611");
    let hex = Hexagon::new(8).unwrap();
    let layout = Layout::new(&hex);
    let evaluation = evaluate(&hex, &partial);
    assert_eq!(evaluation.penalty, 20);
    let pixmap = rasterise(&render_svg(&hex, &partial));
    let kinds: Vec<PenaltyKind> = evaluation.penalty_edges.iter().map(|e| e.kind).collect();
    assert!(kinds.contains(&PenaltyKind::Equal) && kinds.contains(&PenaltyKind::DuplicateSupport));
    for e in &evaluation.penalty_edges {
        let what = format!("penalty edge {}-{} ({:?})", e.u, e.v, e.kind);
        assert_colour(&pixmap, layout.edge_midpoint(&hex, e.u, e.v), penalty_stroke(e.kind), &what);
    }
    let marked: Vec<(usize, usize)> = evaluation.penalty_edges.iter().map(|e| (e.u, e.v)).collect();
    for &(u, v) in hex.edges().iter().filter(|e| !marked.contains(e)) {
        let got = pixel(&pixmap, layout.edge_midpoint(&hex, u, v));
        for stroke in [EQUAL_STROKE, DUPLICATE_STROKE] {
            assert_ne!(got, hex_rgb(stroke), "useful edge {u}-{v} is drawn as a penalty");
        }
    }
}

#[test]
fn layout_puts_neighbours_one_cell_width_apart_inside_the_canvas() {
    let hex = Hexagon::new(5).unwrap();
    let layout = Layout::new(&hex);
    let (width, height) = layout.size();
    for &(u, v) in hex.edges() {
        let (a, b) = (layout.cell_centre(&hex, u), layout.cell_centre(&hex, v));
        let distance = ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
        assert!((distance - 3f64.sqrt() * RADIUS).abs() < 1e-9, "edge {u}-{v} spans {distance}");
    }
    for cell in 0..hex.cell_count() {
        let (x, y) = layout.cell_centre(&hex, cell);
        assert!(x > RADIUS && x < width - RADIUS && y > RADIUS && y < height - RADIUS);
    }
    let centre = layout.cell_centre(&hex, hex.centre());
    assert!((centre.0 - width / 2.0).abs() < 1e-9, "the centre cell is centred");
}

#[test]
fn output_is_deterministic_and_titled() {
    let hex = Hexagon::new(8).unwrap();
    let full = solution("CLEAN-8-611");
    let svg = render_svg(&hex, &full);
    assert_eq!(svg, render_svg(&hex, &full.clone()));
    assert!(svg.contains("n = 8 · level 6 · penalty 20 · score 442"), "title line");
    let partial = full.truncate(3).unwrap();
    let svg = render_svg(&hex, &partial);
    assert!(svg.contains("n = 8 · level 3 · penalty"));
    assert!(svg.contains(">+</text>") && !svg.contains(">4</text>"), "level 3 shows + and no 4");
    assert!(!svg.contains("score"));
    let unsupported = Partial::new(3, 2, vec![2; 19]).unwrap();
    let svg = render_svg(&Hexagon::new(3).unwrap(), &unsupported);
    assert!(svg.contains("INVALID: 19 cells lack support"), "an invalid partial says so");
}

/// docs/optimum-n8.svg is the picture of the n = 8 optimum the README shows;
/// it must match the renderer. `HEXCERT_UPDATE_DOCS=1` rewrites it. A PNG of it
/// lands in the target's temporary directory for people to look at.
#[test]
fn docs_picture_of_the_n8_optimum_is_current() {
    let hex = Hexagon::new(8).unwrap();
    let svg = render_svg(&hex, &solution("CLEAN-8-611"));
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/optimum-n8.svg");
    if std::env::var_os("HEXCERT_UPDATE_DOCS").is_some() {
        std::fs::create_dir_all(doc.parent().unwrap()).unwrap();
        std::fs::write(&doc, &svg).unwrap();
    }
    let png = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("optimum-n8.png");
    rasterise(&svg).save_png(&png).expect("PNG written");
    let committed =
        std::fs::read_to_string(&doc).expect("docs/optimum-n8.svg exists (HEXCERT_UPDATE_DOCS=1 writes it)");
    assert!(committed == svg, "docs/optimum-n8.svg is stale: rerun with HEXCERT_UPDATE_DOCS=1");
}

/// docs/GALLERY.md and its pictures in docs/gallery/ are what `hexcert
/// render --gallery` writes from the records (proofs/, grids/): the test
/// writes them again into a temporary folder and compares every file, so a
/// record, grid or renderer changed without the page fails here.
/// `UPDATE_GALLERY=1` rewrites the committed ones.
#[test]
fn the_gallery_in_docs_is_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fresh = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("gallery-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&fresh);
    let update = std::env::var_os("UPDATE_GALLERY").is_some();
    let page = if update { root.join("docs/GALLERY.md") } else { fresh.join("GALLERY.md") };
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hexcert"))
        .current_dir(root)
        .args(["render", "--gallery"])
        .arg(&page)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let written = page.parent().unwrap();
    let listing = |dir: &Path| -> Vec<(String, Vec<u8>)> {
        let mut files: Vec<_> = std::fs::read_dir(dir.join("gallery"))
            .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GALLERY=1 writes it)", dir.display()))
            .map(|e| e.unwrap().path())
            .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
            .collect();
        files.push(("GALLERY.md".into(), std::fs::read(dir.join("GALLERY.md")).unwrap_or_default()));
        files.sort();
        files
    };
    let (now, committed) = (listing(written), listing(&root.join("docs")));
    let names = |files: &[(String, Vec<u8>)]| files.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
    assert_eq!(names(&now), names(&committed), "the gallery's files differ: rerun with UPDATE_GALLERY=1");
    for ((name, bytes), (_, old)) in now.iter().zip(&committed) {
        assert!(bytes == old, "docs/{name} is stale: rerun with UPDATE_GALLERY=1");
    }
    let text = String::from_utf8(now.iter().find(|f| f.0 == "GALLERY.md").unwrap().1.clone()).unwrap();
    assert!(text.contains("| 16 | 47 | `proofs/n16/witness.txt` | certified optimum; lower bound `proofs/n16/level4-below47/claim.json` |"), "{text}");
    assert!(text.contains("| 27 | 85 | `grids/n27-p85.txt` | best known grid, not proven optimal |"), "{text}");
    let _ = std::fs::remove_dir_all(&fresh);
}

/// The gallery's status comes from the records: an optimum whose witness no
/// longer hashes to its record is drawn "NOT certified", and the best grid
/// of its side then "not proven optimal".
#[test]
fn the_gallery_judges_each_optimum_from_its_records() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("gallery-judged-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (proofs, grids) = (dir.join("proofs/n3"), dir.join("grids"));
    for (from, to) in [
        ("proofs/n3/optimum.json", proofs.join("optimum.json")),
        ("proofs/n3/witness.txt", proofs.join("witness.txt")),
        ("grids/n3-p3.txt", grids.join("n3-p3.txt")),
    ] {
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(root.join(from), to).unwrap();
    }
    let claim = proofs.join("level2-below3");
    std::fs::create_dir_all(&claim).unwrap();
    std::fs::copy(root.join("proofs/n3/level2-below3/claim.json"), claim.join("claim.json")).unwrap();
    let run = || {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_hexcert"))
            .current_dir(&dir)
            .args(["render", "--gallery", "out/GALLERY.md"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        std::fs::read_to_string(dir.join("out/GALLERY.md")).unwrap()
    };
    let page = run();
    assert!(
        page.contains(
            "| 3 | 3 | `proofs/n3/witness.txt` | certified optimum; lower bound `proofs/n3/level2-below3/claim.json` |"
        ) && page.contains("at the certified optimum |"),
        "{page}"
    );
    let witness = std::fs::read_to_string(proofs.join("witness.txt")).unwrap();
    std::fs::write(proofs.join("witness.txt"), format!("{witness}\n")).unwrap();
    let page = run();
    assert!(page.contains("| 3 | 3 | `proofs/n3/witness.txt` | NOT certified"), "{page}");
    assert!(page.contains("| 3 | 3 | `grids/n3-p3.txt` | best known grid, not proven optimal |"), "{page}");
    assert!(dir.join("out/gallery/n3-optimum.svg").is_file() && dir.join("out/gallery/n3-p3.svg").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}
