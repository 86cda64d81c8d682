//! The `scale` case (issue 18): N copies of the corpus tree side by side
//! (hard links, so 50 copies cost directory entries, not bytes), then
//! `tofu-lens check` over all of them (wall time, CPU time, peak RSS) and
//! `tofu-lens serve` indexing them (time until every file is published, peak
//! RSS), printed per file so that growth that is not linear shows.
//!
//! CPU time and peak RSS of `check` are read from `/proc/PID` while it runs,
//! every 5 ms (the last sample before it exits; on Linux only).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::lsp::Result;
use crate::serve::{self, TempDir};

pub struct ScaleRun {
    pub copies: usize,
    pub files: usize,
    pub check_wall: Duration,
    pub check_cpu: Duration,
    pub check_peak_rss: u64,
    pub index_time: Option<Duration>,
    pub server_peak_rss: Option<u64>,
}

/// `copies` hard-linked copies of `corpus` under a new temporary folder.
pub fn tree(corpus: &Path, copies: usize) -> Result<(TempDir, usize)> {
    let dir = TempDir::new(&format!("scale-{copies}"))?;
    let mut files = 0;
    for copy in 0..copies {
        files += serve::copy_tree(corpus, &dir.path().join(format!("copy{copy:03}")), true)?;
    }
    Ok((dir, files))
}

/// `tofu-lens check` over `root`: wall time, and the CPU time and peak RSS
/// last sampled before it exited.
fn check(binary: &Path, root: &Path) -> Result<(Duration, Duration, u64)> {
    let start = Instant::now();
    let mut child = Command::new(binary)
        .arg("check")
        .arg(root)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|error| format!("cannot run {}: {error}", binary.display()))?;
    let pid = child.id();
    let ticks = clock_ticks();
    let mut cpu = Duration::ZERO;
    let mut peak = 0;
    loop {
        if let Some((utime, stime)) = proc_cpu_ticks(pid) {
            cpu = Duration::from_secs_f64((utime + stime) as f64 / ticks);
        }
        if let Some(hwm) = proc_hwm(pid) {
            peak = peak.max(hwm);
        }
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(error) => return Err(format!("waiting for check: {error}")),
        }
    }
    Ok((start.elapsed(), cpu, peak))
}

fn proc_cpu_ticks(pid: u32) -> Option<(u64, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces) in parentheses.
    let after = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line: 12 and 13 here.
    let utime = fields.get(11)?.parse().ok()?;
    let stime = fields.get(12)?.parse().ok()?;
    Some((utime, stime))
}

fn proc_hwm(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes * 1024)
}

/// Clock ticks per second for `/proc/PID/stat` (`USER_HZ`, 100 on Linux).
fn clock_ticks() -> f64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .and_then(|text| text.trim().parse().ok())
        .unwrap_or(100.0)
}

pub fn run(binary: &Path, corpus: &Path, copies: usize, with_server: bool) -> Result<ScaleRun> {
    let (tree, files) = tree(corpus, copies)?;
    let root: PathBuf = tree.path().to_path_buf();
    let (check_wall, check_cpu, check_peak_rss) = check(binary, &root)?;
    let (index_time, server_peak_rss) = if with_server {
        let indexed = serve::memory(binary, &root)?;
        (Some(indexed.index_time), Some(indexed.peak_rss))
    } else {
        (None, None)
    };
    Ok(ScaleRun {
        copies,
        files,
        check_wall,
        check_cpu,
        check_peak_rss,
        index_time,
        server_peak_rss,
    })
}
