//! The sweep's fixture: real objects of every class, and the adversarial choices each kind of
//! argument takes. Argument `i` of variant `v` picks a choice by a hash of `(v, i)`, so over the
//! variants every argument meets valid values, zero, negative and huge counts, unknown enums,
//! names that do not exist, empty and long slices, and offsets with and without a buffer.

use std::cell::RefCell;
use std::collections::HashMap;

use glcmd::types::*;
use glcmd::{gl, Bytes, Device, Error};

/// Element types the fixture can fill slices with.
pub trait Gen: Copy + Default {
    fn gen(i: usize) -> Self;
}

macro_rules! gen_int {
    ($($t:ty),*) => {$(impl Gen for $t { fn gen(i: usize) -> Self { (i % 97) as $t } })*};
}
gen_int!(u8, u16, u32, u64, usize);
// Signed elements are negative at every third position (offsets, strides and counts inside
// arrays: a multi-bind whose one entry the GL refuses must not change what glcmd believes).
// Pointer-sized ones (offsets) at other positions than 32-bit ones (strides, counts), so one
// entry of a multi-bind can be refused for its offset alone.
macro_rules! gen_signed {
    ($r:literal: $($t:ty),*) => {$(impl Gen for $t {
        fn gen(i: usize) -> Self { if i % 3 == $r { -((i % 97) as $t) - 1 } else { (i % 97) as $t } }
    })*};
}
gen_signed!(1: i64, isize);
gen_signed!(2: i8, i16, i32);
impl Gen for f32 {
    fn gen(i: usize) -> Self {
        i as f32 * 0.25
    }
}
impl Gen for f64 {
    fn gen(i: usize) -> Self {
        i as f64 * 0.25
    }
}

const LONG: &str = concat!(
    "a string much longer than any label or name the GL keeps, repeated to go past the limits: ",
    "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789",
    "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789",
    "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789",
);

const VS: &str = "#version 450 core\nlayout(location = 0) in vec4 p;\nlayout(std140, binding = 0) uniform U { vec4 a; vec4 b; } u;\nuniform float k[4];\nvoid main() { gl_Position = p * k[1] + u.a + u.b; }\n";
const FS: &str = "#version 450 core\nout vec4 o;\nuniform sampler2D s;\nvoid main() { o = texture(s, vec2(0.5)); }\n";

/// Objects and data the sweep's calls use.
pub struct Fixture {
    names: HashMap<&'static str, Vec<u32>>,
    syncs: RefCell<Vec<glcmd::SyncHandle>>,
    data: Vec<u8>,
    /// A live allocation whose address the sweep passes as an "offset": if it ever reached the
    /// GL as a pointer with nothing bound, the GL would write into it (memcheck and the
    /// checking table both catch that).
    victim: Vec<u8>,
    pub(crate) bound_vao: u32,
    pub(crate) target_buffers: [u32; 7],
}

/// A cheap, well-spread hash of (variant, argument).
fn mix(v: usize, i: usize) -> usize {
    let mut z = (v as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (i as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^= z >> 31;
    z = z.wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 29)) as usize
}

impl Fixture {
    pub(crate) const TARGETS: [GLenum; 7] = [
        gl::ARRAY_BUFFER,
        gl::PIXEL_PACK_BUFFER,
        gl::PIXEL_UNPACK_BUFFER,
        gl::DRAW_INDIRECT_BUFFER,
        gl::DISPATCH_INDIRECT_BUFFER,
        gl::PARAMETER_BUFFER,
        gl::QUERY_BUFFER,
    ];

    /// Creates one or two objects of every class, through glcmd itself.
    pub fn new(device: &Device) -> Result<Fixture, Error> {
        let mut names: HashMap<&'static str, Vec<u32>> = HashMap::new();
        let buffers = device.create_buffers(10)?;
        let textures = device.create_textures(gl::TEXTURE_2D, 2)?;
        let renderbuffers = device.create_renderbuffers(1)?;
        let framebuffers = device.create_framebuffers(1)?;
        let vaos = device.create_vertex_arrays(2)?;
        let samplers = device.create_samplers(1)?;
        let queries = device.create_queries(gl::SAMPLES_PASSED, 1)?;
        let pipelines = device.create_program_pipelines(1)?;
        let feedbacks = device.create_transform_feedbacks(1)?;
        let program = device.create_program()?;
        let vs = device.create_shader(gl::VERTEX_SHADER)?;
        let fs = device.create_shader(gl::FRAGMENT_SHADER)?;
        let mut list = device.command_list();
        for &b in &buffers {
            list.named_buffer_storage(b, 1 << 16, None, gl::DYNAMIC_STORAGE_BIT | gl::MAP_READ_BIT);
        }
        for &t in &textures {
            list.texture_storage_2d(t, 3, gl::RGBA8, 8, 8);
        }
        list.named_renderbuffer_storage(renderbuffers[0], gl::RGBA8, 8, 8);
        list.named_framebuffer_texture(framebuffers[0], gl::COLOR_ATTACHMENT0, textures[0], 0);
        list.named_framebuffer_renderbuffer(framebuffers[0], gl::COLOR_ATTACHMENT1, gl::RENDERBUFFER, renderbuffers[0]);
        // A vertex array with an element buffer and one attribute that reads a buffer.
        list.vertex_array_element_buffer(vaos[1], buffers[8]);
        list.vertex_array_vertex_buffer(vaos[1], 0, buffers[9], 0, 16);
        list.vertex_array_attrib_format(vaos[1], 0, 4, gl::FLOAT, false, 0);
        list.enable_vertex_array_attrib(vaos[1], 0);
        list.shader_source(vs, &[VS]);
        list.shader_source(fs, &[FS]);
        list.compile_shader(vs);
        list.compile_shader(fs);
        list.attach_shader(program, vs);
        list.attach_shader(program, fs);
        list.link_program(program);
        list.begin_query(gl::SAMPLES_PASSED, queries[0]);
        list.end_query(gl::SAMPLES_PASSED);
        let sync = list.fence_sync(gl::SYNC_GPU_COMMANDS_COMPLETE, 0);
        device.submit(list)?;
        assert_eq!(device.get_programiv(program, gl::LINK_STATUS)?, vec![1], "the fixture's program links");
        names.insert("buffer", buffers[..8].to_vec());
        names.insert("texture", textures);
        names.insert("renderbuffer", renderbuffers);
        names.insert("framebuffer", framebuffers);
        names.insert("vertex array", vec![vaos[0]]);
        names.insert("sampler", samplers);
        names.insert("query", queries);
        names.insert("program pipeline", pipelines);
        names.insert("transform feedback", feedbacks);
        names.insert("program", vec![program]);
        names.insert("shader", vec![vs, fs]);
        Ok(Fixture {
            names,
            syncs: RefCell::new(vec![sync]),
            data: (0..8192).map(|i| (i * 7 % 251) as u8).collect(),
            victim: vec![0xA5; 4096],
            bound_vao: vaos[1],
            target_buffers: [buffers[0], buffers[1], buffers[2], buffers[3], buffers[4], buffers[5], buffers[6]],
        })
    }

    /// The real objects of `class` the fixture made.
    pub(crate) fn real_names(&self, class: &str) -> &[u32] {
        self.names.get(class).map_or(&[], Vec::as_slice)
    }

    fn pick<T: Copy>(&self, v: usize, i: usize, choices: &[T]) -> T {
        choices[mix(v, i) % choices.len()]
    }

    /// An enum: mostly a valid member of the argument's group, sometimes 0, unknown or huge.
    pub fn enumv(&self, v: usize, i: usize, valid: &[u32]) -> GLenum {
        let k = mix(v, i);
        if !valid.is_empty() && k % 8 < 5 {
            return valid[(k / 8) % valid.len()];
        }
        self.pick(v, i + 101, &[0, 0x1234, 0xFFFF, 0xFFFF_FFFF, gl::TEXTURE_2D, gl::RGBA])
    }

    /// The API takes `bool`, so no value other than GL_TRUE and GL_FALSE can reach the GL.
    pub fn boolean(&self, v: usize, i: usize) -> bool {
        self.pick(v, i, &[false, true])
    }

    pub fn bits(&self, v: usize, i: usize) -> GLbitfield {
        self.pick(v, i, &[0, 1, gl::COLOR_BUFFER_BIT, gl::DYNAMIC_STORAGE_BIT, 0xFFFF_FFFF])
    }

    pub fn float(&self, v: usize, i: usize) -> f64 {
        self.pick(v, i, &[0.0, 1.0, -1.0, 0.5, f64::NAN, f64::INFINITY, 1e30])
    }

    /// An object name of `class`: a real one, 0, one that does not exist, the largest.
    pub fn name(&self, v: usize, i: usize, class: &str) -> GLuint {
        let real = self.names.get(class).map(|n| n[mix(v, i + 7) % n.len()]);
        match (mix(v, i) % 6, real) {
            (0..=2, Some(n)) => n,
            (3, _) => 0,
            (4, _) => 99_999,
            (5, _) => u32::MAX,
            _ => 1,
        }
    }

    pub fn uint(&self, v: usize, i: usize) -> GLuint {
        self.pick(v, i, &[0, 1, 2, 3, 15, 16, 31, 1000, u32::MAX])
    }

    pub fn int(&self, v: usize, i: usize) -> i64 {
        // (2^28 + 1 in a multi-draw's count, whose product with a stride of 16 wraps 32 bits, is
        // tests/soundness.rs's round2_item2 case: as a general count it makes llvmpipe process
        // 2^28 vertices, minutes under memcheck.)
        self.pick(v, i, &[0, 1, 2, 4, 8, 16, -1, i32::MAX as i64, i32::MIN as i64])
    }

    pub fn wide(&self, v: usize, i: usize) -> i64 {
        // i64::MAX - 4: offset + a few bytes wraps a signed 64-bit sum.
        self.pick(v, i, &[0, 16, 256, -1, 1 << 40, i64::MAX - 4, i64::MAX])
    }

    /// A count that sizes a slice argument.
    pub fn count(&self, v: usize, i: usize) -> i32 {
        self.pick(v, i, &[0, 1, 2, 4, 16, 64, -1, i32::MAX])
    }

    /// The slice length for a count: the count itself when it is a sane length (so the call
    /// reaches the GL), 3 otherwise (a mismatch the recording method must refuse).
    pub fn len_for(&self, count: i64) -> usize {
        if (0..=4096).contains(&count) {
            count as usize
        } else {
            3
        }
    }

    pub fn slice_len(&self, v: usize, i: usize) -> usize {
        self.pick(v, i, &[0, 1, 2, 4, 7, 64, 1000])
    }

    pub fn pname_len(&self, v: usize, i: usize) -> usize {
        self.pick(v, i, &[16, 16, 4, 1, 0])
    }

    pub fn values<T: Gen>(&self, n: usize) -> Vec<T> {
        (0..n).map(T::gen).collect()
    }

    pub fn chunks<T: Gen, const K: usize>(&self, n: usize) -> Vec<[T; K]> {
        (0..n).map(|j| std::array::from_fn(|k| T::gen(j * K + k))).collect()
    }

    pub fn array<T: Gen, const N: usize>(&self) -> [T; N] {
        std::array::from_fn(T::gen)
    }

    pub fn maybe<'a, T: ?Sized>(&self, v: usize, i: usize, s: &'a T) -> Option<&'a T> {
        (mix(v, i + 13) % 3 != 0).then_some(s)
    }

    pub fn string(&self, v: usize, i: usize) -> &'static str {
        self.pick(v, i, &["", "a", "label with spaces", LONG, "nul\0inside"])
    }

    pub fn strings(&self, v: usize, i: usize) -> Vec<&'static str> {
        match mix(v, i) % 4 {
            0 => vec![],
            1 => vec!["a"],
            2 => vec!["#version 450 core\n", "void main() {}\n"],
            _ => vec![LONG, "", "x"],
        }
    }

    /// Pixel or byte data: slices of several sizes, offsets (the address of a live allocation
    /// among them), and none.
    pub fn bytes(&self, v: usize, i: usize) -> Bytes<'_> {
        match mix(v, i) % 7 {
            0 => Bytes::Slice(&[]),
            1 => Bytes::Slice(&self.data[..64]),
            2 => Bytes::Slice(&self.data[..]),
            3 => Bytes::BufferOffset(0),
            4 => Bytes::BufferOffset(16),
            5 => Bytes::BufferOffset(self.victim.as_ptr() as usize),
            _ => Bytes::None,
        }
    }

    /// Byte data whose length an argument states.
    pub fn bytes_sized(&self, v: usize, i: usize, count: i64) -> Bytes<'_> {
        match mix(v, i) % 4 {
            0 | 1 => Bytes::Slice(&self.data[..self.len_for(count).min(self.data.len())]),
            2 => Bytes::BufferOffset(0),
            _ => Bytes::BufferOffset(self.victim.as_ptr() as usize),
        }
    }

    /// An offset: small ones, one past any buffer, the address of a live allocation, the
    /// largest.
    pub fn offset(&self, v: usize, i: usize) -> usize {
        // 2^64 - 16: read as a signed GLintptr it is -16, and `offset + 16` wraps to 0.
        self.pick(v, i, &[0, 4, 16, 0x1000, self.victim.as_ptr() as usize, usize::MAX - 15, usize::MAX])
    }

    pub fn out_len(&self, v: usize, i: usize) -> usize {
        self.pick(v, i, &[0, 1, 16, 4096])
    }

    pub fn sync(&self, v: usize, i: usize) -> glcmd::SyncHandle {
        let syncs = self.syncs.borrow();
        syncs[mix(v, i) % syncs.len()]
    }

    pub fn keep_sync(&self, s: glcmd::SyncHandle) {
        let mut syncs = self.syncs.borrow_mut();
        if syncs.len() < 16 {
            syncs.push(s);
        }
    }

    /// Keeps a query's result alive until here (so nothing is optimised away).
    pub fn keep<T>(&self, r: &T) {
        std::hint::black_box(r);
    }

    /// The hand-written (special) methods, with adversarial arguments. Returns the calls made.
    pub fn hand_written(&self, device: &Device, v: usize) -> Result<usize, Error> {
        let program = self.names["program"][0];
        let lost = |r: &Result<(), Error>| matches!(r, Err(Error::DeviceLost { .. }));
        let calls: Vec<Result<(), Error>> = vec![
            device.get_error().map(drop),
            device.flush(),
            device
                .get_program_resourceiv(
                    self.name(v, 1, "program").max(program),
                    self.enumv(v, 2, &[gl::UNIFORM_BLOCK, gl::UNIFORM, gl::PROGRAM_INPUT]),
                    self.uint(v, 3),
                    &[
                        self.enumv(v, 4, &[gl::ACTIVE_VARIABLES, gl::NUM_ACTIVE_VARIABLES, gl::NAME_LENGTH]),
                        gl::ACTIVE_VARIABLES,
                    ],
                )
                .map(drop),
            device.get_debug_message_log(self.uint(v, 5).min(1 << 20)).map(drop),
            device.client_wait_sync(self.sync(v, 6), self.bits(v, 7), 0).map(drop),
        ];
        if let Some(Err(e)) = calls.iter().find(|r| lost(r)) {
            return Err(Error::DeviceLost { reason: e.to_string() });
        }
        Ok(calls.len())
    }
}
