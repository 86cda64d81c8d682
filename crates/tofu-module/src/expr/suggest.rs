//! "Did you mean …?": HCL's `didyoumean.NameSuggestion`, the one name picker
//! every message uses.

/// The candidate whose name is within edit distance 2 of `given` (HCL's
/// threshold: Levenshtein distance below 3). HCL takes the first such name in
/// its list, whose order is often Go's random map order; tofu-lens takes the
/// closest, the first on a tie, so a message is the same on every run.
pub fn did_you_mean_by<T, N: AsRef<str>>(
    given: &str,
    candidates: impl IntoIterator<Item = T>,
    name: impl Fn(&T) -> N,
) -> Option<T> {
    let length = given.chars().count();
    candidates
        .into_iter()
        // The distance is at least the difference in length: most names are
        // ruled out without computing it.
        .filter(|candidate| name(candidate).as_ref().chars().count().abs_diff(length) < 3)
        .map(|candidate| (edit_distance(given, name(&candidate).as_ref()), candidate))
        .filter(|(distance, _)| *distance < 3)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// [`did_you_mean_by`] over plain names.
pub fn did_you_mean<'a>(
    given: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    did_you_mean_by(given, candidates, |name| *name)
}

/// Levenshtein distance over characters (`agext/levenshtein` with default
/// costs, as HCL uses it).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, a_char) in a.chars().enumerate() {
        if let Some(first) = current.first_mut() {
            *first = i + 1;
        }
        for (j, b_char) in b.iter().enumerate() {
            let substitution = previous
                .get(j)
                .map_or(usize::MAX, |d| d + usize::from(a_char != *b_char));
            let deletion = previous.get(j + 1).map_or(usize::MAX, |d| d + 1);
            let insertion = current.get(j).map_or(usize::MAX, |d| d + 1);
            if let Some(cell) = current.get_mut(j + 1) {
                *cell = substitution.min(deletion).min(insertion);
            }
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous.last().copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_characters() {
        assert_eq!(edit_distance("", ""), 0);
        assert_eq!(edit_distance("name", "nmae"), 2);
        assert_eq!(edit_distance("size", "sise"), 1);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("é", "e"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn the_closest_name_within_two_edits_wins_the_first_on_a_tie() {
        assert_eq!(did_you_mean("regoin", ["zone", "region"]), Some("region"));
        assert_eq!(did_you_mean("ab", ["xb", "ay"]), Some("xb"));
        assert_eq!(did_you_mean("abcd", ["abxy", "abcx"]), Some("abcx"));
        assert_eq!(did_you_mean("name", ["other"]), None);
        assert_eq!(did_you_mean("abc", ["xyz"]), None);
    }
}
