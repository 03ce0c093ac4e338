//! The program interface cache: uniform locations, attribute locations, block and subroutine
//! indices, and link status, answered without joining the command stream.
//!
//! A worker that records draws often looks a uniform location up lazily, while it records. As a
//! query that is a round trip that waits for every list submitted before it (11–16 µs at best,
//! and a wait for other workers' slots at worst). But a program's interface can only change
//! when the program is linked, and glcmd sees every link: a recorded `link_program` (or
//! `program_binary`) is noted in its list when recorded and counted when the list is submitted;
//! when it replays, the render thread reads the program's link status, info log and active
//! resources (uniforms with every array element, attributes, fragment outputs, uniform and
//! storage blocks, subroutines and subroutine uniforms per stage) and caches the answers of the
//! lookup functions for them. Chromium's command-buffer client keeps the same cache for the same
//! reason.
//!
//! A lookup (`get_uniform_location`, `get_attrib_location`, `get_uniform_block_index`,
//! `get_program_resource_index`, `get_program_resource_location(_index)`,
//! `get_frag_data_location`/`index`, `get_subroutine_index`,
//! `get_subroutine_uniform_location`, and `get_programiv(LINK_STATUS)` and the info log):
//!
//! * fails at once with `Error::LinkNotSubmitted` if a link of the program is recorded in a
//!   list that has not been submitted;
//! * waits only for the latest submitted link of that program to replay, bounded like any
//!   wait (`Options::wait_limit`, device loss), and failing at once with
//!   `Error::WouldDeadlock` when the render thread is stuck on a slot the calling thread owes,
//!   or with `Error::OnRenderThread` when called from the render thread;
//! * answers from the cache. A name the cache does not hold (an inactive uniform, a spelling
//!   the prefill did not try) is asked of the GL once by a round trip, and the answer is kept
//!   until the next link, up to [`MISSES_KEPT`] names and [`MISS_BYTES`] bytes of names per
//!   program: past either, the kept misses are forgotten and collected again (a program looked
//!   up by ever new names costs a round trip per name, never unbounded memory).
//!
//! A program linked some other way (`with_gl`) has no entry: its lookups are round trips, as
//! before. Answers equal what the GL returns (they are the GL's answers, asked at link time).
//!
//! ## An answer dies with its program
//!
//! GL reuses program names (NVIDIA always, Mesa with `force_gl_names_reuse`), so an answer kept
//! for a program that no longer exists would be given for the next program of that name. Every
//! answer is therefore dropped as soon as glcmd sees its program end, whatever is still pending:
//!
//! * the program's delete runs (`deleted`): its interface is dropped at once; links still
//!   pending (recorded, or submitted and not replayed) keep only their counters, so lookups
//!   still wait for them or fail as before;
//! * a link replays on a name that is no program (deleted before it, never created): nothing is
//!   read or kept (`linked` asks `glIsProgram` first);
//! * the GL hands the name out again (`created`, from the generated creates): whatever was kept
//!   for the name is dropped (a delete glcmd did not see, in `with_gl`, is caught here);
//! * after `with_gl` and `post` closures (`forget_dead`), entries whose program is gone.
//!
//! An entry whose interface is gone and whose links have all replayed, been skipped or dropped is
//! removed, so the cache holds entries only for live programs and pending links.

use std::collections::HashMap;

use crate::vocab::hash::FastHash;
use std::ffi::CString;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::generated::{enums as gl, types::*, Gl};
use crate::{recent_lookups, Error};

/// A lookup function whose answers are cached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Lookup {
    UniformLocation,
    AttribLocation,
    UniformBlockIndex,
    FragDataLocation,
    FragDataIndex,
    /// `glGetProgramResourceIndex(program, interface, name)`: the key's `aux` is the interface.
    ResourceIndex,
    ResourceLocation,
    ResourceLocationIndex,
    /// `glGetSubroutineIndex(program, shadertype, name)`: `aux` is the shader type.
    SubroutineIndex,
    SubroutineUniformLocation,
}

/// Misses (answers asked of the GL for names the prefill did not hold) kept per program.
pub const MISSES_KEPT: usize = 1024;
/// Bytes of names of the misses kept per program.
pub const MISS_BYTES: usize = 64 << 10;

/// Answers by kind and auxiliary argument, then by name: looked up with a `&str`, no
/// allocation.
type Answers = HashMap<(Lookup, u32), HashMap<String, i64, FastHash>, FastHash>;

/// What a link left: the GL's answers for one linked program.
#[derive(Default)]
struct Interface {
    link_status: GLint,
    info_log: String,
    /// Read at link time, for every active resource.
    prefilled: Answers,
    /// Asked later by round trips, bounded by `MISSES_KEPT` and `MISS_BYTES`.
    misses: Answers,
    miss_count: usize,
    miss_bytes: usize,
}

impl Interface {
    fn get(&self, key: (Lookup, u32, &str)) -> Option<i64> {
        let find = |a: &Answers| a.get(&(key.0, key.1))?.get(key.2).copied();
        find(&self.prefilled).or_else(|| find(&self.misses))
    }

    fn remember(&mut self, key: (Lookup, u32, &str), value: i64) {
        if self.miss_count >= MISSES_KEPT || self.miss_bytes + key.2.len() > MISS_BYTES {
            // Start again: the names asked most recently are the ones likely to come back.
            self.misses.clear();
            self.miss_count = 0;
            self.miss_bytes = 0;
            if key.2.len() > MISS_BYTES {
                return;
            }
        }
        if self.misses.entry((key.0, key.1)).or_default().insert(key.2.to_string(), value).is_none() {
            self.miss_count += 1;
            self.miss_bytes += key.2.len();
        }
    }

    fn answers(&self) -> usize {
        self.prefilled.values().map(HashMap::len).sum::<usize>() + self.miss_count
    }
}

#[derive(Default)]
struct Entry {
    /// Links recorded in lists of this device that are not submitted yet.
    recorded: u32,
    submitted: u64,
    replayed: u64,
    /// Deletes of the program submitted and not yet run: lookups wait for them.
    deletes: u32,
    /// The latest link's answers; `None` before it replayed, and once the program is gone.
    interface: Option<Interface>,
}

impl Entry {
    /// Nothing pending and nothing kept: the entry can go.
    fn idle(&self) -> bool {
        self.interface.is_none() && self.recorded == 0 && self.replayed >= self.submitted && self.deletes == 0
    }
}

type Entries = HashMap<GLuint, Entry, FastHash>;

/// Removes `program`'s entry if it is idle.
fn settle(entries: &mut Entries, program: GLuint) {
    if entries.get(&program).is_some_and(Entry::idle) {
        entries.remove(&program);
    }
}

/// The device's program interface cache.
pub(crate) struct Programs {
    entries: Mutex<Entries>,
    replayed: Condvar,
    /// This cache among every device's (for the threads' copies, `recent_lookups.rs`).
    id: u64,
    /// Bumped under the lock by every change of `entries` that could change an answer or
    /// whether a lookup may answer at once: a thread's copy of an answer given at this epoch is
    /// still the answer.
    epoch: AtomicU64,
}

impl Default for Programs {
    fn default() -> Self {
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        Programs {
            entries: Mutex::default(),
            replayed: Condvar::new(),
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            epoch: AtomicU64::new(0),
        }
    }
}

impl Programs {
    /// A list of this device recorded a link of `program`.
    pub(crate) fn recorded(&self, program: GLuint) {
        self.lock_to_change().entry(program).or_default().recorded += 1;
    }

    /// A list with recorded links was dropped unsubmitted.
    pub(crate) fn unrecorded(&self, programs: &[GLuint]) {
        let mut entries = self.lock_to_change();
        for &p in programs {
            if let Some(e) = entries.get_mut(&p) {
                e.recorded = e.recorded.saturating_sub(1);
            }
            settle(&mut entries, p);
        }
    }

    /// A list with links was submitted (`own`: recorded from this device's pool).
    pub(crate) fn submitted(&self, programs: &[GLuint], own: bool) {
        let mut entries = self.lock_to_change();
        for &p in programs {
            let e = entries.entry(p).or_default();
            if own {
                e.recorded = e.recorded.saturating_sub(1);
            }
            e.submitted += 1;
        }
    }

    /// Submitted links that will not replay (skipped, or their list was dropped): lookups
    /// stop waiting for them.
    pub(crate) fn skipped(&self, programs: &[GLuint]) {
        let mut entries = self.lock_to_change();
        for &p in programs {
            if let Some(e) = entries.get_mut(&p) {
                e.replayed += 1;
            }
            settle(&mut entries, p);
        }
        drop(entries);
        self.replayed.notify_all();
    }

    /// A program's delete ran: its answers go at once (links still pending keep their
    /// counters, so lookups still wait for them or fail as before), and lookups waiting for the
    /// delete go on.
    pub(crate) fn deleted(&self, program: GLuint, counted: bool) {
        // One lock: a lookup woken between the two changes would answer for the dead program.
        let mut entries = self.lock_to_change();
        if let Some(e) = entries.get_mut(&program) {
            if counted {
                e.deletes = e.deletes.saturating_sub(1);
            }
            e.interface = None;
        }
        settle(&mut entries, program);
        drop(entries);
        self.replayed.notify_all();
    }

    /// Implicit lists (an immediate context's, whose deletes run in place) with deletes of
    /// `programs` were submitted: a lookup of one of them (from any thread, after the submit)
    /// waits until the delete has run, and then asks the GL, which answers for a program that is
    /// gone. Without this an immediate thread's
    /// `glGetUniformLocation` right after its own `glDeleteProgram` was answered from the cache
    /// for the deleted program, with no error.
    pub(crate) fn deletes_submitted(&self, programs: &[GLuint]) {
        if programs.is_empty() {
            return;
        }
        let mut entries = self.lock_to_change();
        for &p in programs {
            entries.entry(p).or_default().deletes += 1;
        }
    }

    /// Submitted deletes that ran or never will (their list was dropped).
    pub(crate) fn deletes_dropped(&self, programs: &[GLuint]) {
        if programs.is_empty() {
            return;
        }
        let mut entries = self.lock_to_change();
        for &p in programs {
            if let Some(e) = entries.get_mut(&p) {
                e.deletes = e.deletes.saturating_sub(1);
            }
            settle(&mut entries, p);
        }
        drop(entries);
        self.replayed.notify_all();
    }

    /// The GL handed these names out for new programs: nothing kept for an older program of
    /// the same name may answer for them.
    pub(crate) fn created(&self, programs: &[GLuint]) {
        self.forget(programs);
    }

    fn forget(&self, programs: &[GLuint]) {
        let mut entries = self.lock_to_change();
        for &p in programs {
            if let Some(e) = entries.get_mut(&p) {
                e.interface = None;
            }
            settle(&mut entries, p);
        }
    }

    /// After code glcmd does not see (`with_gl`, `post`): forgets the programs it deleted.
    /// Render thread.
    pub(crate) fn forget_dead(&self, gl_fns: &Gl) {
        let mut entries = self.lock_to_change();
        let dead: Vec<GLuint> = entries
            .iter()
            .filter(|(_, e)| e.interface.is_some())
            .map(|(&p, _)| p)
            // SAFETY: a name, no pointers.
            .filter(|&p| unsafe { (gl_fns.IsProgram)(p) } == 0)
            .collect();
        for p in dead {
            if let Some(e) = entries.get_mut(&p) {
                e.interface = None;
            }
            settle(&mut entries, p);
        }
    }

    /// Entries held (live programs with answers, pending links) and the answers they keep.
    pub(crate) fn held(&self) -> (usize, usize) {
        let entries = self.lock();
        (entries.len(), entries.values().filter_map(|e| e.interface.as_ref()).map(Interface::answers).sum())
    }

    fn lock(&self) -> MutexGuard<'_, Entries> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The lock, for a change that may change an answer or a lookup's wait: the threads' copies
    /// of earlier answers stop answering.
    fn lock_to_change(&self) -> MutexGuard<'_, Entries> {
        let entries = self.lock();
        self.epoch.fetch_add(1, Ordering::Release);
        entries
    }

    /// A link of `program` replayed (or `create_shader_programv` ran): read its interface from
    /// the GL and cache it. Render thread.
    pub(crate) fn linked(&self, gl_fns: &Gl, program: GLuint, counted: bool, raised: &mut Vec<GLenum>) {
        // The application's pending GL errors are kept (returned by `Device::get_error` before
        // the GL's); errors of glcmd's own reads are not the application's.
        loop {
            // SAFETY: no arguments.
            let e = unsafe { (gl_fns.GetError)() };
            if e == gl::NO_ERROR {
                break;
            }
            crate::vocab::check::record_error(raised, e);
        }
        // A link of a name that is no program (deleted before the link replayed, or never
        // made): the GL refused it, and there is nothing to read or keep.
        // SAFETY: a name, no pointers.
        let fresh = (unsafe { (gl_fns.IsProgram)(program) } != 0).then(|| read_interface(gl_fns, program));
        // SAFETY: no arguments.
        while unsafe { (gl_fns.GetError)() } != gl::NO_ERROR {}
        let mut entries = self.lock_to_change();
        let e = entries.entry(program).or_default();
        e.interface = fresh;
        if counted {
            e.replayed += 1;
        } else {
            // Linked outside a list (a create): nothing to wait for.
            e.replayed = e.submitted;
        }
        settle(&mut entries, program);
        drop(entries);
        self.replayed.notify_all();
    }

    /// Waits until the latest submitted link of `program` has replayed and returns the entries,
    /// still locked; `None` when the cache has nothing for it (a program glcmd never saw linked,
    /// or one that is gone).
    fn ready(
        &self,
        function: &'static str,
        program: GLuint,
        limit: Duration,
        check: &dyn Fn(Option<Duration>) -> Option<Error>,
    ) -> Result<Option<MutexGuard<'_, Entries>>, Error> {
        let mut start = None;
        let mut entries = self.lock();
        loop {
            let Some(e) = entries.get(&program) else { return Ok(None) };
            if e.recorded > 0 {
                return Err(Error::LinkNotSubmitted { program });
            }
            if e.replayed >= e.submitted && e.deletes == 0 {
                return Ok(e.interface.is_some().then_some(entries));
            }
            let start = *start.get_or_insert_with(Instant::now);
            if let Some(err) = check(None) {
                return Err(err);
            }
            if start.elapsed() >= limit {
                let blocked = check(Some(start.elapsed()));
                return Err(blocked.unwrap_or(Error::Blocked {
                    what: format!("{function} (waiting for the link or delete of program {program})"),
                    frame: 0,
                    slot: 0,
                    waited_ms: start.elapsed().as_millis(),
                }));
            }
            entries =
                self.replayed.wait_timeout(entries, Duration::from_millis(20)).unwrap_or_else(|e| e.into_inner()).0;
        }
    }

    /// The interface of `program` once its latest link replayed, if the cache has one.
    fn with_interface<R>(
        &self,
        function: &'static str,
        program: GLuint,
        limit: Duration,
        check: &dyn Fn(Option<Duration>) -> Option<Error>,
        f: impl FnOnce(&Interface) -> R,
    ) -> Result<Option<R>, Error> {
        let Some(entries) = self.ready(function, program, limit, check)? else { return Ok(None) };
        Ok(entries.get(&program).and_then(|e| e.interface.as_ref()).map(f))
    }

    /// A cached lookup: the answer, or `None` when the GL must be asked (then `remember`).
    pub(crate) fn lookup(
        &self,
        function: &'static str,
        program: GLuint,
        key: (Lookup, u32, &str),
        limit: Duration,
        check: &dyn Fn(Option<Duration>) -> Option<Error>,
    ) -> Result<Option<i64>, Error> {
        let epoch = self.epoch.load(Ordering::Acquire);
        let copy_key = (key.0 as u8, key.1, key.2.as_bytes());
        if let Some(v) = recent_lookups::get(self.id, epoch, program, copy_key) {
            return Ok(Some(v));
        }
        // Read under the lock with the answer: no change can come between the two.
        let answer =
            self.with_interface(function, program, limit, check, |i| (i.get(key), self.epoch.load(Ordering::Relaxed)))?;
        let Some((Some(v), epoch)) = answer else { return Ok(None) };
        recent_lookups::keep(self.id, epoch, program, copy_key, v);
        Ok(Some(v))
    }

    /// The calling thread's copy's answer for `key` of `program`, if it was given at the current
    /// epoch (what [`Programs::lookup`] asks first): no lock, no wait.
    #[inline]
    pub(crate) fn recent(&self, program: GLuint, key: recent_lookups::Key) -> Option<i64> {
        recent_lookups::get(self.id, self.epoch.load(Ordering::Acquire), program, key)
    }

    /// Keeps an answer the GL gave for a name the cache did not hold, until the next link
    /// (within the bounds of `MISSES_KEPT` and `MISS_BYTES`).
    pub(crate) fn remember(&self, program: GLuint, key: (Lookup, u32, &str), value: i64) {
        let mut entries = self.lock();
        if let Some(e) = entries.get_mut(&program) {
            if e.replayed >= e.submitted && e.recorded == 0 {
                if let Some(i) = e.interface.as_mut() {
                    i.remember(key, value);
                }
            }
        }
    }

    /// Whether `program`'s latest link is known, without waiting, to have succeeded: it
    /// replayed with `GL_LINK_STATUS` true, no later link is recorded or in flight, and its
    /// delete has not run (then `glUseProgram` of it is accepted, transform feedback aside).
    pub(crate) fn linked_now(&self, program: GLuint) -> bool {
        let entries = self.lock();
        entries.get(&program).is_some_and(|e| {
            e.recorded == 0 && e.replayed >= e.submitted && e.interface.as_ref().is_some_and(|i| i.link_status != 0)
        })
    }

    /// The cached link status, after waiting for the latest link.
    pub(crate) fn link_status(
        &self,
        function: &'static str,
        program: GLuint,
        limit: Duration,
        check: &dyn Fn(Option<Duration>) -> Option<Error>,
    ) -> Result<Option<GLint>, Error> {
        self.with_interface(function, program, limit, check, |i| i.link_status)
    }

    /// The cached info log, after waiting for the latest link.
    pub(crate) fn info_log(
        &self,
        function: &'static str,
        program: GLuint,
        limit: Duration,
        check: &dyn Fn(Option<Duration>) -> Option<Error>,
    ) -> Result<Option<String>, Error> {
        self.with_interface(function, program, limit, check, |i| i.info_log.clone())
    }
}

/// Array elements of a uniform or input array whose locations are read at link time (the rest
/// are asked on first use).
const PREFILLED_ELEMENTS: i32 = 256;

fn integer(gl_fns: &Gl, program: GLuint, pname: GLenum) -> GLint {
    let mut v = 0;
    // SAFETY: one value into a local.
    unsafe { (gl_fns.GetProgramiv)(program, pname, &mut v) };
    v
}

/// Reads what the lookups will ask: the link status, the info log and the GL's own answers
/// for every active resource.
fn read_interface(gl_fns: &Gl, program: GLuint) -> Interface {
    let status = integer(gl_fns, program, gl::LINK_STATUS);
    let log_len = integer(gl_fns, program, gl::INFO_LOG_LENGTH).max(0) as usize;
    let mut log = vec![0u8; log_len.max(1)];
    let mut written: GLsizei = 0;
    // SAFETY: `log` holds the length passed.
    unsafe { (gl_fns.GetProgramInfoLog)(program, log.len() as GLsizei, &mut written, log.as_mut_ptr().cast()) };
    let info_log = String::from_utf8_lossy(&log[..(written.max(0) as usize).min(log.len())]).into_owned();
    let mut i = Interface { link_status: status, info_log, ..Default::default() };
    if status != 0 {
        prefill(gl_fns, program, &mut i.prefilled);
    }
    i
}

/// The active resources of one interface: (name, array size).
fn resource_names(gl_fns: &Gl, program: GLuint, interface: GLenum) -> Vec<(String, GLint)> {
    let (mut count, mut max_len) = (0, 0);
    // SAFETY (every GL call here): valid enums, outputs into locals or into `buf` with its size.
    unsafe {
        (gl_fns.GetProgramInterfaceiv)(program, interface, gl::ACTIVE_RESOURCES, &mut count);
        (gl_fns.GetProgramInterfaceiv)(program, interface, gl::MAX_NAME_LENGTH, &mut max_len);
    }
    let mut out = Vec::new();
    let mut buf = vec![0u8; (max_len.max(1) as usize) + 1];
    for i in 0..count.max(0) as u32 {
        let mut len: GLsizei = 0;
        unsafe {
            (gl_fns.GetProgramResourceName)(
                program,
                interface,
                i,
                buf.len() as GLsizei,
                &mut len,
                buf.as_mut_ptr().cast(),
            )
        };
        let name = String::from_utf8_lossy(&buf[..(len.max(0) as usize).min(buf.len())]).into_owned();
        let mut size: GLint = 1;
        if matches!(interface, gl::UNIFORM | gl::PROGRAM_INPUT | gl::PROGRAM_OUTPUT) {
            let prop = gl::ARRAY_SIZE;
            let mut got = 0;
            unsafe { (gl_fns.GetProgramResourceiv)(program, interface, i, 1, &prop, 1, &mut got, &mut size) };
        }
        out.push((name, size));
    }
    out
}

/// Every spelling a lookup may use for a resource: `a`, `a[0]`, `a[1]`, ...
fn spellings(name: &str, size: GLint) -> Vec<String> {
    let mut v = vec![name.to_string()];
    if let Some(base) = name.strip_suffix("[0]") {
        v.push(base.to_string());
        for k in 1..size.clamp(1, PREFILLED_ELEMENTS) {
            v.push(format!("{base}[{k}]"));
        }
    }
    v
}

/// The GL's answer to one lookup.
fn ask(gl_fns: &Gl, program: GLuint, lookup: Lookup, aux: u32, name: &CString) -> i64 {
    let c = name.as_ptr();
    // SAFETY: a NUL-terminated name and valid enums; each function returns its answer.
    unsafe {
        match lookup {
            Lookup::UniformLocation => (gl_fns.GetUniformLocation)(program, c) as i64,
            Lookup::AttribLocation => (gl_fns.GetAttribLocation)(program, c) as i64,
            Lookup::UniformBlockIndex => (gl_fns.GetUniformBlockIndex)(program, c) as i64,
            Lookup::FragDataLocation => (gl_fns.GetFragDataLocation)(program, c) as i64,
            Lookup::FragDataIndex => (gl_fns.GetFragDataIndex)(program, c) as i64,
            Lookup::ResourceIndex => (gl_fns.GetProgramResourceIndex)(program, aux, c) as i64,
            Lookup::ResourceLocation => (gl_fns.GetProgramResourceLocation)(program, aux, c) as i64,
            Lookup::ResourceLocationIndex => (gl_fns.GetProgramResourceLocationIndex)(program, aux, c) as i64,
            Lookup::SubroutineIndex => (gl_fns.GetSubroutineIndex)(program, aux, c) as i64,
            Lookup::SubroutineUniformLocation => (gl_fns.GetSubroutineUniformLocation)(program, aux, c) as i64,
        }
    }
}

/// Subroutine interfaces are per stage: (stage, subroutines, subroutine uniforms).
const STAGES: [(GLenum, GLenum, GLenum); 6] = [
    (gl::VERTEX_SHADER, gl::VERTEX_SUBROUTINE, gl::VERTEX_SUBROUTINE_UNIFORM),
    (gl::TESS_CONTROL_SHADER, gl::TESS_CONTROL_SUBROUTINE, gl::TESS_CONTROL_SUBROUTINE_UNIFORM),
    (gl::TESS_EVALUATION_SHADER, gl::TESS_EVALUATION_SUBROUTINE, gl::TESS_EVALUATION_SUBROUTINE_UNIFORM),
    (gl::GEOMETRY_SHADER, gl::GEOMETRY_SUBROUTINE, gl::GEOMETRY_SUBROUTINE_UNIFORM),
    (gl::FRAGMENT_SHADER, gl::FRAGMENT_SUBROUTINE, gl::FRAGMENT_SUBROUTINE_UNIFORM),
    (gl::COMPUTE_SHADER, gl::COMPUTE_SUBROUTINE, gl::COMPUTE_SUBROUTINE_UNIFORM),
];

/// Asks the GL every lookup of every active resource, in every spelling.
fn prefill(gl_fns: &Gl, program: GLuint, answers: &mut Answers) {
    let mut put = |lookups: &[(Lookup, u32)], name: &str| {
        let Ok(c) = CString::new(name) else { return };
        for &(lookup, aux) in lookups {
            let value = ask(gl_fns, program, lookup, aux, &c);
            answers.entry((lookup, aux)).or_default().insert(name.to_string(), value);
        }
    };
    let names = |interface| resource_names(gl_fns, program, interface);
    use Lookup::*;
    for (name, size) in names(gl::UNIFORM) {
        for s in spellings(&name, size) {
            put(&[(UniformLocation, 0), (ResourceIndex, gl::UNIFORM), (ResourceLocation, gl::UNIFORM)], &s);
        }
    }
    for (name, size) in names(gl::PROGRAM_INPUT) {
        for s in spellings(&name, size) {
            put(&[(AttribLocation, 0), (ResourceIndex, gl::PROGRAM_INPUT), (ResourceLocation, gl::PROGRAM_INPUT)], &s);
        }
    }
    let output = gl::PROGRAM_OUTPUT;
    for (name, size) in names(output) {
        for s in spellings(&name, size) {
            put(
                &[
                    (FragDataLocation, 0),
                    (FragDataIndex, 0),
                    (ResourceIndex, output),
                    (ResourceLocation, output),
                    (ResourceLocationIndex, output),
                ],
                &s,
            );
        }
    }
    for (name, _) in names(gl::UNIFORM_BLOCK) {
        let base = name.strip_suffix("[0]").map(str::to_string);
        for s in std::iter::once(name).chain(base) {
            put(&[(UniformBlockIndex, 0), (ResourceIndex, gl::UNIFORM_BLOCK)], &s);
        }
    }
    for (name, _) in names(gl::SHADER_STORAGE_BLOCK) {
        put(&[(ResourceIndex, gl::SHADER_STORAGE_BLOCK)], &name);
    }
    // Every stage is asked: one the program lacks has no resources (an error some driver might
    // raise instead is drained with the others), and a program made by glProgramBinary or
    // glCreateShaderProgramv has no attached shader that would say which stages it has.
    for (stage, subroutines, uniforms) in STAGES {
        for (name, _) in names(subroutines) {
            put(&[(SubroutineIndex, stage)], &name);
        }
        for (name, size) in names(uniforms) {
            for s in spellings(&name, size) {
                put(&[(SubroutineUniformLocation, stage)], &s);
            }
        }
    }
}
