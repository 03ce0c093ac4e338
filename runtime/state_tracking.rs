//! What a list tells its device's recorded state (`recorded_state.rs`) as it records: the value
//! each modelled setter leaves, where the GL's acceptance is certain, and "unknown" where it is
//! not. The generated recording methods call these (the generator's `state_calls.rs` says which
//! function calls which, and which forget everything); each rule below is the GL's (GL 4.6
//! §13.6.1 viewports, §14.9.2 scissor, §17.3.6 blending, §8.1 texture units, §6.1 bindings).

use crate::generated::{enums as gl, types::*};
use crate::list::CommandList;
use crate::recorded_state::{RecordedState, Set, CAPS};

/// The blend factors the GL accepts for every argument of `glBlendFunc*`.
const FACTORS: [GLenum; 19] = [
    gl::ZERO,
    gl::ONE,
    gl::SRC_COLOR,
    gl::ONE_MINUS_SRC_COLOR,
    gl::DST_COLOR,
    gl::ONE_MINUS_DST_COLOR,
    gl::SRC_ALPHA,
    gl::ONE_MINUS_SRC_ALPHA,
    gl::DST_ALPHA,
    gl::ONE_MINUS_DST_ALPHA,
    gl::CONSTANT_COLOR,
    gl::ONE_MINUS_CONSTANT_COLOR,
    gl::CONSTANT_ALPHA,
    gl::ONE_MINUS_CONSTANT_ALPHA,
    gl::SRC_ALPHA_SATURATE,
    gl::SRC1_COLOR,
    gl::ONE_MINUS_SRC1_COLOR,
    gl::SRC1_ALPHA,
    gl::ONE_MINUS_SRC1_ALPHA,
];

/// The blend equations every context accepts (advanced ones are left unknown).
const EQUATIONS: [GLenum; 5] = [gl::FUNC_ADD, gl::FUNC_SUBTRACT, gl::FUNC_REVERSE_SUBTRACT, gl::MIN, gl::MAX];

fn int(v: GLenum) -> Set {
    Set::To(vec![v as GLint])
}

impl CommandList {
    /// The device's shadow, unless it is off (then every tracker returns at once: one atomic
    /// load for the lists of programs that never ask).
    fn shadow(&self) -> Option<&RecordedState> {
        self.recorded_state.as_deref().filter(|s| !s.is_off())
    }

    /// Whether the device's shadow follows this list at all: the generated recording methods
    /// check this inline before they call a tracker.
    #[inline(always)]
    pub(crate) fn state_live(&self) -> bool {
        self.recorded_state.as_ref().is_some_and(|s| !s.is_off())
    }

    /// Whether `pname` is already `value`: the setter changes nothing.
    fn state_already(&self, pname: GLenum, value: &[GLint]) -> bool {
        self.shadow().is_some_and(|s| s.already(self.immediate_recording, pname, value))
    }

    fn state_record(&self, changes: &[(GLenum, Set)]) {
        if let Some(s) = self.shadow() {
            s.record(self.immediate_recording, changes);
        }
    }

    /// A recorded call the generator does not list as leaving the shadowed values alone.
    #[inline(never)]
    pub(crate) fn state_forget_all(&self) {
        if let Some(s) = self.shadow() {
            s.forget_all(self.immediate_recording);
        }
    }

    #[inline(never)]
    pub(crate) fn state_viewport(&self, x: GLint, y: GLint, width: GLsizei, height: GLsizei) {
        let bounds = self.shadow().and_then(|s| s.bounds());
        let set = match bounds {
            Some(b)
                if width >= 0
                    && height >= 0
                    && [x, y]
                        .iter()
                        .all(|&c| (c as f32) >= b.viewport_range[0] && (c as f32) <= b.viewport_range[1]) =>
            {
                Set::To(vec![x, y, width.min(b.max_viewport[0]), height.min(b.max_viewport[1])])
            }
            _ => Set::Unknown,
        };
        self.state_record(&[(gl::VIEWPORT, set)]);
    }

    #[inline(never)]
    pub(crate) fn state_scissor(&self, x: GLint, y: GLint, width: GLsizei, height: GLsizei) {
        let set = if width >= 0 && height >= 0 { Set::To(vec![x, y, width, height]) } else { Set::Unknown };
        self.state_record(&[(gl::SCISSOR_BOX, set)]);
    }

    fn state_cap(&self, cap: GLenum, on: bool) {
        if CAPS.contains(&cap) && !self.state_already(cap, &[on as GLint]) {
            self.state_record(&[(cap, Set::To(vec![on as GLint]))]);
        }
    }

    #[inline(never)]
    pub(crate) fn state_enable(&self, cap: GLenum) {
        self.state_cap(cap, true);
    }

    #[inline(never)]
    pub(crate) fn state_disable(&self, cap: GLenum) {
        self.state_cap(cap, false);
    }

    /// `glEnablei`/`glDisablei`: index 0 of blending and the scissor test is what `glIsEnabled`
    /// answers; other shadowed caps are not indexed (the GL refuses them), left unknown.
    fn state_cap_indexed(&self, cap: GLenum, index: GLuint, on: bool) {
        if !CAPS.contains(&cap) {
            return;
        }
        let set = if matches!(cap, gl::BLEND | gl::SCISSOR_TEST) && index == 0 {
            Set::To(vec![on as GLint])
        } else {
            Set::Unknown
        };
        self.state_record(&[(cap, set)]);
    }

    #[inline(never)]
    pub(crate) fn state_enablei(&self, cap: GLenum, index: GLuint) {
        self.state_cap_indexed(cap, index, true);
    }

    #[inline(never)]
    pub(crate) fn state_disablei(&self, cap: GLenum, index: GLuint) {
        self.state_cap_indexed(cap, index, false);
    }

    #[inline(never)]
    pub(crate) fn state_blend_func(&self, src: GLenum, dst: GLenum) {
        self.state_blend_func_separate(src, dst, src, dst);
    }

    #[inline(never)]
    pub(crate) fn state_blend_func_separate(&self, src_rgb: GLenum, dst_rgb: GLenum, src_a: GLenum, dst_a: GLenum) {
        let known = [src_rgb, dst_rgb, src_a, dst_a].iter().all(|f| FACTORS.contains(f));
        let set = |v: GLenum| if known { int(v) } else { Set::Unknown };
        self.state_record(&[
            (gl::BLEND_SRC_RGB, set(src_rgb)),
            (gl::BLEND_DST_RGB, set(dst_rgb)),
            (gl::BLEND_SRC_ALPHA, set(src_a)),
            (gl::BLEND_DST_ALPHA, set(dst_a)),
        ]);
    }

    #[inline(never)]
    pub(crate) fn state_blend_equation(&self, mode: GLenum) {
        self.state_blend_equation_separate(mode, mode);
    }

    #[inline(never)]
    pub(crate) fn state_blend_equation_separate(&self, rgb: GLenum, alpha: GLenum) {
        let known = EQUATIONS.contains(&rgb) && EQUATIONS.contains(&alpha);
        let set = |v: GLenum| if known { int(v) } else { Set::Unknown };
        self.state_record(&[(gl::BLEND_EQUATION_RGB, set(rgb)), (gl::BLEND_EQUATION_ALPHA, set(alpha))]);
    }

    /// `glActiveTexture`: the unit, if it exists; the bindings asked "of the active unit" then
    /// name another unit's, unknown.
    #[inline(never)]
    pub(crate) fn state_active_texture(&self, texture: GLenum) {
        if self.shadow().is_none() || self.state_already(gl::ACTIVE_TEXTURE, &[texture as GLint]) {
            // The same unit: its bindings stay what they are.
            return;
        }
        let units = self.shadow().and_then(|s| s.bounds()).map_or(0, |b| b.texture_units);
        let set = if texture >= gl::TEXTURE0 && texture - gl::TEXTURE0 < units { int(texture) } else { Set::Unknown };
        self.state_record(&[
            (gl::ACTIVE_TEXTURE, set),
            (gl::TEXTURE_BINDING_2D, Set::Unknown),
            (gl::SAMPLER_BINDING, Set::Unknown),
        ]);
    }

    /// `glBindBuffer`: `GL_ARRAY_BUFFER` is shadowed; a bind the GL is sure to accept (0, or a
    /// name that exists) is known.
    #[inline(never)]
    pub(crate) fn state_bind_buffer(&self, target: GLenum, buffer: GLuint) {
        if self.shadow().is_none()
            || (target == gl::ARRAY_BUFFER && self.state_already(gl::ARRAY_BUFFER_BINDING, &[buffer as GLint]))
        {
            return;
        }
        let exists = buffer == 0 || self.buffer_names.as_ref().is_some_and(|n| n.exists(buffer));
        if target == gl::ELEMENT_ARRAY_BUFFER {
            // Vertex-array state: known with a vertex array (not 0) known bound.
            let array = self.shadow().and_then(|s| s.value(gl::VERTEX_ARRAY_BINDING));
            let known = exists && array.is_some_and(|a| a[0] != 0);
            return self
                .state_record(&[(gl::ELEMENT_ARRAY_BUFFER_BINDING, if known { int(buffer) } else { Set::Unknown })]);
        }
        if target != gl::ARRAY_BUFFER {
            return;
        }
        self.state_record(&[(gl::ARRAY_BUFFER_BINDING, if exists { int(buffer) } else { Set::Unknown })]);
    }

    /// `glDeleteBuffers`: a deleted array buffer is unbound (GL 4.6 §6.1).
    #[inline(never)]
    pub(crate) fn state_delete_buffers(&self, buffers: &[GLuint]) {
        let Some(s) = self.shadow() else { return };
        s.elements_changed(buffers, None);
        let set = match s.value(gl::ARRAY_BUFFER_BINDING) {
            Some(v) if buffers.contains(&(v[0] as GLuint)) => int(0),
            Some(v) => Set::To(v),
            None => Set::Unknown,
        };
        self.state_record(&[(gl::ARRAY_BUFFER_BINDING, set), (gl::ELEMENT_ARRAY_BUFFER_BINDING, Set::Unknown)]);
    }

    /// `glBindTexture`: binding 0 to `GL_TEXTURE_2D` is always accepted; another name's
    /// acceptance depends on its target, unknown here.
    #[inline(never)]
    pub(crate) fn state_bind_texture(&self, target: GLenum, texture: GLuint) {
        if target == gl::TEXTURE_2D {
            self.state_rebind(gl::TEXTURE_BINDING_2D, texture);
        }
    }

    /// A bind of `name` for `pname` (one of `REBINDABLE`): known where the GL is sure to accept
    /// it (0, or a name the GL reported bound there since the last call that could delete it; a
    /// program the interface cache knows linked).
    fn state_rebind(&self, pname: GLenum, name: GLuint) {
        if let Some(s) = self.shadow() {
            s.bind(self.immediate_recording, pname, name, &[], self.programs.as_deref());
        }
    }

    /// `glBindSampler(unit, sampler)`: the active unit's binding is shadowed.
    #[inline(never)]
    pub(crate) fn state_bind_sampler(&self, unit: GLuint, sampler: GLuint) {
        let Some(s) = self.shadow() else { return };
        match s.value(gl::ACTIVE_TEXTURE) {
            Some(v) if (v[0] as GLuint).wrapping_sub(gl::TEXTURE0) != unit => self.state_record(&[]),
            Some(_) => self.state_rebind(gl::SAMPLER_BINDING, sampler),
            None => self.state_record(&[(gl::SAMPLER_BINDING, Set::Unknown)]),
        }
    }

    /// `glBindVertexArray`: the element buffer binding becomes the array's (remembered per
    /// array by the shadow where known).
    #[inline(never)]
    pub(crate) fn state_bind_vertex_array(&self, array: GLuint) {
        if let Some(s) = self.shadow() {
            let element = [gl::ELEMENT_ARRAY_BUFFER_BINDING];
            s.bind(self.immediate_recording, gl::VERTEX_ARRAY_BINDING, array, &element, None);
        }
    }

    #[inline(never)]
    pub(crate) fn state_use_program(&self, program: GLuint) {
        self.state_rebind(gl::CURRENT_PROGRAM, program);
    }

    #[inline(never)]
    pub(crate) fn state_delete_program(&self, program: GLuint) {
        if let Some(s) = self.shadow() {
            s.program_deleted(self.immediate_recording, program);
        }
    }

    fn state_feedback_begun(&self) {
        if let Some(s) = self.shadow() {
            s.feedback_begun(self.immediate_recording);
        }
    }

    #[inline(never)]
    pub(crate) fn state_begin_transform_feedback(&self, _mode: GLenum) {
        self.state_feedback_begun();
    }

    #[inline(never)]
    pub(crate) fn state_resume_transform_feedback(&self) {
        self.state_feedback_begun();
    }

    /// `glPixelStore*`: the alignments are shadowed; a value the GL takes for sure (1, 2, 4 or 8
    /// through the integer form) is known.
    #[inline(never)]
    pub(crate) fn state_pixel_storei(&self, pname: GLenum, param: GLint) {
        if matches!(pname, gl::UNPACK_ALIGNMENT | gl::PACK_ALIGNMENT) {
            let set = if matches!(param, 1 | 2 | 4 | 8) { Set::To(vec![param]) } else { Set::Unknown };
            self.state_record(&[(pname, set)]);
        }
    }

    #[inline(never)]
    pub(crate) fn state_pixel_storef(&self, pname: GLenum, _param: GLfloat) {
        if matches!(pname, gl::UNPACK_ALIGNMENT | gl::PACK_ALIGNMENT) {
            self.state_record(&[(pname, Set::Unknown)]);
        }
    }

    #[inline(never)]
    pub(crate) fn state_clip_control(&self, _origin: GLenum, _depth: GLenum) {
        self.state_record(&[(gl::CLIP_ORIGIN, Set::Unknown)]);
    }

    #[inline(never)]
    pub(crate) fn state_vertex_array_element_buffer(&self, array: GLuint, _buffer: GLuint) {
        if let Some(s) = self.shadow() {
            s.elements_changed(&[], Some(array));
        }
        self.state_record(&[(gl::ELEMENT_ARRAY_BUFFER_BINDING, Set::Unknown)]);
    }

    /// `glPolygonMode`: the core profile takes only `GL_FRONT_AND_BACK` and the three modes, so
    /// every value of the pname (its count as the GL gave it before) is the mode.
    #[inline(never)]
    pub(crate) fn state_polygon_mode(&self, face: GLenum, mode: GLenum) {
        let known = self.shadow().and_then(|s| s.value(gl::POLYGON_MODE));
        let set = match known {
            Some(v) if face == gl::FRONT_AND_BACK && matches!(mode, gl::POINT | gl::LINE | gl::FILL) => {
                Set::To(vec![mode as GLint; v.len()])
            }
            _ => Set::Unknown,
        };
        self.state_record(&[(gl::POLYGON_MODE, set)]);
    }
}
