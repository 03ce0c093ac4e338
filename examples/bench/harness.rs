//! Timing helpers: batches timed with `Instant`, summarised by their median.

use std::time::{Duration, Instant};

/// Median of a sample (sorted in place). NaN-free input.
pub fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Minimum of a sample.
pub fn min(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::INFINITY, f64::min)
}

/// Runs `batch` `reps` times (after `warm` untimed runs) and returns nanoseconds per operation
/// of each timed run; `batch` returns how many operations it did.
pub fn per_op(warm: usize, reps: usize, mut batch: impl FnMut() -> usize) -> Vec<f64> {
    for _ in 0..warm {
        batch();
    }
    let mut out = Vec::with_capacity(reps);
    for _ in 0..reps {
        let t = Instant::now();
        let n = batch();
        let dt = t.elapsed();
        out.push(dt.as_nanos() as f64 / n as f64);
    }
    out
}

/// Like `per_op`, but the batch times itself (for batches that need untimed setup).
pub fn per_op_timed(warm: usize, reps: usize, mut batch: impl FnMut() -> (Duration, usize)) -> Vec<f64> {
    for _ in 0..warm {
        batch();
    }
    (0..reps)
        .map(|_| {
            let (dt, n) = batch();
            dt.as_nanos() as f64 / n as f64
        })
        .collect()
}

/// Median and minimum of a sample, as `(median, min)`.
pub fn summary(mut v: Vec<f64>) -> (f64, f64) {
    let m = min(&v);
    (median(&mut v), m)
}

/// Nanoseconds with a sensible number of digits.
pub fn ns(x: f64) -> String {
    if !x.is_finite() {
        "–".into()
    } else if x < 10.0 {
        format!("{x:.2}")
    } else if x < 100.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.0}")
    }
}

/// Milliseconds from nanoseconds.
pub fn ms(x: f64) -> String {
    if !x.is_finite() {
        "–".into()
    } else {
        format!("{:.2}", x / 1e6)
    }
}

/// Today's date (UTC) as YYYY-MM-DD, from the system clock.
pub fn today() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    // Howard Hinnant's civil_from_days.
    let z = (secs / 86400) as i64 + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The CPU model from /proc/cpuinfo.
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}

/// Names of this process's threads (from /proc/self/task/*/comm).
pub fn thread_names() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir("/proc/self/task")
        .map(|d| {
            d.filter_map(|e| e.ok())
                .filter_map(|e| std::fs::read_to_string(e.path().join("comm")).ok())
                .map(|s| s.trim().to_string())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// The 1-minute load average (other processes competing for the cores skew every figure).
pub fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(String::from))
        .unwrap_or_else(|| "?".into())
}
