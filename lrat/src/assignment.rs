//! The partial assignment used while checking one step, and its undo trail.
//!
//! Invariant: between steps the assignment is empty (every variable
//! unassigned); a step assigns through `set_true` only, which records the
//! variable on the trail, and `undo` clears exactly those variables.
//! Values are stored per literal (both polarities) so reading a literal's
//! value is a single load in the hot loop.

/// Slack beyond twice the largest variable that a new literal may reach:
/// proofs may mention variables the formula does not, but a hostile literal
/// must not make the value table allocate gigabytes.
const VAR_SLACK: u64 = 1 << 20;

/// Why a literal could not be used.
pub(crate) enum LitRefusal {
    /// 0, or i32::MIN (whose negation does not exist).
    Invalid,
    /// Beyond `limit`.
    TooLarge { limit: u64 },
}

pub(crate) struct Assignment {
    /// Indexed by `code(lit)`: 1 true, -1 false, 0 unassigned.
    values: Vec<i8>,
    trail: Vec<u32>,
}

#[inline]
fn code(lit: i32) -> usize {
    ((lit.unsigned_abs() as usize) << 1) | (lit < 0) as usize
}

impl Assignment {
    pub(crate) fn new(vars: u32) -> Self {
        Assignment { values: vec![0; (vars as usize + 1) * 2], trail: Vec::new() }
    }

    /// The largest variable the table covers.
    fn max_var(&self) -> u64 {
        (self.values.len() / 2 - 1) as u64
    }

    /// Makes room for `lit`'s variable, refusing literals that cannot be
    /// negated and variables absurdly far beyond the ones seen so far.
    #[inline]
    pub(crate) fn admit(&mut self, lit: i32) -> Result<(), LitRefusal> {
        if lit == 0 || lit == i32::MIN {
            return Err(LitRefusal::Invalid);
        }
        let var = lit.unsigned_abs() as u64;
        if var > self.max_var() {
            let limit = self.max_var() * 2 + VAR_SLACK;
            if var > limit {
                return Err(LitRefusal::TooLarge { limit });
            }
            // Doubling keeps the growth amortised when variables creep up.
            let vars = var.max(self.max_var() * 2).min(limit) as usize;
            self.values.resize((vars + 1) * 2, 0);
        }
        Ok(())
    }

    /// 1 if `lit` is true, -1 if false, 0 if unassigned. `lit` was admitted.
    #[inline]
    pub(crate) fn value(&self, lit: i32) -> i8 {
        self.values[code(lit)]
    }

    /// Makes unassigned `lit` true.
    #[inline]
    pub(crate) fn set_true(&mut self, lit: i32) {
        let c = code(lit);
        self.values[c] = 1;
        self.values[c ^ 1] = -1;
        self.trail.push(lit.unsigned_abs());
    }

    pub(crate) fn undo(&mut self) {
        for &var in &self.trail {
            let c = (var as usize) << 1;
            self.values[c] = 0;
            self.values[c | 1] = 0;
        }
        self.trail.clear();
    }

    /// Admits `lits` and makes each one's negation true (skipping
    /// duplicates) while copying the distinct literals into `out`. Returns
    /// whether the clause is a tautology (holds some l and -l). The caller
    /// must `undo` afterwards, also on error.
    pub(crate) fn assume_negation(&mut self, lits: &[i32], out: &mut Vec<i32>) -> Result<bool, (i32, LitRefusal)> {
        out.clear();
        let mut tautology = false;
        for &lit in lits {
            self.admit(lit).map_err(|refusal| (lit, refusal))?;
            match self.value(lit) {
                0 => {
                    self.set_true(-lit);
                    out.push(lit);
                }
                // Already false: a repeated literal.
                -1 => {}
                // Already true: its negation came earlier.
                _ => {
                    tautology = true;
                    out.push(lit);
                }
            }
        }
        Ok(tautology)
    }
}
