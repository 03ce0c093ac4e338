//! The render thread's context as round-trip closures see it ([`RenderContext`]), the
//! thread-locals that say whether this thread is a render thread (and hold the messages it
//! sends itself), and how a context is obtained. The floor below the render loop (`mod.rs`)
//! and its scheduler, which both use it.

use crate::channel::SharedState;
use crate::context::GlContext;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::sync::Arc;

/// The channel's messages and jobs, as this thread serves them (with its own context).
pub(super) type Msg = crate::channel::Msg<RenderContext>;
pub(super) type Job = crate::channel::Job<RenderContext>;
use crate::diagnostics::Diagnostics;
use crate::generated::types::GLsync;
use crate::generated::Gl;
use crate::loader::ContextInfo;
use crate::replay::{self, ReplayState};
use crate::shadow::{Refusal, Target};
use crate::vocab::Class;
use crate::Error;

/// How the render thread gets its context.
pub(crate) enum ContextSource {
    Headless,
    Window(glutin::context::NotCurrentContext, glutin::surface::Surface<glutin::surface::WindowSurface>),
    /// Raw EGL or GLX handles, under the contract of `Device::adopt_egl` / `adopt_glx`.
    Adopted(crate::adopt::Handles),
}

thread_local! {
    /// The render context of this thread, while it is the render thread.
    pub(super) static CURRENT: Cell<Option<*const RenderContext>> = const { Cell::new(None) };
    /// Messages this thread sent to itself (see the module essay).
    pub(super) static LOCAL: RefCell<Option<VecDeque<Msg>>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's render context, if it is a render thread with a live context.
pub(crate) fn with_current<R>(f: impl FnOnce(Option<&RenderContext>) -> R) -> R {
    let ctx = CURRENT.with(|c| c.get());
    // SAFETY: CURRENT is set only while the RenderContext lives on this thread's stack, and is
    // cleared (by `CurrentGuard`) before it is dropped; RenderContext is only used through
    // shared references.
    f(ctx.map(|p| unsafe { &*p }))
}

/// Queues a message from the render thread to itself; gives it back when this is not a render
/// thread (the caller sends it over the channel instead).
#[allow(clippy::result_large_err)]
pub(crate) fn send_local(msg: Msg) -> Result<(), Msg> {
    LOCAL.with(|l| match l.borrow_mut().as_mut() {
        Some(q) => {
            q.push_back(msg);
            Ok(())
        }
        None => Err(msg),
    })
}

pub(super) fn take_local() -> Option<Msg> {
    LOCAL.with(|l| l.borrow_mut().as_mut().and_then(VecDeque::pop_front))
}

/// Clears the thread-local pointers when dropped: declared after the RenderContext, so during
/// a normal exit and during unwinding alike it runs before the context is dropped.
pub(super) struct CurrentGuard;

impl Drop for CurrentGuard {
    fn drop(&mut self) {
        CURRENT.with(|c| c.set(None));
        crate::context::mark_render_thread(false);
        crate::loader::set_missing_hook(None);
        #[cfg(feature = "checking")]
        crate::checked::uninstall();
    }
}

/// The checking table over `real`, when asked for (and compiled in).
pub(super) fn checking_table(real: &Gl, wanted: bool) -> Result<Option<Box<Gl>>, Error> {
    if !wanted {
        return Ok(None);
    }
    #[cfg(feature = "checking")]
    {
        Ok(Some(crate::checked::install(real)))
    }
    #[cfg(not(feature = "checking"))]
    {
        let _ = real;
        Err(Error::DeviceLost {
            reason: "Options::checked_gl needs glcmd built with the `checking` cargo feature".into(),
        })
    }
}

/// What round-trip closures see on the render thread.
pub struct RenderContext {
    /// The table calls go through: the driver's, or the checking table (`Options::checked_gl`).
    pub(super) gl: Box<Gl>,
    /// The driver's own table when `gl` is the checking one.
    pub(super) real: Option<Box<Gl>>,
    pub(super) context: GlContext,
    pub(crate) info: ContextInfo,
    pub(crate) state: RefCell<ReplayState>,
    pub(crate) shared: Arc<SharedState>,
    /// Dropped after the context: the debug callback points into it.
    pub(crate) diag: Box<Diagnostics>,
}

impl RenderContext {
    /// The function table that generated queries call through.
    pub fn gl(&self) -> &Gl {
        &self.gl
    }

    /// The driver's own table: for glcmd's internal calls and for application closures
    /// (`with_gl`, `post`), which pass memory of their own.
    pub fn raw_gl(&self) -> &Gl {
        self.real.as_deref().unwrap_or(&self.gl)
    }

    /// Presents now: swaps the window's or the adopted draw surface's buffers (an error on a
    /// context with no surface).
    pub(crate) fn present(&self) -> Result<(), crate::error::ContextError> {
        self.context.present_now()
    }

    /// The GL sync object behind a glcmd sync handle.
    pub fn sync_object(&self, function: &'static str, id: u32) -> Result<GLsync, Error> {
        let state = self.state.try_borrow().map_err(|_| Error::UnknownSync { function, id })?;
        state.syncs.get(&id).copied().ok_or(Error::UnknownSync { function, id })
    }

    /// Names a create (`created`) or gen function returned: live (again) for use-after-delete
    /// tracking, and known to the binding shadow.
    pub fn objects_created(&self, class: &'static str, names: &[u32], created: bool) {
        if self.diag.options.track_deletes {
            self.diag.objects_created(class, names);
        }
        if class == "buffer" {
            self.shared.buffer_names.made(names);
        }
        if class == "program" {
            // A name handed out again: what was kept for an older program of that name goes.
            self.shared.programs.created(names);
        }
        if let (Ok(mut state), Some(class)) = (self.state.try_borrow_mut(), Class::from_xml(class)) {
            state.shadow.names_created(class, names, created);
        }
    }

    /// Before a query that names an object: the name exists (see `Shadow::check_name`).
    pub fn check_name(&self, function: &'static str, class: Class, name: u32, first: bool) -> Result<(), Error> {
        match self.state.try_borrow_mut() {
            Ok(mut state) => state.shadow.check_name(self.raw_gl(), class, name, first).map_err(|why| match why {
                Refusal::OtherClass { .. } => Error::OtherClass { function, class: class.name(), name },
                _ => Error::NoSuchObject { function, class: class.name(), name },
            }),
            // Inside replay (a callback): the shadow is in use; the GL decides.
            Err(_) => Ok(()),
        }
    }

    /// Runs a query's GL call and tells whether the GL refused it: a query the GL refuses
    /// writes none of its outputs, so its answer must not be handed out as one. Errors that
    /// earlier commands left in the GL's flag are moved to glcmd's flag first (`get_error`
    /// returns them in order); an error the call raises is kept there too, as the GL keeps it,
    /// and returned as `Error::Refused`. Inside replay (a callback) the shadow is in use and the
    /// call runs as it is.
    pub fn refused_by<R>(&self, function: &'static str, call: impl FnOnce() -> R) -> Result<R, Error> {
        // The generic part is only this: every query instantiates it with its own closure.
        let watching = self.take_gl_errors().is_some();
        let answer = call();
        match self.refusal(function, watching) {
            None => Ok(answer),
            Some(refused) => Err(refused),
        }
    }

    /// After a query's call: the error it raised, if the flags were watched.
    fn refusal(&self, function: &'static str, watching: bool) -> Option<Error> {
        if !watching {
            return None;
        }
        match self.take_gl_errors() {
            Some(error) if error != crate::gl::NO_ERROR => Some(Error::Refused { function, error }),
            _ => None,
        }
    }

    /// Moves the GL's error flags to glcmd's and returns the last (`NO_ERROR` if none), or
    /// `None` inside replay, where the shadow is in use.
    fn take_gl_errors(&self) -> Option<u32> {
        let gl = self.raw_gl();
        let mut state = self.state.try_borrow_mut().ok()?;
        // SAFETY: glGetError takes no argument. At most a few flags (a lost context keeps
        // answering GL_CONTEXT_LOST).
        let mut last = 0;
        for _ in 0..8 {
            let e = unsafe { (gl.GetError)() };
            if e == crate::gl::NO_ERROR {
                break;
            }
            state.raise(e);
            last = e;
        }
        Some(last)
    }

    /// A program was linked outside a list (`create_shader_programv`): the interface cache
    /// reads it.
    pub fn program_linked(&self, program: u32) {
        if let Ok(mut state) = self.state.try_borrow_mut() {
            let state = &mut *state;
            state.raised();
            state.programs.linked(self.raw_gl(), program, false, &mut state.raised);
        }
    }

    /// The error of a query of a function the context lacks.
    pub fn unavailable(&self, function: &'static str) -> Error {
        let (major, minor) = self.info.version;
        Error::Unavailable {
            function,
            reason: format!(
                "OpenGL {major}.{minor} by {}; {}",
                self.info.vendor,
                if self.info.mesa_dispatch_checked {
                    "not in gl.xml's features of this version and extensions, or unknown to Mesa's dispatch table"
                } else {
                    "not in gl.xml's features of this version and extensions"
                }
            ),
        }
    }

    /// Runs `f` with `target` unbound (if a buffer is bound to it), then binds it again: an
    /// output pointer of a query stays a pointer.
    pub fn without_buffer<R>(&self, target: Target, f: impl FnOnce() -> R) -> R {
        match self.state.try_borrow() {
            Ok(state) => replay::without_buffer(self.raw_gl(), &state.shadow, target, f),
            // Inside replay (a callback): the shadow is in use; read the binding from the GL.
            Err(_) => {
                let mut bound = 0;
                let pname = match target {
                    Target::PixelPack => crate::gl::PIXEL_PACK_BUFFER_BINDING,
                    Target::Query => crate::gl::QUERY_BUFFER_BINDING,
                    _ => crate::gl::PIXEL_UNPACK_BUFFER_BINDING,
                };
                let raw = self.raw_gl();
                // SAFETY: a single-integer query.
                unsafe { (raw.GetIntegerv)(pname, &mut bound) };
                replay::with_unbound(raw, target, bound as u32, f)
            }
        }
    }

    /// What a caller's output value `address` of a query is (`client_out.rs`): with a buffer
    /// bound to `target` at this point of the stream, an offset into it, returned once the `len`
    /// bytes the GL writes there are checked to fit its storage; with none bound, memory
    /// (`None`), which must not be NULL. Inside replay (a callback) the binding and size are read
    /// from the GL.
    pub fn buffer_output(
        &self,
        function: &'static str,
        argument: &'static str,
        target: Target,
        address: usize,
        len: usize,
    ) -> Result<Option<usize>, Error> {
        let raw = self.raw_gl();
        let refused = |offset: Option<u64>, size: u64| Error::OutputOffset {
            function,
            argument,
            target: target.gl_name(),
            offset,
            len: len as u64,
            size,
        };
        let fits = match self.state.try_borrow_mut() {
            Ok(mut state) => {
                if state.shadow.bound(target) == 0 {
                    None
                } else {
                    Some(match state.shadow.check_range(raw, target, address as u64, len as u64) {
                        Ok(()) => Ok(()),
                        Err(Refusal::Overrun { size, .. }) => Err(size),
                        Err(_) => Err(0),
                    })
                }
            }
            Err(_) => {
                let mut bound = 0;
                let mut size: i64 = 0;
                // SAFETY: single-value queries into locals.
                unsafe {
                    (raw.GetIntegerv)(target.binding_pname(), &mut bound);
                    if bound != 0 {
                        (raw.GetBufferParameteri64v)(target.gl_enum(), crate::gl::BUFFER_SIZE, &mut size);
                    }
                }
                let size = size.max(0) as u64;
                (bound != 0).then(|| match (address as u64).checked_add(len as u64) {
                    Some(end) if end <= size => Ok(()),
                    _ => Err(size),
                })
            }
        };
        match fits {
            Some(Ok(())) => Ok(Some(address)),
            Some(Err(size)) => Err(refused(Some(address as u64), size)),
            None if address == 0 => Err(refused(None, 0)),
            None => Ok(None),
        }
    }

    /// Polls the fences and query results the known answers wait for (`polls.rs`), unless a
    /// replay further up this thread's stack holds the state.
    pub(crate) fn poll_known(&self) {
        if let Ok(mut state) = self.state.try_borrow_mut() {
            super::polls::poll(self.raw_gl(), &mut state);
        }
    }

    /// Reads the bindings back after code that may have changed them behind the shadow.
    /// Also forgets the cached interfaces of programs such code deleted (`programs.rs`), and
    /// has the known answers poll again what they kept (`known_answers.rs`).
    pub(crate) fn refresh_shadow(&self) {
        if let Ok(mut state) = self.state.try_borrow_mut() {
            state.shadow.refresh(self.raw_gl());
        }
        self.shared.programs.forget_dead(self.raw_gl());
        // The closure may have begun, ended or deleted queries (`known_answers.rs`) and changed
        // any state (`recorded_state.rs`).
        self.shared.known.repoll();
        self.shared.recorded.forget_behind();
    }

    /// [`Shadow::audit`](crate::shadow::Shadow::audit) of the binding shadow (empty if the
    /// shadow is in use by a replay further up this thread's stack).
    pub(crate) fn audit_shadow(&self) -> Vec<String> {
        match self.state.try_borrow() {
            Ok(state) => state.shadow.audit(self.raw_gl()),
            Err(_) => Vec::new(),
        }
    }

    /// A description of the context (EGL device, GL renderer).
    pub fn describe(&self) -> String {
        self.context.describe()
    }
}
