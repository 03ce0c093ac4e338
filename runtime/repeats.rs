//! Calls that change nothing do not reach the driver (issue 31): a binding call that repeats
//! the last one of its kind, or a `glUniform*` that repeats the last call on its locations in
//! the same program, with nothing between them that can change what it sets, is skipped at
//! replay, within a list and from one list to the next.
//!
//! A tutorial-style frame makes `glUseProgram`, `glActiveTexture`, `glBindTexture` and
//! `glBindVertexArray` for every object with the same arguments; drivers do real work for each
//! (NVIDIA revalidates state on every `glUseProgram`: the same picture costs five times more
//! directly than with those calls made once a frame). Mesa's glthread and NVIDIA's threaded
//! optimisations leave them in; glcmd's render thread, which replays the list in order, can see
//! that the call before it of the same kind set the same value.
//!
//! ## Why it is exact
//!
//! * **Same state.** An entry is the arguments of the last *executed* call of its kind in this
//!   list (the current program; the vertex array; the active texture unit; the texture bound to
//!   each (unit, target) pair; the last `glUniform*` call on a few locations, with its values,
//!   while no `glUseProgram` has run since). Every call that could change what an entry describes clears
//!   the entries ([`Repeats::forget`]: the generator adds it to every function whose name says
//!   it touches programs, shaders, textures, vertex arrays, pipelines or transform feedback,
//!   deny by name rather than by a list of known setters); a tracked setter with other
//!   arguments executes and replaces its own entry. Uniform entries (`UniformCalls`) go
//!   with an executed `glUseProgram` (the values are the program's), and a `glUniform*` that
//!   executes removes every entry whose locations its own may overlap (an array's elements
//!   have consecutive locations), so an entry is always the last call on its locations. Between
//!   lists, see *Across lists*.
//! * **Same answer.** The skipped call is the same call, with the same arguments, on the same
//!   state, as the one that ran just before: it would have succeeded as that one did, or failed
//!   as that one did, setting an error flag that is already set (no `glGetError` can run inside
//!   a list: it is a round trip, between lists). A success changes nothing, since the state
//!   already holds its value. The one thing lost is a second identical debug message where the
//!   first call raised one.
//!
//! ## Across lists
//!
//! A program that asks `glGetError` after every draw (or any query glcmd cannot answer itself)
//! hands over one list per draw; with nothing carried, each would bind everything again. So the
//! render thread keeps the entries at the end of a list for the next one
//! (`ReplayState::carried`) while what runs between is known to change no binding, and the two
//! lists are then one sequence for the argument above. Deny by default: the scheduler forgets
//! before everything it runs between lists (creates, `with_gl` and every other special, a
//! host's EGL job, a pool refill, a present, deferred deletes, a stall's give-up) except the
//! GL's own queries (`glGet*`, `glIs*`), `glFlush`, `glFinish` and `glClientWaitSync`
//! (`render/scheduler.rs`, `keeps_repeats`).
//!
//! One thing can change *the answer* between lists: a `glGetError` that reads a flag. A skipped
//! repeat of a call that failed relies on that failure's flag being still set; once it is read,
//! the repeat must run and raise it again. So a `glGetError` that reports an error forgets
//! (`special.rs`); one that reports `GL_NO_ERROR` proves that every call since the last read
//! succeeded, so what is kept describes the GL's state. (glcmd keeps one error flag, as the GL
//! does: `vocab::check::record_error`.)
//!
//! On by default; `Options::skip_repeats(false)` turns it off, for an adopted context that shares
//! objects with another context that changes them (the GL promises one context another's changes
//! to a texture or program only at its next bind of it, GL 4.6 §5.3, and a skipped repeat is no
//! bind; glcmd-run serves no context of a share group). A capture records what the program
//! recorded (the recording side is untouched), so replaying a capture skips the same calls
//! again.

use crate::generated::types::{GLenum, GLint, GLsizei, GLuint};

/// The last executed binding calls of the list being replayed (and of those before it, while
/// carried: *Across lists*).
#[derive(Default)]
pub struct Repeats {
    program: Option<GLuint>,
    vertex_array: Option<GLuint>,
    unit: Option<GLenum>,
    /// A forget ran since the last `glActiveTexture`: the active unit is not the list's first.
    unit_unknown: bool,
    /// (unit, target, texture) for a few pairs, the most recent last; `textures_len` are in use.
    /// Unit 0 (no unit enum is 0) is the unit that was active when the list began, while no
    /// `glActiveTexture` of the list has run. A fixed array: this runs for every replayed bind.
    textures: [(GLenum, GLenum, GLuint); TEXTURE_PAIRS],
    textures_len: usize,
    uniforms: UniformCalls,
    /// `Options::skip_repeats` is off: nothing is a repeat.
    pub(crate) off: bool,
}

/// At most this many (unit, target) pairs are remembered (a frame binds a few per draw).
const TEXTURE_PAIRS: usize = 8;

impl Repeats {
    /// Something that may change a binding ran: nothing is known any more. (The active unit is
    /// then unknown too, so texture bindings are not known again until a `glActiveTexture`:
    /// `unit_known` keeps the list-start unit from standing for an unknown one.)
    #[inline]
    pub fn forget(&mut self) {
        self.program = None;
        self.vertex_array = None;
        self.unit = None;
        self.unit_unknown = true;
        self.textures_len = 0;
        self.uniforms.len = 0;
    }

    /// `glUseProgram(program)` is about to run: whether it repeats the last one (skip it);
    /// otherwise it is remembered, and the uniform values known (the last program's) are not.
    #[inline]
    pub fn use_program(&mut self, program: GLuint) -> bool {
        let repeat = Self::repeat(&mut self.program, program) && !self.off;
        if !repeat {
            self.uniforms.len = 0;
        }
        repeat
    }

    /// A `glUniform*` (opcode `op`) of `count` elements (1 for the scalar forms) at `location`,
    /// with `flag` (a matrix's `transpose`, else 0) and its values' bytes, is about to run:
    /// whether it repeats the last call on those locations (skip it); see `UniformCalls`.
    #[inline]
    pub fn uniform(&mut self, op: u16, location: GLint, count: GLsizei, flag: u8, values: &[u8]) -> bool {
        // `len` only matters for values that fit (`UniformCalls::call` keeps no others).
        let len = values.len().min(UNIFORM_BYTES) as u8;
        self.uniforms.call(UniformKey { op, flag, len, location, count }, values) && !self.off
    }

    /// `glBindVertexArray(array)`, as [`Repeats::use_program`].
    #[inline]
    pub fn bind_vertex_array(&mut self, array: GLuint) -> bool {
        Self::repeat(&mut self.vertex_array, array) && !self.off
    }

    /// `glActiveTexture(unit)`, as [`Repeats::use_program`]. A unit that may not exist (past the
    /// 80 every OpenGL 4 context has) leaves the active unit unknown: the GL may have refused it
    /// and kept the unit it had, whose bindings the texture entries would then misname.
    #[inline]
    pub fn active_texture(&mut self, unit: GLenum) -> bool {
        const SURE_UNITS: GLenum = 80;
        if self.unit == Some(unit) {
            return !self.off;
        }
        let sure = unit.wrapping_sub(crate::generated::enums::TEXTURE0) < SURE_UNITS;
        self.unit = Some(unit).filter(|_| sure);
        self.unit_unknown = !sure;
        false
    }

    /// `glBindTexture(target, texture)` on the active unit, as [`Repeats::use_program`]. Before
    /// any `glActiveTexture` of the list the active unit is the one the list began with, whatever
    /// it is (a lean frame sets it once, in an earlier list, and binds a texture per object).
    #[inline]
    pub fn bind_texture(&mut self, target: GLenum, texture: GLuint) -> bool {
        if self.unit_unknown {
            // Bound on a unit not known: any entry may name that unit.
            self.textures_len = 0;
            return false;
        }
        let unit = self.unit.unwrap_or(0);
        let len = self.textures_len;
        // The most recent first: a frame binds on one or two pairs.
        for entry in self.textures[..len].iter_mut().rev() {
            if entry.0 == unit && entry.1 == target {
                if entry.2 == texture {
                    return !self.off;
                }
                entry.2 = texture;
                return false;
            }
        }
        let at = if len == TEXTURE_PAIRS {
            self.textures.copy_within(1.., 0);
            TEXTURE_PAIRS - 1
        } else {
            self.textures_len += 1;
            len
        };
        self.textures[at] = (unit, target, texture);
        false
    }

    fn repeat<T: PartialEq + Copy>(slot: &mut Option<T>, value: T) -> bool {
        if *slot == Some(value) {
            return true;
        }
        *slot = Some(value);
        false
    }
}

/// The last executed `glUniform*` calls on a few locations of the current program: a frame
/// sets the same view and projection matrices and sampler units for every object. This runs
/// for every replayed `glUniform*`, so it is a few fixed arrays scanned once: the calls' keys
/// (`keys[..len]`, in no order) and their values beside them.
struct UniformCalls {
    keys: [UniformKey; UNIFORM_CALLS],
    values: [[u8; UNIFORM_BYTES]; UNIFORM_CALLS],
    /// Calls in a row on the entry's locations with other values: from [`VOLATILE`] on, the
    /// values are neither compared nor kept (a model matrix changes for every object), so such
    /// a call costs a scan of the keys and nothing more.
    misses: [u8; UNIFORM_CALLS],
    len: usize,
}

impl Default for UniformCalls {
    fn default() -> Self {
        UniformCalls {
            keys: Default::default(),
            values: [[0; UNIFORM_BYTES]; UNIFORM_CALLS],
            misses: [0; UNIFORM_CALLS],
            len: 0,
        }
    }
}

/// See `UniformCalls::misses`.
const VOLATILE: u8 = 2;

/// At most this many calls are remembered, each with at most [`UNIFORM_BYTES`] of values (a
/// `mat4`); a larger call runs and is not remembered.
const UNIFORM_CALLS: usize = 8;
const UNIFORM_BYTES: usize = 64;

/// A remembered call: which function, where, how many elements, the matrix flag, and how many
/// bytes of values.
#[derive(Clone, Copy, Default, PartialEq)]
struct UniformKey {
    op: u16,
    flag: u8,
    len: u8,
    location: GLint,
    count: GLsizei,
}

impl UniformKey {
    /// The locations the call may set: `count` from `location` (at least one).
    #[inline]
    fn span(&self) -> (i64, i64) {
        (self.location as i64, self.location as i64 + self.count.max(1) as i64)
    }
}

impl UniformCalls {
    /// Whether the call `key` with `values` repeats a remembered call (which is always the last
    /// on its locations: entries never overlap); if not, the calls it may overwrite are
    /// forgotten and it is remembered (when its values fit and its location and count are ones
    /// the GL can take).
    #[inline]
    fn call(&mut self, key: UniformKey, values: &[u8]) -> bool {
        // The one entry on exactly these locations, if any (no other can overlap them).
        let len = self.len.min(UNIFORM_CALLS);
        let at = self.keys[..len].iter().position(|k| (k.location, k.count) == (key.location, key.count));
        match at {
            Some(i) if self.misses[i] >= VOLATILE => false,
            _ => self.compare_and_keep(at, key, values),
        }
    }

    /// [`UniformCalls::call`] where the values are compared: `at` is the entry on exactly the
    /// call's locations, if any.
    #[inline(never)]
    fn compare_and_keep(&mut self, at: Option<usize>, key: UniformKey, values: &[u8]) -> bool {
        let keeps = values.len() <= UNIFORM_BYTES && key.location >= 0 && key.count >= 0;
        if let Some(i) = at {
            if self.keys[i] == key && self.values[i][..key.len as usize] == *values {
                self.misses[i] = 0;
                return true;
            }
            if keeps {
                // Other values of the same call count towards volatility; another call
                // (function or flag) starts afresh.
                self.misses[i] = if self.keys[i] == key { self.misses[i] + 1 } else { 0 };
                self.keys[i] = key;
                self.values[i][..values.len()].copy_from_slice(values);
            } else {
                self.remove(i);
            }
            return false;
        }
        self.forget_overlapping(key);
        if keeps {
            // Full: the entry in slot 0 goes (any one would do).
            let at = if self.len == UNIFORM_CALLS { 0 } else { self.len };
            self.keys[at] = key;
            self.values[at][..values.len()].copy_from_slice(values);
            self.misses[at] = 0;
            self.len = self.len.max(at + 1);
        }
        false
    }

    /// Forgets the entries whose locations the call `key` may set.
    fn forget_overlapping(&mut self, key: UniformKey) {
        let (start, end) = key.span();
        let mut i = 0;
        while i < self.len {
            let (s, e) = self.keys[i].span();
            if s < end && start < e {
                self.remove(i);
            } else {
                i += 1;
            }
        }
    }

    /// Forgets entry `i`: the last one takes its place.
    fn remove(&mut self, i: usize) {
        self.len -= 1;
        self.keys[i] = self.keys[self.len];
        self.values[i] = self.values[self.len];
        self.misses[i] = self.misses[self.len];
    }
}

#[cfg(test)]
mod tests {
    use super::Repeats;

    #[test]
    fn only_an_unchanged_repeat_is_skipped() {
        let mut r = Repeats::default();
        assert!(!r.use_program(3), "the first runs");
        assert!(r.use_program(3), "the same again is skipped");
        assert!(!r.use_program(4), "another runs");
        assert!(!r.use_program(3), "and the first again runs");
        r.forget();
        assert!(!r.use_program(3), "after a forget, everything runs");
        // Textures are per unit and target; before any glActiveTexture, per the list's first unit.
        let mut r = Repeats::default();
        assert!(!r.bind_texture(0x0DE1, 7), "the first runs");
        assert!(r.bind_texture(0x0DE1, 7), "on the list's first unit, the same again is skipped");
        r.forget();
        assert!(!r.bind_texture(0x0DE1, 7), "after a forget the unit is unknown: runs");
        assert!(!r.bind_texture(0x0DE1, 7), "and stays unknown until a glActiveTexture: runs");
        assert!(!r.active_texture(0x84C0));
        assert!(!r.bind_texture(0x0DE1, 7));
        assert!(r.bind_texture(0x0DE1, 7));
        assert!(!r.bind_texture(0x8513, 7), "another target of the unit runs");
        assert!(!r.active_texture(0x84C1));
        assert!(!r.bind_texture(0x0DE1, 7), "another unit runs");
        assert!(!r.active_texture(0x84C0));
        assert!(r.bind_texture(0x0DE1, 7), "back on the first unit, its binding is still known");
        assert!(!r.active_texture(0x84C0 + 200), "a unit that may not exist runs");
        assert!(!r.bind_texture(0x0DE1, 7), "and leaves the unit unknown: runs");
        assert!(!r.bind_texture(0x0DE1, 7), "still unknown: runs");
    }
    #[test]
    fn a_uniform_call_repeats_only_with_the_same_values_on_untouched_locations_of_the_same_program() {
        let f = |v: f32| v.to_ne_bytes();
        let mut r = Repeats::default();
        assert!(!r.use_program(3));
        assert!(!r.uniform(1, 5, 1, 0, &f(1.0)), "the first runs");
        assert!(r.uniform(1, 5, 1, 0, &f(1.0)), "the same again is skipped");
        assert!(!r.uniform(1, 5, 1, 0, &f(2.0)), "other values run");
        assert!(!r.uniform(2, 5, 1, 0, &f(2.0)), "another function runs");
        assert!(r.uniform(2, 5, 1, 0, &f(2.0)));
        assert!(!r.uniform(2, 5, 1, 1, &f(2.0)), "another flag runs");
        // An array call over locations 4..7 overwrites location 5.
        assert!(!r.uniform(2, 9, 1, 0, &f(9.0)));
        assert!(!r.uniform(3, 4, 3, 0, &[0; 12]));
        assert!(!r.uniform(2, 5, 1, 1, &f(2.0)), "location 5 was overwritten: runs");
        assert!(r.uniform(2, 9, 1, 0, &f(9.0)), "location 9 was not");
        assert!(r.use_program(3), "the same program: skipped, and the values stay known");
        assert!(r.uniform(2, 9, 1, 0, &f(9.0)));
        assert!(!r.use_program(4));
        assert!(!r.uniform(2, 9, 1, 0, &f(9.0)), "another program's values are not known");
        r.forget();
        assert!(!r.uniform(2, 9, 1, 0, &f(9.0)), "after a forget, everything runs");
        // Values that change call after call stop being compared: such calls always run.
        assert!(!r.uniform(2, 20, 1, 0, &f(1.0)));
        assert!(!r.uniform(2, 20, 1, 0, &f(2.0)));
        assert!(!r.uniform(2, 20, 1, 0, &f(3.0)));
        assert!(!r.uniform(2, 20, 1, 0, &f(3.0)), "volatile: runs even when it repeats");
        r.forget();
        assert!(!r.uniform(2, 20, 1, 0, &f(3.0)));
        assert!(r.uniform(2, 20, 1, 0, &f(3.0)), "after a forget it is compared again");
        let big = [0u8; 128];
        assert!(!r.uniform(7, 0, 2, 0, &big));
        assert!(!r.uniform(7, 0, 2, 0, &big), "values past 64 bytes are not kept: run");
    }
}
