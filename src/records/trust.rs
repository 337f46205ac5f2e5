//! The trust base: what a reader of a record must trust besides the
//! checkers' verdicts, derived from what the record states (its encoder
//! options, the checkers that ran, the statement -> CNF record, the cubes
//! attested rather than checked). One function, `trust_base`, writes it for
//! every kind of claim; `check` requires a claim's stated list to be this
//! one, so a record cannot leave an item out.

use super::claim::{CheckerRecord, Claim, StatementRecord};
use super::cube::{all_lifted, all_verified, Attested, CubeClaim};
use super::plan::Plan;
use crate::encoding::{EncodeOptions, SymmetryBreaking, ENCODER_VERSION};
use crate::statement::STATEMENT_VERSION;

/// What a trust base is derived from.
pub enum Basis<'a> {
    /// A claim proved whole: its encoder options, the external DRAT checkers
    /// that ran, its statement -> CNF record.
    /// `verified`: the verified checker's version when it accepted the proof.
    Claim {
        options: &'a EncodeOptions,
        drat_checks: &'a [CheckerRecord],
        statement: Option<&'a StatementRecord>,
        verified: Option<&'a str>,
    },
    /// A claim merged from cubes: its plan, statement -> split formula
    /// record, whether every verdict was lifted, and its attested cubes.
    /// `verified`: the verified checker's version when it accepted every
    /// cube's proof (each record holding its verdict).
    Cubes {
        plan: &'a Plan,
        statement: Option<&'a StatementRecord>,
        lifted: bool,
        attested: Option<&'a [Attested]>,
        verified: Option<&'a str>,
    },
}

impl<'a> Basis<'a> {
    pub fn of_claim(claim: &'a Claim, options: &'a EncodeOptions) -> Basis<'a> {
        let verified = claim.verified_lrat.as_ref().filter(|v| v.counts_as_verified()).map(|v| v.version.as_str());
        Basis::Claim { options, drat_checks: &claim.drat_checks, statement: claim.statement_to_cnf.as_ref(), verified }
    }

    pub fn of_cube_claim(claim: &'a CubeClaim) -> Basis<'a> {
        Basis::Cubes {
            plan: &claim.plan,
            statement: claim.statement_to_cnf.as_ref(),
            lifted: all_lifted(&claim.cubes),
            attested: claim.attested.as_deref(),
            verified: all_verified(&claim.cubes),
        }
    }
}

/// The trust base of a record, from what it states.
pub fn trust_base(basis: Basis<'_>) -> Vec<String> {
    match basis {
        Basis::Claim { options, drat_checks, statement, verified } => {
            let mut items = claim_base(options, drat_checks, statement);
            if let Some(version) = verified {
                items.push(verified_item(version, "the proof, read on the claim's CNF"));
            }
            items
        }
        Basis::Cubes { plan, statement, lifted, attested, verified } => {
            let mut items = cube_base(plan, statement, lifted);
            if let Some(version) = verified {
                items.push(verified_item(
                    version,
                    "every cube's proof, read on the cube's own formula (the split formula's first clauses plus the units \
                     its selector implies: the split step; the cover is not this checker's)",
                ));
            }
            if let Some(attested) = attested.filter(|a| !a.is_empty()) {
                items.push(attested_item(attested));
            }
            items
        }
    }
}

/// The item a claim gains when the verified checker accepted its proofs
/// (`what`): a fault in hexcert-lrat alone can no longer make it false.
fn verified_item(version: &str, what: &str) -> String {
    format!(
        "or, independently of hexcert-lrat, the formally verified LRAT checker cake_lpr (CakeML, proved correct in HOL4; \
         {version}) and its verdict `s VERIFIED UNSAT` on {what}"
    )
}

/// The item naming the cubes a merge did not check, and where they ran.
fn attested_item(attested: &[Attested]) -> String {
    let named: Vec<String> = attested.iter().map(|a| format!("cube {} ({})", a.cube, a.written_by)).collect();
    format!(
        "attested, not checked when merged: the LRAT verdicts recorded by the runs that solved {} of the plan's cubes, \
         whose proofs were not stored: {} (`hexcert check --regenerate` re-solves and checks them)",
        attested.len(),
        named.join(", ")
    )
}

/// The short list of what a reader must trust besides the checkers' verdicts:
/// the three items of docs/SOUNDNESS.md when VeriPB accepted the derivation
/// of the CNF from the statement, else the encoder and the lex-leader argument.
fn claim_base(
    options: &EncodeOptions,
    drat_checks: &[CheckerRecord],
    statement: Option<&StatementRecord>,
) -> Vec<String> {
    if statement.is_some_and(StatementRecord::accepted) {
        return checked_base(drat_checks);
    }
    let mut base = vec![
        format!(
            "the encoder {ENCODER_VERSION} (src/encoding): the CNF says 'valid level-k partial with penalty <= B-1' \
                 (docs/PROBLEM.md); cross-checked against the independent validator and brute force (tests/sat.rs)"
        ),
        "refinement never lowers the penalty (docs/PROBLEM.md, section 4; tests/validation.rs)".into(),
        "the LRAT checker hexcert-lrat (lrat/ in this repository, which imports nothing from the solver, \
         the encoder or the search) and its verdict"
            .into(),
    ];
    for check in drat_checks {
        base.push(format!("or, independently, the DRAT checker {} and its verdict line", check.name));
    }
    if options.symmetry != SymmetryBreaking::None {
        base.push(format!("symmetry breaking: {}", options.symmetry.soundness()));
    }
    base
}

/// The trust base of a claim whose derivation VeriPB accepted: the three
/// items of docs/SOUNDNESS.md.
fn checked_base(drat_checks: &[CheckerRecord]) -> Vec<String> {
    let mut cnf_checker =
        "the CNF checker: the LRAT checker hexcert-lrat (lrat/ in this repository, which imports nothing \
         from the solver, the encoder or the search) and its verdict"
            .to_string();
    for check in drat_checks {
        cnf_checker.push_str(&format!("; or, independently, the DRAT checker {} and its verdict line", check.name));
    }
    vec![
        format!(
            "the OPB statement {STATEMENT_VERSION} (docs/STATEMENT.md maps each constraint to docs/PROBLEM.md): \
             it has a solution iff some valid level-k partial has penalty below B"
        ),
        "the VeriPB checker and its verdict `s VERIFIED OUTPUT DERIVABLE` on the derivation of the CNF from the statement \
         (statement_to_cnf): the encoder and the symmetry breaking are checked, not trusted"
            .into(),
        cnf_checker,
    ]
}

/// What a cube claim rests on: with a derivation VeriPB accepted
/// (`statement`), the statement, VeriPB and the LRAT checker, plus the split
/// step unless every cube's verdict was `lifted` onto the split formula
/// (docs/SOUNDNESS.md, section 7); else the encoder and the cover argument.
fn cube_base(plan: &Plan, statement: Option<&StatementRecord>, lifted: bool) -> Vec<String> {
    if statement.is_some_and(StatementRecord::accepted) {
        let mut items = checked_base(&[]);
        items[1] = "the VeriPB checker and its verdict `s VERIFIED OUTPUT DERIVABLE` on the derivation of the plan's split \
             formula from the statement (statement_to_cnf): the encoder, the orbit reduction by dominance and the cover are \
             checked, not trusted"
            .into();
        items[2] = if lifted {
            "the CNF checker: the LRAT checker hexcert-lrat (lrat/ in this repository, which imports nothing from the \
             solver, the encoder or the search) and its verdict on every cube's refutation read on the split formula, each \
             deriving the cube's negated selector (with the split formula's last clause, its refutation)"
        } else {
            "the CNF checker: the LRAT checker hexcert-lrat (lrat/ in this repository, which imports nothing from the \
             solver, the encoder or the search) and its verdict on every cube's formula"
        }
        .into();
        if !lifted {
            items.push(
                "the split step: each cube's formula is the split formula's first clauses (the plain CNF) plus, as units, the \
                 literals its selector implies there, so a model of the split formula is a model of the formula of a cube whose \
                 selector it sets (src/cubes/mod.rs, split_formula and cube_formula; `hexcert check` rebuilds both from the plan \
                 and compares hashes, and checks a stored cube proof lifted onto the split formula, hexcert_lrat::Lifted)"
                    .into(),
            );
        }
        return items;
    }
    // A plan with a tie-break has lex-leader clauses no argument here covers
    // (`check` reports such a claim unverified until VeriPB checks them).
    let symmetry = if plan.tie_break.is_none() {
        "without symmetry breaking".to_string()
    } else {
        format!("with the plan's tie-break ({}) lex-leader clauses, which no argument covers: only a checked derivation of the split formula from the statement does, and `hexcert check` calls the claim unverified without one", plan.tie_break.name())
    };
    vec![
        format!("the encoder {} (src/encoding), {symmetry}: the CNF says 'valid level-k partial with penalty <= B-1' (docs/PROBLEM.md); cross-checked against the independent validator and brute force (tests/sat.rs)", plan.encoder),
        "each cube's formula is that CNF plus the unit clauses of the cube's projected values (src/cubes/mod.rs, cube_formula); its hash is re-computed by `hexcert check`".into(),
        format!("the cover: {} (re-checked by `hexcert check`)", plan.cover_argument),
        "the LRAT checker hexcert-lrat (lrat/ in this repository, which imports nothing from the solver, the encoder or the search) and its verdict on every cube".into(),
    ]
}
