//! The recount road (`hexcert::recount`: a plain CNF of one class's
//! refinements, counted by an external exact model counter) against the
//! lift, class by class: every level-3 class of n = 5 to 8 up to one above
//! the level-3 minimum (n = 8: at it), refined to levels 4, 5 and 6 adding
//! each penalty the bound allows (0, and 1 for the classes at the minimum:
//! the counter's "exactly d" with d > 0). The lift's classes are compared
//! with the sweep in tests/refinement.rs, so this ties the CNF to the counts
//! of README's table.

use hexcert::counting::{extended_from_listed, Count, CountSettings};
use hexcert::geometry::Hexagon;
use hexcert::levels::Partial;
use hexcert::recount::{chosen, recount_class, ExternalCounter};

#[test]
fn the_recount_agrees_with_the_lift_class_by_class() {
    let Some(program) = crate::common::ganak_counter() else { return };
    let mut counter = ExternalCounter::start(&program).expect("the counter starts");
    assert!(counter.name.starts_with("pyganak "), "{}", counter.name);
    let mut compared = 0;
    for (side, above) in [(5, 1), (6, 1)] {
        let hex = Hexagon::new(side).unwrap();
        let bound = Count::new(&hex, 3).minimum().unwrap() + above;
        let mut listed = Vec::new();
        Count::new(&hex, 3)
            .for_each_partial(bound, |values, penalty| {
                listed.push((Partial::new(side, 3, values.to_vec()).unwrap(), penalty));
            })
            .unwrap();
        for level in 4..=6 {
            let found = extended_from_listed(&hex, (3, level), &listed, bound, &CountSettings::default()).unwrap();
            let classes = found.by_class.expect("every class counted in this run");
            assert_eq!(classes.len(), found.classes);
            for class in &classes {
                for (added, lifted) in class.counts.iter().enumerate() {
                    let (recounted, _) = recount_class(&mut counter, &hex, &class.values, (level, added)).unwrap();
                    assert_eq!(&recounted, lifted, "n = {side} level {level}, adding {added}: {:?}", class.values);
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 200, "{compared} classes compared");
}

/// The sample: every row the lift counts something of, and `K` of the
/// others, drawn again the same by the same seed, another by another; all
/// of them when there are fewer than `K`.
#[test]
fn the_sample_keeps_the_nonzero_rows_and_draws_by_its_seed() {
    let zero: Vec<bool> = (0..1000).map(|r| r % 7 != 0).collect();
    let drawn = chosen(&zero, Some((200, 5)));
    assert_eq!(drawn, chosen(&zero, Some((200, 5))));
    assert_ne!(drawn, chosen(&zero, Some((200, 6))));
    assert!((0..1000).filter(|r| r % 7 == 0).all(|r| drawn.contains(&r)));
    assert_eq!(drawn.len(), 143 + 200);
    assert!(drawn.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(chosen(&zero, Some((5000, 1))).len(), 1000);
    assert_eq!(chosen(&zero, None), (0..1000).collect::<Vec<_>>());
}
