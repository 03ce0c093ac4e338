//! The resource budget of a replay: a capture is untrusted input, and a few bytes of it can ask
//! the driver for a great deal. A 25-byte create record could make a million objects (refused
//! outright: a replayed create makes exactly the names its record holds, `calls.rs`), a 40-byte
//! packet a terabyte buffer, a 24-byte draw four billion instances of four billion vertices. So
//! before a record reaches the device, the replay counts what it would cost and refuses the
//! file, naming the record, once it passes [`ReplayBudget`]:
//!
//! * **objects**: names made by the capture's creates and not deleted since;
//! * **storage bytes**: buffer storage (`glBufferData`, `glBufferStorage` and their named and
//!   sparse forms) and texel storage (textures of every dimension, multisampled and compressed,
//!   renderbuffers), as the bytes of each level times faces and samples, with each format's
//!   texel size (16 bytes for a format the table does not know, the largest uncompressed texel;
//!   1 byte for block-compressed ones);
//! * **vertices**: vertices drawn by the direct draws, times their instances, over the replay.
//!
//! Storage is counted per object where the object is known: a named call names it; a call on a
//! target resolves it through the bindings the capture made (`glBindBuffer`, `glBindBufferBase`,
//! `glBindTexture` on the active unit, `glBindRenderbuffer`). Specifying an object's storage
//! again replaces what it was charged, deleting it frees it, so a stream that re-specifies one
//! buffer every frame costs one buffer. Where the budget cannot tell which object a call reaches
//! (a binding changed by a vertex array, a multi-bind or `glBindTextureUnit`; a sparse
//! commitment), the call is charged on top of everything, never forgotten: the count is an upper
//! bound of what the driver holds, never less. Indirect draws read their counts from GPU memory,
//! which the budget does not see; a replay of an untrusted file should also use the robust
//! context `glcmd-replay` asks for.

use std::collections::{HashMap, HashSet};

use super::calls::Created;
use super::load::ListRecord;
use super::tables::{Cost, Field, Image, NameCount, Opcode};
use super::validate::{bytes, opcode};
use crate::generated::capture::OPCODES;
use crate::generated::SLOTS;
use crate::gl;
use crate::vocab::Class;

/// What a replay may use. [`Default`] suits captures of real applications on a workstation;
/// raise a limit for a larger capture you trust (`glcmd-replay --max-objects`,
/// `--max-storage`, `--max-vertices`), or use [`ReplayBudget::unlimited`].
///
/// `#[non_exhaustive]`, with builder methods as every options type of glcmd (`options.rs`):
/// `ReplayBudget::default().objects(1 << 16)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReplayBudget {
    /// Objects alive at once (made by the capture's creates, not yet deleted). Default 2^20.
    pub objects: u64,
    /// Bytes of buffer and texel storage held at once. Default 4 GiB.
    pub storage_bytes: u64,
    /// Vertices drawn over the whole replay (instances included). Default 2^34.
    pub vertices: u64,
}

impl Default for ReplayBudget {
    fn default() -> Self {
        ReplayBudget { objects: 1 << 20, storage_bytes: 4 << 30, vertices: 1 << 34 }
    }
}

crate::builders::builders!(ReplayBudget { objects: u64, storage_bytes: u64, vertices: u64 });

impl ReplayBudget {
    /// No limit (for captures you made yourself).
    pub fn unlimited() -> Self {
        ReplayBudget { objects: u64::MAX, storage_bytes: u64::MAX, vertices: u64::MAX }
    }
}

/// A budgeted resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resource {
    Objects,
    StorageBytes,
    Vertices,
}

impl Resource {
    fn describe(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Resource::Objects => ("live objects", "objects", "--max-objects"),
            Resource::StorageBytes => ("bytes of buffer and texel storage", "storage_bytes", "--max-storage"),
            Resource::Vertices => ("vertices drawn", "vertices", "--max-vertices"),
        }
    }
}

/// A record that would take the replay past its budget.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverBudget {
    pub resource: Resource,
    /// What the replay would use with this record.
    pub used: u128,
    pub limit: u64,
}

impl std::fmt::Display for OverBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (what, field, flag) = self.resource.describe();
        write!(
            f,
            "the replay would use {} {what}, past its budget of {} (ReplayBudget::{field}; raise it with glcmd-replay \
             {flag} if you trust the capture)",
            self.used, self.limit
        )
    }
}

impl std::error::Error for OverBudget {}

/// `level` of a key that covers every level of an object (a whole chain, a buffer).
const ALL: u32 = u32::MAX;

/// A binding as far as the budget can tell.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Name(u32),
    Unknown,
}

/// What a replay has used so far.
pub(crate) struct Budget {
    limits: ReplayBudget,
    /// Live objects: (class, captured name).
    live: HashSet<(u8, u32)>,
    /// Storage per object: (class, name) to (level, face) to bytes.
    storage: HashMap<(u8, u32), HashMap<(u32, u32), u128>>,
    /// Storage charged where the object is unknown, and the sum of `storage`.
    unkeyed: u128,
    keyed: u128,
    vertices: u128,
    /// (class, target, texture unit) to the bound name; absent is unknown.
    bindings: HashMap<(u8, u32, u32), Bound>,
    unit: u32,
    /// The target a texture was made with or first bound to.
    texture_targets: HashMap<u32, u32>,
}

impl Budget {
    pub(crate) fn new(limits: ReplayBudget) -> Budget {
        Budget {
            limits,
            live: HashSet::new(),
            storage: HashMap::new(),
            unkeyed: 0,
            keyed: 0,
            vertices: 0,
            bindings: HashMap::new(),
            unit: 0,
            texture_targets: HashMap::new(),
        }
    }

    /// A recorded create, before it is replayed.
    pub(crate) fn created(&mut self, c: &Created) -> Result<(), OverBudget> {
        for &name in c.names.iter().filter(|&&n| n != 0) {
            self.live.insert((c.class as u8, name));
            if let (Class::Texture, Some(target)) = (c.class, c.target) {
                self.texture_targets.insert(name, target);
            }
        }
        self.check(Resource::Objects, self.live.len() as u128)
    }

    /// Every packet of a (checked) list, before it is submitted: the command index and
    /// function of the first packet that passes the budget.
    pub(crate) fn list(&mut self, l: &ListRecord) -> Result<(), (usize, usize, &'static str, OverBudget)> {
        let (mut at, mut command) = (0, 0);
        let params = bytes(&l.params);
        while at < l.packets.len() {
            let op = opcode(l.packets[at]) as usize;
            let slots = SLOTS[op] as usize;
            let info = &OPCODES[op];
            let packet = bytes(&l.packets[at..at + slots]);
            self.packet(info, packet, params).map_err(|e| (at, command, info.function, e))?;
            at += slots;
            command += 1;
        }
        Ok(())
    }

    fn check(&self, resource: Resource, used: u128) -> Result<(), OverBudget> {
        let limit = match resource {
            Resource::Objects => self.limits.objects,
            Resource::StorageBytes => self.limits.storage_bytes,
            Resource::Vertices => self.limits.vertices,
        };
        if used > limit as u128 {
            return Err(OverBudget { resource, used, limit });
        }
        Ok(())
    }

    fn packet(&mut self, info: &Opcode, packet: &[u8], params: &[u8]) -> Result<(), OverBudget> {
        let read = |i: super::tables::Int| i.read(packet);
        match info.cost {
            Cost::None => {}
            Cost::Delete => self.delete(info, packet, params),
            Cost::Bind { class, target, name } => {
                let (target, name) = (read(target) as u32, read(name) as u32);
                let unit = if class == Class::Texture { self.unit } else { 0 };
                if class == Class::Texture && name != 0 {
                    self.texture_targets.entry(name).or_insert(target);
                }
                self.bindings.insert((class as u8, target, unit), Bound::Name(name));
            }
            Cost::Forget { class, target } => match target {
                Some(t) => {
                    let t = match t {
                        Field::Int(i) => read(i) as u32,
                        Field::Value(v) => v,
                    };
                    self.bindings.retain(|&(c, target, _), _| !(c == class as u8 && target == t));
                }
                None => self.bindings.retain(|&(c, _, _), _| c != class as u8),
            },
            Cost::ActiveTexture { unit } => self.unit = (read(unit) as u32).wrapping_sub(gl::TEXTURE0),
            Cost::Buffer { target, buffer, size } => {
                let bytes = read(size).max(0) as u128;
                let object = match (buffer, target) {
                    (Some(b), _) => Some(Bound::Name(read(b) as u32)),
                    (None, Some(t)) => Some(self.bound(Class::Buffer, read(t) as u32)),
                    (None, None) => None,
                };
                self.charge(Class::Buffer, object, (ALL, 0), bytes, true)?;
            }
            Cost::Image(image) => self.image(&image, packet)?,
            Cost::Draw { count, counts, instances } => {
                let mut n = count.map_or(0, |c| read(c).max(0) as u128);
                if let Some((at, len)) = counts {
                    n = sum_counts(packet, params, at, read(len));
                }
                let instances = instances.map_or(1, |i| read(i).max(0) as u128);
                self.vertices = self.vertices.saturating_add(n.saturating_mul(instances));
                self.check(Resource::Vertices, self.vertices)?;
            }
        }
        Ok(())
    }

    /// The binding of `target` (textures: on the active unit; a cube face: the cube map's).
    fn bound(&self, class: Class, target: u32) -> Bound {
        let (target, unit) = match class {
            Class::Texture => (binding_target(target), self.unit),
            _ => (target, 0),
        };
        self.bindings.get(&(class as u8, target, unit)).copied().unwrap_or(Bound::Unknown)
    }

    /// Charges `bytes` to (`object`, `at`), replacing what was charged there (a whole chain or
    /// a buffer first clears the object), or on top when the object is unknown. A call on an
    /// unbound target (name 0) allocates nothing.
    fn charge(
        &mut self,
        class: Class,
        object: Option<Bound>,
        at: (u32, u32),
        bytes: u128,
        whole: bool,
    ) -> Result<(), OverBudget> {
        match object {
            Some(Bound::Name(0)) => {}
            Some(Bound::Name(name)) => {
                let entry = self.storage.entry((class as u8, name)).or_default();
                if whole {
                    self.keyed -= entry.values().sum::<u128>();
                    entry.clear();
                }
                let old = entry.insert(at, bytes).unwrap_or(0);
                self.keyed = self.keyed - old + bytes;
            }
            None | Some(Bound::Unknown) => self.unkeyed = self.unkeyed.saturating_add(bytes),
        }
        self.check(Resource::StorageBytes, self.keyed.saturating_add(self.unkeyed))
    }

    fn image(&mut self, i: &Image, packet: &[u8]) -> Result<(), OverBudget> {
        let read = |f: Option<super::tables::Int>, or: i64| f.map_or(or, |f| f.read(packet)).max(0) as u128;
        let target = i.target.map(|t| t.read(packet) as u32);
        let object = match (i.name, target) {
            (Some(n), _) => Some(Bound::Name(n.read(packet) as u32)),
            (None, Some(t)) => Some(self.bound(i.class, t)),
            (None, None) => None,
        };
        let (w, h, d) = (read(Some(i.width), 0), read(i.height, 1), read(i.depth, 1));
        let samples = read(i.samples, 1).max(1);
        let faces = match (target, object) {
            (Some(gl::TEXTURE_CUBE_MAP), _) => 6,
            (None, Some(Bound::Name(n))) if self.texture_targets.get(&n) == Some(&gl::TEXTURE_CUBE_MAP) => 6,
            _ => 1,
        };
        let bytes = match i.bytes {
            Some(b) => read(Some(b), 0),
            None => {
                let texel = texel_bytes(i.format.map_or(0, |f| f.read(packet) as u32));
                let levels = i.levels.map(|l| read(Some(l), 1));
                let texels = match levels {
                    Some(levels) => chain_texels(w, h, d, levels),
                    None => w.saturating_mul(h).saturating_mul(d),
                };
                texels.saturating_mul(texel).saturating_mul(samples).saturating_mul(faces)
            }
        };
        let whole = i.level.is_none();
        let at = match i.level {
            Some(l) => (l.read(packet).clamp(0, u32::MAX as i64 - 1) as u32, target.unwrap_or(0)),
            None => (ALL, 0),
        };
        self.charge(i.class, object, at, bytes, whole)
    }

    /// A delete: its names are no longer live, their storage is freed, bindings to them are 0.
    fn delete(&mut self, info: &Opcode, packet: &[u8], params: &[u8]) {
        for field in info.names {
            let Some(class) = field.class.resolve(packet) else { continue };
            let names: Vec<u32> = match field.array {
                None => vec![read_u32(packet, field.at as usize)],
                Some((count, nullable)) => {
                    let start = read_u32(packet, field.at as usize) as usize;
                    if nullable && start == u32::MAX as usize {
                        continue;
                    }
                    let n = match count {
                        NameCount::Field(c) => c.read(packet).max(0) as usize,
                        NameCount::Const(k) => k as usize,
                    };
                    (0..n).map_while(|i| params.get(start + i * 4..start + i * 4 + 4)).map(ne_u32).collect()
                }
            };
            for name in names.into_iter().filter(|&n| n != 0) {
                self.live.remove(&(class as u8, name));
                if let Some(levels) = self.storage.remove(&(class as u8, name)) {
                    self.keyed -= levels.values().sum::<u128>();
                }
                for b in self.bindings.iter_mut().filter(|((c, _, _), b)| *c == class as u8 && **b == Bound::Name(name))
                {
                    *b.1 = Bound::Name(0);
                }
            }
        }
    }
}

fn ne_u32(b: &[u8]) -> u32 {
    u32::from_ne_bytes(b.try_into().expect("4 bytes"))
}

fn read_u32(b: &[u8], at: usize) -> u32 {
    b.get(at..at + 4).map_or(0, ne_u32)
}

/// The sum of the non-negative entries of a counts array (`glMultiDrawArrays`' `count`).
fn sum_counts(packet: &[u8], params: &[u8], at: u16, len: i64) -> u128 {
    let start = read_u32(packet, at as usize) as usize;
    (0..len.max(0) as usize)
        .map_while(|i| params.get(start + i * 4..start + i * 4 + 4))
        .map(|b| ne_u32(b) as i32)
        .map(|c| c.max(0) as u128)
        .sum()
}

/// The binding a texture target is bound through (a cube face: the cube map).
fn binding_target(target: u32) -> u32 {
    if (gl::TEXTURE_CUBE_MAP_POSITIVE_X..=gl::TEXTURE_CUBE_MAP_NEGATIVE_Z).contains(&target) {
        gl::TEXTURE_CUBE_MAP
    } else {
        target
    }
}

/// Texels of a chain of `levels` levels: width and height halve per level; depth is not halved
/// (array layers do not shrink, and for a 3D texture this over-counts, which is safe).
fn chain_texels(w: u128, h: u128, d: u128, levels: u128) -> u128 {
    let mut total: u128 = 0;
    for l in 0..levels.min(64) as u32 {
        let (lw, lh) = ((w >> l).max(1), (h >> l).max(1));
        total = total.saturating_add(lw.saturating_mul(lh).saturating_mul(d));
    }
    total
}

/// Bytes of one texel of an internal format: 16 (the largest uncompressed texel) for a format
/// this table does not know, so the count is never less than the driver's.
fn texel_bytes(format: u32) -> u128 {
    match format {
        gl::R8 | gl::R8I | gl::R8UI | gl::R8_SNORM | gl::STENCIL_INDEX8 => 1,
        gl::RG8 | gl::RG8I | gl::RG8UI | gl::RG8_SNORM | gl::R16 | gl::R16I | gl::R16UI | gl::R16F | gl::R16_SNORM => 2,
        gl::RGB565 | gl::RGB5_A1 | gl::RGBA4 | gl::DEPTH_COMPONENT16 => 2,
        gl::RGB8 | gl::SRGB8 | gl::RGB8I | gl::RGB8UI | gl::RGB8_SNORM => 4,
        gl::RGBA8 | gl::SRGB8_ALPHA8 | gl::RGBA8I | gl::RGBA8UI | gl::RGBA8_SNORM => 4,
        gl::RG16 | gl::RG16I | gl::RG16UI | gl::RG16F | gl::RG16_SNORM | gl::R32F | gl::R32I | gl::R32UI => 4,
        gl::RGB10_A2 | gl::RGB10_A2UI | gl::R11F_G11F_B10F | gl::RGB9_E5 => 4,
        gl::DEPTH_COMPONENT24 | gl::DEPTH_COMPONENT32 | gl::DEPTH_COMPONENT32F | gl::DEPTH24_STENCIL8 => 4,
        gl::RGB16 | gl::RGB16I | gl::RGB16UI | gl::RGB16F | gl::RGB16_SNORM => 8,
        gl::RGBA16 | gl::RGBA16I | gl::RGBA16UI | gl::RGBA16F | gl::RGBA16_SNORM => 8,
        gl::RG32F | gl::RG32I | gl::RG32UI | gl::DEPTH32F_STENCIL8 => 8,
        // Block-compressed formats: at most one byte per texel (BC1-7, RGTC, ETC2/EAC, ASTC).
        0x83F0..=0x83F3 | 0x8C4C..=0x8C4F | 0x8DBB..=0x8DBE | 0x8E8C..=0x8E8F | 0x9270..=0x9279 | 0x93B0..=0x93DD => 1,
        _ => 16,
    }
}
