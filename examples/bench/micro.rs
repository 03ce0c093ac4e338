//! Micro-benchmarks: recording, packet sizes, replay dispatch, per-call cost of the
//! alternatives, round trips and steady-state allocations.

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use glcmd::replay::Standalone;
use glcmd::types::*;
use glcmd::{gl, CommandList, Device, Gl};

use crate::alloc;
use crate::harness::{per_op, per_op_timed, summary};
use crate::scene::{self, Scene};

/// The four commands of the issue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmd {
    BindTexture,
    UniformMatrix4fv,
    DrawElementsInstanced,
    NamedBufferSubData1K,
}

pub const CMDS: [Cmd; 4] =
    [Cmd::BindTexture, Cmd::UniformMatrix4fv, Cmd::DrawElementsInstanced, Cmd::NamedBufferSubData1K];

impl Cmd {
    pub fn label(self) -> &'static str {
        match self {
            Cmd::BindTexture => "`bind_texture` (2 arguments)",
            Cmd::UniformMatrix4fv => "`uniform_matrix4fv`, one matrix (64 B)",
            Cmd::DrawElementsInstanced => "`draw_elements_instanced`",
            Cmd::NamedBufferSubData1K => "`named_buffer_sub_data`, 1 KiB",
        }
    }
    pub fn gl_name(self) -> &'static str {
        match self {
            Cmd::BindTexture => "glBindTexture",
            Cmd::UniformMatrix4fv => "glUniformMatrix4fv (1 matrix)",
            Cmd::DrawElementsInstanced => "glDrawElementsInstanced",
            Cmd::NamedBufferSubData1K => "glNamedBufferSubData (1 KiB)",
        }
    }
    /// Commands per timed batch.
    pub fn batch(self) -> u32 {
        match self {
            Cmd::NamedBufferSubData1K => 256,
            _ => 1024,
        }
    }
}

/// 16 distinct matrices, so that consecutive uploads differ.
pub fn matrices() -> Vec<[f32; 16]> {
    (0..16u32).map(|i| scene::cpu_work(i, 0)).collect()
}

static DATA_1K: [u8; 1024] = {
    let mut d = [0u8; 1024];
    let mut i = 0;
    while i < 1024 {
        d[i] = i as u8;
        i += 1;
    }
    d
};

/// Records command `c` number `i` into `list`.
#[inline(always)]
fn record_one(list: &mut CommandList, c: Cmd, i: u32, mats: &[[f32; 16]]) {
    match c {
        Cmd::BindTexture => list.bind_texture(gl::TEXTURE_2D, i),
        Cmd::UniformMatrix4fv => {
            list.uniform_matrix4fv(black_box(3), false, std::slice::from_ref(&mats[(i & 15) as usize]))
        }
        Cmd::DrawElementsInstanced => {
            list.draw_elements_instanced(gl::TRIANGLES, 6, gl::UNSIGNED_SHORT, 0, i as GLsizei)
        }
        Cmd::NamedBufferSubData1K => list.named_buffer_sub_data(black_box(1), ((i & 63) * 1024) as GLintptr, &DATA_1K),
    }
}

/// A monomorphised recording loop per command, so that the match above is resolved at compile
/// time and the loop body is exactly one recording call.
fn record_loop<const C: u8>(list: &mut CommandList, n: u32, mats: &[[f32; 16]]) {
    let c = CMDS[C as usize];
    for i in 0..n {
        record_one(list, c, black_box(i), mats);
    }
}

/// Records `n` commands `c` into `list` (the loop the record benchmarks time and the
/// instruction counts of `icount.rs` count).
pub fn record_batch(list: &mut CommandList, c: Cmd, n: u32, mats: &[[f32; 16]]) {
    match c {
        Cmd::BindTexture => record_loop::<0>(list, n, mats),
        Cmd::UniformMatrix4fv => record_loop::<1>(list, n, mats),
        Cmd::DrawElementsInstanced => record_loop::<2>(list, n, mats),
        Cmd::NamedBufferSubData1K => record_loop::<3>(list, n, mats),
    }
}

/// ns to record one command into a warm list: (median, min). `sites`: diagnostics on (each
/// packet also records its `#[track_caller]` location).
pub fn record_ns(c: Cmd, reps: usize, sites: bool) -> (f64, f64) {
    let mats = matrices();
    let n = c.batch();
    let mut list = CommandList::new();
    list.track_sites(sites);
    record_batch(&mut list, c, n, &mats); // grow the buffers once: the list is warm
    summary(per_op(3, reps, || {
        list.clear_commands();
        record_batch(&mut list, c, n, &mats);
        black_box(&list);
        n as usize
    }))
}

/// The entry points of the four commands in glcmd's C ABI (crate glcmd-capi), as a C program
/// gets them from `glcmdGetProcAddress`.
struct CEntries {
    bind_texture: glcmd::generated::loader::PfnBindTexture,
    uniform_matrix4fv: glcmd::generated::loader::PfnUniformMatrix4fv,
    draw_elements_instanced: glcmd::generated::loader::PfnDrawElementsInstanced,
    named_buffer_sub_data: glcmd::generated::loader::PfnNamedBufferSubData,
}

impl CEntries {
    fn load() -> CEntries {
        use glcmd::generated::loader;
        let get = |name: &std::ffi::CStr| {
            // SAFETY: a NUL-terminated name.
            let p = unsafe { glcmd_capi::glcmdGetProcAddress(name.as_ptr()) };
            assert!(!p.is_null(), "{name:?} has no entry point");
            p
        };
        // SAFETY: glcmdGetProcAddress returns each function's entry point, with the C signature
        // of glcorearb.h, which is what the loader's pointer type spells.
        unsafe {
            CEntries {
                bind_texture: std::mem::transmute::<*mut std::ffi::c_void, loader::PfnBindTexture>(get(
                    c"glBindTexture",
                )),
                uniform_matrix4fv: std::mem::transmute::<*mut std::ffi::c_void, loader::PfnUniformMatrix4fv>(get(
                    c"glUniformMatrix4fv",
                )),
                draw_elements_instanced: std::mem::transmute::<*mut std::ffi::c_void, loader::PfnDrawElementsInstanced>(
                    get(c"glDrawElementsInstanced"),
                ),
                named_buffer_sub_data: std::mem::transmute::<*mut std::ffi::c_void, loader::PfnNamedBufferSubData>(
                    get(c"glNamedBufferSubData"),
                ),
            }
        }
    }
}

/// ns per call of each command through the C ABI: the entry point, called through its function
/// pointer as a C program calls it (the pointer hidden from the optimiser), records into the
/// calling thread's current list, warm as in [`record_ns`]. (median, min).
pub fn capi_record_ns(c: Cmd, reps: usize) -> (f64, f64) {
    let e = black_box(CEntries::load());
    let mats = matrices();
    let n = c.batch();
    assert!(glcmd_capi::current::begin_detached(), "a list is current on the bench thread already");
    let batch = |e: &CEntries| {
        // SAFETY: each entry point with the arguments its C signature takes; the matrix and the
        // data are as long as the counts say.
        unsafe {
            match c {
                Cmd::BindTexture => {
                    for i in 0..n {
                        (e.bind_texture)(gl::TEXTURE_2D, black_box(i));
                    }
                }
                Cmd::UniformMatrix4fv => {
                    for i in 0..n {
                        (e.uniform_matrix4fv)(
                            black_box(3),
                            1,
                            gl::FALSE as GLboolean,
                            mats[(i & 15) as usize].as_ptr(),
                        );
                    }
                }
                Cmd::DrawElementsInstanced => {
                    for i in 0..n {
                        (e.draw_elements_instanced)(
                            gl::TRIANGLES,
                            6,
                            gl::UNSIGNED_SHORT,
                            std::ptr::null(),
                            black_box(i) as GLsizei,
                        );
                    }
                }
                Cmd::NamedBufferSubData1K => {
                    for i in 0..n {
                        (e.named_buffer_sub_data)(
                            black_box(1),
                            ((i & 63) * 1024) as GLintptr,
                            1024,
                            DATA_1K.as_ptr().cast(),
                        );
                    }
                }
            }
        }
    };
    batch(&e); // grow the buffers once: the list is warm
    let r = summary(per_op(3, reps, || {
        glcmd_capi::current::with_list_mut(|l| l.clear_commands());
        batch(black_box(&e));
        n as usize
    }));
    glcmd_capi::current::discard();
    r
}

/// (packet bytes, parameter bytes) of one command.
pub fn packet_bytes(c: Cmd) -> (usize, usize) {
    let mut list = CommandList::new();
    record_one(&mut list, c, 1, &matrices());
    list.byte_sizes()
}

/// Mesa glthread's size for the same call: (bytes in its batch buffer, where the number comes
/// from). Current Mesa (main, 2024-2025): `struct marshal_cmd_base` is one `uint16_t cmd_id`
/// (glthread_marshal.h); commands take whole 8-byte slots; variable-size commands add a
/// `uint16_t num_slots`; the generator (marshal_XML.py) packs GLenum to 16 bits (8 bits for a
/// draw's `mode`, `GLindextype` for its index type) and sorts fixed parameters by size.
pub fn mesa_bytes(c: Cmd) -> (usize, &'static str) {
    match c {
        // u16 cmd_id, GLenum16 target, GLuint texture = 8.
        Cmd::BindTexture => (8, "`marshal_cmd_BindTexture`: u16 cmd_id + GLenum16 target + GLuint texture"),
        // u16 cmd_id, u16 num_slots, GLboolean transpose, (pad), GLint location, GLsizei count
        // = 16, then count*16 floats.
        Cmd::UniformMatrix4fv => {
            (80, "`marshal_cmd_UniformMatrix4fv`: u16 cmd_id + u16 num_slots + GLboolean transpose + GLint location + GLsizei count = 16, + 64 B of matrix")
        }
        // Instanced draws go through marshal_cmd_DrawElementsInstancedBaseVertex:
        // u16 cmd_id, GLenum8 mode, GLindextype type, GLsizei count, GLsizei primcount,
        // GLint basevertex, const GLvoid *indices = 24.
        Cmd::DrawElementsInstanced => {
            (24, "`marshal_cmd_DrawElementsInstancedBaseVertex` (glthread_draw.c): u16 cmd_id + GLenum8 mode + GLindextype type + count + primcount + basevertex + 8-byte indices")
        }
        // marshal_cmd_BufferSubData (glthread_bufferobj.c): u16 cmd_id, u16 num_slots,
        // GLenum target_or_name, GLintptr offset, GLsizeiptr size, bool named, bool ext_dsa
        // = 26 -> 32, then the data.
        Cmd::NamedBufferSubData1K => {
            (1056, "`marshal_cmd_BufferSubData` (glthread_bufferobj.c): u16 cmd_id + u16 num_slots + GLenum + GLintptr offset + GLsizeiptr size + 2 bools = 32, + 1024 B")
        }
    }
}

/// Replay dispatch against direct calls through the same no-op table, for a stream of
/// `glBindTexture` (the cheapest packet) and for the frame benchmark's per-object stream
/// (`glUniformMatrix4fv` + `glUniform4f` + `glDrawElementsInstanced`).
pub struct Dispatch {
    pub bind_replay: (f64, f64),
    pub bind_direct: (f64, f64),
    pub mix_replay: (f64, f64),
    pub mix_direct: (f64, f64),
}

/// The scene whose names the per-object stream uses (the no-op table never sees a real one).
const FAKE_SCENE: Scene =
    Scene { program: 1, vao: 1, fbo: 1, loc_mvp: 0, loc_color: 1, textures: [1, 2], upload_buffer: 1 };

/// A list of `n` `glBindTexture` commands.
pub fn bind_stream(n: u32) -> CommandList {
    let mut list = CommandList::new();
    for i in 0..n {
        list.bind_texture(gl::TEXTURE_2D, i);
    }
    list
}

/// A list of the frame benchmark's per-object stream for `objects` objects (3 commands each).
pub fn object_stream(objects: u32) -> CommandList {
    let mats = matrices();
    let mut list = CommandList::new();
    for o in 0..objects {
        scene::object_record(&mut list, &FAKE_SCENE, &mats[(o & 15) as usize], scene::color(o));
    }
    list
}

/// A replay state on the no-op table `g` (from [`scene::noop_gl`]), with the vertex array and
/// element buffer that the draws of the per-object stream need in the binding shadow, as a real
/// scene has.
pub fn replay_state(g: &Gl) -> Standalone {
    // SAFETY: the table's entries that replay calls are no-ops.
    let mut state = unsafe { Standalone::new(g) };
    state.shadow().vertex_arrays_created(&[1]);
    state.shadow().buffers_created(&[2]);
    state.shadow().bind_vertex_array(g, 1);
    state.shadow().vertex_array_element_buffer(1, 2);
    state
}

pub fn dispatch(reps: usize) -> Dispatch {
    let table = scene::noop_gl();
    let g: &Gl = black_box(&table);
    const N: u32 = 4096;

    // glBindTexture stream.
    let list = bind_stream(N);
    let args: Vec<(GLenum, GLuint)> = (0..N).map(|i| (gl::TEXTURE_2D, i)).collect();
    let mut state = replay_state(g);
    let bind_replay = summary(per_op(20, reps, || {
        // SAFETY: no-op table, list recorded by glcmd.
        unsafe { state.replay(g, black_box(&list)) };
        N as usize
    }));
    let bind_direct = summary(per_op(20, reps, || {
        for &(t, n) in black_box(&args[..]) {
            // SAFETY: a no-op.
            unsafe { (g.BindTexture)(t, n) };
        }
        N as usize
    }));

    // Per-object stream: 3 commands per object.
    let mats = matrices();
    let objects = N / 4;
    let list = object_stream(objects);
    let colors: Vec<[f32; 4]> = (0..objects).map(scene::color).collect();
    let mix_replay = summary(per_op(20, reps, || {
        // SAFETY: no-op table, list recorded by glcmd.
        unsafe { state.replay(g, black_box(&list)) };
        3 * objects as usize
    }));
    let s = black_box(FAKE_SCENE);
    let mix_direct = summary(per_op(20, reps, || {
        let mats = black_box(&mats[..]);
        for (o, c) in black_box(&colors[..]).iter().enumerate() {
            // SAFETY: no-ops.
            unsafe { scene::object_direct(g, &s, &mats[o & 15], *c) };
        }
        3 * objects as usize
    }));
    Dispatch { bind_replay, bind_direct, mix_replay, mix_direct }
}

/// ns per call of each command made directly on a real context (the driver does the work).
///
/// # Safety
/// `g` and `s` belong to the context current on this thread.
pub unsafe fn direct_gl(g: &Gl, s: &Scene, reps: usize) -> Vec<(f64, f64)> {
    let mats = matrices();
    let mut out = Vec::new();
    for c in CMDS {
        let n = c.batch();
        let r = per_op_timed(3, reps, || unsafe {
            scene::prologue_direct(g, s);
            (g.Finish)();
            let t = Instant::now();
            match c {
                Cmd::BindTexture => {
                    for i in 0..n {
                        (g.BindTexture)(gl::TEXTURE_2D, s.textures[(i & 1) as usize]);
                    }
                }
                Cmd::UniformMatrix4fv => {
                    for i in 0..n {
                        (g.UniformMatrix4fv)(s.loc_mvp, 1, gl::FALSE as GLboolean, mats[(i & 15) as usize].as_ptr());
                    }
                }
                Cmd::DrawElementsInstanced => {
                    for _ in 0..n {
                        (g.DrawElementsInstanced)(gl::TRIANGLES, 6, gl::UNSIGNED_SHORT, std::ptr::null(), 1);
                    }
                }
                Cmd::NamedBufferSubData1K => {
                    for i in 0..n {
                        (g.NamedBufferSubData)(
                            s.upload_buffer,
                            ((i & 63) * 1024) as GLintptr,
                            1024,
                            DATA_1K.as_ptr().cast(),
                        );
                    }
                }
            }
            let dt = t.elapsed();
            (g.Finish)();
            (dt, n as usize)
        });
        out.push(summary(r));
    }
    out
}

type Call = Box<dyn FnOnce(&Gl) + Send>;

/// ns per call on the sending thread for a `Box<dyn FnOnce(&Gl) + Send>` per GL call over an
/// unbounded crossbeam channel, with a consumer thread executing the closures on a no-op table.
pub fn boxed_channel(reps: usize) -> Vec<(f64, f64)> {
    let (tx, rx) = crossbeam_channel::unbounded::<Call>();
    let consumer = std::thread::spawn(move || {
        let g = scene::noop_gl();
        for call in rx {
            call(&g);
        }
    });
    let mats = matrices();
    let done = Arc::new(AtomicU64::new(0));
    let mut marks = 0u64;
    let mut out = Vec::new();
    for c in CMDS {
        let n = c.batch();
        let r = per_op_timed(3, reps, || {
            let t = Instant::now();
            for i in 0..n {
                let i = black_box(i);
                let call: Call = match c {
                    Cmd::BindTexture => Box::new(move |g: &Gl| unsafe { (g.BindTexture)(gl::TEXTURE_2D, i) }),
                    Cmd::UniformMatrix4fv => {
                        let m = mats[(i & 15) as usize];
                        Box::new(move |g: &Gl| unsafe {
                            (g.UniformMatrix4fv)(3, 1, gl::FALSE as GLboolean, m.as_ptr())
                        })
                    }
                    Cmd::DrawElementsInstanced => Box::new(move |g: &Gl| unsafe {
                        (g.DrawElementsInstanced)(gl::TRIANGLES, 6, gl::UNSIGNED_SHORT, std::ptr::null(), i as GLsizei)
                    }),
                    Cmd::NamedBufferSubData1K => {
                        // The data must be owned by the closure: a copy, as a list makes one.
                        let data = DATA_1K.to_vec();
                        Box::new(move |g: &Gl| unsafe {
                            (g.NamedBufferSubData)(1, ((i & 63) * 1024) as GLintptr, 1024, data.as_ptr().cast())
                        })
                    }
                };
                tx.send(call).unwrap();
            }
            let dt = t.elapsed();
            // Wait (untimed) until the consumer caught up, so batches do not pile up.
            marks += 1;
            let d = done.clone();
            tx.send(Box::new(move |_| {
                d.fetch_add(1, Ordering::Release);
            }))
            .unwrap();
            while done.load(Ordering::Acquire) < marks {
                std::thread::yield_now();
            }
            (dt, n as usize)
        });
        out.push(summary(r));
    }
    drop(tx);
    consumer.join().unwrap();
    out
}

/// Round-trip latency in µs (median, min) of a query (`get_error`) and an immediate create
/// (`create_textures(GL_TEXTURE_2D, 1)`), on an idle device.
pub fn round_trips(device: &Device, reps: usize) -> ((f64, f64), (f64, f64)) {
    let mut q = Vec::with_capacity(reps);
    let mut c = Vec::with_capacity(reps);
    let mut names = Vec::with_capacity(reps);
    for _ in 0..20 {
        device.get_error().unwrap();
    }
    for _ in 0..reps {
        let t = Instant::now();
        black_box(device.get_error().unwrap());
        q.push(t.elapsed().as_nanos() as f64 / 1e3);
        // A create that is still a round trip (shaders are not pooled).
        let t = Instant::now();
        let n = device.create_shader(gl::VERTEX_SHADER).unwrap();
        c.push(t.elapsed().as_nanos() as f64 / 1e3);
        names.push(n);
    }
    let mut list = device.command_list();
    for n in names {
        list.delete_shader(n);
    }
    device.submit(list).unwrap();
    (summary(q), summary(c))
}

/// CPU time the device's render thread uses while the device is idle (this thread sleeps for
/// `secs` after a round trip): what a parked render thread costs, in percent of one core. Reads
/// `/proc/self/task/*/stat` of the threads named `glcmd-render` (the driver's own threads
/// started from it inherit the name and are counted too), assuming the usual 100 clock ticks
/// per second. `None` where `/proc` is missing.
pub fn idle_render_cpu_percent(device: &Device, secs: f64) -> Option<f64> {
    fn render_ticks() -> Option<u64> {
        let mut total = 0;
        for task in std::fs::read_dir("/proc/self/task").ok()?.flatten() {
            let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
            if comm.trim() != "glcmd-render" {
                continue;
            }
            let stat = std::fs::read_to_string(task.path().join("stat")).ok()?;
            // Fields after the parenthesised name start at field 3; utime and stime are 14, 15.
            let fields: Vec<&str> = stat[stat.rfind(')')? + 2..].split(' ').collect();
            total += fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
        }
        Some(total)
    }
    device.get_error().ok()?;
    std::thread::sleep(std::time::Duration::from_millis(50)); // past the spin
    let before = render_ticks()?;
    let t = Instant::now();
    std::thread::sleep(std::time::Duration::from_secs_f64(secs));
    let ticks = render_ticks()? - before;
    Some(ticks as f64 / 100.0 / t.elapsed().as_secs_f64() * 100.0)
}

/// One step of a polling wait: yield for the first polls (the wait is usually short), then
/// sleep 20 µs per poll, so that a waiting thread does not take a core from the threads it
/// waits for (this machine may have as few cores as there are busy threads).
pub fn pause(polls: &mut u32) {
    *polls += 1;
    if *polls < 50 {
        std::thread::yield_now();
    } else {
        std::thread::sleep(std::time::Duration::from_micros(20));
    }
}

/// Waits (polling, no allocation) until the device has ended `frames` frames; returns the
/// counters it last read, and whether it had to wait (the frames had not ended at the first
/// look). If the render thread has died, says why and stops the benchmark instead of waiting
/// forever.
pub fn wait_frames(device: &Device, frames: u64) -> (glcmd::Stats, bool) {
    let mut since = Instant::now();
    let mut stats = device.stats();
    let blocked = stats.frames < frames;
    let mut last = stats.frames;
    let mut polls = 0u32;
    while last < frames {
        pause(&mut polls);
        stats = device.stats();
        let now = stats.frames;
        if now != last {
            last = now;
            since = Instant::now();
        } else if since.elapsed().as_secs() >= 5 {
            // No progress for 5 s: a round trip tells a lost device from a slow one.
            if let Err(e) = device.get_error() {
                eprintln!("glcmd device lost while waiting for frame {frames}: {e}");
                std::process::exit(2);
            }
            since = Instant::now();
        }
    }
    (stats, blocked)
}

/// Heap allocations per steady-state frame through a real device: each frame is one list
/// (frame prologue, a texture bind, a 1 KiB upload, 8 objects) submitted from this thread, with
/// at most two frames in flight, after the pools were filled (`frame::prewarm_with`) and `warm`
/// frames. Returns (allocations per frame, bytes per frame, frames).
pub fn allocs_simple(device: &Device, s: Scene, warm: u64, counted: u64) -> (f64, f64, u64) {
    let mats = matrices();
    let record = |list: &mut CommandList, i: u64| {
        scene::prologue_record(list, &s);
        list.bind_texture(gl::TEXTURE_2D, s.textures[(i & 1) as usize]);
        list.named_buffer_sub_data(s.upload_buffer, 0, &DATA_1K);
        for o in 0..8u32 {
            scene::object_record(list, &s, &mats[o as usize], scene::color(o));
        }
    };
    crate::frame::prewarm_with(device, 1, |list| record(list, 0));
    let base = device.stats().frames;
    let frame = |i: u64| {
        if i >= 2 {
            wait_frames(device, base + i - 1);
        }
        let f = device.begin_frame(1).unwrap();
        let mut list = device.command_list();
        record(&mut list, i);
        f.submit(0, list).unwrap();
        drop(f);
    };
    for i in 0..warm {
        frame(i);
    }
    wait_frames(device, base + warm);
    alloc::counting(true);
    alloc::steady(true);
    let (a0, b0) = alloc::snapshot();
    for i in warm..warm + counted {
        frame(i);
    }
    wait_frames(device, base + warm + counted);
    let (a1, b1) = alloc::snapshot();
    alloc::steady(false);
    alloc::counting(false);
    ((a1 - a0) as f64 / counted as f64, (b1 - b0) as f64 / counted as f64, counted)
}
