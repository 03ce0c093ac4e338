//! Diagnostics for deferred execution, in the manner of D3D12's DRED: errors
//! found far from their cause must still name it.
//!
//! Deferred replay moves an error away from its cause: a `GL_INVALID_ENUM` raised on the render
//! thread says nothing about which worker recorded the call, or where. With diagnostics on,
//! glcmd closes that gap:
//!
//! * **Recording sites.** Every recording method is `#[track_caller]`; lists keep the
//!   `&'static Location` of each packet (`CommandList::track_sites`). Off, this is one
//!   predictable branch per recorded command. Replay looks no site up per command: a report
//!   finds its site when it is made (a binary search, `CommandList::site_of_slot`), and the
//!   breadcrumbs' readers walk the sites beside the packets (`SiteCursor`). (A binary search
//!   per replayed command once cost more than the command, issue 20.)
//! * **Attribution.** Replay installs a synchronous KHR_debug callback. Each GL message is
//!   reported with the call that raised it (arguments and enums by name), the list label, the
//!   command's index in the list, and the file:line:column that recorded it. An application
//!   callback set with [`Device::set_debug_callback`](crate::Device::set_debug_callback) is
//!   chained after glcmd's. A strict mode calls `glGetError` after every command, for drivers
//!   without KHR_debug; an error it takes to report is raised again after the list, so the
//!   application's own `glGetError` still returns it.
//! * **Breadcrumbs.** The render thread publishes the slot of the command in flight, one
//!   relaxed store per command, and which list it is replaying, once per list under a lock;
//!   readers work out the command, its index and the last completed ones from the list itself
//!   (see `Breadcrumbs`). A watchdog thread reports them when one step takes longer than a
//!   set time; a device-lost error carries them too. The watchdog waits on a condvar between
//!   looks, so a device's drop wakes it and does not wait out its tick.
//! * **Use after delete.** The names each delete removes are remembered with the place that
//!   recorded the delete (gl.xml `class` says which object type an argument names). A later
//!   command naming one, before a create hands the name out again, is reported with both
//!   places: DRED's "recently freed objects" for GL names.
//!
//! Reports go to the `log` facade and, as [`Report`] values, to
//! [`Device::reports`](crate::Device::reports). Apart from `special.rs`, this is the only
//! hand-written module that calls GL functions by name (debug output and `glGetError`).

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, VecDeque};
use std::panic::Location;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use crate::generated::inspect::{DELETES, DRAWS, OBJECTS};
use crate::generated::{enums as gl, types::*, Gl};
use crate::list::CommandList;
use crate::vocab::hash::FastHash;

pub(crate) use crate::vocab::report::Sink;
pub use crate::vocab::report::{DebugMessage, Report, ReportKind};

mod breadcrumbs;
pub use breadcrumbs::BREADCRUMBS;
pub(crate) use breadcrumbs::{start_watchdog, Breadcrumbs};

/// Deleted names remembered by default.
pub const DELETED_NAMES_KEPT: usize = 4096;

/// Switches for diagnostics; all off by default.
///
/// `#[non_exhaustive]`, with builder methods as every options type of glcmd (`options.rs`):
/// `DiagnosticOptions::default().debug_output(true).watchdog(Some(Duration::from_secs(2)))`,
/// or [`DiagnosticOptions::all`] changed the same way.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct DiagnosticOptions {
    /// Keep recording sites and attribute KHR_debug messages to them.
    pub debug_output: bool,
    /// `glGetError` after every command.
    pub strict: bool,
    /// Report uses of deleted object names.
    pub track_deletes: bool,
    /// Report a replay step that takes longer than this, and a round trip or frame that has
    /// waited this long for a slot nobody submitted.
    pub watchdog: Option<Duration>,
    /// How many deleted names use-after-delete tracking remembers (the most recent ones, as
    /// DRED keeps recently freed objects). Default 4096.
    pub deleted_names_kept: usize,
}

impl Default for DiagnosticOptions {
    fn default() -> Self {
        DiagnosticOptions {
            debug_output: false,
            strict: false,
            track_deletes: false,
            watchdog: None,
            deleted_names_kept: DELETED_NAMES_KEPT,
        }
    }
}

crate::builders::builders!(DiagnosticOptions {
    debug_output: bool,
    strict: bool,
    track_deletes: bool,
    watchdog: Option<Duration>,
    deleted_names_kept: usize,
});

impl DiagnosticOptions {
    /// Everything on, with a two-second watchdog.
    pub fn all() -> Self {
        DiagnosticOptions {
            debug_output: true,
            strict: false,
            track_deletes: true,
            watchdog: Some(Duration::from_secs(2)),
            deleted_names_kept: DELETED_NAMES_KEPT,
        }
    }

    /// Whether any diagnostic is on (recording sites are then kept).
    pub fn any(&self) -> bool {
        self.debug_output || self.strict || self.track_deletes || self.watchdog.is_some()
    }
}

type AppCallback = Box<dyn Fn(&DebugMessage) + Send>;
/// The delete call that removed a name, and where it was recorded.
type DeletedBy = (String, Option<&'static Location<'static>>);

/// The deleted-names map is probed once per command that names an object; SipHash's DoS
/// resistance buys nothing for GL names ([`FastHash`]).
type NameMap = HashMap<(&'static str, u32), DeletedBy, FastHash>;

/// The most recently deleted names, bounded like DRED's ring of recently freed objects: when
/// full, the oldest deletion is forgotten. (Mesa never reuses names, so an unbounded map would
/// grow with every deleted object for the life of the device.)
struct DeletedNames {
    map: NameMap,
    order: VecDeque<(&'static str, u32)>,
    capacity: usize,
}

impl DeletedNames {
    fn new(capacity: usize) -> Self {
        DeletedNames { map: NameMap::default(), order: VecDeque::new(), capacity: capacity.max(1) }
    }

    fn insert(&mut self, key: (&'static str, u32), by: DeletedBy) {
        if self.map.insert(key, by).is_none() {
            self.order.push_back(key);
        }
        while self.map.len() > self.capacity {
            match self.order.pop_front() {
                Some(old) => {
                    self.map.remove(&old);
                }
                None => break,
            }
        }
    }

    fn remove(&mut self, key: &(&'static str, u32)) {
        // The key stays in `order` until it reaches the front; removing it there is a no-op.
        self.map.remove(key);
    }

    fn get(&self, key: &(&'static str, u32)) -> Option<&DeletedBy> {
        self.map.get(key)
    }

    fn len(&self) -> usize {
        self.map.len()
    }

    fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// The render thread's diagnostics state. Used through shared references only, because the
/// GL calls back into it (through the debug callback) while replay is running.
pub(crate) struct Diagnostics {
    pub(crate) options: DiagnosticOptions,
    pub(crate) crumbs: Arc<Breadcrumbs>,
    sink: Sink,
    /// The list being replayed and the command in it, for the debug callback.
    current_list: Cell<*const CommandList>,
    current_slot: Cell<usize>,
    current_index: Cell<usize>,
    current_round_trip: Cell<Option<&'static str>>,
    /// Deleted names: (class, name) -> (delete call, recording site).
    deleted: RefCell<DeletedNames>,
    /// `deleted` holds a name: read per command before anything else of use-after-delete
    /// tracking, so that a device that deleted nothing pays one load for it.
    any_deleted: Cell<bool>,
    /// The application's callback. Shared (`Rc`), so the debug callback holds its own reference
    /// while it runs and no borrow of this cell is held across the call: the callback may
    /// replace or clear itself (`Device::set_debug_callback` from inside it) without a borrow
    /// panic, and the closure it replaced is dropped only after it has returned, never while
    /// its own code is running.
    app_callback: RefCell<Option<Rc<AppCallback>>>,
    /// The program's `glDebugMessageCallback` arguments (function, user pointer), which
    /// `glGetPointerv(GL_DEBUG_CALLBACK_FUNCTION / _USER_PARAM)` answers in place of glcmd's
    /// trampoline and context (`Device::set_program_debug_callback`); NULL until it sets them.
    program_pointers: Cell<(usize, usize)>,
    /// Set while the debug callback runs: a message raised by the callback's own work (an
    /// application callback that makes a failing GL call) is not handled again, so the callback
    /// cannot recurse until the stack overflows.
    in_callback: Cell<bool>,
}

impl Diagnostics {
    pub(crate) fn new(options: DiagnosticOptions, sink: Sink) -> Box<Self> {
        let kept = options.deleted_names_kept;
        Box::new(Diagnostics {
            options,
            crumbs: Arc::new(Breadcrumbs::new()),
            sink,
            current_list: Cell::new(std::ptr::null()),
            current_slot: Cell::new(0),
            current_index: Cell::new(0),
            current_round_trip: Cell::new(None),
            deleted: RefCell::new(DeletedNames::new(kept)),
            any_deleted: Cell::new(false),
            app_callback: RefCell::new(None),
            program_pointers: Cell::new((0, 0)),
            in_callback: Cell::new(false),
        })
    }

    /// Turns on synchronous debug output with glcmd's callback. `self` must not move while the
    /// callback is installed (it is boxed and lives as long as the context).
    pub(crate) fn install(&self, gl_fns: &Gl) {
        // SAFETY: plain GL state calls; the user parameter is this boxed value, which outlives
        // the context (it is dropped after the context in RenderContext).
        unsafe {
            (gl_fns.Enable)(gl::DEBUG_OUTPUT);
            (gl_fns.Enable)(gl::DEBUG_OUTPUT_SYNCHRONOUS);
            (gl_fns.DebugMessageCallback)(Some(debug_callback), self as *const Diagnostics as *mut std::ffi::c_void);
            (gl_fns.DebugMessageControl)(
                gl::DONT_CARE,
                gl::DONT_CARE,
                gl::DONT_CARE,
                0,
                std::ptr::null(),
                gl::TRUE as GLboolean,
            );
        }
    }

    /// Takes glcmd's callback off the context if it is installed, before the context outlives
    /// this value: an adopted context is only released when its device ends, and the program
    /// goes on using it (glcmd-run hands it back to the program's thread, or adopts it again),
    /// so a message it raises later would call [`debug_callback`] with this freed value (a
    /// crash in an `atexit` handler's first GL error). The program's own callback is not put
    /// back (glcmd holds it as a closure): the context then has none.
    pub(crate) fn detach(&self, gl_fns: &Gl) {
        let mut user: *mut std::ffi::c_void = std::ptr::null_mut();
        // SAFETY: a query of one pointer, on the current context.
        unsafe { (gl_fns.GetPointerv)(gl::DEBUG_CALLBACK_USER_PARAM, &mut user) };
        if std::ptr::eq(user as *const Diagnostics, self) {
            // SAFETY: a plain state call; NULL removes the callback.
            unsafe { (gl_fns.DebugMessageCallback)(None, std::ptr::null()) };
        }
    }

    /// glcmd's trampoline as the GL's callback, and nothing else: the GL's debug state (output,
    /// synchronous, message control) stays the program's. `self` must not move while installed.
    pub(crate) fn install_callback(&self, gl_fns: &Gl) {
        // SAFETY: as in `install`.
        unsafe {
            (gl_fns.DebugMessageCallback)(Some(debug_callback), self as *const Diagnostics as *mut std::ffi::c_void)
        };
    }

    /// The program's own callback and user pointer (see `program_pointers`).
    pub(crate) fn set_program_pointers(&self, function: usize, user: usize) {
        self.program_pointers.set((function, user));
    }

    /// What `glGetPointerv(pname)` answers where glcmd substitutes the GL's value: the program's
    /// debug callback and user pointer; `None` for every other pname (the GL answers).
    pub(crate) fn program_pointer(&self, pname: GLenum) -> Option<usize> {
        match pname {
            gl::DEBUG_CALLBACK_FUNCTION => Some(self.program_pointers.get().0),
            gl::DEBUG_CALLBACK_USER_PARAM => Some(self.program_pointers.get().1),
            _ => None,
        }
    }

    /// Replaces the application's callback; takes effect for the next message, also when called
    /// from inside the running callback (which keeps its own reference until it returns).
    pub(crate) fn set_app_callback(&self, callback: Option<AppCallback>) {
        let old = match self.app_callback.try_borrow_mut() {
            Ok(mut cell) => std::mem::replace(&mut *cell, callback.map(Rc::new)),
            // Unreachable: the cell is borrowed only for a clone in `debug_callback`, with no
            // call in between. Dropping the new callback is still better than a panic here.
            Err(_) => None,
        };
        // Dropped after the borrow ends: its captures may run code of their own when dropped.
        drop(old);
    }

    pub(crate) fn round_trip(&self, name: Option<&'static str>) {
        self.current_round_trip.set(name);
    }

    /// How many deleted names are remembered now.
    pub(crate) fn deleted_names(&self) -> usize {
        self.deleted.borrow().len()
    }

    /// Replays `list` command by command, with breadcrumbs, attribution, strict checks and
    /// use-after-delete tracking as configured.
    ///
    /// # Safety
    /// As for `replay::replay`.
    pub(crate) unsafe fn replay(
        &self,
        gl_fns: &Gl,
        raw: &Gl,
        state: &mut crate::replay::ReplayState,
        list: &CommandList,
        list_index: u32,
    ) {
        // Clears the breadcrumbs' view of the list before the borrow of `list` ends, also when
        // a command panics (the breadcrumbs then keep what was in flight for the device-lost
        // error).
        struct Leave<'a> {
            diag: &'a Diagnostics,
            list: &'a CommandList,
            tail: [usize; BREADCRUMBS],
            done: usize,
        }
        impl Drop for Leave<'_> {
            fn drop(&mut self) {
                let panicking = std::thread::panicking();
                self.diag.crumbs.end_list(self.list, &self.tail, self.done, panicking);
                self.diag.current_list.set(std::ptr::null());
            }
        }
        self.crumbs.begin_list(list);
        self.current_list.set(list);
        let mut leave = Leave { diag: self, list, tail: [0; BREADCRUMBS], done: 0 };
        // Read once: the options do not change during a list, and the compiler cannot know
        // that across the GL calls.
        let check_program = self.options.debug_output || self.options.strict;
        let (track_deletes, strict) = (self.options.track_deletes, self.options.strict);
        // The errors strict mode takes from the GL to attribute them: raised again once the list
        // has run, so that the program's glGetError still returns them (reporting an error must
        // not clear it).
        let mut taken: Vec<GLenum> = Vec::new();
        // SAFETY: forwarded from the caller.
        unsafe {
            crate::replay::replay_each(
                gl_fns,
                raw,
                state,
                list,
                list_index,
                |index, slot, op| {
                    self.current_slot.set(slot);
                    self.current_index.set(index);
                    if track_deletes && self.any_deleted.get() {
                        self.check_objects(list, index, slot, op);
                    }
                    if check_program && DRAWS[op] {
                        self.check_program(raw);
                    }
                    self.crumbs.start(slot);
                },
                |index, slot| {
                    leave.tail[index % BREADCRUMBS] = slot;
                    leave.done = index + 1;
                    if strict {
                        // No arguments.
                        let error = (raw.GetError)();
                        if error != gl::NO_ERROR {
                            self.report_current(ReportKind::GlError, error_name(error).to_string());
                            taken.push(error);
                        }
                    }
                },
            )
        };
        drop(leave);
        for error in taken {
            state.raise(error);
        }
    }

    /// A deferred delete ran at the end of its frame: from now on, its names are deleted. (Uses
    /// by later lists of the same frame were legal: the delete had not run yet.)
    pub(crate) fn delete_ran(&self, list: &CommandList, slot: usize, op: usize) {
        if !self.options.track_deletes {
            return;
        }
        let Some(objects) = OBJECTS[op] else { return };
        let site = list.site_of_slot(slot);
        let packet = list.packets[slot..].as_ptr();
        let params = list.param_bytes();
        let mut deleted = self.deleted.borrow_mut();
        let call = list.describe(slot);
        // SAFETY: `slot` is the start of a packet of `list` whose opcode is `op`.
        unsafe {
            objects(packet, params, &mut |class, name| {
                if name != 0 {
                    deleted.insert((class, name), (call.clone(), site));
                }
            })
        };
        self.any_deleted.set(!deleted.is_empty());
    }

    /// Reports the names command `slot` uses that were deleted. Kept out of the replay loop: it
    /// runs only once something was deleted.
    #[inline(never)]
    fn check_objects(&self, list: &CommandList, index: usize, slot: usize, op: usize) {
        // A delete is noted now and runs at the end of the frame (`delete_ran`).
        if DELETES[op] {
            return;
        }
        let Some(objects) = OBJECTS[op] else { return };
        let deleted = self.deleted.borrow();
        if deleted.is_empty() {
            // Nothing deleted (or every deleted name created again): nothing to find.
            return;
        }
        let packet = list.packets[slot..].as_ptr();
        let params = list.param_bytes();
        let mut hits = Vec::new();
        // SAFETY: `slot` is the start of a packet of `list` whose opcode is `op`.
        unsafe {
            objects(packet, params, &mut |class, name| {
                if name == 0 {
                    return;
                }
                if let Some(by) = deleted.get(&(class, name)) {
                    hits.push((class, name, by.clone()));
                }
            })
        };
        drop(deleted);
        // Looked up only for a hit: the replay path does no site lookup.
        let site = if hits.is_empty() { None } else { list.site_of_slot(slot) };
        for (class, name, by) in hits {
            self.sink.send(Report {
                kind: ReportKind::UseAfterDelete,
                call: list.describe(slot),
                list: list.label().map(str::to_string),
                index: Some(index),
                site,
                message: format!("{class} {name} was deleted before this command"),
                deleted_by: Some(by),
                breadcrumbs: Vec::new(),
            });
        }
    }

    /// A draw with neither a program nor a program pipeline bound is legal in the core profile
    /// and silently draws garbage (or nothing); drivers do not flag it.
    fn check_program(&self, gl_fns: &Gl) {
        let (mut program, mut pipeline) = (0, 0);
        // SAFETY: each query writes one integer.
        unsafe {
            (gl_fns.GetIntegerv)(gl::CURRENT_PROGRAM, &mut program);
            (gl_fns.GetIntegerv)(gl::PROGRAM_PIPELINE_BINDING, &mut pipeline);
        }
        if program == 0 && pipeline == 0 {
            self.report_current(
                ReportKind::Validation,
                "draw with no program bound (glUseProgram(0) and no program pipeline): the result is undefined".into(),
            );
        }
    }

    /// Names handed out by a create function are live again.
    pub(crate) fn objects_created(&self, class: &'static str, names: &[GLuint]) {
        if let Ok(mut deleted) = self.deleted.try_borrow_mut() {
            for &n in names {
                deleted.remove(&(class, n));
            }
            self.any_deleted.set(!deleted.is_empty());
        }
    }

    /// A function the context lacks was called (its stub ran).
    pub(crate) fn report_unavailable(&self, name: &'static str) {
        self.report_current(
            ReportKind::Unavailable,
            format!(
                "{name} is not provided by this GL context (its version and extensions); the call did nothing and \
                 raised GL_INVALID_OPERATION"
            ),
        );
    }

    /// A report about the command being replayed (or the round trip running).
    fn report_current(&self, kind: ReportKind, message: String) {
        let list = self.current_list.get();
        let report = if !list.is_null() {
            // SAFETY: set by `replay` for the duration of the list's replay; the callback and
            // strict checks run inside it.
            let list = unsafe { &*list };
            let index = self.current_index.get();
            let slot = self.current_slot.get();
            Report {
                kind,
                call: list.describe(slot),
                list: list.label().map(str::to_string),
                index: Some(index),
                site: list.site_of_slot(slot),
                message,
                deleted_by: None,
                breadcrumbs: Vec::new(),
            }
        } else {
            Report {
                kind,
                call: self.current_round_trip.get().map_or("<outside replay>".into(), |n| format!("round trip {n}")),
                list: None,
                index: None,
                site: None,
                message,
                deleted_by: None,
                breadcrumbs: Vec::new(),
            }
        };
        self.sink.send(report);
    }
}

extern "system" fn debug_callback(
    source: GLenum,
    kind: GLenum,
    id: GLuint,
    severity: GLenum,
    length: GLsizei,
    message: *const GLchar,
    user: *mut std::ffi::c_void,
) {
    // SAFETY: `user` is the boxed Diagnostics installed by `install`, which outlives the context.
    let diag = unsafe { &*(user as *const Diagnostics) };
    if diag.in_callback.replace(true) {
        // Raised by the callback's own work: handling it would recurse.
        return;
    }
    // A panic must not unwind into the driver.
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // SAFETY: the GL passes the message it owns, `length` bytes (or NUL-terminated).
        let text = unsafe {
            if message.is_null() {
                String::new()
            } else if length >= 0 {
                String::from_utf8_lossy(std::slice::from_raw_parts(message.cast::<u8>(), length as usize)).into_owned()
            } else {
                std::ffi::CStr::from_ptr(message).to_string_lossy().into_owned()
            }
        };
        if severity != gl::DEBUG_SEVERITY_NOTIFICATION {
            diag.report_current(ReportKind::DebugMessage, text.clone());
        } else {
            log::debug!("GL: {text}");
        }
        // A reference of our own, taken with a borrow that ends at once: the callback may
        // replace itself while it runs (see `app_callback`).
        let app = diag.app_callback.try_borrow().ok().and_then(|cb| cb.clone());
        if let Some(cb) = app {
            cb(&DebugMessage { source, kind, id, severity, message: text });
        }
    }));
    diag.in_callback.set(false);
}

fn error_name(error: GLenum) -> &'static str {
    crate::generated::enums::enum_name("ErrorCode", error).unwrap_or("unknown GL error")
}
