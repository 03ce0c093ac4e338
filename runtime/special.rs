//! The special functions: the few GL functions that fit none of the generated kinds, written by
//! hand. This is the only hand-written module that names GL functions.
//!
//! | GL function | glcmd | why |
//! | --- | --- | --- |
//! | `glFenceSync` | `CommandList::fence_sync` (generated, returns a [`Sync`]) | must run at its place in the stream, but the handle is needed at once |
//! | `glClientWaitSync` | [`Device::client_wait_sync`] | blocks: runs on the render thread after the fence's list |
//! | `glFinish` | [`Device::finish`] | waits for every submitted list, then for the GPU |
//! | `glFlush` | [`Device::flush`] | a round trip that flushes after every submitted list |
//! | `glMapBuffer*`, `glMapNamedBuffer*` | [`Device::with_gl`] | the mapping is process memory owned by the render thread's context |
//! | `glDebugMessageCallback(ARB)` | [`Device::with_gl`]; glcmd's diagnostics install their own | the callback runs on the render thread |
//! | `glCreateSyncFromCLeventARB`, `glImportSyncEXT`, EGL image and client-pointer functions | [`Device::with_gl`] | they take process pointers a list cannot own |
//!
//! Also here: the debug group that brackets a labelled list at replay, so RenderDoc and
//! apitrace show the label.

use crate::device::Device;
use crate::generated::{enums as gl, types::*, Gl};
use crate::list::CommandList;
use crate::{Error, Sync};

/// Before a list replays: `glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, label)`.
pub(crate) fn begin_list(gl_fns: &Gl, list: &CommandList) {
    if !list.label.is_empty() {
        // SAFETY: the label pointer and length describe the list's label string.
        unsafe {
            (gl_fns.PushDebugGroup)(
                gl::DEBUG_SOURCE_APPLICATION,
                0,
                list.label.len() as GLsizei,
                list.label.as_ptr().cast(),
            )
        };
    }
}

/// After a list replays: the matching `glPopDebugGroup`.
pub(crate) fn end_list(gl_fns: &Gl, list: &CommandList) {
    if !list.label.is_empty() {
        // SAFETY: pops the group pushed by `begin_list`.
        unsafe { (gl_fns.PopDebugGroup)() };
    }
}

impl Device {
    /// `glClientWaitSync`: waits on the render thread, after the list that recorded the fence
    /// has run, and returns `GL_ALREADY_SIGNALED`, `GL_CONDITION_SATISFIED`,
    /// `GL_TIMEOUT_EXPIRED` or `GL_WAIT_FAILED`.
    pub fn client_wait_sync(&self, sync: Sync, flags: GLbitfield, timeout_ns: GLuint64) -> Result<GLenum, Error> {
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
        self.depth_mask(gl::TRUE as GLboolean);
        self.color_mask(1, 1, 1, 1);
        self.stencil_mask(!0);
        self.clear_color(0.0, 0.0, 0.0, 0.0);
        self.clear_depth(1.0);
        self.clear_stencil(0);
    }
}
