//! The binding shadow: what the render thread knows about buffer bindings, so that no offset
//! reaches the GL as a pointer.
//!
//! In the core profile many pointer arguments are *offsets* into a buffer bound to some target:
//! `glDrawElements`' `indices` into the vertex array's element buffer, `glVertexAttribPointer`'s
//! `pointer` into `GL_ARRAY_BUFFER`, indirect draws into `GL_DRAW_INDIRECT_BUFFER`, pixel
//! transfers into `GL_PIXEL_PACK_BUFFER`/`GL_PIXEL_UNPACK_BUFFER`. With nothing bound, the very
//! same value is a *client pointer*, and the driver reads or writes process memory at that
//! address. Mesa does not refuse it (`glVertexAttribPointer` raises `GL_INVALID_OPERATION` but
//! keeps the pointer, and the next draw dereferences it), and no driver is obliged to. So the
//! render thread, which sees every bind in replay order, keeps a shadow of the bindings and
//! checks each offset-typed argument before the call: an offset with nothing bound is never
//! passed; the command is skipped and reported.
//!
//! ## What is tracked
//!
//! * the context bindings of `GL_ARRAY_BUFFER`, `GL_PIXEL_PACK_BUFFER`,
//!   `GL_PIXEL_UNPACK_BUFFER`, `GL_DRAW_INDIRECT_BUFFER`, `GL_DISPATCH_INDIRECT_BUFFER`,
//!   `GL_PARAMETER_BUFFER` and `GL_QUERY_BUFFER`;
//! * the current vertex array object, and for each vertex array object its element buffer, the
//!   enable bit and binding index of each attribute and the buffer of each binding point. A draw
//!   is allowed only if every *enabled* attribute reads from a buffer (an enabled attribute
//!   without one is a client array: the pointer would be read as process memory), and an
//!   element draw only if the vertex array has an element buffer;
//! * which buffer and vertex-array names exist (created by glcmd, or seen bound), so that a bind
//!   the GL will refuse (a name that was never generated) is not mistaken for a bind.
//!
//! ## Exactness
//!
//! The shadow must never believe a buffer is bound when the GL has none. Each change is applied
//! only when glcmd can tell that the GL accepts the call: a bind of a known name, an attribute
//! index below the implementation's limit, the common size/type combinations. When it cannot
//! tell (a name it never saw, an unusual format, an EXT_direct_state_access call), it asks the
//! GL instead: a context binding is read back at once (`glGetIntegerv`), and a vertex array
//! object is marked *stale* and read back from the GL the next time a draw uses it. Offsets that
//! would be client pointers are refused at the source too: `glVertexAttribPointer` with no
//! `GL_ARRAY_BUFFER` and a non-zero pointer, and a vertex-buffer binding of buffer 0 with a
//! non-zero offset, are skipped, so no attribute ever holds a client address.
//!
//! `Device::with_gl` and `Device::post` may change anything behind the shadow's back; after them
//! the context bindings are read back, every vertex array is marked stale, and every name is
//! treated as unverified (its next bind is read back).
//!
//! ## Cost
//!
//! Only the commands that bind, enable, delete or use an offset do any of this (their generated
//! execute functions call into this module); every other command replays as before. A check is
//! a load of the current vertex array's precomputed flags; a bind is a bitset lookup.
//! BENCHMARKS.md gives the measured replay cost.

use std::collections::HashMap;

use crate::generated::{enums as gl, types::*, Gl};

pub use crate::vocab::class::Class;
use crate::vocab::class::CLASSES;

/// Attributes and binding points tracked per vertex array (the GL's limits are at most this on
/// every implementation glcmd knows; indices at or past the context's own limit are refused by
/// the GL and change nothing).
pub const MAX_ATTRIBS: usize = 32;

/// A buffer target whose binding the shadow tracks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Array,
    ElementArray,
    PixelPack,
    PixelUnpack,
    DrawIndirect,
    DispatchIndirect,
    Parameter,
    Query,
}

impl Target {
    pub fn from_gl(target: GLenum) -> Option<Target> {
        Some(match target {
            gl::ARRAY_BUFFER => Target::Array,
            gl::ELEMENT_ARRAY_BUFFER => Target::ElementArray,
            gl::PIXEL_PACK_BUFFER => Target::PixelPack,
            gl::PIXEL_UNPACK_BUFFER => Target::PixelUnpack,
            gl::DRAW_INDIRECT_BUFFER => Target::DrawIndirect,
            gl::DISPATCH_INDIRECT_BUFFER => Target::DispatchIndirect,
            gl::PARAMETER_BUFFER => Target::Parameter,
            gl::QUERY_BUFFER => Target::Query,
            _ => return None,
        })
    }

    pub fn gl_name(self) -> &'static str {
        match self {
            Target::Array => "GL_ARRAY_BUFFER",
            Target::ElementArray => "GL_ELEMENT_ARRAY_BUFFER",
            Target::PixelPack => "GL_PIXEL_PACK_BUFFER",
            Target::PixelUnpack => "GL_PIXEL_UNPACK_BUFFER",
            Target::DrawIndirect => "GL_DRAW_INDIRECT_BUFFER",
            Target::DispatchIndirect => "GL_DISPATCH_INDIRECT_BUFFER",
            Target::Parameter => "GL_PARAMETER_BUFFER",
            Target::Query => "GL_QUERY_BUFFER",
        }
    }

    pub fn gl_enum(self) -> GLenum {
        match self {
            Target::Array => gl::ARRAY_BUFFER,
            Target::ElementArray => gl::ELEMENT_ARRAY_BUFFER,
            Target::PixelPack => gl::PIXEL_PACK_BUFFER,
            Target::PixelUnpack => gl::PIXEL_UNPACK_BUFFER,
            Target::DrawIndirect => gl::DRAW_INDIRECT_BUFFER,
            Target::DispatchIndirect => gl::DISPATCH_INDIRECT_BUFFER,
            Target::Parameter => gl::PARAMETER_BUFFER,
            Target::Query => gl::QUERY_BUFFER,
        }
    }

    /// The `glGetIntegerv` pname of the binding.
    fn binding_pname(self) -> GLenum {
        match self {
            Target::Array => gl::ARRAY_BUFFER_BINDING,
            Target::ElementArray => gl::ELEMENT_ARRAY_BUFFER_BINDING,
            Target::PixelPack => gl::PIXEL_PACK_BUFFER_BINDING,
            Target::PixelUnpack => gl::PIXEL_UNPACK_BUFFER_BINDING,
            Target::DrawIndirect => gl::DRAW_INDIRECT_BUFFER_BINDING,
            Target::DispatchIndirect => gl::DISPATCH_INDIRECT_BUFFER_BINDING,
            Target::Parameter => gl::PARAMETER_BUFFER_BINDING,
            Target::Query => gl::QUERY_BUFFER_BINDING,
        }
    }

    const CONTEXT: [Target; 7] = [
        Target::Array,
        Target::PixelPack,
        Target::PixelUnpack,
        Target::DrawIndirect,
        Target::DispatchIndirect,
        Target::Parameter,
        Target::Query,
    ];

    fn slot(self) -> usize {
        match self {
            Target::Array => 0,
            Target::PixelPack => 1,
            Target::PixelUnpack => 2,
            Target::DrawIndirect => 3,
            Target::DispatchIndirect => 4,
            Target::Parameter => 5,
            Target::Query => 6,
            Target::ElementArray => unreachable!("vertex-array state"),
        }
    }
}

/// What glcmd knows about a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Known {
    /// Generated (`glGen*`): bindable; becomes an object when first bound.
    Reserved,
    /// An object exists (created, or bound once).
    Object,
}

/// The known names of one object type: a dense array for the small names drivers hand out, a
/// map beyond. `verified` is compared with the shadow's generation: a name seen before the last
/// `with_gl` may have been deleted behind glcmd's back.
#[derive(Default)]
struct Names {
    dense: Vec<(u8, u32)>,
    sparse: HashMap<u32, (u8, u32)>,
}

const DENSE_LIMIT: u32 = 1 << 20;

impl Names {
    fn get(&self, name: u32, generation: u32) -> Option<Known> {
        let (state, g) = if name < DENSE_LIMIT { *self.dense.get(name as usize)? } else { *self.sparse.get(&name)? };
        (g == generation).then_some(())?;
        match state {
            1 => Some(Known::Reserved),
            2 => Some(Known::Object),
            _ => None,
        }
    }

    fn set(&mut self, name: u32, known: Option<Known>, generation: u32) {
        let state = match known {
            None => 0,
            Some(Known::Reserved) => 1,
            Some(Known::Object) => 2,
        };
        if name < DENSE_LIMIT {
            let i = name as usize;
            if self.dense.len() <= i {
                if state == 0 {
                    return;
                }
                self.dense.resize((i + 1).next_power_of_two().min(DENSE_LIMIT as usize), (0, 0));
            }
            self.dense[i] = (state, generation);
        } else if state == 0 {
            self.sparse.remove(&name);
        } else {
            self.sparse.insert(name, (state, generation));
        }
    }
}

/// The buffer of a vertex-buffer binding point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BindingBuffer {
    Buffer(u32),
    /// Not known until the vertex array is read back from the GL.
    Unknown,
}

/// One vertex array object's state.
#[derive(Clone, Debug)]
struct Vao {
    element: u32,
    enabled: u32,
    /// Binding index of each attribute.
    attrib_binding: [u8; MAX_ATTRIBS],
    bindings: [BindingBuffer; MAX_ATTRIBS],
    /// Read back from the GL before the next draw that uses it.
    stale: bool,
}

impl Vao {
    /// The state of a new vertex array object: nothing enabled, attribute i on binding i, no
    /// buffers.
    fn new() -> Vao {
        Vao {
            element: 0,
            enabled: 0,
            attrib_binding: std::array::from_fn(|i| i as u8),
            bindings: [BindingBuffer::Buffer(0); MAX_ATTRIBS],
            stale: false,
        }
    }

    fn stale() -> Vao {
        Vao { stale: true, ..Vao::new() }
    }

    /// The first enabled attribute whose binding has no buffer, or whose buffer is unknown.
    fn client_array(&self) -> Option<(usize, BindingBuffer)> {
        (0..MAX_ATTRIBS).filter(|i| self.enabled & (1 << i) != 0).find_map(|i| {
            match self.bindings[self.attrib_binding[i] as usize] {
                BindingBuffer::Buffer(0) => Some((i, BindingBuffer::Buffer(0))),
                BindingBuffer::Unknown => Some((i, BindingBuffer::Unknown)),
                BindingBuffer::Buffer(_) => None,
            }
        })
    }
}

/// Why a command was not passed to the GL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// An offset argument with no buffer bound to the target it is an offset into.
    NoBuffer { target: Target, vertex_array: Option<u32> },
    /// A draw while an enabled attribute of the vertex array reads no buffer.
    ClientArray { vertex_array: u32, attribute: usize },
    /// A draw in a core-profile context with no vertex array object bound.
    NoVertexArray,
    /// A vertex-buffer binding of buffer 0 at a non-zero offset (a client address).
    OffsetWithoutBuffer { offset: u64 },
    /// Buffer data for AMD_pinned_memory's target, which would keep a pointer into the list.
    PinnedMemory,
    /// A name that is no object of its class.
    NoSuchObject { class: Class, name: u32 },
    /// A negative buffer offset or size, or offsets and sizes whose sum overflows.
    Range { value: i64 },
    /// A texture level the texture does not have (the driver would dereference the object its
    /// own check rejected).
    Level { texture: u32, level: i32, max: i32 },
    /// Consecutive bindings `first..first + count` past the end of the 32-bit range.
    Wraps { first: u32, count: i64 },
    /// A NaN where the GL range-checks a state value (`bindings::refuses_nan` in the generator).
    NotANumber { argument: &'static str },
    /// A read or write of `len` bytes at `offset` into the buffer bound to `target`, which
    /// passes the end of its storage (`size` bytes) or of the 64-bit range.
    Overrun { target: Target, offset: u64, len: Option<u64>, size: u64 },
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::NoBuffer { target, vertex_array: Some(v) } => write!(
                f,
                "no buffer is bound to {} of vertex array object {v}: the offset would be read as a client \
                 pointer, so glcmd skipped the call; bind an element buffer (glVertexArrayElementBuffer)",
                target.gl_name()
            ),
            Refusal::NoBuffer { target, vertex_array: None } => write!(
                f,
                "no buffer is bound to {}: the offset would be used as a client pointer, so glcmd skipped the \
                 call; bind a buffer to {} first",
                target.gl_name(),
                target.gl_name()
            ),
            Refusal::ClientArray { vertex_array, attribute } => write!(
                f,
                "attribute {attribute} of vertex array object {vertex_array} is enabled but reads no buffer (a \
                 client array, whose pointer the GL would read as process memory), so glcmd skipped the draw; \
                 bind a buffer to its binding point or disable the attribute"
            ),
            Refusal::NoVertexArray => f.write_str(
                "no vertex array object is bound (the core profile has no default one), so glcmd skipped the draw",
            ),
            Refusal::Range { value } => write!(
                f,
                "buffer offset or size {value} is negative or makes offset + size overflow (drivers compute the sum \
                 without checking, and would touch memory past the buffer), so glcmd skipped the call"
            ),
            Refusal::NoSuchObject { class, name } => write!(
                f,
                "{name} is not the name of an existing {} (drivers do not all check: some dereference the failed \
                 lookup), so glcmd skipped the call",
                class.name()
            ),
            Refusal::PinnedMemory => f.write_str(
                "GL_EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD (AMD_pinned_memory) would keep a pointer into the command \
                 list as the buffer's storage, so glcmd skipped the call; pin memory through Device::with_gl",
            ),
            Refusal::NotANumber { argument } => write!(
                f,
                "`{argument}` is NaN, which passes the driver's range checks (comparisons with NaN are false) and \
                 leaves state the driver may crash on later, so glcmd skipped the call"
            ),
            Refusal::Wraps { first, count } => write!(
                f,
                "bindings {first}..{first}+{count} run past 2^32 (Mesa checks first + count in 32-bit unsigned \
                 arithmetic, so the wrapped sum passes and it writes past its arrays), so glcmd skipped the call"
            ),
            Refusal::Level { texture, level, max } => write!(
                f,
                "level {level} of texture {texture}, whose levels are 0..={max} (0 only, for rectangle, buffer and \
                 multisample textures): Mesa dereferences the texture its own check rejected, so glcmd skipped the call"
            ),
            Refusal::Overrun { target, offset, len: Some(len), size } => write!(
                f,
                "the call would access {len} bytes at offset {offset} of the buffer bound to {}, whose storage is \
                 {size} bytes (drivers compute the end in 32- or 64-bit arithmetic that can wrap, and then read \
                 process memory), so glcmd skipped the call; keep offset + size within the buffer",
                target.gl_name()
            ),
            Refusal::Overrun { target, offset, len: None, size } => write!(
                f,
                "the call would access more than 2^64 bytes from offset {offset} of the buffer bound to {} ({size} \
                 bytes of storage): its count and stride overflow, so glcmd skipped the call",
                target.gl_name()
            ),
            Refusal::OffsetWithoutBuffer { offset } => write!(
                f,
                "buffer 0 with offset {offset:#x}: with no buffer the offset would be a client address, so glcmd \
                 skipped the call"
            ),
        }
    }
}

/// The render thread's binding shadow.
pub struct Shadow {
    context: [u32; 7],
    current_vao: u32,
    vaos: HashMap<u32, Vao>,
    /// Known names of each class.
    objects: [Names; CLASSES],
    generation: u32,
    /// `GL_MAX_VERTEX_ATTRIBS` and `GL_MAX_VERTEX_ATTRIB_BINDINGS`, capped at `MAX_ATTRIBS`.
    max_attribs: u32,
    max_bindings: u32,
    /// `GL_MAX_VERTEX_ATTRIB_STRIDE` (2048 when the GL does not say).
    max_stride: i32,
    /// A core-profile context: vertex array object 0 cannot be drawn with.
    core: bool,
    /// Context targets this context does not have (`GL_PARAMETER_BUFFER` before GL 4.6 without
    /// ARB_indirect_parameters, ...), one bit per `Target::slot`: a bind to one is refused by
    /// the GL, so the shadow never records it.
    unsupported: u8,
    /// Storage sizes of buffers, as the GL reported them (`GL_BUFFER_SIZE`). Every call that may
    /// change a buffer's storage clears it, so a size is never older than the storage.
    sizes: HashMap<u32, u64>,
    /// The current vertex array's draw check, while nothing changed it. Draws take this fast
    /// path.
    draw_cache: Option<DrawCache>,
}

/// What a draw needs to know of the current vertex array, computed once per change.
#[derive(Clone, Copy, Debug)]
struct DrawCache {
    /// No enabled attribute reads a client array.
    arrays_ok: bool,
    /// The element buffer (0: none) and the size of its storage.
    element: u32,
    element_size: u64,
}

impl Shadow {
    /// The shadow of a new context (nothing bound), with the context's limits.
    pub(crate) fn new(gl_fns: &Gl) -> Shadow {
        let get = |pname| {
            let mut v = 0;
            // SAFETY: each pname is a single-integer query.
            unsafe { (gl_fns.GetIntegerv)(pname, &mut v) };
            v
        };
        let max_attribs = (get(gl::MAX_VERTEX_ATTRIBS).max(16) as u32).min(MAX_ATTRIBS as u32);
        let max_bindings = (get(gl::MAX_VERTEX_ATTRIB_BINDINGS).max(16) as u32).min(MAX_ATTRIBS as u32);
        let stride = get(gl::MAX_VERTEX_ATTRIB_STRIDE);
        let core = get(gl::CONTEXT_PROFILE_MASK) as u32 & gl::CONTEXT_CORE_PROFILE_BIT != 0;
        let unsupported = unsupported_targets(gl_fns);
        let mut vaos = HashMap::new();
        vaos.insert(0, Vao::new());
        let mut shadow = Shadow {
            context: [0; 7],
            current_vao: 0,
            vaos,
            objects: Default::default(),
            generation: 1,
            max_attribs,
            max_bindings,
            max_stride: if stride > 0 { stride } else { 2048 },
            core,
            unsupported,
            sizes: HashMap::new(),
            draw_cache: None,
        };
        // A context handed over by the application (a window) may have state already.
        shadow.refresh(gl_fns);
        shadow
    }

    // ---- names -------------------------------------------------------------------------

    /// Names a create function (`created`) or a gen function returned: objects exist, or the
    /// names are reserved and become objects when first bound.
    pub fn names_created(&mut self, class: Class, names: &[u32], created: bool) {
        self.draw_cache = None;
        let known = if created { Known::Object } else { Known::Reserved };
        for &n in names {
            if n == 0 {
                continue;
            }
            self.objects[class as usize].set(n, Some(known), self.generation);
            if class == Class::VertexArray {
                self.vaos.insert(n, Vao::new());
            }
        }
    }

    /// Names a delete ran for. They are forgotten; a later use asks the GL (`glIs*`) whether
    /// the object still exists (a program or shader flagged for deletion lives on while in use).
    pub fn names_deleted(&mut self, class: Class, names: &[u32]) {
        self.draw_cache = None;
        match class {
            Class::Buffer => self.buffers_deleted(names),
            Class::VertexArray => self.vertex_arrays_deleted(names),
            _ => {
                for &n in names {
                    self.objects[class as usize].set(n, None, self.generation);
                }
            }
        }
    }

    /// Before a call that names an object: a name that is neither known nor, asked of the GL,
    /// an object is refused (some drivers dereference the failed lookup: Mesa's
    /// `glInvalidateTexSubImage` crashes on a texture that does not exist). `first`: the object
    /// the call operates on, where 0 is not an object either (except the default framebuffer
    /// and transform feedback); elsewhere 0 means "none" and passes.
    pub fn check_name(&mut self, gl_fns: &Gl, class: Class, name: GLuint, first: bool) -> Result<(), Refusal> {
        if name == 0 {
            return if first && !class.zero_is_an_object() {
                Err(Refusal::NoSuchObject { class, name })
            } else {
                Ok(())
            };
        }
        if self.objects[class as usize].get(name, self.generation).is_some() {
            return Ok(());
        }
        if class.is_object(gl_fns, name) {
            self.objects[class as usize].set(name, Some(Known::Object), self.generation);
            return Ok(());
        }
        Err(Refusal::NoSuchObject { class, name })
    }

    /// Compatibility forms of `names_created` for the binding shadow's own classes.
    pub fn buffers_created(&mut self, names: &[u32]) {
        self.names_created(Class::Buffer, names, true);
    }

    pub fn vertex_arrays_created(&mut self, names: &[u32]) {
        self.names_created(Class::VertexArray, names, true);
    }

    fn buffer_known(&self, name: u32) -> Option<Known> {
        if name == 0 {
            return Some(Known::Object);
        }
        self.objects[Class::Buffer as usize].get(name, self.generation)
    }

    fn array_known(&self, name: u32) -> Option<Known> {
        self.objects[Class::VertexArray as usize].get(name, self.generation)
    }

    fn set_buffer(&mut self, name: u32, known: Option<Known>) {
        self.objects[Class::Buffer as usize].set(name, known, self.generation);
    }

    fn set_array(&mut self, name: u32, known: Option<Known>) {
        self.objects[Class::VertexArray as usize].set(name, known, self.generation);
    }

    fn vao_mut(&mut self, vao: u32) -> &mut Vao {
        self.vaos.entry(vao).or_insert_with(Vao::stale)
    }

    // ---- binds -------------------------------------------------------------------------

    /// After `glBindBuffer(target, buffer)` ran.
    pub fn bind_buffer(&mut self, gl_fns: &Gl, target: GLenum, buffer: GLuint) {
        self.draw_cache = None;
        let Some(t) = Target::from_gl(target) else { return };
        if t != Target::ElementArray && self.unsupported & 1 << t.slot() != 0 {
            return;
        }
        let bound = match self.buffer_known(buffer) {
            Some(_) => {
                if buffer != 0 {
                    self.set_buffer(buffer, Some(Known::Object));
                }
                buffer
            }
            // A name glcmd never saw: ask the GL whether the bind took.
            None => {
                let b = read_binding(gl_fns, t);
                if b == buffer {
                    self.set_buffer(buffer, Some(Known::Object));
                }
                b
            }
        };
        match t {
            Target::ElementArray => {
                let core_default = self.core && self.current_vao == 0;
                let vao = self.current_vao;
                let v = self.vao_mut(vao);
                if core_default {
                    v.stale = true;
                } else {
                    v.element = bound;
                }
            }
            _ => self.context[t.slot()] = bound,
        }
    }

    /// After `glBindVertexArray(array)` ran.
    pub fn bind_vertex_array(&mut self, gl_fns: &Gl, array: GLuint) {
        self.draw_cache = None;
        if array == 0 || self.array_known(array).is_some() {
            self.current_vao = array;
            if array != 0 {
                self.set_array(array, Some(Known::Object));
            }
        } else {
            let mut v = 0;
            // SAFETY: a single-integer query.
            unsafe { (gl_fns.GetIntegerv)(gl::VERTEX_ARRAY_BINDING, &mut v) };
            self.current_vao = v as u32;
            if v as u32 == array {
                self.set_array(array, Some(Known::Object));
            }
        }
        let current = self.current_vao;
        self.vao_mut(current);
    }

    /// `glVertexArrayElementBuffer(vaobj, buffer)`, after it ran.
    pub fn vertex_array_element_buffer(&mut self, vaobj: GLuint, buffer: GLuint) {
        self.draw_cache = None;
        let certain = self.array_known(vaobj) == Some(Known::Object)
            && (buffer == 0 || self.buffer_known(buffer) == Some(Known::Object));
        let v = self.vao_mut(vaobj);
        if certain {
            v.element = buffer;
        } else {
            v.stale = true;
        }
    }

    /// Before a vertex-buffer binding (`glBindVertexBuffer`, `glVertexArrayVertexBuffer` and the
    /// multi-bind forms, per entry): buffer 0 at a non-zero offset is a client address.
    pub fn check_vertex_buffer(&self, buffer: GLuint, offset: i64) -> Result<(), Refusal> {
        if buffer == 0 && offset != 0 {
            Err(Refusal::OffsetWithoutBuffer { offset: offset as u64 })
        } else {
            Ok(())
        }
    }

    /// Before a multi-bind of vertex buffers (`count` entries): as `check_vertex_buffer` for
    /// each. A null `buffers` unbinds every binding in the range (offsets are ignored).
    ///
    /// # Safety
    /// `buffers` and `offsets` are null or point to `count` values.
    pub unsafe fn check_vertex_buffers(
        &self,
        count: GLsizei,
        buffers: *const GLuint,
        offsets: *const GLintptr,
    ) -> Result<(), Refusal> {
        if buffers.is_null() || offsets.is_null() {
            return Ok(());
        }
        for i in 0..count.max(0) as usize {
            // SAFETY: the caller's guarantee.
            let (b, o) = unsafe { (buffers.add(i).read_unaligned(), offsets.add(i).read_unaligned()) };
            self.check_vertex_buffer(b, o as i64)?;
        }
        Ok(())
    }

    /// After a multi-bind of vertex buffers `first..first + count` of `vao` (None: current).
    ///
    /// The GL refuses the whole call (a negative count, `first + count` past
    /// `GL_MAX_VERTEX_ATTRIB_BINDINGS`, a vertex array that does not exist) or single entries
    /// (their binding is then unchanged, the others are made): each entry is applied as
    /// [`vertex_buffer`](Self::vertex_buffer) applies one, and a call the GL may have refused
    /// whole marks the vertex array for reading back.
    ///
    /// # Safety
    /// `buffers`, `offsets` and `strides` are null or point to `count` values.
    pub unsafe fn vertex_buffers(
        &mut self,
        vao: Option<GLuint>,
        first: GLuint,
        count: GLsizei,
        buffers: *const GLuint,
        offsets: *const GLintptr,
        strides: *const GLsizei,
    ) {
        self.draw_cache = None;
        let vao_id = vao.unwrap_or(self.current_vao);
        let whole = count >= 0 && first as i64 + count as i64 <= self.max_bindings as i64 && self.vao_certain(vao);
        if !whole {
            self.vao_mut(vao_id).stale = true;
            return;
        }
        // SAFETY: the caller's guarantee, for each array that is not null.
        let at = |p: *const GLuint, i: usize| if p.is_null() { 0 } else { unsafe { p.add(i).read_unaligned() } };
        for i in 0..count as usize {
            let (b, o, st) = if buffers.is_null() {
                // A null `buffers` unbinds every binding of the range; offsets and strides are
                // ignored (and set to 0 by the GL).
                (0, 0, 0)
            } else {
                // SAFETY: the caller's guarantee.
                let o = if offsets.is_null() { 0 } else { unsafe { offsets.add(i).read_unaligned() as i64 } };
                (at(buffers, i), o, at(strides.cast(), i) as GLsizei)
            };
            self.vertex_buffer(vao, first + i as u32, b, o, st);
        }
    }

    /// After binding `buffer` at `offset` to binding point `index` of `vao` (None: the current
    /// one). The GL refuses a negative offset, a stride out of range, an index past its limit and
    /// a name it never made, and then keeps the old binding: unless every argument is one the GL
    /// accepts, the vertex array is read back before its next draw.
    pub fn vertex_buffer(&mut self, vao: Option<GLuint>, index: GLuint, buffer: GLuint, offset: i64, stride: GLsizei) {
        self.draw_cache = None;
        let vao_id = vao.unwrap_or(self.current_vao);
        let certain = index < self.max_bindings
            && offset >= 0
            && (0..=self.max_stride).contains(&stride)
            && self.buffer_known(buffer) == Some(Known::Object)
            && match vao {
                Some(v) => self.array_known(v) == Some(Known::Object),
                None => !(self.core && vao_id == 0),
            };
        let v = self.vao_mut(vao_id);
        if certain {
            v.bindings[index as usize] = BindingBuffer::Buffer(buffer);
        } else {
            v.stale = true;
        }
    }

    /// Before `glVertexAttrib*Pointer`: a non-zero pointer with no `GL_ARRAY_BUFFER` is a client
    /// address.
    pub fn check_attrib_pointer(&self, pointer: usize) -> Result<(), Refusal> {
        if pointer != 0 && self.context[Target::Array.slot()] == 0 {
            Err(Refusal::NoBuffer { target: Target::Array, vertex_array: None })
        } else {
            Ok(())
        }
    }

    /// After `glVertexAttrib{,I,L}Pointer(index, size, type, .., stride, pointer)` ran:
    /// attribute `index` reads binding `index`, which now holds `GL_ARRAY_BUFFER`.
    pub fn attrib_pointer(&mut self, index: GLuint, size: GLint, type_: GLenum, stride: GLsizei, kind: AttribKind) {
        self.draw_cache = None;
        let vao_id = self.current_vao;
        let certain = index < self.max_attribs.min(self.max_bindings)
            && (0..=self.max_stride).contains(&stride)
            && !(self.core && vao_id == 0)
            && common_format(size, type_, kind);
        let array = self.context[Target::Array.slot()];
        let v = self.vao_mut(vao_id);
        if certain {
            v.attrib_binding[index as usize] = index as u8;
            v.bindings[index as usize] = BindingBuffer::Buffer(array);
        } else {
            v.stale = true;
        }
    }

    /// After `glVertexAttribBinding` / `glVertexArrayAttribBinding`.
    pub fn attrib_binding(&mut self, vao: Option<GLuint>, attrib: GLuint, binding: GLuint) {
        self.draw_cache = None;
        let vao_id = vao.unwrap_or(self.current_vao);
        let certain = attrib < self.max_attribs && binding < self.max_bindings && self.vao_certain(vao);
        let v = self.vao_mut(vao_id);
        if certain {
            v.attrib_binding[attrib as usize] = binding as u8;
        } else {
            v.stale = true;
        }
    }

    /// After `glEnableVertexAttribArray` / `glDisableVertexAttribArray` (and the DSA forms).
    pub fn enable_attrib(&mut self, vao: Option<GLuint>, index: GLuint, enable: bool) {
        self.draw_cache = None;
        let vao_id = vao.unwrap_or(self.current_vao);
        let certain = index < self.max_attribs && self.vao_certain(vao);
        let v = self.vao_mut(vao_id);
        if certain {
            if enable {
                v.enabled |= 1 << index;
            } else {
                v.enabled &= !(1 << index);
            }
        } else {
            v.stale = true;
        }
    }

    /// A call that changes `vao` in ways glcmd does not model (EXT_direct_state_access).
    pub fn vertex_array_changed(&mut self, vao: GLuint) {
        self.draw_cache = None;
        self.vao_mut(vao).stale = true;
    }

    fn vao_certain(&self, vao: Option<GLuint>) -> bool {
        match vao {
            Some(v) => self.array_known(v) == Some(Known::Object),
            None => !(self.core && self.current_vao == 0),
        }
    }

    // ---- deletes -----------------------------------------------------------------------

    /// After `glDeleteBuffers` ran: the names are gone, and detached from the context's targets
    /// and from the *current* vertex array (other vertex arrays keep their attachments; the GL
    /// keeps those buffers alive).
    pub fn buffers_deleted(&mut self, names: &[GLuint]) {
        self.draw_cache = None;
        for &n in names {
            if n == 0 {
                continue;
            }
            self.set_buffer(n, None);
            self.sizes.remove(&n);
            for b in self.context.iter_mut() {
                if *b == n {
                    *b = 0;
                }
            }
            let current = self.current_vao;
            let v = self.vao_mut(current);
            if v.element == n {
                v.element = 0;
            }
            for b in v.bindings.iter_mut() {
                if *b == BindingBuffer::Buffer(n) {
                    *b = BindingBuffer::Buffer(0);
                }
            }
        }
    }

    /// After `glDeleteVertexArrays` ran.
    pub fn vertex_arrays_deleted(&mut self, names: &[GLuint]) {
        self.draw_cache = None;
        for &n in names {
            if n == 0 {
                continue;
            }
            self.set_array(n, None);
            self.vaos.remove(&n);
            if self.current_vao == n {
                self.current_vao = 0;
            }
        }
    }

    /// After a call that may have (re)allocated some buffer's storage (`glBufferData`,
    /// `glBufferStorage` and their DSA and extension forms): the sizes are asked again.
    pub fn storage_changed(&mut self) {
        self.draw_cache = None;
        self.sizes.clear();
    }

    // ---- checks ------------------------------------------------------------------------

    /// The buffer bound to a context target.
    pub fn bound(&self, target: Target) -> u32 {
        match target {
            Target::ElementArray => self.vaos.get(&self.current_vao).map_or(0, |v| v.element),
            t => self.context[t.slot()],
        }
    }

    /// Requires a buffer bound to `target` (an offset argument into it).
    pub fn require(&self, target: Target) -> Result<(), Refusal> {
        if self.bound(target) == 0 {
            Err(Refusal::NoBuffer { target, vertex_array: None })
        } else {
            Ok(())
        }
    }

    /// Before a draw: the current vertex array reads no client array, and (for element draws)
    /// has an element buffer. A stale vertex array is read back from the GL first.
    #[inline]
    pub fn check_draw(&mut self, gl_fns: &Gl, elements: bool) -> Result<(), Refusal> {
        self.draw_check(gl_fns, elements).map(|_| ())
    }

    /// [`check_draw`](Self::check_draw), returning the draw's view of the vertex array.
    #[inline]
    fn draw_check(&mut self, gl_fns: &Gl, elements: bool) -> Result<DrawCache, Refusal> {
        if let Some(c) = self.draw_cache {
            if c.arrays_ok && (c.element != 0 || !elements) {
                return Ok(c);
            }
        }
        self.check_draw_slow(gl_fns, elements)
    }

    #[cold]
    fn check_draw_slow(&mut self, gl_fns: &Gl, elements: bool) -> Result<DrawCache, Refusal> {
        let vao_id = self.current_vao;
        if self.core && vao_id == 0 {
            return Err(Refusal::NoVertexArray);
        }
        let unknown = |v: &Vao| v.stale || matches!(v.client_array(), Some((_, BindingBuffer::Unknown)));
        if self.vaos.get(&vao_id).is_none_or(unknown) {
            let fresh = read_current_vao(gl_fns, self.max_attribs);
            self.vaos.insert(vao_id, fresh);
        }
        let v = &self.vaos[&vao_id];
        let (client_array, element) = (v.client_array(), v.element);
        let element_size = if element != 0 { self.buffer_size(gl_fns, Target::ElementArray, element) } else { 0 };
        let cache = DrawCache { arrays_ok: client_array.is_none(), element, element_size };
        self.draw_cache = Some(cache);
        if let Some((attribute, _)) = client_array {
            return Err(Refusal::ClientArray { vertex_array: vao_id, attribute });
        }
        if elements && element == 0 {
            return Err(Refusal::NoBuffer { target: Target::ElementArray, vertex_array: Some(vao_id) });
        }
        Ok(cache)
    }

    /// Before an element draw of `count` indices of `type_` at offset `indices` into the
    /// element buffer: the draw check, and the indices must lie inside the buffer's storage.
    /// A count or type the GL refuses is left to the GL (it reads nothing).
    #[inline]
    pub fn check_indices(&mut self, gl_fns: &Gl, count: GLsizei, type_: GLenum, indices: usize) -> Result<(), Refusal> {
        let c = self.draw_check(gl_fns, true)?;
        let Some(size) = index_size(type_) else { return Ok(()) };
        if count <= 0 {
            return Ok(());
        }
        let len = count as u64 * size;
        match (indices as u64).checked_add(len) {
            Some(end) if end <= c.element_size => Ok(()),
            _ => Err(Refusal::Overrun {
                target: Target::ElementArray,
                offset: indices as u64,
                len: Some(len),
                size: c.element_size,
            }),
        }
    }

    /// Before `glMultiDrawElements*`: [`check_indices`](Self::check_indices) for each of the
    /// `drawcount` draws.
    ///
    /// # Safety
    /// `counts` and `indices` are null or point to `drawcount` values.
    pub unsafe fn check_multi_indices(
        &mut self,
        gl_fns: &Gl,
        counts: *const GLsizei,
        type_: GLenum,
        indices: *const *const std::ffi::c_void,
        drawcount: GLsizei,
    ) -> Result<(), Refusal> {
        self.draw_check(gl_fns, true)?;
        if counts.is_null() || indices.is_null() {
            return Ok(());
        }
        for i in 0..drawcount.max(0) as usize {
            // SAFETY: the caller's guarantee.
            let (count, offset) = unsafe { (counts.add(i).read_unaligned(), indices.add(i).read_unaligned()) };
            self.check_indices(gl_fns, count, type_, offset as usize)?;
        }
        Ok(())
    }

    /// Before an indirect draw or dispatch: `drawcount` commands of `command` bytes, `stride`
    /// apart (0: tightly packed), read from offset `indirect` of the buffer bound to `target`.
    /// The whole read, `indirect + (drawcount - 1) * stride + command`, is computed in 64 bits
    /// with overflow checks and must lie inside the buffer's storage. (Drivers compute it in
    /// narrower or wrapping arithmetic: Mesa's `indirect + size` wraps for an offset near
    /// 2^64, and its 32-bit `drawcount * stride` wraps for a count near 2^28.) A count of 0
    /// reads nothing, and a negative one is refused by the GL: both are left to it. A negative
    /// stride would read before the offset (Mesa's `stride % 4` check passes -4): refused.
    pub fn check_indirect(
        &mut self,
        gl_fns: &Gl,
        target: Target,
        indirect: u64,
        drawcount: i64,
        stride: i64,
        command: u64,
    ) -> Result<(), Refusal> {
        self.require(target)?;
        if drawcount <= 0 {
            return Ok(());
        }
        if stride < 0 {
            return Err(Refusal::Range { value: stride });
        }
        let stride = if stride == 0 { command } else { stride as u64 };
        let len = (drawcount as u64 - 1).checked_mul(stride).and_then(|l| l.checked_add(command));
        match len {
            Some(len) => self.check_range(gl_fns, target, indirect, len),
            None => {
                let size = self.buffer_size(gl_fns, target, self.bound(target));
                Err(Refusal::Overrun { target, offset: indirect, len: None, size })
            }
        }
    }

    /// Before a call that reads or writes `len` bytes at `offset` of the buffer bound to
    /// `target`: a buffer is bound, and `offset + len` is within its storage.
    pub fn check_range(&mut self, gl_fns: &Gl, target: Target, offset: u64, len: u64) -> Result<(), Refusal> {
        self.require(target)?;
        let size = self.buffer_size(gl_fns, target, self.bound(target));
        match offset.checked_add(len) {
            Some(end) if end <= size => Ok(()),
            _ => Err(Refusal::Overrun { target, offset, len: Some(len), size }),
        }
    }

    /// The storage size of `buffer`, bound to `target`: from the cache, or asked of the GL.
    fn buffer_size(&mut self, gl_fns: &Gl, target: Target, buffer: u32) -> u64 {
        if let Some(&size) = self.sizes.get(&buffer) {
            return size;
        }
        let mut size: GLint64 = 0;
        // SAFETY: a single-integer query of the buffer bound to a target the context has.
        unsafe { (gl_fns.GetBufferParameteri64v)(target.gl_enum(), gl::BUFFER_SIZE, &mut size) };
        let size = size.max(0) as u64;
        self.sizes.insert(buffer, size);
        size
    }

    // ---- refresh -----------------------------------------------------------------------

    /// After arbitrary GL code ran (`with_gl`, `post`, a call that resets client state): read the
    /// context bindings back, mark every vertex array stale and every name unverified.
    pub fn refresh(&mut self, gl_fns: &Gl) {
        self.draw_cache = None;
        self.generation = self.generation.wrapping_add(1).max(1);
        self.sizes.clear();
        for t in Target::CONTEXT {
            // A target the context lacks is never bound (and asking would raise an error).
            self.context[t.slot()] = if self.unsupported & 1 << t.slot() != 0 { 0 } else { read_binding(gl_fns, t) };
        }
        let mut v = 0;
        // SAFETY: a single-integer query.
        unsafe { (gl_fns.GetIntegerv)(gl::VERTEX_ARRAY_BINDING, &mut v) };
        self.current_vao = v as u32;
        for vao in self.vaos.values_mut() {
            vao.stale = true;
        }
        self.vaos.entry(self.current_vao).or_insert_with(Vao::stale);
    }
}

impl Shadow {
    /// Compares what the shadow believes with the GL's own bindings, read back with `glGet*`,
    /// and describes every place where the shadow claims more than the GL has: a buffer bound
    /// to a context target or a vertex array's element binding that the GL lacks, an enabled
    /// attribute the shadow thinks reads a buffer while the GL's reads none, a storage size
    /// larger than the GL's. (Claiming less is safe: it only refuses or re-reads.) Vertex arrays
    /// marked stale are skipped: they are read back before their next draw. The GL's vertex
    /// array binding is restored before this returns.
    pub fn audit(&self, gl_fns: &Gl) -> Vec<String> {
        let mut found = Vec::new();
        for t in Target::CONTEXT {
            let claimed = self.context[t.slot()];
            if self.unsupported & 1 << t.slot() == 0 && claimed != 0 && read_binding(gl_fns, t) != claimed {
                found.push(format!(
                    "{}: shadow has buffer {claimed}, the GL has {}",
                    t.gl_name(),
                    read_binding(gl_fns, t)
                ));
            }
        }
        let mut current = 0;
        // SAFETY: a single-integer query.
        unsafe { (gl_fns.GetIntegerv)(gl::VERTEX_ARRAY_BINDING, &mut current) };
        if current as u32 != self.current_vao {
            found.push(format!("vertex array binding: shadow has {}, the GL has {current}", self.current_vao));
        }
        for (&id, shadow) in self.vaos.iter().filter(|(_, v)| !v.stale) {
            // SAFETY: binding a vertex array the GL has (checked first) and then the one that
            // was bound.
            if (id == 0 && self.core) || (id != 0 && unsafe { (gl_fns.IsVertexArray)(id) } == 0) {
                continue;
            }
            unsafe { (gl_fns.BindVertexArray)(id) };
            let gl_state = read_current_vao(gl_fns, self.max_attribs);
            vao_audit(id, shadow, &gl_state, self.max_attribs, &mut found);
        }
        // SAFETY: as above.
        unsafe { (gl_fns.BindVertexArray)(current as u32) };
        for (&buffer, &size) in &self.sizes {
            let mut real: GLint64 = -1;
            // SAFETY: a single-integer query of a buffer that exists (checked first).
            if unsafe { (gl_fns.IsBuffer)(buffer) } != 0 {
                unsafe { (gl_fns.GetNamedBufferParameteri64v)(buffer, gl::BUFFER_SIZE, &mut real) };
            }
            if size as i64 > real.max(0) {
                found.push(format!("buffer {buffer}: shadow has {size} bytes of storage, the GL has {real}"));
            }
        }
        found
    }
}

/// [`Shadow::audit`] of one vertex array: `shadow` against `gl`, its state read back.
fn vao_audit(id: u32, shadow: &Vao, gl: &Vao, attribs: u32, found: &mut Vec<String>) {
    if shadow.element != 0 && shadow.element != gl.element {
        found.push(format!(
            "vertex array {id}: shadow has element buffer {}, the GL has {}",
            shadow.element, gl.element
        ));
    }
    let buffer_of = |v: &Vao, i: usize| v.bindings[v.attrib_binding[i] as usize];
    for i in 0..attribs as usize {
        let gl_reads_client = gl.enabled & (1 << i) != 0 && buffer_of(gl, i) == BindingBuffer::Buffer(0);
        if !gl_reads_client {
            continue;
        }
        let shadow_enabled = shadow.enabled & (1 << i) != 0;
        if !shadow_enabled || matches!(buffer_of(shadow, i), BindingBuffer::Buffer(b) if b != 0) {
            found.push(format!(
                "vertex array {id}, attribute {i}: the GL reads a client array (enabled, no buffer); the shadow has \
                 it {} with {:?}",
                if shadow_enabled { "enabled" } else { "disabled" },
                buffer_of(shadow, i)
            ));
        }
    }
}

/// Buffer offsets and sizes (`GLintptr`, `GLsizeiptr`) must be non-negative, and their sum must
/// not overflow: Mesa checks `offset + size > buffer size` in 64-bit arithmetic, so an offset
/// near `i64::MAX` wraps the sum negative, passes the check, and the copy runs at that offset.
pub fn check_ranges(values: &[i64]) -> Result<(), Refusal> {
    let mut sum: i64 = 0;
    for &v in values {
        if v < 0 {
            return Err(Refusal::Range { value: v });
        }
        sum = sum.checked_add(v).ok_or(Refusal::Range { value: v })?;
    }
    Ok(())
}

/// Before `glInvalidateTexSubImage`: `level` is one the texture can have. Mesa 22 reports a
/// failed check of its own (a level past `GL_TEXTURE_MAX_LEVEL`, a non-zero level of a
/// rectangle, buffer or multisample texture) and then reads `t->Image[0][level]` from the null
/// object it rejected; and a level that passes its check but not the spec's (at most the base 2
/// logarithm of `GL_MAX_TEXTURE_SIZE`) indexes past its array of levels. So the level must be
/// within all three.
pub fn check_texture_level(gl_fns: &Gl, texture: GLuint, level: GLint) -> Result<(), Refusal> {
    let (mut max, mut target, mut size) = (-1, 0, 0);
    // SAFETY: glIsTexture takes any name; the single-integer queries run only on a texture that
    // exists and has a target (so they raise no error of their own).
    unsafe {
        if (gl_fns.IsTexture)(texture) != 0 {
            (gl_fns.GetTextureParameteriv)(texture, gl::TEXTURE_MAX_LEVEL, &mut max);
            (gl_fns.GetTextureParameteriv)(texture, gl::TEXTURE_TARGET, &mut target);
            (gl_fns.GetIntegerv)(gl::MAX_TEXTURE_SIZE, &mut size);
        }
    }
    let single = matches!(
        target as GLenum,
        gl::TEXTURE_RECTANGLE | gl::TEXTURE_BUFFER | gl::TEXTURE_2D_MULTISAMPLE | gl::TEXTURE_2D_MULTISAMPLE_ARRAY
    );
    let spec = if size > 0 { (size as u32).ilog2() as GLint } else { 0 };
    let max = if single { max.min(0) } else { max.min(spec) };
    if (0..=max).contains(&level) {
        Ok(())
    } else {
        Err(Refusal::Level { texture, level, max })
    }
}

/// Before a call that sets range-checked float state: no NaN among `values`.
pub fn check_not_nan(values: &[f64], argument: &'static str) -> Result<(), Refusal> {
    if values.iter().any(|v| v.is_nan()) {
        Err(Refusal::NotANumber { argument })
    } else {
        Ok(())
    }
}

/// [`check_not_nan`] over an array argument (`f32` or `f64`).
pub fn check_not_nan_slice<T: Copy + Into<f64>>(values: &[T], argument: &'static str) -> Result<(), Refusal> {
    if values.iter().any(|&v| v.into().is_nan()) {
        Err(Refusal::NotANumber { argument })
    } else {
        Ok(())
    }
}

/// Before a call on bindings `first..first + count` (multi-binds, viewport and scissor arrays):
/// the range must not run past 2^32. Mesa checks `first + count > limit` in unsigned 32-bit
/// arithmetic, so a sum that wraps passes its check and it indexes past its arrays.
pub fn check_first_count(first: u32, count: i64) -> Result<(), Refusal> {
    if count > 0 && first as i64 + count > u32::MAX as i64 {
        Err(Refusal::Wraps { first, count })
    } else {
        Ok(())
    }
}

/// `GL_EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD` (AMD_pinned_memory, not in glcorearb.h).
const EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD: GLenum = 0x9160;

/// Refuses `glBufferData`/`glBufferStorage` on AMD_pinned_memory's target: the driver would keep
/// the data pointer (the list's parameter buffer, reused after replay) as the buffer's storage.
pub fn check_not_pinned(target: GLenum) -> Result<(), Refusal> {
    if target == EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD {
        Err(Refusal::PinnedMemory)
    } else {
        Ok(())
    }
}

/// Bytes per index of an element draw's `type`, or None for a type the GL refuses.
fn index_size(type_: GLenum) -> Option<u64> {
    match type_ {
        gl::UNSIGNED_BYTE => Some(1),
        gl::UNSIGNED_SHORT => Some(2),
        gl::UNSIGNED_INT => Some(4),
        _ => None,
    }
}

/// Which `glVertexAttrib*Pointer` a call is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttribKind {
    Float,
    Integer,
    Long,
}

/// The size/type combinations every implementation accepts; anything else is checked against
/// the GL (the vertex array is marked stale).
fn common_format(size: GLint, type_: GLenum, kind: AttribKind) -> bool {
    if !(1..=4).contains(&size) {
        return false;
    }
    match kind {
        AttribKind::Float => matches!(
            type_,
            gl::FLOAT
                | gl::HALF_FLOAT
                | gl::BYTE
                | gl::UNSIGNED_BYTE
                | gl::SHORT
                | gl::UNSIGNED_SHORT
                | gl::INT
                | gl::UNSIGNED_INT
        ),
        AttribKind::Integer => {
            matches!(type_, gl::BYTE | gl::UNSIGNED_BYTE | gl::SHORT | gl::UNSIGNED_SHORT | gl::INT | gl::UNSIGNED_INT)
        }
        AttribKind::Long => type_ == gl::DOUBLE,
    }
}

/// The context targets (as `Target::slot` bits) this context lacks, from its version and
/// extensions: a bind to one raises `GL_INVALID_ENUM` and changes nothing. (Asked this way, not
/// by provoking errors, so an adopted context's pending errors stay the application's.)
fn unsupported_targets(gl_fns: &Gl) -> u8 {
    let (mut major, mut minor, mut count) = (0, 0, 0);
    // SAFETY: single-integer queries.
    unsafe {
        (gl_fns.GetIntegerv)(gl::MAJOR_VERSION, &mut major);
        (gl_fns.GetIntegerv)(gl::MINOR_VERSION, &mut minor);
        (gl_fns.GetIntegerv)(gl::NUM_EXTENSIONS, &mut count);
    }
    let has = |wanted: &str| {
        (0..count.max(0) as u32).any(|i| {
            // SAFETY: `i` is below GL_NUM_EXTENSIONS; the GL returns a static NUL-terminated
            // string (or null).
            let s = unsafe { (gl_fns.GetStringi)(gl::EXTENSIONS, i) };
            !s.is_null() && unsafe { std::ffi::CStr::from_ptr(s.cast()) }.to_bytes() == wanted.as_bytes()
        })
    };
    let version = (major, minor);
    let needs = [
        (Target::DrawIndirect, (4, 0), "GL_ARB_draw_indirect"),
        (Target::DispatchIndirect, (4, 3), "GL_ARB_compute_shader"),
        (Target::Query, (4, 4), "GL_ARB_query_buffer_object"),
        (Target::Parameter, (4, 6), "GL_ARB_indirect_parameters"),
    ];
    needs.iter().filter(|(_, v, ext)| version < *v && !has(ext)).fold(0, |bits, (t, _, _)| bits | 1 << t.slot())
}

fn read_binding(gl_fns: &Gl, target: Target) -> u32 {
    let mut v = 0;
    // SAFETY: a single-integer query.
    unsafe { (gl_fns.GetIntegerv)(target.binding_pname(), &mut v) };
    v as u32
}

/// The current vertex array, read back from the GL: element buffer, and per attribute its
/// enable bit, its binding index and the buffer of that binding.
fn read_current_vao(gl_fns: &Gl, max_attribs: u32) -> Vao {
    let mut v = Vao::new();
    for b in v.bindings.iter_mut() {
        *b = BindingBuffer::Unknown;
    }
    let mut e = 0;
    // SAFETY: single-integer queries on valid attribute indices.
    unsafe {
        (gl_fns.GetIntegerv)(gl::ELEMENT_ARRAY_BUFFER_BINDING, &mut e);
        v.element = e as u32;
        for i in 0..max_attribs {
            let (mut enabled, mut binding, mut buffer) = (0, i as i32, 0);
            (gl_fns.GetVertexAttribiv)(i, gl::VERTEX_ATTRIB_ARRAY_ENABLED, &mut enabled);
            (gl_fns.GetVertexAttribiv)(i, gl::VERTEX_ATTRIB_BINDING, &mut binding);
            (gl_fns.GetVertexAttribiv)(i, gl::VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &mut buffer);
            if enabled != 0 {
                v.enabled |= 1 << i;
            }
            let binding = (binding.max(0) as usize).min(MAX_ATTRIBS - 1);
            v.attrib_binding[i as usize] = binding as u8;
            v.bindings[binding] = BindingBuffer::Buffer(buffer as u32);
        }
    }
    v.stale = false;
    v
}
