//! Pictures of grids (work in progress).
