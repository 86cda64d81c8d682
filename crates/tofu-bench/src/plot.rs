//! The `scale` case as a picture: time and memory against the number of
//! files, log–log, as a self-contained SVG written with `format!` (no
//! plotting crate: `plotters` would bring a font stack into the build for
//! one picture). `--plot PATH` writes it after the scale table, with its
//! numbers beside it as CSV (`PATH` with the extension `csv`);
//! `--plot-from CSV` draws it again from such a file (`docs/scale.csv`)
//! without running anything.

use std::fmt::Write as _;
use std::path::Path;

use crate::lsp::Result;
use crate::scale::ScaleRun;

/// One row of the scale table, in the units the plot shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub copies: usize,
    pub files: usize,
    pub check_wall: f64,
    pub check_cpu: f64,
    pub check_rss_mb: f64,
    pub index_s: Option<f64>,
    pub server_mb: Option<f64>,
}

impl From<&ScaleRun> for Row {
    fn from(run: &ScaleRun) -> Row {
        Row {
            copies: run.copies,
            files: run.files,
            check_wall: run.check_wall.as_secs_f64(),
            check_cpu: run.check_cpu.as_secs_f64(),
            check_rss_mb: run.check_peak_rss as f64 / 1e6,
            index_s: run.index_time.map(|time| time.as_secs_f64()),
            server_mb: run.server_peak_rss.map(|bytes| bytes as f64 / 1e6),
        }
    }
}

const HEADER: &str = "copies,files,check_wall_s,check_cpu_s,check_rss_mb,index_s,server_mb";

/// The rows as CSV, `caption` first as a `#` line.
pub fn to_csv(caption: &str, rows: &[Row]) -> String {
    let mut csv = format!("# {caption}\n{HEADER}\n");
    let opt = |value: Option<f64>, decimals: usize| {
        value.map_or(String::new(), |v| format!("{v:.decimals$}"))
    };
    for r in rows {
        let _ = writeln!(
            csv,
            "{},{},{:.3},{:.3},{:.1},{},{}",
            r.copies,
            r.files,
            r.check_wall,
            r.check_cpu,
            r.check_rss_mb,
            opt(r.index_s, 3),
            opt(r.server_mb, 1)
        );
    }
    csv
}

/// The caption (the first `#` line) and rows of [`to_csv`]'s format; commas
/// or tabs between fields, and an empty field or `–` where the server was
/// not measured.
pub fn from_csv(text: &str) -> Result<(String, Vec<Row>)> {
    let mut caption = None;
    let mut rows = Vec::new();
    for (number, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if let Some(comment) = line.strip_prefix('#') {
            caption.get_or_insert_with(|| comment.trim().to_owned());
            continue;
        }
        if line.is_empty() || line.starts_with("copies") {
            continue;
        }
        // Split before trimming: the last field may be empty.
        let fields: Vec<&str> = raw.split([',', '\t']).map(str::trim).collect();
        let bad = |what: &str| format!("line {}: {what} in `{line}`", number + 1);
        let [copies, files, wall, cpu, rss, index, server] = fields.as_slice() else {
            return Err(bad("expected 7 fields"));
        };
        let number = |field: &str| field.parse::<f64>().map_err(|_| bad("not a number"));
        let optional = |field: &str| match field {
            "" | "–" | "-" => Ok(None),
            _ => number(field).map(Some),
        };
        let count = |field: &str| field.parse::<usize>().map_err(|_| bad("not a count"));
        rows.push(Row {
            copies: count(copies)?,
            files: count(files)?,
            check_wall: number(wall)?,
            check_cpu: number(cpu)?,
            check_rss_mb: number(rss)?,
            index_s: optional(index)?,
            server_mb: optional(server)?,
        });
    }
    Ok((caption.unwrap_or_default(), rows))
}

/// Writes the plot to `svg` and its numbers to `svg` with the extension `csv`.
pub fn save(svg: &Path, caption: &str, rows: &[Row]) -> Result<()> {
    let csv = svg.with_extension("csv");
    std::fs::write(&csv, to_csv(caption, rows))
        .map_err(|error| format!("cannot write {}: {error}", csv.display()))?;
    std::fs::write(svg, render(caption, rows))
        .map_err(|error| format!("cannot write {}: {error}", svg.display()))
}

/// A line of the plot: its legend, panel (0 time, 1 memory), colour, dashes,
/// decimals of its point labels, and its value in a row.
struct Series {
    name: &'static str,
    panel: usize,
    colour: &'static str,
    dashes: &'static str,
    decimals: usize,
    value: fn(&Row) -> Option<f64>,
}

const SERIES: [Series; 5] = [
    Series {
        name: "check, wall",
        panel: 0,
        colour: "#1f77b4",
        dashes: "",
        decimals: 2,
        value: |r| Some(r.check_wall),
    },
    Series {
        name: "check, CPU",
        panel: 0,
        colour: "#1f77b4",
        dashes: "5 3",
        decimals: 2,
        value: |r| Some(r.check_cpu),
    },
    Series {
        name: "server indexing",
        panel: 0,
        colour: "#2ca02c",
        dashes: "",
        decimals: 2,
        value: |r| r.index_s,
    },
    Series {
        name: "check, peak RSS",
        panel: 1,
        colour: "#1f77b4",
        dashes: "",
        decimals: 1,
        value: |r| Some(r.check_rss_mb),
    },
    Series {
        name: "server VmHWM after indexing",
        panel: 1,
        colour: "#2ca02c",
        dashes: "",
        decimals: 0,
        value: |r| r.server_mb,
    },
];

/// A white outline under a label, so that lines crossing it leave it legible.
const HALO: &str = "stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\"";
// The panels are stacked, each as wide as the picture: lines close together
// (0.2 decades) then rise gently enough to leave room for their labels.
const WIDTH: f64 = 900.0;
const HEIGHT: f64 = 710.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = WIDTH - 40.0;
const PANEL_TOP: f64 = 80.0;
const PANEL_HEIGHT: f64 = 250.0;
const PANEL_STEP: f64 = 330.0;

/// Where `value` falls between the powers of ten `low` and `high`, from 0 to
/// 1 (0 for what has no logarithm).
fn log_fraction(value: f64, (low, high): (f64, f64)) -> f64 {
    let fraction = (value.log10() - low) / (high - low).max(f64::MIN_POSITIVE);
    if fraction.is_finite() {
        fraction
    } else {
        0.0
    }
}

/// The logarithms of the nearest 1, 2 or 5 times a power of ten below and
/// above `values` (positive and finite), or of 1 and 10.
fn log_bounds(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (low, high) = values.fold((f64::INFINITY, 0.0f64), |(l, h), v| (l.min(v), h.max(v)));
    if !low.is_finite() {
        return (0.0, 1.0);
    }
    let nice = |value: f64, below: bool| {
        let decade = value.log10().floor().clamp(-300.0, 300.0);
        let steps = [0.0, 2f64.log10(), 5f64.log10(), 1.0];
        let fraction = value.log10() - decade;
        let step = if below {
            steps.iter().rev().find(|&&step| step <= fraction + 1e-9)
        } else {
            steps.iter().find(|&&step| step >= fraction - 1e-9)
        };
        decade + step.copied().unwrap_or(0.0)
    };
    let (low, high) = (nice(low, true), nice(high, false));
    (low, if high > low { high } else { low + 1.0 })
}

/// `1,801` for 1801.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The whole SVG: (a) seconds and (b) MB against files, log–log.
pub fn render(caption: &str, rows: &[Row]) -> String {
    let usable = |v: &f64| v.is_finite() && *v > 0.0;
    let files: Vec<f64> = rows.iter().map(|r| r.files as f64).filter(usable).collect();
    let x_low = files.iter().copied().fold(f64::INFINITY, f64::min);
    let x_high = files.iter().copied().fold(0.0, f64::max);
    let x_range = if x_low.is_finite() {
        (x_low.log10() - 0.2, x_high.log10() + 0.2)
    } else {
        (3.0, 5.0)
    };
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"11\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{}\" y=\"24\" font-size=\"16\" font-weight=\"bold\" text-anchor=\"middle\">tofu-lens at scale: N hard-linked copies of the corpus (log–log)</text>\n\
         <text x=\"{}\" y=\"44\" fill=\"#555\" text-anchor=\"middle\">{}</text>\n",
        WIDTH / 2.0,
        WIDTH / 2.0,
        escape(caption)
    );
    for (panel, heading, unit) in [(0, "(a) time", "seconds"), (1, "(b) memory", "MB")] {
        let (left, right) = (LEFT, RIGHT);
        let top = PANEL_TOP + panel as f64 * PANEL_STEP;
        let bottom = top + PANEL_HEIGHT;
        let x = |files: f64| left + log_fraction(files, x_range) * (right - left);
        let series: Vec<&Series> = SERIES.iter().filter(|s| s.panel == panel).collect();
        let values = rows
            .iter()
            .flat_map(|r| series.iter().filter_map(|s| (s.value)(r)));
        let y_range = log_bounds(values.filter(usable));
        let y = |value: f64| bottom - log_fraction(value, y_range) * (bottom - top);
        let _ = writeln!(
            svg,
            "<text x=\"{left}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\">{heading}</text>\n\
             <text transform=\"translate({},{}) rotate(-90)\" text-anchor=\"middle\">{unit} (log)</text>\n\
             <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">files (log)</text>",
            top - 10.0,
            left - 48.0,
            (top + bottom) / 2.0,
            (left + right) / 2.0,
            bottom + 38.0
        );
        // Gridlines and ticks: 1, 2 and 5 per decade while there are few.
        let (low, high) = (y_range.0.floor() as i32, y_range.1.ceil() as i32);
        let (span, mantissas): (i32, &[f64]) = (high.saturating_sub(low), &[1.0, 2.0, 5.0]);
        let mantissas = if span <= 3 { mantissas } else { &[1.0] };
        let stride = usize::try_from(span / 8 + 1).unwrap_or(1).max(1);
        for decade in (low..=high).step_by(stride) {
            for &mantissa in mantissas {
                let value = mantissa * 10f64.powi(decade);
                let at = value.log10();
                if !value.is_finite() || at < y_range.0 - 1e-9 || at > y_range.1 + 1e-9 {
                    continue;
                }
                let decimals = usize::try_from(-decade).unwrap_or(0).min(12);
                let _ = writeln!(
                    svg,
                    "<line x1=\"{left}\" x2=\"{right}\" y1=\"{0:.1}\" y2=\"{0:.1}\" stroke=\"#ddd\"/>\
                     <text x=\"{1}\" y=\"{2:.1}\" text-anchor=\"end\">{value:.decimals$}</text>",
                    y(value),
                    left - 6.0,
                    y(value) + 4.0
                );
            }
        }
        for &files in &files {
            let _ = writeln!(
                svg,
                "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{top}\" y2=\"{bottom}\" stroke=\"#ddd\"/>\
                 <text x=\"{0:.1}\" y=\"{1}\" text-anchor=\"middle\">{2}</text>",
                x(files),
                bottom + 18.0,
                thousands(files as usize)
            );
        }
        let _ = writeln!(
            svg,
            "<rect x=\"{left}\" y=\"{top}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#333\"/>",
            right - left,
            bottom - top
        );
        // One polyline per series, its points, and their values, on a white
        // halo where lines cross them, pushed apart where they would overlap.
        let mut labels: Vec<(usize, f64, f64, String, &str, bool)> = Vec::new();
        for (index, s) in series.iter().enumerate() {
            let points: Vec<(usize, f64, f64, f64)> = rows
                .iter()
                .enumerate()
                .filter_map(|(i, r)| Some((i, r.files as f64, (s.value)(r)?)))
                .filter(|(_, files, value)| usable(files) && usable(value))
                .map(|(i, files, value)| (i, x(files), y(value), value))
                .collect();
            let path: Vec<String> = points
                .iter()
                .map(|(_, px, py, _)| format!("{px:.1},{py:.1}"))
                .collect();
            let _ = writeln!(
                svg,
                "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\" stroke-dasharray=\"{}\"/>",
                path.join(" "),
                s.colour,
                s.dashes
            );
            for &(i, px, py, value) in &points {
                let _ = writeln!(
                    svg,
                    "<circle cx=\"{px:.1}\" cy=\"{py:.1}\" r=\"3\" fill=\"{}\"/>",
                    s.colour
                );
                let first = points.first().is_some_and(|point| point.0 == i);
                let text = format!("{value:.0$}", s.decimals);
                // Beside the first point, below and right of the others (under
                // the line rising from them), above the frame.
                let ly = (py + if first { 4.0 } else { 11.0 }).min(bottom - 3.0);
                labels.push((i, px, ly, text, s.colour, first));
            }
            let ly = top + 16.0 + index as f64 * 16.0;
            let _ = writeln!(
                svg,
                "<line x1=\"{0}\" x2=\"{1}\" y1=\"{ly}\" y2=\"{ly}\" stroke=\"{2}\" stroke-width=\"2\" stroke-dasharray=\"{3}\"/>\
                 <text x=\"{4}\" y=\"{5}\">{6}</text>",
                left + 10.0,
                left + 34.0,
                s.colour,
                s.dashes,
                left + 40.0,
                ly + 4.0,
                s.name
            );
        }
        labels.sort_by(|a, b| a.0.cmp(&b.0).then(b.2.total_cmp(&a.2)));
        let mut previous: Option<(usize, f64)> = None;
        for (i, px, ly, text, colour, first) in labels {
            let ly = match previous {
                Some((row, below)) if row == i => ly.min(below - 12.0),
                _ => ly,
            };
            previous = Some((i, ly));
            let _ = writeln!(
                svg,
                "<text x=\"{:.1}\" y=\"{ly:.1}\" fill=\"{colour}\" {HALO}{}>{text}</text>",
                if first { px - 6.0 } else { px + 6.0 },
                if first { " text-anchor=\"end\"" } else { "" }
            );
        }
    }
    if rows.is_empty() {
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">no runs</text>",
            WIDTH / 2.0,
            HEIGHT / 2.0
        );
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    // The run of 2026-11-26 at 9285124 (6.28 s is a time, not τ).
    #[allow(clippy::approx_constant)]
    fn published() -> Vec<Row> {
        let row = |copies, files, wall, cpu, rss, index, server| Row {
            copies,
            files,
            check_wall: wall,
            check_cpu: cpu,
            check_rss_mb: rss,
            index_s: Some(index),
            server_mb: Some(server),
        };
        vec![
            row(1, 1_801, 0.12, 0.20, 10.2, 0.27, 30.0),
            row(10, 18_010, 1.07, 1.95, 11.6, 3.50, 129.0),
            row(50, 90_050, 6.28, 9.65, 17.3, 14.24, 541.0),
        ]
    }

    fn well_formed(svg: &str) {
        assert!(svg.starts_with("<svg"), "{svg}");
        assert!(svg.trim_end().ends_with("</svg>"), "{svg}");
        assert_eq!(svg.matches("<polyline").count(), SERIES.len());
        assert_eq!(svg.matches("<svg").count(), 1);
        assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
    }

    #[test]
    fn plots_every_series_with_its_numbers() {
        let svg = render("tofu-bench at 9285124, 2026-11-26", &published());
        well_formed(&svg);
        assert_eq!(svg.matches("<circle").count(), 15);
        for label in [
            ">1,801<", ">18,010<", ">90,050<", ">0.12<", ">9.65<", ">14.24<", ">10.2<", ">17.3<",
            ">541<",
        ] {
            assert!(svg.contains(label), "{label} missing");
        }
        for tick in [">0.1<", ">20<", ">1000<"] {
            assert!(svg.contains(tick), "tick {tick} missing");
        }
        assert!(svg.contains("9285124, 2026-11-26"));
    }

    #[test]
    fn zero_runs_or_one_still_draw() {
        let svg = render("", &[]);
        well_formed(&svg);
        assert!(svg.contains("no runs"));
        let mut one = published();
        one.truncate(1);
        one[0].index_s = None;
        one[0].check_wall = f64::NAN;
        one[0].check_cpu = 0.0;
        let svg = render("a <caption> & more", &one);
        well_formed(&svg);
        assert!(svg.contains(">1,801<") && svg.contains(">30<"));
        assert!(svg.contains("a &lt;caption&gt; &amp; more"));
        let all_max = Row {
            files: usize::MAX,
            check_wall: f64::MAX,
            check_cpu: f64::MAX,
            check_rss_mb: f64::MAX,
            index_s: Some(f64::MAX),
            server_mb: Some(f64::INFINITY),
            ..one[0].clone()
        };
        well_formed(&render("", &[all_max.clone(), all_max]));
        let huge = Row {
            files: usize::MAX,
            check_rss_mb: f64::MAX,
            check_wall: f64::MIN_POSITIVE,
            ..one[0].clone()
        };
        well_formed(&render("", &[huge]));
    }

    #[test]
    fn csv_round_trips() {
        let csv = to_csv("run of 2026-11-26", &published());
        assert_eq!(
            from_csv(&csv),
            Ok(("run of 2026-11-26".to_owned(), published()))
        );
        let tabs = "copies\tfiles\n1\t1801\t0.12\t0.2\t10.2\t–\t\n";
        let (_, rows) = from_csv(tabs).unwrap();
        assert_eq!(
            (rows[0].files, rows[0].index_s, rows[0].server_mb),
            (1801, None, None)
        );
        assert!(from_csv("1,2,3").unwrap_err().contains("line 1"));
        assert!(from_csv("1,x,0,0,0,0,0").is_err());
        assert_eq!(from_csv(""), Ok((String::new(), vec![])));
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(90_050), "90,050");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
