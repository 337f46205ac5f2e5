//! How a record or a proof can fail: one variant per way, so that the same
//! failure reads the same wherever it is found (a stored proof, a
//! regenerated one, a cube's), and callers can tell failures apart: it
//! reaches the command layer typed, as `HexError::Record` (`at`, in
//! error/mod.rs). It sits in the bottom layer, beside `HexError`, which
//! carries it; the records re-export it (`records::RecordError`).

/// One way a record, or the proof it names, fails.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RecordError {
    /// A device, fifo, directory or anything else that is not a plain file.
    #[error("not a regular file")]
    NotRegularFile,
    /// More bytes than the record can need.
    #[error("{bytes} bytes is more than the {limit} a {what} can need")]
    TooLarge { what: &'static str, bytes: u64, limit: u64 },
    /// A stored file named outside the directory of the record naming it
    /// (absolute, `..`, or a link leading out).
    #[error("the stored file `{name}` lies outside the {place} directory")]
    Outside { name: String, place: &'static str },
    /// Not JSON of the record's shape.
    #[error("not a valid record: {0}")]
    Malformed(String),
    /// Unreadable as the record it should be (`ledger::Parsed::Damaged`: the text says which).
    #[error("{0}")]
    Unreadable(String),
    /// A record another hexcert build wrote: another version of its format,
    /// or a field this build does not know.
    #[error("written by another hexcert build ({0}): use another directory for this one")]
    Foreign(String),
    /// A unit's record of another count or unit than the run reading it.
    #[error("a record of {found}, not of {expected}: use another directory for another count")]
    OtherUnit { found: String, expected: String },
    /// A `format` tag this build does not read.
    #[error("unknown record format `{0}`")]
    UnknownFormat(String),
    /// The statement does not agree with its numbers, or with what refers to it.
    #[error("{0}")]
    Header(String),
    /// A file's bytes are not those the record names.
    #[error("{what} has sha256 {actual}, the record says {expected}")]
    HashMismatch { what: String, actual: String, expected: String },
    /// The LRAT checker did not accept a proof, read in this run: the one
    /// carrier of that verdict. A stored proof's rejection is a record's
    /// failure (`.at(record)`); one met while solving (prove, a cube run, a
    /// listing) has no record yet and leaves as `HexError::Rejected`
    /// holding it (a solver or checker fault, exit 3).
    #[error("the LRAT checker rejected {what}: {verdict}")]
    LratRejected { what: String, verdict: String },
    /// A claim whose re-encoding would take more memory than this run allows.
    #[error("re-encoding it would take about {estimate_mb} MB, over the {budget_mb} MB budget")]
    OverBudget { estimate_mb: u64, budget_mb: u64 },
    /// The record on disk is no longer the one this run read (another
    /// command wrote it meanwhile): what this run would have written back
    /// is not, so that it reverts nothing. Not a fault of the record.
    #[error("changed on disk since this run read it (another command, such as a `cubes merge`, wrote it): this run's update was not written over it; run again")]
    Changed,
    /// A model validated below a bound that the record claims proved.
    #[error("contradicted: a valid level-{level} partial of penalty {penalty} lies below the bound it claims proved; set aside as {quarantine}")]
    Contradicted { level: u8, penalty: usize, quarantine: String },
}
