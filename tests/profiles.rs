//! Solver profiles: the options a claim was solved with are part of what
//! `check --regenerate` needs to get its proof again, so every claim names
//! its profile in `solver.options` and every name stays readable.

use std::path::Path;

use hexcert::records::{read_json, Claim};
use hexcert::solving::profile::{Profile, CURRENT, DEFAULT, PROFILES};

/// Every file under `dir` that `keep` takes (claims, cube records).
fn committed(dir: &Path, keep: &dyn Fn(&Path) -> bool, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            committed(&path, keep, out);
        } else if keep(&path) {
            out.push(path);
        }
    }
}

fn proofs() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("proofs")
}

#[test]
fn every_profile_reads_back_from_its_record_text_and_names_differ() {
    for profile in PROFILES {
        assert_eq!(Profile::from_record(&profile.record_text()).unwrap(), *profile);
        assert_eq!(Profile::named(profile.name).unwrap(), *profile);
    }
    let names: std::collections::BTreeSet<_> = PROFILES.iter().map(|p| p.name).collect();
    assert_eq!(names.len(), PROFILES.len());
    assert_ne!(CURRENT.record_text(), DEFAULT.record_text(), "new proofs say they used other options");
}

#[test]
fn committed_plain_claims_name_a_known_profile() {
    let mut claims = Vec::new();
    committed(&proofs(), &|p| p.file_name().is_some_and(|n| n == "claim.json"), &mut claims);
    let mut plain = 0;
    for path in claims {
        let Ok(claim) = read_json::<Claim>(&path) else { continue };
        Profile::from_record(&claim.solver.options).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        plain += 1;
    }
    assert!(plain >= 10, "only {plain} plain claims read");
}

#[test]
fn an_unknown_profile_is_refused_in_one_line() {
    let error = Profile::from_record("stabilize=0 and something new").unwrap_err().to_string();
    assert!(error.contains("no known profile") && !error.contains('\n'), "{error}");
    let error = Profile::named("fastest").unwrap_err().to_string();
    assert!(error.contains("fastest") && error.contains(DEFAULT.name), "{error}");
}

/// Every cube record committed under proofs/ (a `results/` directory of a
/// plan): `check --regenerate` re-solves each with the profile it names, so
/// a profile dropped from the table would strand a campaign.
#[test]
fn committed_cube_records_name_a_known_profile() {
    let mut paths = Vec::new();
    let record =
        |p: &Path| p.parent().is_some_and(|d| d.ends_with("results")) && p.extension().is_some_and(|e| e == "json");
    committed(&proofs(), &record, &mut paths);
    let mut named = std::collections::BTreeSet::new();
    for path in &paths {
        let record: hexcert::records::cube::CubeResult =
            read_json(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if let Some(name) = record.solver_profile {
            Profile::named(&name).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            named.insert(name);
        }
    }
    assert!(paths.len() >= 300, "only {} cube records read", paths.len());
    assert!(named.contains("hexcert-2"), "the campaigns so far name hexcert-2: {named:?}");
}
