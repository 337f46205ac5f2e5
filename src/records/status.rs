//! What one run established about a record. Shared by `check` and the
//! statement -> CNF check, so neither imports the other for it.

/// What a run established about one record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Everything the record states was checked in this run.
    Verified,
    /// Something the record states is false, inconsistent or unreadable.
    Failed,
    /// Nothing was found wrong, but not everything was checked (a proof not
    /// stored, or a cube attested by the run that wrote it).
    Unverified,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Verified => "verified",
            Status::Failed => "failed",
            Status::Unverified => "unverified",
        }
    }

    /// The status of a record resting on two parts: the weaker of the two.
    pub fn and(self, other: Status) -> Status {
        match (self, other) {
            (Status::Failed, _) | (_, Status::Failed) => Status::Failed,
            (Status::Unverified, _) | (_, Status::Unverified) => Status::Unverified,
            _ => Status::Verified,
        }
    }
}
