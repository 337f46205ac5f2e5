//! The border bound (`hexcert::bound`): the owned charge sums to the
//! validator's penalty, the window programme agrees with brute force and,
//! over the whole hexagon, with the known minima, and the bound never
//! exceeds a certified minimum.

use hexcert::bound::annulus::{annulus, disc};
use hexcert::bound::own::{owned, owned_total};
use hexcert::bound::window::{window_bound, window_bound_within, Window};
use hexcert::bound::{border_bound, projected};
use hexcert::geometry::Hexagon;
use hexcert::levels::Partial;
use hexcert::validation::evaluate;

use crate::common::published_grids;

/// Minimum level-k penalties of docs/PROBLEM.md, section 6 (levels 1..=3), for n = 3..=12.
const MINIMA: [(usize, [u32; 3]); 10] = [
    (3, [2, 3, 3]),
    (4, [0, 2, 3]),
    (5, [7, 8, 9]),
    (6, [10, 12, 13]),
    (7, [12, 15, 16]),
    (8, [14, 18, 20]),
    (9, [18, 23, 24]),
    (10, [22, 26, 28]),
    (11, [18, 28, 28]),
    (12, [27, 30, 32]),
];

/// Calls `visit` on every valid level-`level` partial of side `n`, cells
/// assigned in index order, a cell judged as soon as its last neighbour is set.
fn each_valid_partial(n: usize, level: u8, visit: &mut dyn FnMut(&[u8])) {
    let hex = Hexagon::new(n).unwrap();
    let cells = hex.cell_count();
    // `judged_at[t]`: the cells whose neighbourhood is complete once cell `t` is set.
    let mut judged_at = vec![Vec::new(); cells];
    for c in 0..cells {
        let last = hex.neighbours(c).iter().copied().fold(c, usize::max);
        judged_at[last].push(c);
    }
    let valid = |values: &[u8], c: usize| {
        let seen = hex.neighbours(c).iter().fold(0u8, |s, &u| s | 1 << values[u]);
        (1..values[c]).all(|a| seen & 1 << a != 0)
    };
    let mut values = vec![0u8; cells];
    let mut t = 0usize;
    // An explicit stack: the value at each depth, 0 before the first try.
    loop {
        if t == cells {
            visit(&values);
            t -= 1;
        }
        loop {
            values[t] += 1;
            if values[t] > level + 1 {
                values[t] = 0;
                if t == 0 {
                    return;
                }
                t -= 1;
                continue;
            }
            if judged_at[t].iter().all(|&c| valid(&values, c)) {
                t += 1;
                break;
            }
        }
    }
}

#[test]
fn owned_penalty_sums_to_the_validators_on_every_valid_small_partial() {
    for (n, levels) in [(2, 1..=6), (3, 1..=1)] {
        let hex = Hexagon::new(n).unwrap();
        for level in levels {
            let mut seen = 0usize;
            each_valid_partial(n, level, &mut |values| {
                let partial = Partial::new(n, level, values.to_vec()).unwrap();
                let evaluation = evaluate(&hex, &partial);
                assert!(evaluation.is_valid(), "the enumeration gave an invalid partial {values:?}");
                assert_eq!(owned_total(&hex, &partial), evaluation.penalty, "n = {n}, level {level}: {values:?}");
                seen += 1;
            });
            assert!(seen > 0, "no valid partial of side {n} at level {level}");
        }
    }
}

/// A small deterministic generator (xorshift): the tests need spread, not quality.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn owned_penalty_sums_to_the_validators_on_random_and_published_partials() {
    let mut state = 0x2545_F491_4F6C_DD1D;
    for n in 4..=9 {
        let hex = Hexagon::new(n).unwrap();
        for level in 1..=6u8 {
            for _ in 0..200 {
                let values =
                    (0..hex.cell_count()).map(|_| (next(&mut state) % u64::from(level + 1)) as u8 + 1).collect();
                let partial = Partial::new(n, level, values).unwrap();
                assert_eq!(owned_total(&hex, &partial), evaluate(&hex, &partial).penalty);
            }
        }
    }
    for (n, path) in published_grids() {
        let hex = Hexagon::new(n).unwrap();
        let grid = crate::common::published(n);
        for level in 1..=6 {
            let partial = grid.truncate(level).unwrap();
            assert_eq!(owned_total(&hex, &partial), evaluate(&hex, &partial).penalty, "{}", path.display());
        }
    }
}

/// `B(W)` by brute force: every assignment of the reach, the window's cells
/// judged by the validator (cells outside the reach hold 1: no cell of the
/// window sees them), the owned penalty of the window summed.
fn brute_force(hex: &Hexagon, level: u8, window: &Window) -> Option<u32> {
    let reach = &window.order;
    let allowed = |c: usize| window.allowed.iter().filter(|&&(d, _)| d == c).fold(u16::MAX, |a, &(_, b)| a & b);
    let mut values = vec![1u8; hex.cell_count()];
    let mut best: Option<u32> = None;
    let combos = u64::from(level + 1).pow(reach.len() as u32);
    'each: for code in 0..combos {
        let mut rest = code;
        for &c in reach {
            values[c] = (rest % u64::from(level + 1)) as u8 + 1;
            rest /= u64::from(level + 1);
            if allowed(c) & 1 << values[c] == 0 {
                continue 'each;
            }
        }
        let partial = Partial::new(hex.side(), level, values.clone()).unwrap();
        if evaluate(hex, &partial).violations.iter().any(|v| window.inner.contains(&v.cell)) {
            continue;
        }
        let own: usize = window.inner.iter().map(|&c| owned(hex, level, &values, c)).sum();
        best = Some(best.map_or(own as u32, |b| b.min(own as u32)));
    }
    best
}

/// Small windows on the side-4 hexagon: single cells, pairs, a border
/// stretch with a corner, the centre under restrictions.
fn small_windows(hex: &Hexagon) -> Vec<Window> {
    let with_order = |inner: Vec<usize>, allowed: Vec<(usize, u16)>| {
        let mut order: Vec<usize> = inner.iter().flat_map(|&c| hex.neighbours(c).iter().copied().chain([c])).collect();
        order.sort_unstable();
        order.dedup();
        Window { inner, order, allowed }
    };
    let corner = 0;
    let centre = hex.centre();
    vec![
        with_order(vec![corner], vec![]),
        with_order(vec![corner, 1], vec![]),
        with_order(vec![0, 1, 2], vec![]),
        with_order(vec![1, 5], vec![]),
        with_order(vec![centre], vec![]),
        with_order(vec![centre], vec![(centre, 1 << 2)]),
        with_order(vec![centre, centre + 1], vec![(centre, 1 << 1), (centre + 1, 1 << 1)]),
        with_order(vec![3, 9], vec![(3, 1 << 1)]),
    ]
}

#[test]
fn the_window_programme_agrees_with_brute_force() {
    let hex = Hexagon::new(4).unwrap();
    for level in 1..=3u8 {
        for window in small_windows(&hex) {
            if window.order.len() > 9 && level == 3 {
                continue;
            }
            assert_eq!(
                window_bound(&hex, level, &window).unwrap(),
                brute_force(&hex, level, &window),
                "level {level}, window {:?}",
                window.inner
            );
        }
    }
}

#[test]
fn the_whole_hexagon_as_a_window_gives_the_known_minimum() {
    // n = 5 at level 1 only: its frontier at level 3 holds gigabytes.
    for &(n, minima) in MINIMA.iter().take(3) {
        let hex = Hexagon::new(n).unwrap();
        let all: Vec<usize> = (0..hex.cell_count()).collect();
        let window = Window { inner: all.clone(), order: all, allowed: vec![] };
        for (level, &minimum) in (1..=if n < 5 { 3u8 } else { 1 }).zip(&minima) {
            assert_eq!(window_bound(&hex, level, &window).unwrap(), Some(minimum), "n = {n}, level {level}");
        }
    }
}

#[test]
fn the_border_bound_never_exceeds_a_certified_minimum() {
    for &(n, minima) in &MINIMA[2..] {
        for (level, &minimum) in (1..=3u8).zip(&minima) {
            // Depth 3 at levels 1 and 2 only, where it takes seconds.
            for depth in 1..=if level < 3 && n <= 8 { 3 } else { 2 } {
                let bound = border_bound(n, level, depth).unwrap();
                assert!(bound <= minimum, "n = {n}, level {level}, depth {depth}: bound {bound} over {minimum}");
            }
        }
    }
}

#[test]
fn a_disc_restricted_to_a_projection_is_bounded_and_can_be_infeasible() {
    let hex = Hexagon::new(9).unwrap();
    let centre = hex.centre();
    // A centre of value 1 beside a neighbour of value 1: their equal edge, and
    // each of their two common neighbours (in the disc) sees two 1s or is a 1.
    let pair = vec![(centre, projected(3, 1, 1)), (hex.neighbours(centre)[0], projected(3, 1, 1))];
    assert!(disc(&hex, 2, pair.clone()).inner.contains(&centre));
    assert_eq!(window_bound(&hex, 3, &disc(&hex, 1, pair)).unwrap(), Some(3));
    // Level 1: a `+` centre whose six neighbours are `+` sees no 1.
    let mut lonely = vec![(centre, projected(1, 1, 2))];
    lonely.extend(hex.neighbours(centre).iter().map(|&u| (u, projected(1, 1, 2))));
    assert_eq!(window_bound(&hex, 1, &disc(&hex, 1, lonely)).unwrap(), None);
    assert!(annulus(&hex, 1).inner.len() == 6 * 8);
}

#[test]
fn the_capped_programme_finds_the_bound_at_its_cap_and_nothing_below() {
    // The cap prunes by what a state paid plus a floor on what the rest of the
    // sweep pays (swept backwards with the closing seam unlinked on annuli):
    // a floor above the truth would make the cap miss the bound.
    let check = |hex: &Hexagon, level: u8, window: &Window, what: &str| {
        let bound = window_bound(hex, level, window).unwrap().expect("a valid assignment");
        assert_eq!(window_bound_within(hex, level, window, bound).unwrap(), Some(bound), "{what} at its bound");
        if bound > 0 {
            assert_eq!(window_bound_within(hex, level, window, bound - 1).unwrap(), None, "{what} below its bound");
        }
        bound
    };
    let hex = Hexagon::new(4).unwrap();
    for level in 1..=3u8 {
        for window in small_windows(&hex).into_iter().filter(|w| w.order.len() <= 9 || level < 3) {
            if window_bound(&hex, level, &window).unwrap().is_some() {
                check(&hex, level, &window, &format!("level {level}, window {:?}", window.inner));
            }
        }
    }
    let mut positive = 0;
    for (n, level, depth) in [(5, 2, 3), (6, 2, 3), (7, 2, 3), (8, 1, 3), (6, 3, 2), (7, 3, 2)] {
        let hex = Hexagon::new(n).unwrap();
        let bound = check(&hex, level, &annulus(&hex, depth), &format!("n = {n}, level {level}, depth {depth}"));
        positive += usize::from(bound > 0);
        if level == 3 {
            assert_eq!(border_bound(n, level, depth).unwrap(), bound, "n = {n}: the search from level 2's bound");
        }
    }
    assert!(positive >= 4, "the annuli must have bounds for the cap to prune");
}
