//! Huffman code lengths and codes as Go's `compress/flate` assigns them, so
//! that `base64gzip` writes the bits OpenTofu writes.
//!
//! Go limits code lengths with a lazy boundary package-merge: one chain of
//! nodes per length, where each level grows by taking either its next
//! unused symbol or a package of the next two nodes of the level below,
//! whichever weighs less (the package on a tie). The number of symbols each
//! level holds in the final chain of the top level gives how many symbols
//! get each length; the most frequent symbols get the shortest codes, ties
//! broken by symbol number. Codes are canonical (RFC 1951, 3.2.2). One or
//! two used symbols get one-bit codes without a tree.

/// The weight of a candidate that does not exist.
const ABSENT: u64 = u64::MAX;

/// Go never asks for codes longer than 15 bits.
const MAX_LEVELS: usize = 16;

/// A used symbol and how often the block uses it.
#[derive(Clone, Copy)]
struct Leaf {
    symbol: usize,
    count: u64,
}

/// One length's chain, of which only the last node is remembered.
#[derive(Clone, Copy)]
struct Level {
    /// How many of the sorted leaves this level has taken.
    n_leaves_taken: usize,
    /// The weight of the level's last node.
    last_weight: u64,
    /// The weight of the package the level below offers next; `None` until
    /// the level below has made it.
    offered_package: Option<u64>,
    /// For the chain ending at the last node: how many leaves each level
    /// below (and this one) contributed.
    leaves_by_level: [usize; MAX_LEVELS],
}

/// The code length of every symbol of `counts` (0 for unused symbols), at
/// most `max_length` bits.
pub(super) fn code_lengths(counts: &[u64], max_length: usize) -> Vec<u8> {
    let mut lengths = vec![0u8; counts.len()];
    let mut leaves: Vec<Leaf> = counts
        .iter()
        .enumerate()
        .filter(|(_, count)| **count != 0)
        .map(|(symbol, count)| Leaf {
            symbol,
            count: *count,
        })
        .collect();
    if leaves.len() <= 2 {
        for leaf in &leaves {
            if let Some(length) = lengths.get_mut(leaf.symbol) {
                *length = 1;
            }
        }
        return lengths;
    }
    leaves.sort_by_key(|leaf| (leaf.count, leaf.symbol));

    let n_per_length = symbols_per_length(&leaves, max_length.min(MAX_LEVELS - 1));
    // The most frequent symbols sit at the end of `leaves`.
    let mut remaining = leaves.as_slice();
    for (length, n_symbols) in n_per_length.iter().enumerate().skip(1) {
        let split = remaining.len().saturating_sub(*n_symbols);
        let (rest, taken) = remaining.split_at(split);
        for leaf in taken {
            if let Some(slot) = lengths.get_mut(leaf.symbol) {
                *slot = u8::try_from(length).unwrap_or(u8::MAX);
            }
        }
        remaining = rest;
    }
    lengths
}

/// How many symbols get each length (index 0 unused), for at least three
/// leaves sorted by weight.
fn symbols_per_length(leaves: &[Leaf], max_length: usize) -> Vec<usize> {
    let weight = |index: usize| leaves.get(index).map_or(ABSENT, |leaf| leaf.count);
    let top = max_length.min(leaves.len() - 1);
    // Every level starts with the two lightest leaves; every level above
    // the first is offered the package of the two leaves of the one below.
    let mut levels: Vec<Level> = (0..=top)
        .map(|level| {
            let mut leaves_by_level = [0; MAX_LEVELS];
            if let Some(slot) = leaves_by_level.get_mut(level) {
                *slot = 2;
            }
            Level {
                n_leaves_taken: 2,
                last_weight: weight(1),
                offered_package: Some(if level <= 1 {
                    ABSENT
                } else {
                    weight(0) + weight(1)
                }),
                leaves_by_level,
            }
        })
        .collect();
    // The top chain holds 2n - 2 nodes.
    for _ in 0..(2 * leaves.len()).saturating_sub(4) {
        grow(&mut levels, &weight, top);
    }
    let final_chain = levels
        .get(top)
        .map_or([0; MAX_LEVELS], |level| level.leaves_by_level);
    let mut n_per_length = vec![0; top + 1];
    for length in 1..=top {
        let level = top + 1 - length;
        let here = final_chain.get(level).copied().unwrap_or(0);
        let below = final_chain.get(level - 1).copied().unwrap_or(0);
        if let Some(slot) = n_per_length.get_mut(length) {
            *slot = here.saturating_sub(below);
        }
    }
    n_per_length
}

/// Adds one node to `level`'s chain; false when the level has nothing left.
fn grow(levels: &mut [Level], weight: &impl Fn(usize) -> u64, level: usize) -> bool {
    let package = offered_package(levels, weight, level);
    let below = level
        .checked_sub(1)
        .and_then(|below| levels.get(below))
        .map(|below| below.leaves_by_level);
    let Some(this) = levels.get_mut(level) else {
        return false;
    };
    let leaf = weight(this.n_leaves_taken);
    if leaf == ABSENT && package == ABSENT {
        return false;
    }
    if leaf < package {
        this.n_leaves_taken += 1;
        this.last_weight = leaf;
        if let Some(slot) = this.leaves_by_level.get_mut(level) {
            *slot = this.n_leaves_taken;
        }
    } else {
        this.last_weight = package;
        this.offered_package = None;
        if let Some(below) = below {
            for (slot, count) in this.leaves_by_level.iter_mut().zip(below).take(level) {
                *slot = count;
            }
        }
    }
    true
}

/// The weight of the package the level below offers `level`, made from
/// the below level's next two nodes when it is not made yet.
fn offered_package(levels: &mut [Level], weight: &impl Fn(usize) -> u64, level: usize) -> u64 {
    if let Some(package) = levels.get(level).and_then(|this| this.offered_package) {
        return package;
    }
    let package = match level.checked_sub(1) {
        Some(below) if below >= 1 => {
            let last_of_below =
                |levels: &[Level]| levels.get(below).map_or(ABSENT, |l| l.last_weight);
            if grow(levels, weight, below) {
                let first = last_of_below(levels);
                if grow(levels, weight, below) {
                    first.saturating_add(last_of_below(levels))
                } else {
                    ABSENT
                }
            } else {
                ABSENT
            }
        }
        _ => ABSENT,
    };
    if let Some(this) = levels.get_mut(level) {
        this.offered_package = Some(package);
    }
    package
}

/// The canonical code of every symbol with a length, bit-reversed for a
/// stream written from the least significant bit.
pub(super) fn canonical_codes(lengths: &[u8]) -> Vec<u16> {
    let mut n_per_length = [0u16; MAX_LEVELS + 1];
    for length in lengths {
        if let Some(count) = n_per_length.get_mut(usize::from(*length)) {
            *count += 1;
        }
    }
    let mut next_code = [0u16; MAX_LEVELS + 1];
    let mut code = 0u16;
    for length in 1..=MAX_LEVELS {
        let shorter = n_per_length.get(length - 1).copied().unwrap_or(0);
        code = if length == 1 {
            0
        } else {
            (code + shorter) << 1
        };
        if let Some(slot) = next_code.get_mut(length) {
            *slot = code;
        }
    }
    lengths
        .iter()
        .map(|length| {
            let Some(slot) = next_code.get_mut(usize::from(*length)) else {
                return 0;
            };
            if *length == 0 {
                return 0;
            }
            let code = *slot;
            *slot += 1;
            code.reverse_bits() >> (16 - u32::from(*length))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{canonical_codes, code_lengths};

    #[test]
    fn one_or_two_symbols_get_one_bit() {
        assert_eq!(code_lengths(&[0, 5, 0], 15), vec![0, 1, 0]);
        assert_eq!(code_lengths(&[3, 0, 9], 15), vec![1, 0, 1]);
        assert_eq!(canonical_codes(&[1, 0, 1]), vec![0, 0, 1]);
    }

    #[test]
    fn lengths_follow_weights_and_respect_the_limit() {
        // Unlimited, these weights make a 5-deep tree; ties go to the lower symbol.
        let counts = [1, 1, 2, 4, 8, 16];
        assert_eq!(code_lengths(&counts, 15), vec![5, 5, 4, 3, 2, 1]);
        assert_eq!(code_lengths(&counts, 3), vec![3, 3, 3, 3, 2, 2]);
        assert_eq!(code_lengths(&[1, 1, 1, 1], 15), vec![2, 2, 2, 2]);
    }

    #[test]
    fn codes_are_canonical_and_reversed() {
        // RFC 1951's example: lengths (3, 3, 3, 3, 3, 2, 4, 4) give
        // 010, 011, 100, 101, 110, 00, 1110, 1111.
        let codes = canonical_codes(&[3, 3, 3, 3, 3, 2, 4, 4]);
        assert_eq!(
            codes,
            vec![0b010, 0b110, 0b001, 0b101, 0b011, 0b00, 0b0111, 0b1111]
        );
    }
}
