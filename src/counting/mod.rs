//! Exact counts of minimum-penalty level-k partials (work in progress).
