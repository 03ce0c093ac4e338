//! The special functions: the few GL functions that fit none of the generated kinds, written by
//! hand. With `client_indices.rs` (element draws whose indices the C ABI copied from client
//! memory), this is the only hand-written module that names GL functions.
//!
//! | GL function | glcmd | why |
//! | --- | --- | --- |
//! | `glFenceSync` | `CommandList::fence_sync` (generated, returns a [`SyncHandle`]) | must run at its place in the stream, but the handle is needed at once |
//! | `glClientWaitSync` | [`Device::client_wait_sync`] | blocks: runs on the render thread after the fence's list |
//! | `glFinish` | [`Device::finish`] | waits for every submitted list, then for the GPU |
//! | `glFlush` | [`Device::flush`] | a round trip that flushes after every submitted list |
//! | `glGetError` | [`Device::get_error`] | also returns the `GL_INVALID_OPERATION` glcmd raises for a command it skipped |
//! | `glGetProgramResourceiv` | [`Device::get_program_resourceiv`] | drivers write more than `count` values for variable-length properties: the counts are asked first |
//! | `glGetDebugMessageLog(ARB)` | [`Device::get_debug_message_log`] | one message per entry, each with its own text |
//! | `glMapBuffer*`, `glMapNamedBuffer*` | [`Device::with_gl`] | the mapping is process memory owned by the render thread's context |
//! | `glMapBuffer*`, queries, `glFinish`, ... on an immediate context | `Immediate`'s twins below | they submit the context's pending calls first |
//! | `glDebugMessageCallback(ARB)` | [`Device::set_debug_callback`]; glcmd's diagnostics install their own | the callback runs on the render thread |
//! | `glCreateSyncFromCLeventARB`, `glImportSyncEXT`, EGL image and client-pointer functions | [`Device::with_gl`] | they take process pointers a list cannot own |
//!
//! Also here: the debug group that brackets a labelled list at replay, so RenderDoc and
//! apitrace show the label.

use crate::device::Device;
use crate::diagnostics::DebugMessage;
use crate::generated::{enums as gl, types::*};
use crate::immediate::Immediate;
use crate::list::CommandList;
use crate::{arguments, Error, SyncHandle};

/// Every property `glGetProgramResourceiv` knows that yields one value.
const SINGLE_VALUE_PROPERTIES: &[GLenum] = &[
    gl::NAME_LENGTH,
    gl::TYPE,
    gl::ARRAY_SIZE,
    gl::OFFSET,
    gl::BLOCK_INDEX,
    gl::ARRAY_STRIDE,
    gl::MATRIX_STRIDE,
    gl::IS_ROW_MAJOR,
    gl::ATOMIC_COUNTER_BUFFER_INDEX,
    gl::BUFFER_BINDING,
    gl::BUFFER_DATA_SIZE,
    gl::NUM_ACTIVE_VARIABLES,
    gl::REFERENCED_BY_VERTEX_SHADER,
    gl::REFERENCED_BY_TESS_CONTROL_SHADER,
    gl::REFERENCED_BY_TESS_EVALUATION_SHADER,
    gl::REFERENCED_BY_GEOMETRY_SHADER,
    gl::REFERENCED_BY_FRAGMENT_SHADER,
    gl::REFERENCED_BY_COMPUTE_SHADER,
    gl::NUM_COMPATIBLE_SUBROUTINES,
    gl::TOP_LEVEL_ARRAY_SIZE,
    gl::TOP_LEVEL_ARRAY_STRIDE,
    gl::LOCATION,
    gl::LOCATION_INDEX,
    gl::IS_PER_PATCH,
    gl::LOCATION_COMPONENT,
    gl::TRANSFORM_FEEDBACK_BUFFER_INDEX,
    gl::TRANSFORM_FEEDBACK_BUFFER_STRIDE,
];

impl Device {
    /// The pixel-store state and pixel-buffer bindings the GL has after every list submitted
    /// before this call (a round trip): what an immediate C thread's list starts from on a
    /// context it did not track, and the answer to a binding it could not be sure of
    /// (`pixels.rs`, "Bindings").
    #[doc(hidden)]
    pub fn pixel_state_now(&self) -> Result<crate::pixels::PixelState, Error> {
        // SAFETY: on the render thread, with its context's table.
        self.call("glGetIntegerv", |ctx| Ok(unsafe { crate::pixels::read_state(ctx.raw_gl()) }))
    }

    /// `glClientWaitSync`: waits on the render thread, after the list that recorded the fence
    /// has run, and returns `GL_ALREADY_SIGNALED`, `GL_CONDITION_SATISFIED`,
    /// `GL_TIMEOUT_EXPIRED` or `GL_WAIT_FAILED`. A fence the render thread has already seen
    /// signalled (and no recorded delete since) answers `GL_ALREADY_SIGNALED` at once, without a
    /// round trip (`known_answers.rs`): a signalled sync stays signalled, and the flags are the
    /// ones the GL accepts.
    pub fn client_wait_sync(&self, sync: SyncHandle, flags: GLbitfield, timeout_ns: GLuint64) -> Result<GLenum, Error> {
        if flags & !crate::gl::SYNC_FLUSH_COMMANDS_BIT == 0 && self.inner.shared.known.fence_signalled(sync.id()) {
            return Ok(crate::gl::ALREADY_SIGNALED);
        }
        self.call("glClientWaitSync", move |ctx| {
            let s = ctx.sync_object("glClientWaitSync", sync.id())?;
            // SAFETY: `s` is a live sync object of this context.
            Ok(unsafe { (ctx.gl().ClientWaitSync)(s, flags, timeout_ns) })
        })
    }

    /// `glFinish` after every list submitted before it.
    pub fn finish(&self) -> Result<(), Error> {
        self.call("glFinish", |ctx| {
            // SAFETY: no arguments.
            unsafe { (ctx.gl().Finish)() };
            // Everything has completed: the known answers learn it before the caller asks.
            ctx.poll_known();
            Ok(())
        })
    }

    /// `glFlush` after every list submitted before it.
    pub fn flush(&self) -> Result<(), Error> {
        self.call("glFlush", |ctx| {
            // SAFETY: no arguments.
            unsafe { (ctx.gl().Flush)() };
            Ok(())
        })
    }

    /// `glGetError` after every list submitted before it. A command glcmd skipped because an
    /// argument was unsafe (reported on `reports()`) raised `GL_INVALID_OPERATION`, as the GL
    /// does for a command it refuses; like the GL's own flags, each such error is returned once.
    pub fn get_error(&self) -> Result<GLenum, Error> {
        self.call("glGetError", |ctx| {
            // One flag, as the GL keeps it (`replay::record_error`): what the GL raised after
            // glcmd's flag was set is dropped with this read.
            let raised = ctx.state.try_borrow_mut().ok().and_then(|mut state| {
                if state.raised().is_empty() {
                    return None;
                }
                state.keep_pending_errors(ctx.gl());
                Some(state.raised.remove(0))
            });
            // SAFETY: no arguments.
            let error = raised.unwrap_or_else(|| unsafe { (ctx.gl().GetError)() });
            if error != gl::NO_ERROR {
                // A flag read may be a skipped repeat's: the next call must raise it again
                // (`repeats.rs`, *Across lists*).
                if let Ok(mut state) = ctx.state.try_borrow_mut() {
                    state.carried = None;
                }
            }
            ctx.capture_call(crate::generated::capture::GET_ERROR, &|_| {}, &error);
            Ok(error)
        })
    }

    /// `glGetProgramResourceiv(program, interface, index, props)`: one value per property, and
    /// for `GL_ACTIVE_VARIABLES` and `GL_COMPATIBLE_SUBROUTINES` as many as the resource has
    /// (the GL writes them all whatever size it is told, on Mesa, so glcmd asks for the counts
    /// first and sizes the buffer). A property glcmd does not know gets room for 16 values and
    /// goes to the GL, which refuses it (`GL_INVALID_ENUM`) after its own earlier checks of the
    /// program, interface and index, as directly (issue 34 item 4).
    pub fn get_program_resourceiv(
        &self,
        program: GLuint,
        interface: GLenum,
        index: GLuint,
        props: &[GLenum],
    ) -> Result<Vec<GLint>, Error> {
        const F: &str = "glGetProgramResourceiv";
        let props = props.to_vec();
        self.call(F, move |ctx| {
            let g = ctx.gl();
            let one = |prop: GLenum| {
                let mut v: GLint = 0;
                let mut len: GLsizei = 0;
                let _r = [arguments::region(&prop, 4), arguments::region(&v, 4), arguments::region(&len, 4)];
                // SAFETY: one property, one value, into locals.
                unsafe { (g.GetProgramResourceiv)(program, interface, index, 1, &prop, 1, &mut len, &mut v) };
                if len == 1 {
                    v.max(0) as usize
                } else {
                    0
                }
            };
            let interface_max = |pname: GLenum| {
                let mut v: GLint = 0;
                let _r = arguments::region(&v, 4);
                // SAFETY: one value into a local.
                unsafe { (g.GetProgramInterfaceiv)(program, interface, pname, &mut v) };
                v.max(0) as usize
            };
            let mut total = 0usize;
            for &prop in &props {
                total += match prop {
                    // The resource's own count, padded with the interface's maximum in case a
                    // driver writes more than it reports.
                    gl::ACTIVE_VARIABLES => one(gl::NUM_ACTIVE_VARIABLES) + interface_max(gl::MAX_NUM_ACTIVE_VARIABLES),
                    gl::COMPATIBLE_SUBROUTINES => {
                        one(gl::NUM_COMPATIBLE_SUBROUTINES) + interface_max(gl::MAX_NUM_COMPATIBLE_SUBROUTINES)
                    }
                    p if SINGLE_VALUE_PROPERTIES.contains(&p) => 1,
                    _ => 16,
                };
            }
            let prop_count = arguments::count_i32(props.len(), F, "props");
            let count =
                GLsizei::try_from(total).map_err(|_| Error::OutOfMemory { function: F, bytes: total as u128 * 4 })?;
            let mut out: Vec<GLint> = arguments::out_vec(F, total)?;
            let mut length: GLsizei = 0;
            let _r = [
                arguments::region(props.as_ptr(), props.len() * 4),
                arguments::region(out.as_ptr(), out.len() * 4),
                arguments::region(&length, 4),
            ];
            // SAFETY: `props` holds `prop_count` values; `out` holds at least `count` values,
            // the most the GL writes for these properties (counted above).
            unsafe {
                (g.GetProgramResourceiv)(
                    program,
                    interface,
                    index,
                    prop_count,
                    props.as_ptr(),
                    count,
                    &mut length,
                    out.as_mut_ptr(),
                )
            };
            out.truncate((length.max(0) as usize).min(total));
            Ok(out)
        })
    }

    /// `glGetDebugMessageLog`: up to `count` messages from the debug log (and removes them from
    /// it), each with its own text. Needs debug output on and a log (messages are logged only
    /// when no callback is installed: glcmd's diagnostics install one).
    pub fn get_debug_message_log(&self, count: u32) -> Result<Vec<DebugMessage>, Error> {
        const F: &str = "glGetDebugMessageLog";
        self.call(F, move |ctx| {
            let g = ctx.gl();
            let n = count as usize;
            let max_len = ctx.info.max_debug_message_length as usize;
            let buf_size = n
                .checked_mul(max_len)
                .filter(|&b| b <= i32::MAX as usize)
                .ok_or(Error::OutOfMemory { function: F, bytes: n as u128 * max_len as u128 })?;
            let mut sources: Vec<GLenum> = arguments::out_vec(F, n)?;
            let mut types: Vec<GLenum> = arguments::out_vec(F, n)?;
            let mut ids: Vec<GLuint> = arguments::out_vec(F, n)?;
            let mut severities: Vec<GLenum> = arguments::out_vec(F, n)?;
            let mut lengths: Vec<GLsizei> = arguments::out_vec(F, n)?;
            let mut log: Vec<u8> = arguments::out_vec(F, buf_size)?;
            let _r = [
                arguments::region(sources.as_ptr(), sources.len() * 4),
                arguments::region(types.as_ptr(), types.len() * 4),
                arguments::region(ids.as_ptr(), ids.len() * 4),
                arguments::region(severities.as_ptr(), severities.len() * 4),
                arguments::region(lengths.as_ptr(), lengths.len() * 4),
                arguments::region(log.as_ptr(), log.len()),
            ];
            // SAFETY: each array holds `count` entries and the log `buf_size` bytes: room for
            // `count` messages of the longest length the GL allows.
            let got = unsafe {
                (g.GetDebugMessageLog)(
                    count,
                    buf_size as GLsizei,
                    sources.as_mut_ptr(),
                    types.as_mut_ptr(),
                    ids.as_mut_ptr(),
                    severities.as_mut_ptr(),
                    lengths.as_mut_ptr(),
                    log.as_mut_ptr().cast(),
                )
            } as usize;
            let mut messages = Vec::with_capacity(got.min(n));
            let mut at = 0usize;
            for i in 0..got.min(n) {
                // Each length counts the message's terminating NUL.
                let len = (lengths[i].max(0) as usize).min(log.len().saturating_sub(at));
                let text = &log[at..at + len];
                let text = text.strip_suffix(&[0]).unwrap_or(text);
                messages.push(DebugMessage {
                    source: sources[i],
                    kind: types[i],
                    id: ids[i],
                    severity: severities[i],
                    message: String::from_utf8_lossy(text).into_owned(),
                });
                at += len;
            }
            Ok(messages)
        })
    }
}

/// The specials of the immediate context (`immediate.rs`): each submits the context's pending
/// calls, then does what the `Device` method of the same name does.
impl Immediate {
    /// [`Device::client_wait_sync`] after this context's pending calls (the fence they record
    /// included).
    pub fn client_wait_sync(
        &mut self,
        sync: SyncHandle,
        flags: GLbitfield,
        timeout_ns: GLuint64,
    ) -> Result<GLenum, Error> {
        let mark = self.before_query()?;
        let answer = self.device.client_wait_sync(sync, flags, timeout_ns);
        self.count_round_trips(mark);
        answer
    }

    /// `glFinish` after this context's pending calls: they have run on the GPU when it returns.
    pub fn finish(&mut self) -> Result<(), Error> {
        let mark = self.before_query()?;
        let answer = self.device.finish();
        self.count_round_trips(mark);
        answer
    }

    /// `glFlush` after this context's pending calls (submitted first).
    pub fn flush(&mut self) -> Result<(), Error> {
        let mark = self.before_query()?;
        let answer = self.device.flush();
        self.count_round_trips(mark);
        answer
    }

    /// [`Device::get_error`] after this context's pending calls: the errors of its own calls
    /// (and of anything replayed before them). `GL_NO_ERROR` without a submit or a round trip
    /// where every call since the last `get_error` is known to raise none (`known_errors.rs`).
    pub fn get_error(&mut self) -> Result<GLenum, Error> {
        if self.no_error_known() {
            return Ok(gl::NO_ERROR);
        }
        let senders = self.device.sender_changes();
        let mark = self.before_query()?;
        let answer = self.device.get_error();
        self.count_round_trips(mark);
        self.error_answered(&answer, senders);
        answer
    }

    /// [`Device::get_program_resourceiv`] after this context's pending calls.
    pub fn get_program_resourceiv(
        &mut self,
        program: GLuint,
        interface: GLenum,
        index: GLuint,
        props: &[GLenum],
    ) -> Result<Vec<GLint>, Error> {
        let mark = self.before_query()?;
        let answer = self.device.get_program_resourceiv(program, interface, index, props);
        self.count_round_trips(mark);
        answer
    }

    /// [`Device::get_debug_message_log`] after this context's pending calls.
    pub fn get_debug_message_log(&mut self, count: u32) -> Result<Vec<DebugMessage>, Error> {
        let mark = self.before_query()?;
        let answer = self.device.get_debug_message_log(count);
        self.count_round_trips(mark);
        answer
    }
}

impl CommandList {
    /// Records a reset of commonly used state to GL defaults, so a list can start from known
    /// state whatever the lists before it left: framebuffer, program, vertex array, buffers,
    /// texture unit 0, viewport-independent fixed functions (blend, depth, stencil, cull,
    /// scissor), colour/depth masks and clear values.
    pub fn reset_state(&mut self) {
        self.bind_framebuffer(gl::FRAMEBUFFER, 0);
        self.use_program(0);
        self.bind_program_pipeline(0);
        self.bind_vertex_array(0);
        self.bind_buffer(gl::ARRAY_BUFFER, 0);
        self.bind_buffer(gl::PIXEL_UNPACK_BUFFER, 0);
        self.bind_buffer(gl::PIXEL_PACK_BUFFER, 0);
        self.bind_buffer(gl::DRAW_INDIRECT_BUFFER, 0);
        self.active_texture(gl::TEXTURE0);
        for cap in
            [gl::BLEND, gl::DEPTH_TEST, gl::STENCIL_TEST, gl::CULL_FACE, gl::SCISSOR_TEST, gl::POLYGON_OFFSET_FILL]
        {
            self.disable(cap);
        }
        self.blend_func(gl::ONE, gl::ZERO);
        self.blend_equation(gl::FUNC_ADD);
        self.depth_func(gl::LESS);
        self.depth_mask(true);
        self.color_mask(true, true, true, true);
        self.stencil_mask(!0);
        self.clear_color(0.0, 0.0, 0.0, 0.0);
        self.clear_depth(1.0);
        self.clear_stencil(0);
    }
}

/// The lookups' fast path, for entry points that must answer at the driver's cost.
impl Device {
    /// What `lookup` of `name` (its bytes, as a C caller gives it: a name that is not UTF-8 is
    /// never held; with `aux`, the interface or shader type where the function has one, else 0)
    /// in `program` answers from the calling thread's copy of the interface cache
    /// (`recent_lookups.rs`), without a lock, a wait or a round trip: `Some` only where the
    /// `Device` method (`get_uniform_location`, ...) would give exactly that answer now and do
    /// nothing else; `None` where it must do more (a name the copy does not hold, a cache changed
    /// since, capture on: the call is written to the capture). The C ABI's lookup entry points
    /// ask this first (issue 31: a cached `glGetUniformLocation` at the driver's cost).
    #[inline]
    pub fn recent_lookup(
        &self,
        lookup: crate::programs::Lookup,
        aux: u32,
        program: GLuint,
        name: &[u8],
    ) -> Option<i64> {
        let shared = &self.inner.shared;
        if shared.capture.is_some() {
            return None;
        }
        shared.programs.recent(program, (lookup as u8, aux, name))
    }
}

/// State queries' fast path, for entry points that must answer at the driver's cost.
impl Device {
    /// What [`Device::get_integerv`] answers for `pname` without a round trip, if it answers so
    /// now and does nothing else: from the limits cache, or from the recorded state inside
    /// [`crate::recorded_state::answering`] (an immediate thread's query of state its own calls
    /// set); `None` where it must do more (a round trip, capture on). The C ABI's
    /// `glGetIntegerv` asks this first (issue 31: Dear ImGui's 25 state queries a frame).
    /// The values go to `write` (no copy is made of the recorded ones); false: not answered.
    #[inline]
    pub fn known_integerv(&self, pname: GLenum, write: impl FnOnce(&[GLint])) -> bool {
        let shared = &self.inner.shared;
        if shared.capture.is_some() {
            return false;
        }
        match self.limits().integerv(pname) {
            Some(v) => {
                write(&v);
                true
            }
            None => shared.recorded.integerv_with(pname, write).is_some(),
        }
    }

    /// What [`Device::is_enabled`] answers for `cap` without a round trip, as
    /// [`Device::known_integerv`].
    #[inline]
    pub fn known_is_enabled(&self, cap: GLenum) -> Option<bool> {
        let shared = &self.inner.shared;
        if shared.capture.is_some() {
            return None;
        }
        shared.recorded.is_enabled(cap)
    }
}
