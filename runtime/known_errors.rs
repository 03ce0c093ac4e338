//! `glGetError` without a round trip, where glcmd knows the answer is `GL_NO_ERROR` (issue 31).
//!
//! A program that checks `glGetError` after every draw (a `GL_CHECK` macro in a debug build, the
//! tutorial benchmark's *queries* frame) pays a round trip per check through an immediate
//! thread: the render thread must replay everything the thread recorded, then read the flag.
//! Mesa's glthread and NVIDIA's threaded optimisations synchronise there too. But a program
//! that checks after every draw mostly repeats itself: the same program, the same uniform
//! locations, the same vertex array, the same draw. Once the GL has answered `GL_NO_ERROR` for
//! a stretch of calls, the same calls, made again on the same state, raise nothing again. This
//! module knows when that holds, and [`KnownErrors::no_error_known`] says so; the C ABI's
//! `glGetError` then answers `GL_NO_ERROR` at once and leaves the calls pending.
//!
//! ## The rule
//!
//! The thread's recorded packets are read in order (`scan`, at hand-overs and checks). Each is
//! of one of these kinds (`rules`):
//!
//! * **Bindings** that change nothing a later call's errors depend on (`glActiveTexture`,
//!   `glBindTexture`, `glBindTextureUnit`, `glBindSampler`, `glBindBuffer(GL_ARRAY_BUFFER)`,
//!   `glBindBufferBase`/`Range` of uniform and storage buffers, `glClear`): their errors depend
//!   on their arguments and on objects only other calls change (a texture's target is fixed at
//!   its first bind, a buffer's size changes only by a call of the last kind).
//! * **Setters** of fixed-function state (viewport, scissor, blend function, depth, stencil,
//!   enables, clear values, ...): their errors depend on their arguments; a changed value moves
//!   the *epoch*, which every draw's key holds, so no draw is taken as known across a change
//!   the GL's draw checks could see (advanced blending, for one).
//! * **`glUseProgram`** and **`glBindVertexArray`**: they set the thread's current program and
//!   vertex array as glcmd follows them (the *sim*, unknown until first set).
//! * **`glUniform*`**: keyed by the current program, the location and the count (and the value
//!   of `glUniform1i`/`glUniform1iv`, which can name a texture unit out of range); a changed
//!   integer uniform moves the epoch (a sampler's unit is what the GL's draw validation reads).
//! * **Draws** (`glDrawArrays`, `glDrawElements` and their instanced and base forms): keyed by
//!   every argument, the current program, the vertex array and the epoch.
//! * **Anything else** may change what the calls above depend on (a relink, a delete, a buffer's
//!   size, a framebuffer's attachments, a map, transform feedback): every key learned so far is
//!   forgotten, the sim is unknown again, and the stretch that holds it is not known.
//!
//! A key is *learned* when a round-trip `glGetError` answers `GL_NO_ERROR` for a stretch that
//! held it: every call of that stretch raised nothing, so by induction the sim was right for
//! each. A later stretch is **known** when every call in it has a learned key: each then meets
//! the state it was seen clean on (only its key's parts and the calls of the last kind could
//! change that state, and the last kind forgets everything), so it raises nothing again.
//!
//! What else forgets everything: a `glGetError` that answered an error, or a flag the C entry
//! points raised themselves; any other round trip of the thread (a query or a map may raise an
//! error or change state: `Device::thread_round_trips` moved); another thread's list, query or
//! present on the context (`SenderChanges`: the sender changed); discarded calls. A thread that
//! checks rarely (more than [`LONG_STRETCH`] calls between checks) reads no packets: its next
//! stretch simply asks, as before.
//!
//! An error the GL raises on its own at any time (`GL_OUT_OF_MEMORY`, `GL_CONTEXT_LOST`) is
//! returned by the next `glGetError` that asks, not by one answered here: the specification
//! leaves the state after such an error undefined. Off with `Options::known_errors(false)` and
//! while capturing (a capture keeps every `glGetError`).

use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use crate::generated::commands as c;
use crate::list::CommandList;
use crate::packet::Packet;
use crate::vocab::hash::{FastHash as Fx, FastHasher};
use crate::Device;

/// A stretch longer than this many calls between two checks turns reading off for the next
/// one: a program that checks once a frame would pay for reading every call and gain one round
/// trip a frame at most.
pub const LONG_STRETCH: u64 = 1024;

/// What a packet is to the rule (the module's doc).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Other,
    Binding,
    Setter,
    UseProgram,
    BindVertexArray,
    /// `int1`: `glUniform1i`/`glUniform1iv`, whose values are part of the key.
    Uniform {
        int1: bool,
        vector: bool,
    },
    Draw,
    /// `glBindBuffer`: a binding for `GL_ARRAY_BUFFER` (which only `glVertexAttribPointer`
    /// reads, a call of the last kind); another target is of the last kind (the element buffer
    /// is the vertex array's, a pixel buffer changes what a transfer's pointer means).
    BindBuffer,
    /// `glBindBufferBase` and `glBindBufferRange`: a binding for `GL_UNIFORM_BUFFER` and
    /// `GL_SHADER_STORAGE_BUFFER` (a draw raises nothing for what they hold); another target is
    /// of the last kind (transform feedback's and atomic counters' bindings).
    BindIndexed,
}

/// A packet kind and how many of its leading bytes are its key.
#[derive(Clone, Copy)]
struct Rule {
    kind: Kind,
    /// The key's bytes as whole slots, the last one masked.
    words: u8,
    last_mask: u64,
}

impl Rule {
    fn new(kind: Kind, key_len: usize) -> Rule {
        let tail = key_len % 8;
        let last_mask = if tail == 0 { u64::MAX } else { (1u64 << (tail * 8)) - 1 };
        Rule { kind, words: key_len.div_ceil(8) as u8, last_mask }
    }

    /// The key bytes of a packet (`slots`, which cover its size) as words, the rest zero.
    fn key_words(&self, slots: &[u64]) -> [u64; KEY_BYTES / 8] {
        let n = self.words as usize;
        let mut words = [0u64; KEY_BYTES / 8];
        words[..n].copy_from_slice(&slots[..n]);
        if n > 0 {
            words[n - 1] &= self.last_mask;
        }
        words
    }
}

const KEY_BYTES: usize = 32;

/// A call as it was made: its packet's key bytes (as words, the bytes past the key zero), the
/// values of an integer uniform, and the sim it met.
#[derive(Clone, Copy)]
struct Key {
    words: [u64; KEY_BYTES / 8],
    values: u64,
    program: u32,
    vertex_array: u32,
    epoch: u64,
}

/// Field by field (an array's derived comparison calls `memcmp`: a call per key compared).
impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        let [a0, a1, a2, a3] = self.words;
        let [b0, b1, b2, b3] = other.words;
        ((a0 ^ b0) | (a1 ^ b1) | (a2 ^ b2) | (a3 ^ b3)) == 0
            && self.values == other.values
            && self.program == other.program
            && self.vertex_array == other.vertex_array
            && self.epoch == other.epoch
    }
}

impl Eq for Key {}

/// One multiply-rotate round per word into one `u64` for the set's hasher: a key is hashed
/// once per call read, so this is the cost that matters.
impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let mut h = self.values ^ ((self.program as u64) << 32 | self.vertex_array as u64).rotate_left(17) ^ self.epoch;
        for w in self.words {
            h = (h.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
        state.write_u64(h);
    }
}

/// The state glcmd follows through the thread's own calls (`None`: unknown).
#[derive(Default)]
struct Sim {
    program: Option<u32>,
    vertex_array: Option<u32>,
    /// Moves when a setter's value or an integer uniform changes.
    epoch: u64,
    /// The last key bytes of each setter's state ([`setter_slots`]), and the last value of each
    /// integer uniform (program, location).
    setters: HashMap<u32, [u64; KEY_BYTES / 8], Fx>,
    integers: HashMap<u64, u64, Fx>,
}

/// What an immediate thread knows about its errors (the module's doc).
#[derive(Default)]
pub struct KnownErrors {
    learned: HashSet<Key, Fx>,
    /// The keys of the stretch since the last check (after its last call of another kind).
    pending: Vec<Key>,
    /// The keys of the last stretch that ended known or learned, in order (all of them
    /// learned): a program that repeats itself repeats them, and a key equal to the one at its
    /// place there is known without a lookup.
    previous: Vec<Key>,
    /// Every call of the stretch had a key (and nothing forgot it).
    clean: bool,
    /// And every key was learned.
    known: bool,
    sim: Sim,
    /// The sender count and the thread's round trips at the last check.
    senders: Option<u64>,
    round_trips: u64,
    /// Packets of the current list read so far (a slot), and its commands then.
    scanned: usize,
    scanned_commands: u64,
    /// Calls since the last check, and whether this stretch is read.
    stretch: u64,
    reading: bool,
}

impl KnownErrors {
    /// A thread's knowledge at the start: nothing known, nothing read until its first check.
    pub fn new() -> KnownErrors {
        KnownErrors { clean: false, known: false, ..Default::default() }
    }

    /// Reads the packets of `list` (the thread's current list) not read yet.
    pub fn scan(&mut self, list: &CommandList) {
        if !list.immediate_recording || list.packets.len() < self.scanned {
            // The pending calls were cleared (`CommandList::clear_commands` unmarks the list):
            // what was read of them never runs.
            self.forget();
            (self.scanned, self.scanned_commands) = (list.packets.len(), list.commands);
            return;
        }
        let new = list.commands.saturating_sub(self.scanned_commands);
        self.stretch += new;
        self.scanned_commands = list.commands;
        if !self.reading || self.stretch > LONG_STRETCH {
            // Calls not read may be of any kind: what was learned (and what this stretch read
            // before) no longer stands.
            self.reading = false;
            self.forget();
            self.scanned = list.packets.len();
            return;
        }
        let rules = rules();
        let params = list.param_bytes();
        let mut at = self.scanned;
        while at < list.packets.len() {
            let op = (list.packets[at] & 0xFFFF) as usize;
            let n = crate::generated::SLOTS[op] as usize;
            self.see(op as u16, rules[op], &list.packets[at..at + n], params);
            at += n;
        }
        self.scanned = at;
    }

    /// The current list was handed over (after [`KnownErrors::scan`]) or replaced: the next
    /// list is read from its start.
    pub fn list_replaced(&mut self) {
        self.scanned = 0;
        self.scanned_commands = 0;
    }

    /// The thread's pending calls were dropped: what was read of them never runs.
    pub fn discarded(&mut self) {
        self.forget();
        self.list_replaced();
    }

    /// At `glGetError` with no flag of the thread's own set: whether `GL_NO_ERROR` is known
    /// for every call since the last check (then the stretch ends here). `list`: the thread's
    /// current list.
    pub fn no_error_known(&mut self, device: &Device, list: &CommandList) -> bool {
        if !device.answers_errors_locally() || device.render_thread_gone() {
            self.forget();
            return false;
        }
        self.scan(list);
        let senders = device.inner.shared.senders.count();
        if self.senders != Some(senders) || self.round_trips != Device::thread_round_trips() {
            self.forget();
            return false;
        }
        if !(self.clean && self.known) {
            return false;
        }
        self.stretch_ends(true);
        true
    }

    /// After a round-trip `glGetError` answered `error` (the stretch's calls all ran before it).
    pub fn answered(&mut self, device: &Device, error: u32, senders_before: u64) {
        let senders = device.inner.shared.senders.count();
        let learn = error == crate::gl::NO_ERROR && senders == senders_before && self.senders == Some(senders_before);
        if learn {
            self.learned.extend(self.pending.iter().copied());
        } else {
            self.forget();
        }
        self.senders = Some(senders);
        self.round_trips = Device::thread_round_trips();
        self.stretch_ends(learn);
    }

    /// A flag the thread raised itself was returned: its calls' effects are not known.
    pub fn flag_returned(&mut self) {
        self.forget();
        self.senders = None;
    }

    /// The stretch ends; `kept`: its keys are all learned, and become the previous stretch's.
    fn stretch_ends(&mut self, kept: bool) {
        if kept {
            std::mem::swap(&mut self.previous, &mut self.pending);
        }
        self.pending.clear();
        self.reading = self.stretch <= LONG_STRETCH;
        self.stretch = 0;
        self.clean = true;
        self.known = true;
    }

    /// Everything learned is forgotten, the sim is unknown, and this stretch is not known.
    fn forget(&mut self) {
        self.learned.clear();
        self.pending.clear();
        self.previous.clear();
        self.sim = Sim { epoch: self.sim.epoch + 1, ..Sim::default() };
        self.clean = false;
    }

    fn see(&mut self, op: u16, rule: Rule, slots: &[u64], params: &[u8]) {
        let packet: &[u8] = bytemuck::cast_slice(slots);
        let words = rule.key_words(slots);
        let mut key = Key { words, values: 0, program: 0, vertex_array: 0, epoch: 0 };
        match rule.kind {
            Kind::Other => return self.forget(),
            Kind::BindBuffer if u16::from_le_bytes([packet[2], packet[3]]) as u32 != crate::gl::ARRAY_BUFFER => {
                return self.forget();
            }
            Kind::BindIndexed
                if !matches!(
                    u16::from_le_bytes([packet[2], packet[3]]) as u32,
                    crate::gl::UNIFORM_BUFFER | crate::gl::SHADER_STORAGE_BUFFER
                ) =>
            {
                return self.forget();
            }
            Kind::Binding | Kind::BindBuffer | Kind::BindIndexed => {}
            Kind::Setter => {
                for slot in setter_slots(op, packet).into_iter().flatten() {
                    if self.sim.setters.insert(slot, words) != Some(words) {
                        self.sim.epoch += 1;
                    }
                }
            }
            Kind::UseProgram => self.sim.program = Some(u32_at(packet, 2)),
            Kind::BindVertexArray => self.sim.vertex_array = Some(u32_at(packet, 2)),
            Kind::Uniform { int1, vector } => {
                if int1 {
                    key.values = self.integer_uniform(packet, params, vector);
                }
                let Some(program) = self.sim.program else { return self.unkeyed() };
                key.program = program;
            }
            Kind::Draw => {
                let (Some(program), Some(array)) = (self.sim.program, self.sim.vertex_array) else {
                    return self.unkeyed();
                };
                (key.program, key.vertex_array, key.epoch) = (program, array, self.sim.epoch);
            }
        }
        // Once one call is not known, the stretch asks: the rest are only kept for learning.
        self.known = self.known && (self.previous.get(self.pending.len()) == Some(&key) || self.learned.contains(&key));
        self.pending.push(key);
    }

    /// A call whose key cannot be made (the sim is unknown): the stretch is not known.
    fn unkeyed(&mut self) {
        self.clean = false;
    }

    /// The values of a `glUniform1i` or `glUniform1iv` as one number, moving the epoch when
    /// they change what the sim knows of that uniform.
    fn integer_uniform(&mut self, packet: &[u8], params: &[u8], vector: bool) -> u64 {
        let location = u32_at(packet, 2) as i32;
        let (count, values) = if vector {
            let count = u32_at(packet, 6) as i32;
            // The value offset is the packet's last field (the test below).
            let offset = u32_at(packet, std::mem::size_of::<c::Uniform1ivPacket>() - 4);
            let bytes = crate::dump::region(params, offset as u64, count.max(0) as u64 * 4).unwrap_or(&[]);
            (count, fx_bytes(bytes))
        } else {
            (1, u32_at(packet, 6) as u64)
        };
        match self.sim.program {
            // One value at its location (a location names one element): a changed one moves
            // the epoch.
            Some(program) if count == 1 => {
                if self.sim.integers.insert((program as u64) << 32 | location as u32 as u64, values) != Some(values) {
                    self.sim.epoch += 1;
                }
            }
            // Several elements at once: the epoch moves, and what the sim knew of the program's
            // single values is forgotten (an element set here may be one of them).
            Some(program) => {
                self.sim.integers.retain(|&k, _| (k >> 32) as u32 != program);
                self.sim.epoch += 1;
            }
            None => self.sim.epoch += 1,
        }
        values
    }
}

/// The pieces of state a setter sets (one or two): its capability for `glEnable` and
/// `glDisable` (one slot for both, so a program that enables and disables the same
/// capabilities every frame moves the epoch only when one changes); each face for the stencil
/// setters (`glStencilFunc` sets both, `glStencilFuncSeparate` the faces it names); one slot
/// for the functions that set the same state (`glBlendEquation` and
/// `glBlendEquationSeparate`, ...), else the function's own. The packets start with the
/// opcode and then the capability or face, packed to 16 bits.
fn setter_slots(op: u16, packet: &[u8]) -> [Option<u32>; 2] {
    macro_rules! op {
        ($p:ident) => {
            <c::$p as Packet>::OPCODE
        };
    }
    const FRONT: u32 = crate::gl::FRONT;
    const BACK: u32 = crate::gl::BACK;
    let first = u16::from_le_bytes([packet[2], packet[3]]) as u32;
    let faces = |family: u16, face: Option<u32>| {
        let slot = |f: u32| Some(((family as u32) << 16) | f);
        match face {
            Some(FRONT) => [slot(FRONT), None],
            Some(BACK) => [slot(BACK), None],
            // Both faces (or a face the GL refuses: then nothing changes, and moving the epoch
            // once more costs nothing).
            _ => [slot(FRONT), slot(BACK)],
        }
    };
    let family = |a: u16, b: u16| [Some(a.min(b) as u32), None];
    match op {
        o if o == op!(EnablePacket) || o == op!(DisablePacket) => [Some((1 << 16) | first), None],
        o if o == op!(StencilFuncPacket) => faces(o, None),
        o if o == op!(StencilFuncSeparatePacket) => faces(op!(StencilFuncPacket), Some(first)),
        o if o == op!(StencilOpPacket) => faces(o, None),
        o if o == op!(StencilOpSeparatePacket) => faces(op!(StencilOpPacket), Some(first)),
        o if o == op!(StencilMaskPacket) => faces(o, None),
        o if o == op!(StencilMaskSeparatePacket) => faces(op!(StencilMaskPacket), Some(first)),
        o if o == op!(BlendEquationPacket) || o == op!(BlendEquationSeparatePacket) => {
            family(op!(BlendEquationPacket), op!(BlendEquationSeparatePacket))
        }
        o if o == op!(BlendFuncPacket) || o == op!(BlendFuncSeparatePacket) => {
            family(op!(BlendFuncPacket), op!(BlendFuncSeparatePacket))
        }
        o if o == op!(DepthRangePacket) || o == op!(DepthRangefPacket) => {
            family(op!(DepthRangePacket), op!(DepthRangefPacket))
        }
        o if o == op!(ClearDepthPacket) || o == op!(ClearDepthfPacket) => {
            family(op!(ClearDepthPacket), op!(ClearDepthfPacket))
        }
        _ => [Some(op as u32), None],
    }
}

fn u32_at(packet: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(packet[at..at + 4].try_into().expect("four bytes"))
}

impl Device {
    /// Whether an immediate thread of this device may answer `glGetError` from what it knows
    /// (`Options::known_errors`, and no capture).
    pub fn answers_errors_locally(&self) -> bool {
        self.inner.shared.options.known_errors && self.inner.shared.capture.is_none()
    }

    /// How often the thread sending to the render thread changed (`known_errors.rs`).
    pub fn sender_changes(&self) -> u64 {
        self.inner.shared.senders.count()
    }
}

/// The rule of every opcode.
fn rules() -> &'static [Rule] {
    static RULES: OnceLock<Vec<Rule>> = OnceLock::new();
    RULES.get_or_init(build_rules)
}

fn build_rules() -> Vec<Rule> {
    let mut rules = vec![Rule::new(Kind::Other, 0); crate::generated::SLOTS.len()];
    let mut set = |op: u16, kind: Kind, key_len: usize| {
        assert!(key_len <= KEY_BYTES && key_len <= crate::generated::SLOTS[op as usize] as usize * 8);
        rules[op as usize] = Rule::new(kind, key_len);
    };
    macro_rules! whole {
        ($kind:expr; $($p:ident),* $(,)?) => {
            $(set(<c::$p as Packet>::OPCODE, $kind, std::mem::size_of::<c::$p>());)*
        };
    }
    // Scalar uniforms: the location alone (values raise nothing), `glUniform1i` its value too.
    macro_rules! located {
        ($($p:ident),* $(,)?) => {
            $(set(<c::$p as Packet>::OPCODE, Kind::Uniform { int1: false, vector: false }, 6);)*
        };
    }
    // Vector and matrix uniforms: every field but the value offset, which is the last.
    macro_rules! counted {
        ($int1:expr; $($p:ident),* $(,)?) => {
            $(set(
                <c::$p as Packet>::OPCODE,
                Kind::Uniform { int1: $int1, vector: true },
                std::mem::size_of::<c::$p>() - 4,
            );)*
        };
    }
    whole!(Kind::Binding; ActiveTexturePacket, BindTexturePacket, BindTextureUnitPacket, BindSamplerPacket, ClearPacket);
    whole!(Kind::BindIndexed; BindBufferBasePacket, BindBufferRangePacket);
    whole!(Kind::Setter;
        ViewportPacket, ScissorPacket, ClearColorPacket, ClearDepthPacket, ClearDepthfPacket, ClearStencilPacket,
        DepthFuncPacket, DepthMaskPacket, ColorMaskPacket, BlendFuncPacket, BlendFuncSeparatePacket,
        BlendColorPacket, BlendEquationPacket, BlendEquationSeparatePacket, CullFacePacket, FrontFacePacket, EnablePacket, DisablePacket, StencilFuncPacket,
        StencilFuncSeparatePacket, StencilOpPacket, StencilOpSeparatePacket, StencilMaskPacket,
        StencilMaskSeparatePacket, PolygonOffsetPacket, LineWidthPacket, PolygonModePacket, DepthRangePacket,
        DepthRangefPacket,
    );
    whole!(Kind::BindBuffer; BindBufferPacket);
    whole!(Kind::UseProgram; UseProgramPacket);
    whole!(Kind::BindVertexArray; BindVertexArrayPacket);
    whole!(Kind::Draw;
        DrawArraysPacket, DrawArraysInstancedPacket, DrawArraysInstancedBaseInstancePacket, DrawElementsPacket,
        DrawElementsBaseVertexPacket, DrawElementsInstancedPacket, DrawElementsInstancedBaseVertexPacket,
        DrawElementsInstancedBaseInstancePacket, DrawElementsInstancedBaseVertexBaseInstancePacket,
        DrawRangeElementsPacket, DrawRangeElementsBaseVertexPacket,
    );
    whole!(Kind::Uniform { int1: true, vector: false }; Uniform1iPacket);
    located!(
        Uniform1fPacket,
        Uniform2fPacket,
        Uniform3fPacket,
        Uniform4fPacket,
        Uniform2iPacket,
        Uniform3iPacket,
        Uniform4iPacket,
        Uniform1uiPacket,
        Uniform2uiPacket,
        Uniform3uiPacket,
        Uniform4uiPacket,
        Uniform1dPacket,
        Uniform2dPacket,
        Uniform3dPacket,
        Uniform4dPacket,
    );
    counted!(true; Uniform1ivPacket);
    counted!(false;
        Uniform1fvPacket, Uniform2fvPacket, Uniform3fvPacket, Uniform4fvPacket, Uniform2ivPacket, Uniform3ivPacket,
        Uniform4ivPacket, Uniform1uivPacket, Uniform2uivPacket, Uniform3uivPacket, Uniform4uivPacket,
        Uniform1dvPacket, Uniform2dvPacket, Uniform3dvPacket, Uniform4dvPacket, UniformMatrix2fvPacket,
        UniformMatrix3fvPacket, UniformMatrix4fvPacket, UniformMatrix2x3fvPacket, UniformMatrix3x2fvPacket,
        UniformMatrix2x4fvPacket, UniformMatrix4x2fvPacket, UniformMatrix3x4fvPacket, UniformMatrix4x3fvPacket,
        UniformMatrix2dvPacket, UniformMatrix3dvPacket, UniformMatrix4dvPacket, UniformMatrix2x3dvPacket,
        UniformMatrix3x2dvPacket, UniformMatrix2x4dvPacket, UniformMatrix4x2dvPacket, UniformMatrix3x4dvPacket,
        UniformMatrix4x3dvPacket,
    );
    rules
}

fn fx_bytes(bytes: &[u8]) -> u64 {
    let mut h = FastHasher::default();
    h.write(bytes);
    h.write_usize(bytes.len());
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value offset of every vector and matrix uniform packet is its last field, which the
    /// key leaves out; the key of every packet fits.
    #[test]
    fn vector_uniform_keys_leave_out_only_the_value_offset() {
        assert_eq!(std::mem::offset_of!(c::Uniform1ivPacket, value) + 4, std::mem::size_of::<c::Uniform1ivPacket>());
        assert_eq!(
            std::mem::offset_of!(c::UniformMatrix4fvPacket, value) + 4,
            std::mem::size_of::<c::UniformMatrix4fvPacket>()
        );
        assert_eq!(std::mem::offset_of!(c::UseProgramPacket, program), 2);
        assert_eq!(std::mem::offset_of!(c::BindVertexArrayPacket, array), 2);
        assert_eq!(std::mem::offset_of!(c::Uniform1iPacket, v0), 6);
        assert_eq!(std::mem::offset_of!(c::Uniform1ivPacket, count), 6);
        assert_eq!(std::mem::offset_of!(c::BindBufferPacket, target), 2);
        assert_eq!(std::mem::offset_of!(c::EnablePacket, cap), 2);
        assert_eq!(std::mem::offset_of!(c::BindBufferBasePacket, target), 2);
        assert_eq!(std::mem::offset_of!(c::BindBufferRangePacket, target), 2);
        assert_eq!(std::mem::offset_of!(c::DisablePacket, cap), 2);
        assert_eq!(std::mem::offset_of!(c::StencilFuncSeparatePacket, face), 2);
        assert_eq!(std::mem::offset_of!(c::StencilOpSeparatePacket, face), 2);
        assert_eq!(std::mem::offset_of!(c::StencilMaskSeparatePacket, face), 2);
        assert!(rules().iter().all(|r| r.words as usize <= KEY_BYTES / 8));
    }

    /// A key holds exactly the key's bytes: what follows them in the packet (a value offset, a
    /// float value) does not reach it.
    #[test]
    fn key_words_keep_the_key_bytes_only() {
        let bytes: Vec<u8> = (1..=24).collect();
        let slots: Vec<u64> = bytes.chunks(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect();
        let words = Rule::new(Kind::Binding, 10).key_words(&slots);
        assert_eq!(words, [slots[0], 0x0a09, 0, 0]);
        assert_eq!(Rule::new(Kind::Binding, 16).key_words(&slots), [slots[0], slots[1], 0, 0]);
        assert_eq!(Rule::new(Kind::Binding, 6).key_words(&slots)[0], 0x0605_0403_0201);
    }
}
