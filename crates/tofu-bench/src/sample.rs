//! One case's timings ([`Sample`]) and the loop that takes them in
//! process ([`measure`]): a warm-up run, then each run timed alone.

use std::time::{Duration, Instant};

/// Timings of one case: median and spread over the runs.
pub struct Sample {
    pub name: &'static str,
    pub input: String,
    pub times: Vec<Duration>,
}

impl Sample {
    pub fn percentile(&self, p: f64) -> Duration {
        let mut sorted = self.times.clone();
        sorted.sort();
        let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
        sorted.get(index).copied().unwrap_or_default()
    }

    pub fn median(&self) -> Duration {
        self.percentile(0.5)
    }
}

pub fn measure(name: &'static str, input: String, runs: usize, mut work: impl FnMut()) -> Sample {
    work(); // warm-up: page cache, allocator
    let times = (0..runs)
        .map(|_| {
            let start = Instant::now();
            work();
            start.elapsed()
        })
        .collect();
    Sample { name, input, times }
}
