//! The two speeds of the GL-bound frame (issue 20, item 2), and how the bench judges a variant
//! despite them.
//!
//! On the GPU machine a GL-bound frame (no CPU work, the driver *is* the frame) runs at one of
//! two speeds about 1.5–1.7× apart; within one speed the runs spread by at most about 7.5 %.
//! Which speed a process gets is independent from one process to the next and can flip inside
//! a process. A ratio of one run to another is then fast/slow or slow/fast half the time, and a
//! ratio of medians over a few runs still swings by ±20 %. Classified by speed and compared
//! within a speed, 16 runs a side resolve 5 %.
//!
//! **The method.** Each variant runs in processes of its own, interleaved with every other
//! variant (one *round* is every variant once), and each process times several *segments*
//! (frames over a stretch ended by `glFinish`): a segment, not a process, is the unit, since a
//! process can change speed. The segments of one variant are classified on their own, because
//! a variant may be 1.5× slower than direct GL and no threshold in milliseconds fits all:
//!
//! 1. sort the logarithms of the segments' times and split them in two where the two parts
//!    are tightest: the split that leaves the least variance within the parts (Otsu's
//!    threshold, in one dimension). Unlike the widest gap between neighbours, this finds the two
//!    speeds although segments in which the process changed speed fill the space between them
//!    (on the GPU machine about a third of the segments do);
//! 2. if the medians of the two parts are at least [`SEPARATION`] (×1.3) apart, they are the
//!    *fast* and the *slow* speed; closer medians mean one speed only (a single speed's own
//!    spread of ≤ 7.5 % splits into parts a few per cent apart), and that variant is not judged
//!    by speed;
//! 3. a segment farther than [`BAND`] (10 %) from the median of its speed is *mixed* (the
//!    process changed speed inside it, or ran at neither speed) and left out, counted.
//!
//! Each variant is then compared with direct GL **within a speed**: the ratio of the medians
//! of the two sets of segments, with a 95 % percentile-bootstrap interval (each side resampled
//! with replacement on its own, [`RESAMPLES`] times, from a fixed-seed SplitMix64 generator so
//! that the same data give the same interval). A speed with fewer than [`MIN_SIDE`] segments on
//! either side is reported as too few to judge.
//!
//! This file uses nothing of the bench's or of glcmd: `tests/bench_speeds.rs` includes it and
//! checks the classifier and the bootstrap on synthetic data.

/// The least distance (slow median / fast median) at which the two parts are two speeds: far
/// above a speed's own spread, below the 1.5–1.7× between the speeds.
pub const SEPARATION: f64 = 1.3;
/// How far (as a ratio) a segment may lie from its speed's median and still belong to it.
pub const BAND: f64 = 1.10;
/// Segments a side below which a speed is too few to judge.
pub const MIN_SIDE: usize = 16;
/// Bootstrap resamples per interval.
pub const RESAMPLES: usize = 2000;
/// The generator's seed: fixed, so an interval is a function of the data alone.
pub const SEED: u64 = 0x5EED_2020;

/// A variant's segments, classified by speed (times as given, ns per frame).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Speeds {
    pub fast: Vec<f64>,
    pub slow: Vec<f64>,
    /// Segments between the speeds (the process changed speed inside them).
    pub mixed: Vec<f64>,
    /// False when the parts were closer than [`SEPARATION`]: every segment is in `fast`, speed
    /// unknown.
    pub split: bool,
}

impl Speeds {
    /// The segments of speed `fast` (true) or slow.
    pub fn side(&self, fast: bool) -> &[f64] {
        if fast {
            &self.fast
        } else {
            &self.slow
        }
    }

    /// slow median / fast median (the distance between the speeds), if split.
    pub fn distance(&self) -> Option<f64> {
        Some(median(&self.slow) / median(&self.fast)).filter(|d| self.split && d.is_finite())
    }

    /// The spread within a speed: max / min − 1.
    pub fn spread(&self, fast: bool) -> f64 {
        let v = self.side(fast);
        let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        hi / lo - 1.0
    }
}

/// Median of a sample (NaN for none); the input is left as it was.
pub fn median(v: &[f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    }
}

/// Classifies segment times (positive, finite; others are dropped) by speed: see the module.
pub fn classify(times: &[f64]) -> Speeds {
    let mut v: Vec<f64> = times.iter().copied().filter(|t| t.is_finite() && *t > 0.0).collect();
    v.sort_by(f64::total_cmp);
    let Some(at) = tightest_split(&v).filter(|&at| median(&v[at..]) / median(&v[..at]) >= SEPARATION) else {
        return Speeds { fast: v, ..Default::default() };
    };
    let (fast, slow) = v.split_at(at);
    let mut s = Speeds { split: true, ..Default::default() };
    for (side, out) in [(fast, &mut s.fast), (slow, &mut s.slow)] {
        let m = median(side);
        for &t in side {
            if t / m > BAND || m / t > BAND {
                s.mixed.push(t);
            } else {
                out.push(t);
            }
        }
    }
    s
}

/// The index that splits sorted times `v` into the two parts with the least summed variance of
/// their logarithms (Otsu's threshold), each part at least two segments; `None` below four.
/// Prefix sums make it one pass.
fn tightest_split(v: &[f64]) -> Option<usize> {
    let logs: Vec<f64> = v.iter().map(|t| t.ln()).collect();
    let (n, total, total_sq) = (logs.len(), logs.iter().sum::<f64>(), logs.iter().map(|x| x * x).sum::<f64>());
    // Σ(x − mean)² over a part = Σx² − (Σx)² / count.
    let within = |sum: f64, sq: f64, count: usize| sq - sum * sum / count as f64;
    let (mut sum, mut sq, mut best) = (0.0, 0.0, None::<(f64, usize)>);
    for (i, x) in logs.iter().enumerate().take(n.saturating_sub(2)) {
        sum += x;
        sq += x * x;
        let at = i + 1;
        if at < 2 {
            continue;
        }
        let w = within(sum, sq, at) + within(total - sum, total_sq - sq, n - at);
        if best.is_none_or(|(b, _)| w < b) {
            best = Some((w, at));
        }
    }
    best.map(|(_, at)| at)
}

/// SplitMix64 (Steele, Lea and Flood), a small generator good enough for resampling.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0), by the multiply-high reduction.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// Uniform in [0, 1) (the synthetic data of `tests/bench_speeds.rs`).
    #[allow(dead_code)]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A ratio with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub ratio: f64,
    pub lo: f64,
    pub hi: f64,
}

fn resample_median(v: &[f64], rng: &mut Rng, buf: &mut Vec<f64>) -> f64 {
    buf.clear();
    buf.extend((0..v.len()).map(|_| v[rng.below(v.len())]));
    median(buf)
}

/// median(a) / median(b) with a 95 % percentile-bootstrap interval (`resamples` resamples of
/// each side on its own, from `seed`); `None` if either side is empty.
pub fn ratio_interval(a: &[f64], b: &[f64], resamples: usize, seed: u64) -> Option<Interval> {
    if a.is_empty() || b.is_empty() || resamples == 0 {
        return None;
    }
    let mut rng = Rng::new(seed);
    let mut buf = Vec::with_capacity(a.len().max(b.len()));
    let mut r: Vec<f64> = (0..resamples)
        .map(|_| resample_median(a, &mut rng, &mut buf) / resample_median(b, &mut rng, &mut buf))
        .collect();
    r.sort_by(f64::total_cmp);
    let at = |q: f64| r[((q * resamples as f64) as usize).min(resamples - 1)];
    Some(Interval { ratio: median(a) / median(b), lo: at(0.025), hi: at(0.975) })
}

/// The median of paired ratios (one per round, each variant / its reference measured in the
/// same round) with a 95 % percentile-bootstrap interval: the rounds are resampled with
/// replacement `resamples` times from `seed` (the CPU-bound frame, `cpuframe.rs`). `None` for no
/// ratios.
pub fn paired_interval(ratios: &[f64], resamples: usize, seed: u64) -> Option<Interval> {
    if ratios.is_empty() || resamples == 0 {
        return None;
    }
    let mut rng = Rng::new(seed);
    let mut buf = Vec::with_capacity(ratios.len());
    let mut m: Vec<f64> = (0..resamples).map(|_| resample_median(ratios, &mut rng, &mut buf)).collect();
    m.sort_by(f64::total_cmp);
    let at = |q: f64| m[((q * resamples as f64) as usize).min(resamples - 1)];
    Some(Interval { ratio: median(ratios), lo: at(0.025), hi: at(0.975) })
}

/// A variant against direct GL within one speed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// Both sides have at least [`MIN_SIDE`] segments.
    Judged(Interval),
    /// Too few segments on a side (variant's, direct's); the ratio, if any, is only indicative.
    TooFew(usize, usize, Option<Interval>),
    /// The variant or direct GL showed one speed only: not classified.
    Unsplit,
}

/// Compares a variant's segments with direct GL's within the speed `fast` (true) or slow.
pub fn judge(variant: &Speeds, direct: &Speeds, fast: bool) -> Verdict {
    if !variant.split || !direct.split {
        return Verdict::Unsplit;
    }
    let (a, b) = (variant.side(fast), direct.side(fast));
    let r = ratio_interval(a, b, RESAMPLES, SEED);
    match r {
        Some(i) if a.len() >= MIN_SIDE && b.len() >= MIN_SIDE => Verdict::Judged(i),
        _ => Verdict::TooFew(a.len(), b.len(), r),
    }
}

/// A table cell for a judgement.
pub fn cell(j: &Verdict) -> String {
    match j {
        Verdict::Judged(i) => format!("**{:.3}** ({:.3}–{:.3})", i.ratio, i.lo, i.hi),
        Verdict::TooFew(a, b, Some(i)) => format!("too few to judge ({a} / {b}; {:.2})", i.ratio),
        Verdict::TooFew(a, b, None) => format!("too few to judge ({a} / {b})"),
        Verdict::Unsplit => "one speed only: not classified".into(),
    }
}

/// Reads the `segments <label> | <workers> | t1,t2,...` lines of an earlier round's output
/// (`glbound::GlBound::raw_segments`, kept in the `.err` files of `docs/gpu-runs/data/`) back into variants,
/// direct GL first as written. Other lines are ignored; a malformed `segments` line is an error.
pub fn parse_segments(text: &str) -> Result<Vec<(String, String, Vec<f64>)>, String> {
    let mut vars = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let Some(rest) = line.strip_prefix("segments ") else { continue };
        let mut parts = rest.split(" | ");
        let (Some(label), Some(workers), Some(times), None) = (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(format!("line {}: expected `segments LABEL | WORKERS | t1,t2,...`", n + 1));
        };
        let times = times
            .split(',')
            .filter(|t| !t.is_empty())
            .map(|t| t.trim().parse::<f64>().map_err(|e| format!("line {}: `{t}`: {e}", n + 1)))
            .collect::<Result<Vec<f64>, String>>()?;
        vars.push((label.to_string(), workers.to_string(), times));
    }
    if vars.is_empty() {
        return Err("no `segments` lines (they are written by `bench --only glbound`)".into());
    }
    Ok(vars)
}
