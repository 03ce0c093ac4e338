//! `glcmd-replay FILE [--dump] [--png OUT.png] [--frames A..B] [--quiet] [--max-objects N]
//! [--max-storage BYTES] [--max-vertices N]`
//!
//! Loads a glcmd capture (every record checked before anything reaches the GL), replays it on
//! a headless device with object names remapped, compares each recorded query answer with the
//! replayed one, and optionally writes the framebuffer the last frame drew to as a PNG. The
//! replay has a resource budget (`glcmd::capture::ReplayBudget`: live objects, bytes of storage,
//! vertices drawn); a capture that passes it stops with an error naming the record, and the
//! `--max-*` options raise it.
//!
//! Exit status: 0 replayed with every answer alike; 3 replayed, but some answers differ (or a
//! create failed); 1 the capture could not be loaded or replayed (or passed its budget); 2 bad
//! arguments.

use std::ops::Range;
use std::process::ExitCode;

use glcmd::capture::{self, ReplayEvent, ReplayOptions};

const USAGE: &str = "usage: glcmd-replay FILE [--dump] [--png OUT.png] [--frames A..B] [--quiet]
                    [--max-objects N] [--max-storage BYTES] [--max-vertices N]

  --dump               print every list of the replayed frames, one GL call per line
  --png OUT.png        write the framebuffer the replay last drew to
  --frames A..B        replay captured frames A to B-1 (0 is the first frame after the set-up);
                       the frames before A still replay, unreported
  --quiet              print only differences, reports and the summary
  --max-objects N      objects alive at once (default 1M)
  --max-storage BYTES  bytes of buffer and texel storage held at once (default 4G)
  --max-vertices N     vertices drawn over the replay, instances included (default 16G)
                       Amounts take a K, M, G or T suffix (powers of 1024), or `unlimited`.";

struct Args {
    file: String,
    dump: bool,
    png: Option<String>,
    frames: Option<Range<usize>>,
    quiet: bool,
    budget: capture::ReplayBudget,
}

/// An amount: digits with an optional K, M, G or T suffix (powers of 1024), or `unlimited`.
fn amount(option: &str, v: &str) -> Result<u64, String> {
    if v == "unlimited" {
        return Ok(u64::MAX);
    }
    let (digits, shift) = match v.as_bytes().last() {
        Some(b'K' | b'k') => (&v[..v.len() - 1], 10),
        Some(b'M' | b'm') => (&v[..v.len() - 1], 20),
        Some(b'G' | b'g') => (&v[..v.len() - 1], 30),
        Some(b'T' | b't') => (&v[..v.len() - 1], 40),
        _ => (v, 0),
    };
    let n: u64 = digits.parse().map_err(|_| format!("{option} {v:?}: expected a number, e.g. 8G, or `unlimited`"))?;
    n.checked_mul(1 << shift).ok_or(format!("{option} {v:?}: too large (use `unlimited`)"))
}

fn parse() -> Result<Args, String> {
    let mut file = None;
    let (mut dump, mut png, mut frames, mut quiet) = (false, None, None, false);
    let mut budget = capture::ReplayBudget::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--dump" => dump = true,
            "--quiet" => quiet = true,
            "--png" => png = Some(args.next().ok_or("--png needs a path")?),
            "--frames" => {
                let v = args.next().ok_or("--frames needs A..B")?;
                let (a, b) = v.split_once("..").ok_or(format!("--frames {v:?}: expected A..B"))?;
                let n = |s: &str| s.parse::<usize>().map_err(|_| format!("--frames {v:?}: {s:?} is not a number"));
                frames = Some(n(a)?..n(b)?);
            }
            "--max-objects" | "--max-storage" | "--max-vertices" => {
                let v = args.next().ok_or(format!("{arg} needs an amount"))?;
                let n = amount(&arg, &v)?;
                match arg.as_str() {
                    "--max-objects" => budget = budget.objects(n),
                    "--max-storage" => budget = budget.storage_bytes(n),
                    _ => budget = budget.vertices(n),
                }
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other if other.starts_with('-') => return Err(format!("unknown option {other:?}")),
            other if file.is_none() => file = Some(other.to_string()),
            other => return Err(format!("one capture at a time ({other:?})")),
        }
    }
    Ok(Args { file: file.ok_or("no capture file given")?, dump, png, frames, quiet, budget })
}

fn main() -> ExitCode {
    let args = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("glcmd-replay: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(3),
        Err(e) => {
            eprintln!("glcmd-replay: {e}");
            ExitCode::from(1)
        }
    }
}

/// Replays; `Ok(false)` when answers differ.
fn run(args: &Args) -> Result<bool, Box<dyn std::error::Error>> {
    let c = capture::Capture::open(&args.file)?;
    let lists = c.lists().count();
    let (packets, params) = c.lists().fold((0, 0), |(a, b), l| {
        let (p, q) = l.byte_sizes();
        (a + p, b + q)
    });
    println!(
        "{}: {} bytes, {} records, {lists} lists ({packets} packet + {params} parameter bytes), {} captured frames{}{}{}",
        args.file,
        c.bytes,
        c.records.len(),
        c.frames(),
        if c.has_flag(capture::format::FLAG_POST_MORTEM) { ", post-mortem" } else { "" },
        if c.has_flag(capture::format::FLAG_SETUP_INCOMPLETE) { ", set-up log incomplete" } else { "" },
        if c.has_flag(capture::format::FLAG_TRUNCATED) { ", truncated" } else { "" },
    );
    let device = glcmd_replay::replay_device()?;
    if !device.robust_access() {
        eprintln!(
            "glcmd-replay: warning: the driver gave no robust-access context, so a draw in the capture that reads \
             past the end of a buffer is undefined behaviour (replay only captures you trust)"
        );
    }
    let options = ReplayOptions::default().frames(args.frames.clone()).dump(args.dump).budget(args.budget);
    let quiet = args.quiet;
    let summary = capture::replay(&c, &device, &options, &mut |event| match event {
        ReplayEvent::SetupDone if !quiet => println!("-- set-up replayed"),
        ReplayEvent::FrameEnd { index, frame } if !quiet => println!("-- frame {index} (captured as frame {frame})"),
        ReplayEvent::List { frame, slot, label, text } => {
            println!(
                "# frame {frame} slot {slot}{}",
                if label.is_empty() { String::new() } else { format!(" \"{label}\"") }
            );
            print!("{text}");
        }
        ReplayEvent::Call(o) => {
            let replayed = match &o.replayed {
                Some(Ok(v)) => v.clone(),
                Some(Err(e)) => format!("error: {e}"),
                None => "-".into(),
            };
            if o.differs {
                println!("DIFF {}: captured {}, replayed {replayed}", o.function, o.captured);
            } else if !quiet {
                println!("   {}: {replayed}", o.function);
            }
        }
        ReplayEvent::Report(r) => println!("REPORT {r}"),
        ReplayEvent::Note(n) => println!("NOTE {n}"),
        _ => {}
    })?;
    println!(
        "replayed {} frames, {} lists, {} commands; {} creates and queries, {} differ; {} commands skipped; {} names unmapped",
        summary.frames, summary.lists, summary.commands, summary.calls, summary.differences, summary.skipped, summary.unmapped
    );
    if let Some(out) = &args.png {
        let image = capture::read_final_framebuffer(&device)?;
        glcmd_replay::write_png(out, &image)?;
        println!("wrote {out} ({}x{})", image.width, image.height);
    }
    Ok(summary.differences == 0)
}
