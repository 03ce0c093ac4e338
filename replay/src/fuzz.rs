//! A mutation fuzzer for the capture loader and validator.
//!
//! No nightly toolchain here, and no new dependency: a loop over mutations of real captures,
//! driven by a seeded xorshift generator, so every run is reproducible from its seed. The
//! mutations know the capture's layout (the loader tells where each record, packet and
//! parameter buffer lies), so besides blind bit flips, byte writes, cuts and splices, they aim
//! at what the validator must catch: a packet's opcode replaced by another (every field then
//! means something else), a packet field or a parameter word set to a boundary value (0, -1,
//! the buffer's size, the markers for "buffer offset" and "null"), a record length off by a
//! little, an argument of a create or query record (a create's count, which must equal the
//! names it recorded). Sizes and counts set to boundary values are what the replay's budget
//! (`capture::ReplayBudget`) must stop: a replay that passes it is a value, not a crash.
//!
//! The oracle: loading returns a capture or a typed error, never a panic (caught and kept as a
//! crash with its input), and the largest allocation made while loading stays within a small
//! multiple of the input (checked by the caller's counting allocator, [`CountingAlloc`]).
//! Inputs that still load are, up to a limit, replayed on a real device: the render thread's
//! checks must then keep every command safe, and the device must survive.

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use glcmd::capture::{self, Capture, LoadError, ReplayOptions};
use glcmd::types::GLuint;
use glcmd::{gl, Device};

/// xorshift64*, seeded through splitmix64.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        Rng(if z == 0 { 0x2545_F491_4F6C_DD1D } else { z })
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (0 when n is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (((self.next_u64() >> 11) as u128 * n as u128) >> 53) as usize
        }
    }
}

/// A counting global allocator: the largest single allocation since [`CountingAlloc::reset`].
/// A binary that fuzzes installs it with `#[global_allocator]`.
pub struct CountingAlloc;

static LARGEST: AtomicUsize = AtomicUsize::new(0);
static COUNTING: AtomicBool = AtomicBool::new(false);

impl CountingAlloc {
    /// Starts counting from zero.
    pub fn reset() {
        LARGEST.store(0, Ordering::SeqCst);
        COUNTING.store(true, Ordering::SeqCst);
    }

    /// The largest allocation since `reset`, and stops counting.
    pub fn largest() -> usize {
        COUNTING.store(false, Ordering::SeqCst);
        LARGEST.load(Ordering::SeqCst)
    }
}

// SAFETY: forwards every call to the system allocator unchanged; only records sizes.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        }
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            LARGEST.fetch_max(new_size, Ordering::Relaxed);
        }
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// A capture to mutate, with the places worth aiming at.
pub struct Seed {
    pub bytes: Vec<u8>,
    /// (offset, length) of each record.
    records: Vec<(usize, usize)>,
    /// (offset, slots) of each packet.
    packets: Vec<(usize, usize)>,
    /// (offset, length) of each parameter buffer.
    params: Vec<(usize, usize)>,
    /// (offset, length) of the arguments of each create and query record.
    calls: Vec<(usize, usize)>,
}

impl Seed {
    /// A seed from a capture that loads.
    #[allow(clippy::result_large_err)] // LoadError is the loader's own, with its context
    pub fn new(bytes: Vec<u8>) -> Result<Seed, LoadError> {
        let c = Capture::from_bytes(&bytes)?;
        let mut records = Vec::new();
        let mut calls = Vec::new();
        let mut at = capture::format::HEADER_BYTES;
        while at + 5 <= bytes.len() {
            let len = u32::from_ne_bytes(bytes[at + 1..at + 5].try_into().expect("4 bytes")) as usize;
            records.push((at, 5 + len));
            // A call record: tag, length, function (2), arguments' length (4), arguments.
            if bytes[at] == capture::format::TAG_CALL && at + 11 <= bytes.len() {
                let args = u32::from_ne_bytes(bytes[at + 7..at + 11].try_into().expect("4 bytes")) as usize;
                calls.push((at + 11, args));
            }
            at += 5 + len;
        }
        let mut packets = Vec::new();
        let mut params = Vec::new();
        for l in c.lists() {
            for p in l.packet_infos() {
                packets.push((p.offset, glcmd::generated::SLOTS[p.opcode as usize] as usize));
            }
            params.push((l.params_offset(), l.params().len()));
        }
        Ok(Seed { bytes, records, packets, params, calls })
    }
}

/// Boundary values for 32-bit fields.
const INTERESTING: [u32; 20] = [
    0,
    1,
    2,
    3,
    4,
    8,
    16,
    0x7F,
    0x80,
    0xFF,
    0x100,
    0x7FFF,
    0x8000,
    0xFFFF,
    0x1_0000,
    0x7FFF_FFFF,
    0x8000_0000,
    0xFFFF_FFFD,
    0xFFFF_FFFE, // the "null" marker of Bytes fields
    0xFFFF_FFFF, // the "buffer offset" marker, and a nullable array's null
];

fn put32(b: &mut [u8], at: usize, v: u32) {
    if at + 4 <= b.len() {
        b[at..at + 4].copy_from_slice(&v.to_ne_bytes());
    }
}

fn interesting(rng: &mut Rng, near: &[usize]) -> u32 {
    if !near.is_empty() && rng.below(3) == 0 {
        // Near a size that matters: a buffer's length, give or take a little.
        let base = near[rng.below(near.len())] as i64;
        return (base + rng.below(17) as i64 - 8).max(0) as u32;
    }
    let v = INTERESTING[rng.below(INTERESTING.len())];
    if rng.below(4) == 0 {
        v.wrapping_neg()
    } else {
        v
    }
}

/// One mutated input: one to four mutations of the seed.
pub fn mutate(seed: &Seed, rng: &mut Rng) -> Vec<u8> {
    let mut b = seed.bytes.clone();
    let sizes: Vec<usize> = seed.params.iter().map(|&(_, n)| n).collect();
    for _ in 0..1 + rng.below(4) {
        if b.is_empty() {
            break;
        }
        let pick_in = |rng: &mut Rng, regions: &[(usize, usize)], unit: usize| -> Option<usize> {
            let &(at, len) = regions.get(rng.below(regions.len()))?;
            let n = (len * unit).max(1);
            Some(at + rng.below(n) / 2 * 2)
        };
        match rng.below(13) {
            0 => {
                let at = rng.below(b.len());
                b[at] ^= 1 << rng.below(8);
            }
            1 => {
                let at = rng.below(b.len());
                b[at] = rng.next_u64() as u8;
            }
            2 => {
                let at = rng.below(b.len()) & !3;
                let v = interesting(rng, &sizes);
                put32(&mut b, at, v);
            }
            3 => {
                // A packet field.
                if let Some(at) = pick_in(rng, &seed.packets, 8) {
                    let v = interesting(rng, &sizes);
                    if rng.below(2) == 0 {
                        put32(&mut b, at, v);
                    } else if at + 2 <= b.len() {
                        b[at..at + 2].copy_from_slice(&(v as u16).to_ne_bytes());
                    }
                }
            }
            4 => {
                // A packet's opcode: any opcode, or just past the table.
                if let Some(&(at, _)) = seed.packets.get(rng.below(seed.packets.len())) {
                    let n = glcmd::generated::OPCODE_COUNT;
                    let op = if rng.below(16) == 0 { n + rng.below(4) } else { rng.below(n) };
                    if at + 2 <= b.len() {
                        b[at..at + 2].copy_from_slice(&(op as u16).to_ne_bytes());
                    }
                }
            }
            5 => {
                // A word of a parameter buffer (string tables, lengths, names).
                if let Some(&(at, len)) = seed.params.get(rng.below(seed.params.len())) {
                    let at = at + (rng.below(len.max(1)) & !3);
                    let v = interesting(rng, &sizes);
                    put32(&mut b, at, v);
                }
            }
            6 => {
                // A cut, often at or near a record boundary.
                let at = match seed.records.get(rng.below(seed.records.len())) {
                    Some(&(r, _)) if rng.below(2) == 0 => (r + rng.below(9)).min(b.len()),
                    _ => rng.below(b.len()),
                };
                b.truncate(at);
            }
            7 => {
                let at = rng.below(b.len());
                let n = (1 + rng.below(64)).min(b.len() - at);
                b.drain(at..at + n);
            }
            8 => {
                let at = rng.below(b.len() + 1);
                let n = 1 + rng.below(16);
                let junk: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
                b.splice(at..at, junk);
            }
            9 => {
                // A record's length, off by a little or set to a boundary.
                if let Some(&(at, len)) = seed.records.get(rng.below(seed.records.len())) {
                    let v = if rng.below(2) == 0 {
                        (len as i64 - 5 + rng.below(9) as i64 - 4).max(0) as u32
                    } else {
                        interesting(rng, &[])
                    };
                    put32(&mut b, at + 1, v);
                }
            }
            10 => {
                // A record copied over another place (a splice of valid pieces).
                if let (Some(&(from, len)), Some(&(to, _))) =
                    (seed.records.get(rng.below(seed.records.len())), seed.records.get(rng.below(seed.records.len())))
                {
                    if from + len <= seed.bytes.len() && to <= b.len() {
                        let piece = seed.bytes[from..from + len].to_vec();
                        b.splice(to..to, piece);
                    }
                }
            }
            11 => {
                // An argument of a create or query: a create's count (which must match the
                // names it recorded), a query's size.
                if let Some(&(at, len)) = seed.calls.get(rng.below(seed.calls.len())) {
                    let at = at + (rng.below(len.max(1)) & !3);
                    let v = interesting(rng, &sizes);
                    put32(&mut b, at, v);
                }
            }
            _ => {
                // A header field: version, flags, frames.
                let at = [12usize, 24, 28, 32, 40][rng.below(5)];
                let v = interesting(rng, &[]);
                put32(&mut b, at, v);
            }
        }
    }
    b
}

/// A mutated input that crashed the loader (or the replay).
#[derive(Clone, Debug)]
pub struct Crash {
    pub seed: u64,
    pub iteration: u64,
    pub message: String,
    pub input: Vec<u8>,
}

/// What a round found. `#[non_exhaustive]`: read only, as every counters type of glcmd
/// (glcmd's `runtime/builders.rs` gives the rule), so a new count is not a breaking change.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Outcome {
    pub tried: u64,
    /// Inputs that loaded (their mutations left a valid capture).
    pub loaded: u64,
    /// Of those, replayed on the device.
    pub replayed: u64,
    /// Replays that stopped with an error (a value, not a crash: a create the device refused).
    pub replay_errors: u64,
    /// Of those, replays the resource budget stopped (a size or count set past it).
    pub over_budget: u64,
    /// Load errors by kind.
    pub refused: BTreeMap<String, u64>,
    pub crashes: Vec<Crash>,
    /// The largest allocation made while loading, against the input's size: (bytes, input).
    pub largest_alloc: (usize, usize),
    /// Inputs whose loading allocated more than `Config::alloc_factor` times their size.
    pub over_alloc: u64,
    pub elapsed: Duration,
}

/// How to run a round.
///
/// An options type as glcmd's are (glcmd's `runtime/builders.rs` gives the rule):
/// `#[non_exhaustive]`, made with [`Config::new`] (the seed and the iteration count, which have
/// no sensible default; nothing else is on) and changed with one builder method per field:
///
/// ```
/// use std::time::Duration;
/// use glcmd_replay::fuzz::Config;
/// let config = Config::new(7, 20_000).time_limit(Some(Duration::from_secs(60))).alloc_factor(Some(16));
/// assert_eq!((config.seed, config.iterations, config.alloc_factor), (7, 20_000, Some(16)));
/// assert!(config.replay.is_none() && config.trace.is_none());
/// ```
#[non_exhaustive]
pub struct Config<'a> {
    /// The round's seed: the same seed, seeds and build give the same inputs.
    pub seed: u64,
    pub iterations: u64,
    /// Stops early past this time (the long round's clock).
    pub time_limit: Option<Duration>,
    /// Replay up to this many inputs that load, on this device.
    pub replay: Option<(&'a Device, u64)>,
    /// Whether a [`CountingAlloc`] is installed, and the bound: largest allocation at most
    /// `factor * input + 64 KiB`.
    pub alloc_factor: Option<usize>,
    /// Writes each input to this file before trying it (and `<file>.step` says whether it is
    /// loading or replaying), so an input that kills the process (a fault in the driver) is
    /// on disk.
    pub trace: Option<std::path::PathBuf>,
}

impl<'a> Config<'a> {
    /// A round of `iterations` inputs from `seed`: no time limit, no replay, no allocation
    /// bound, no trace file.
    pub fn new(seed: u64, iterations: u64) -> Config<'a> {
        Config { seed, iterations, time_limit: None, replay: None, alloc_factor: None, trace: None }
    }

    /// Sets [`Config::seed`] and returns the options.
    #[must_use = "a builder method returns the changed options; the options it was called on are gone"]
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Sets [`Config::iterations`] and returns the options.
    #[must_use = "a builder method returns the changed options; the options it was called on are gone"]
    pub fn iterations(mut self, iterations: u64) -> Self {
        self.iterations = iterations;
        self
    }

    /// Sets [`Config::time_limit`] and returns the options.
    #[must_use = "a builder method returns the changed options; the options it was called on are gone"]
    pub fn time_limit(mut self, time_limit: Option<Duration>) -> Self {
        self.time_limit = time_limit;
        self
    }

    /// Sets [`Config::replay`] and returns the options.
    #[must_use = "a builder method returns the changed options; the options it was called on are gone"]
    pub fn replay(mut self, replay: Option<(&'a Device, u64)>) -> Self {
        self.replay = replay;
        self
    }

    /// Sets [`Config::alloc_factor`] and returns the options.
    #[must_use = "a builder method returns the changed options; the options it was called on are gone"]
    pub fn alloc_factor(mut self, alloc_factor: Option<usize>) -> Self {
        self.alloc_factor = alloc_factor;
        self
    }

    /// Sets [`Config::trace`] and returns the options.
    #[must_use = "a builder method returns the changed options; the options it was called on are gone"]
    pub fn trace(mut self, trace: Option<std::path::PathBuf>) -> Self {
        self.trace = trace;
        self
    }
}

fn kind(e: &LoadError) -> String {
    match e {
        LoadError::Packet { problem, .. } => {
            let p = format!("{problem:?}");
            format!("Packet/{}", p.split(|c: char| !c.is_alphanumeric()).next().unwrap_or(""))
        }
        other => format!("{other:?}").split(|c: char| !c.is_alphanumeric()).next().unwrap_or("").to_string(),
    }
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}

/// Runs one round over `seeds`.
#[allow(clippy::result_large_err)] // the loader's LoadError, caught as it is
pub fn run(seeds: &[Seed], config: &Config<'_>) -> Outcome {
    let start = Instant::now();
    let mut rng = Rng::new(config.seed);
    let mut out = Outcome::default();
    // Panics are caught and counted; keep their messages off the test output.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for iteration in 0..config.iterations {
        if config.time_limit.is_some_and(|t| start.elapsed() >= t) {
            break;
        }
        let seed = &seeds[rng.below(seeds.len())];
        let input = mutate(seed, &mut rng);
        out.tried += 1;
        let step = |what: &str| {
            if let Some(t) = &config.trace {
                let _ = std::fs::write(t.with_extension("step"), format!("iteration {iteration}: {what}"));
            }
        };
        if let Some(t) = &config.trace {
            let _ = std::fs::write(t, &input);
        }
        step("loading");
        let counting = config.alloc_factor.is_some();
        if counting {
            CountingAlloc::reset();
        }
        let loaded = std::panic::catch_unwind(AssertUnwindSafe(|| Capture::from_bytes(&input)));
        if let Some(factor) = config.alloc_factor {
            let largest = CountingAlloc::largest();
            if largest > out.largest_alloc.0 {
                out.largest_alloc = (largest, input.len());
            }
            if largest > factor * input.len() + (64 << 10) {
                out.over_alloc += 1;
            }
        }
        let c = match loaded {
            Err(p) => {
                out.crashes.push(Crash { seed: config.seed, iteration, message: panic_text(&*p), input });
                continue;
            }
            Ok(Err(e)) => {
                *out.refused.entry(kind(&e)).or_default() += 1;
                continue;
            }
            Ok(Ok(c)) => c,
        };
        out.loaded += 1;
        if let Some((device, limit)) = config.replay {
            if out.replayed < limit {
                out.replayed += 1;
                step("replaying");
                let r = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    let replayed = capture::replay(&c, device, &ReplayOptions::default(), &mut |_| {});
                    // Whatever the replay did, the device must still answer.
                    let alive = device.get_error();
                    if matches!(replayed, Err(capture::ReplayError::Budget { .. })) {
                        out.over_budget += 1;
                    }
                    (replayed.err().map(|e| e.to_string()), alive.err().map(|e| e.to_string()))
                }));
                match r {
                    Err(p) => out.crashes.push(Crash {
                        seed: config.seed,
                        iteration,
                        message: format!("replay panicked: {}", panic_text(&*p)),
                        input,
                    }),
                    Ok((_, Some(lost))) => out.crashes.push(Crash {
                        seed: config.seed,
                        iteration,
                        message: format!("the device did not survive the replay: {lost}"),
                        input,
                    }),
                    Ok((Some(_), None)) => out.replay_errors += 1,
                    Ok((None, None)) => {}
                }
            }
        }
    }
    std::panic::set_hook(hook);
    out.elapsed = start.elapsed();
    out
}

// ---- seeds -------------------------------------------------------------------------------

const VS: &str = "#version 450 core
layout(location = 0) in vec2 pos;
layout(location = 0) uniform vec4 offset;
void main() { gl_Position = vec4(pos + offset.xy, 0.0, 1.0); }
";

const FS: &str = "#version 450 core
layout(location = 1) uniform vec4 color;
layout(binding = 0) uniform sampler2D tex;
layout(location = 0) out vec4 out_color;
void main() { out_color = color * texture(tex, vec2(0.5)); }
";

/// Writes a small capture that uses many kinds of argument: strings and string tables, arrays
/// sized by counts and by pnames, arrays of names, buffer offsets with buffers bound, element
/// draws, deletes, creates and queries inside the captured frames. The fuzzer's seed.
pub fn seed_capture(path: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let device = Device::with_options(glcmd::Options::default().capture(Some(capture::CaptureOptions::default())))?;
    let program = device.create_program()?;
    let shaders = [device.create_shader(gl::VERTEX_SHADER)?, device.create_shader(gl::FRAGMENT_SHADER)?];
    let fbo = device.create_framebuffers(1)?[0];
    let textures = device.create_textures(gl::TEXTURE_2D, 2)?;
    let buffers = device.create_buffers(2)?;
    let vao = device.create_vertex_arrays(1)?[0];
    let sampler = device.create_samplers(1)?[0];
    let mut setup = device.command_list();
    setup.set_label("set-up");
    for (&shader, source) in shaders.iter().zip([VS, FS]) {
        setup.shader_source(shader, &[source]);
        setup.compile_shader(shader);
        setup.attach_shader(program, shader);
    }
    setup.link_program(program);
    setup.object_label(gl::PROGRAM, program, "fuzz program");
    setup.texture_storage_2d(textures[0], 1, gl::RGBA8, 16, 16);
    setup.texture_storage_2d(textures[1], 1, gl::RGBA8, 1, 1);
    setup.texture_parameteriv(
        textures[1],
        gl::TEXTURE_SWIZZLE_RGBA,
        &[gl::RED as i32, gl::GREEN as i32, gl::BLUE as i32, gl::ONE as i32],
    );
    setup.sampler_parameterf(sampler, gl::TEXTURE_MAX_ANISOTROPY, 1.0);
    setup.named_framebuffer_texture(fbo, gl::COLOR_ATTACHMENT0, textures[0], 0);
    setup.named_framebuffer_draw_buffers(fbo, &[gl::COLOR_ATTACHMENT0]);
    let quad: [f32; 8] = [-0.5, -0.5, 0.5, -0.5, -0.5, 0.5, 0.5, 0.5];
    let bytes: Vec<u8> = quad.iter().flat_map(|f| f.to_ne_bytes()).collect();
    setup.named_buffer_storage(buffers[0], bytes.len() as isize, Some(&bytes), gl::DYNAMIC_STORAGE_BIT);
    let indices: Vec<u8> = [0u16, 1, 2, 1, 3, 2].iter().flat_map(|i| i.to_ne_bytes()).collect();
    setup.named_buffer_storage(buffers[1], indices.len() as isize, Some(&indices), 0);
    setup.vertex_array_vertex_buffer(vao, 0, buffers[0], 0, 8);
    setup.vertex_array_element_buffer(vao, buffers[1]);
    setup.vertex_array_attrib_format(vao, 0, 2, gl::FLOAT, false, 0);
    setup.vertex_array_attrib_binding(vao, 0, 0);
    setup.enable_vertex_array_attrib(vao, 0);
    device.submit(setup)?;
    let handle = device.capture(path, 2)?;
    for frame in 0..2u32 {
        let f = device.begin_frame(3)?;
        let mut a = device.command_list();
        a.set_label("clear");
        a.bind_framebuffer(gl::FRAMEBUFFER, fbo);
        a.viewport(0, 0, 16, 16);
        a.clear_named_framebufferfv(fbo, gl::COLOR, 0, &[0.1, 0.2, 0.3, 1.0]);
        let mut b = device.command_list();
        b.set_label("draw");
        b.use_program(program);
        b.bind_vertex_array(vao);
        b.bind_textures(0, 1, Some(&textures[1..2]));
        b.bind_samplers(0, 1, Some(&[sampler]));
        b.uniform4fv(0, &[[0.1 * frame as f32, 0.0, 0.0, 0.0]]);
        b.uniform4f(1, 1.0, 0.5, 0.25, 1.0);
        b.draw_elements(gl::TRIANGLES, 6, gl::UNSIGNED_SHORT, 0);
        b.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
        b.named_buffer_sub_data(buffers[0], 0, &bytes[..8]);
        b.debug_message_insert(
            gl::DEBUG_SOURCE_APPLICATION,
            gl::DEBUG_TYPE_MARKER,
            frame,
            gl::DEBUG_SEVERITY_NOTIFICATION,
            "marker",
        );
        let mut c = device.command_list();
        c.push_debug_group(gl::DEBUG_SOURCE_APPLICATION, 1, "group");
        c.invalidate_named_framebuffer_data(fbo, &[gl::DEPTH_ATTACHMENT]);
        c.pop_debug_group();
        let spare: Vec<GLuint> = device.create_textures(gl::TEXTURE_2D, 1)?;
        c.delete_textures(&spare);
        f.submit(2, c)?;
        f.submit(0, a)?;
        f.submit(1, b)?;
        drop(f);
        device.get_integerv(gl::VIEWPORT)?;
        device.get_uniform_location(program, "color")?;
        device.get_error()?;
    }
    handle.wait(Duration::from_secs(120))?;
    Ok(())
}
