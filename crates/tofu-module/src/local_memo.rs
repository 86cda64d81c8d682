//! Local values evaluated on demand, each at most once: the memo that
//! `ModuleValues` (hover, console) and the rules' `WalkValues` (validate's
//! view) share. A local value that reaches itself while being evaluated,
//! or lies deeper than [`MAX_LOCAL_DEPTH`] below the first one asked for,
//! gets the caller's cut-off value instead (unknown), so the stack stays
//! bounded whatever the module writes.

use std::cell::{Cell, RefCell};

use rustc_hash::FxHashMap as HashMap;

/// How many local values may lie between the first one asked for and the
/// one being evaluated before the rest is cut off.
pub const MAX_LOCAL_DEPTH: usize = 64;

/// What each local value asked for evaluated to, by name.
pub struct LocalMemo<T> {
    states: RefCell<HashMap<String, State<T>>>,
    depth: Cell<usize>,
}

/// A local value being evaluated, or evaluated.
enum State<T> {
    InProgress,
    Done(T),
}

impl<T: Clone> Default for LocalMemo<T> {
    fn default() -> Self {
        LocalMemo::new()
    }
}

impl<T: Clone> LocalMemo<T> {
    pub fn new() -> Self {
        LocalMemo {
            states: RefCell::new(HashMap::default()),
            depth: Cell::new(0),
        }
    }

    /// The value of the local value `name`: remembered, else `cut_off` when
    /// it is being evaluated (it reaches itself) or lies too deep, else
    /// what `evaluate` gives, remembered. `evaluate` may ask for other
    /// local values through the same memo.
    pub fn value(&self, name: &str, cut_off: T, evaluate: impl FnOnce() -> T) -> T {
        match self.states.borrow().get(name) {
            Some(State::Done(value)) => return value.clone(),
            Some(State::InProgress) => return cut_off,
            None => {}
        }
        if self.depth.get() >= MAX_LOCAL_DEPTH {
            return cut_off;
        }
        self.states
            .borrow_mut()
            .insert(name.to_owned(), State::InProgress);
        self.depth.set(self.depth.get() + 1);
        let value = evaluate();
        self.depth.set(self.depth.get().saturating_sub(1));
        self.states
            .borrow_mut()
            .insert(name.to_owned(), State::Done(value.clone()));
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_local_is_evaluated_once_and_one_reaching_itself_is_cut_off() {
        let memo = LocalMemo::new();
        let calls = Cell::new(0);
        let evaluate = || {
            calls.set(calls.get() + 1);
            memo.value("a", -1, || 0) + 1
        };
        assert_eq!(memo.value("a", -1, evaluate), 0);
        assert_eq!(calls.get(), 1);
        assert_eq!(memo.value("a", -1, || 99), 0);
    }

    #[test]
    fn a_chain_deeper_than_the_bound_is_cut_off() {
        fn chain(memo: &LocalMemo<usize>, index: usize) -> usize {
            memo.value(&format!("l{index}"), 0, || chain(memo, index + 1) + 1)
        }
        assert_eq!(chain(&LocalMemo::new(), 0), MAX_LOCAL_DEPTH);
    }
}
