//! The library's option enums as clap values (clap stays in the binary):
//! one `choice!` each, whose variants' doc comments are their help lines.

/// The library's option enums as clap values: clap stays in the binary. A
/// variant's doc comment is its help line; `From` gives the library's value.
macro_rules! choice {
    ($(#[$doc:meta])* $name:ident => $lib:ty, default $default:ident { $($(#[$vdoc:meta])* $variant:ident,)+ }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
        pub(crate) enum $name {
            $($(#[$vdoc])* $variant,)+
        }

        impl Default for $name {
            fn default() -> Self {
                $name::$default
            }
        }

        impl From<$name> for $lib {
            fn from(value: $name) -> $lib {
                match value {
                    $($name::$variant => <$lib>::$variant,)+
                }
            }
        }
    };
}

choice! {
    /// The cardinality encodings on offer.
    Cardinality => hexcert::encoding::Cardinality, default WedgeCounter {
        /// Sinz's sequential counter, written here: `m * bound` auxiliary
        /// variables, over the penalty variables in edge index order.
        SequentialCounter,
        /// RustSAT's totalizer (Bailleux and Boufkhad), restricted to the bound.
        Totalizer,
        /// The sequential counter over the penalty variables in wedge order
        /// (by angle around the centre, then outwards): refutes fastest.
        WedgeCounter,
    }
}

choice! {
    /// Symmetry breaking the encoder can add.
    SymmetryBreaking => hexcert::encoding::SymmetryBreaking, default None {
        None,
        /// Lex-leader over the 12 symmetries on the centre's six neighbours.
        Ring1LexLeader,
    }
}

choice! {
    /// Symmetry breaking inside a plan's cubes.
    TieBreak => hexcert::encoding::TieBreak, default None {
        /// None: the plain formula (as every plan before).
        None,
        /// The split cells' readings, then the ring just outside the split
        /// (distance radius + 1), full values, cells in index order.
        NextRing,
    }
}

#[cfg(feature = "solver")]
choice! {
    /// When `certify` answers a bounded query with cubes.
    CubeUse => hexcert::certify::CubeUse, default Auto {
        /// Always one call.
        Never,
        /// Queries predicted long: level 2 and up from n = 12 (n = 11's longest
        /// query, level 2, took 13 minutes as one call; n = 12's are past what
        /// was measured as one call), and only once they have run whole for
        /// `cubes_after` seconds without an answer.
        Auto,
        /// Every bounded query.
        Always,
    }
}

#[cfg(feature = "solver")]
choice! {
    /// When a new proof is also checked by an external DRAT checker.
    ExternalCheck => hexcert::certify::ExternalCheck, default Stored {
        /// Never.
        Never,
        /// Proofs under the store limit (committed with their CNF).
        Stored,
        /// Every proof.
        Always,
    }
}

#[cfg(feature = "solver")]
choice! {
    /// CaDiCaL's option set for the grid search's solvers.
    SolverConfiguration => hexcert::solving::Configuration, default Sat {
        /// CaDiCaL's configuration for satisfiable formulas (stable mode only).
        Sat,
        /// CaDiCaL's defaults.
        Default,
    }
}

choice! {
    /// How `count --road extension` counts levels 5 and 6 (`counting::Via`).
    Via => hexcert::counting::Via, default Lift {
        /// The program of `lift` over the `+` cells of each level-3 partial.
        Lift,
        /// The level-4 refinements of each one met one by one, counted by the chain polynomials.
        Chains,
    }
}

choice! {
    /// How `table counts` reaches levels 5 and 6 (`counting::Upper`).
    Upper => hexcert::counting::Upper, default Chains {
        /// The chain products over every level-4 partial the tables list.
        Chains,
        /// The extension road's lift of the level-3 partials at the minimum.
        Lift,
    }
}
