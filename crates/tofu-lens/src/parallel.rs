//! An ordered parallel map on scoped threads: `jobs` workers take items in
//! order, and the results reach the caller's sink in the items' order, each as
//! soon as every earlier one has been delivered.
//!
//! Workers never run more than `window` items ahead of the sink, so at most
//! that many results wait in memory: memory is bounded by the work in flight,
//! not by the number of items. With one job everything runs on the calling
//! thread. (A scoped pool of a few lines rather than a crate: the CLI needs
//! nothing else of one.)

use std::collections::BTreeMap;
use std::sync::{Condvar, Mutex};

/// Runs `work` on every item with `jobs` threads and calls `sink` with the
/// results in item order.
pub fn ordered_map<T, R, W, S>(items: &[T], jobs: usize, work: W, mut sink: S)
where
    T: Sync,
    R: Send,
    W: Fn(&T) -> R + Sync,
    S: FnMut(R),
{
    if jobs <= 1 || items.len() <= 1 {
        for item in items {
            sink(work(item));
        }
        return;
    }
    let window = jobs * 4;
    let state = Mutex::new(State {
        next_to_take: 0,
        next_to_deliver: 0,
        done: BTreeMap::new(),
        panicked: false,
    });
    let changed = Condvar::new();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| loop {
                let index = {
                    let mut guard = lock(&state);
                    while !guard.panicked
                        && guard.next_to_take < items.len()
                        && guard.next_to_take >= guard.next_to_deliver + window
                    {
                        guard = changed.wait(guard).unwrap_or_else(|e| e.into_inner());
                    }
                    if guard.next_to_take >= items.len() || guard.panicked {
                        return;
                    }
                    guard.next_to_take += 1;
                    guard.next_to_take - 1
                };
                let Some(item) = items.get(index) else { return };
                // A panic must not leave the sink waiting for this item: it
                // is recorded, the sink stops, and the scope re-raises it.
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(item)));
                let payload = {
                    let mut guard = lock(&state);
                    match outcome {
                        Ok(result) => {
                            guard.done.insert(index, result);
                            None
                        }
                        Err(payload) => {
                            guard.panicked = true;
                            Some(payload)
                        }
                    }
                };
                changed.notify_all();
                if let Some(payload) = payload {
                    std::panic::resume_unwind(payload);
                }
            });
        }
        loop {
            let ready = {
                let mut guard = lock(&state);
                loop {
                    if guard.panicked || guard.next_to_deliver >= items.len() {
                        return;
                    }
                    let next = guard.next_to_deliver;
                    if let Some(result) = guard.done.remove(&next) {
                        guard.next_to_deliver += 1;
                        break result;
                    }
                    guard = changed.wait(guard).unwrap_or_else(|e| e.into_inner());
                }
            };
            changed.notify_all();
            sink(ready);
        }
    });
}

struct State<R> {
    next_to_take: usize,
    next_to_deliver: usize,
    done: BTreeMap<usize, R>,
    panicked: bool,
}

fn lock<R>(state: &Mutex<State<R>>) -> std::sync::MutexGuard<'_, State<R>> {
    state.lock().unwrap_or_else(|e| e.into_inner())
}

/// The number of jobs when the user names none: every core.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_arrive_in_order_whatever_the_jobs() {
        let items: Vec<u64> = (0..200).collect();
        for jobs in [1, 2, 3, 8] {
            let mut seen = Vec::new();
            ordered_map(
                &items,
                jobs,
                |n| {
                    // Uneven work, so workers finish out of order.
                    let spins = (n * 7919) % 1000;
                    (0..spins).fold(*n, |acc, x| acc.wrapping_add(x % 3))
                        - (0..spins).map(|x| x % 3).sum::<u64>()
                },
                |n| seen.push(n),
            );
            assert_eq!(seen, items, "jobs = {jobs}");
        }
    }

    #[test]
    fn no_items_and_one_item() {
        let mut seen = Vec::new();
        ordered_map(&Vec::<u32>::new(), 4, |n| *n, |n| seen.push(n));
        ordered_map(&[7u32], 4, |n| *n, |n| seen.push(n));
        assert_eq!(seen, [7]);
    }

    #[test]
    fn a_panicking_item_ends_the_map_instead_of_hanging_it() {
        let items: Vec<u32> = (0..100).collect();
        let outcome = std::panic::catch_unwind(|| {
            let mut delivered = 0;
            ordered_map(
                &items,
                3,
                |n| {
                    assert!(*n != 10, "item 10 fails");
                    *n
                },
                |_| delivered += 1,
            );
            delivered
        });
        assert!(outcome.is_err());
    }
}
