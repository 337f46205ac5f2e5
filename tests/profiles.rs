//! Solver profiles: the options a claim was solved with are part of what
//! `check --regenerate` needs to get its proof again, so every claim names
//! its profile in `solver.options` and every name stays readable.

use std::path::Path;

use hexcert::records::{read_json, Claim};
use hexcert::solving::profile::{Profile, CURRENT, DEFAULT, PROFILES};

/// Every claim committed under proofs/.
fn committed_claims(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            committed_claims(&path, out);
        } else if path.file_name().is_some_and(|n| n == "claim.json") {
            out.push(path);
        }
    }
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
    committed_claims(&Path::new(env!("CARGO_MANIFEST_DIR")).join("proofs"), &mut claims);
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
