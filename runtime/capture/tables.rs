//! The types of the generated capture tables (`generated::capture`, from
//! `codegen/src/emit/capture.rs`): how to find and size each array argument of a packet, and
//! which arguments name GL objects (`validate.rs` reads them), and what each command costs a
//! replay (`budget.rs` reads them).

use crate::generated::pname::Count;
use crate::vocab::Class;

/// An integer packet field: byte offset in the packet, size in bytes, signedness.
#[derive(Clone, Copy, Debug)]
pub struct Int {
    pub at: u16,
    pub size: u8,
    pub signed: bool,
}

impl Int {
    /// The field's value, widened to `i64`. `packet` holds the whole packet (the validator
    /// checked it lies inside the list, and the tables only name fields inside the packet).
    pub fn read(self, packet: &[u8]) -> i64 {
        let at = self.at as usize;
        let bytes = |n: usize| {
            let mut b = [0u8; 8];
            if let Some(src) = packet.get(at..at + n) {
                b[..n].copy_from_slice(src);
            }
            b
        };
        let b = bytes(self.size as usize);
        match (self.size, self.signed) {
            (1, false) => b[0] as i64,
            (1, true) => b[0] as i8 as i64,
            (2, false) => u16::from_ne_bytes([b[0], b[1]]) as i64,
            (2, true) => i16::from_ne_bytes([b[0], b[1]]) as i64,
            (4, false) => u32::from_ne_bytes([b[0], b[1], b[2], b[3]]) as i64,
            (4, true) => i32::from_ne_bytes([b[0], b[1], b[2], b[3]]) as i64,
            // 8-byte fields: GLsizeiptr and friends are signed; an unsigned one above
            // i64::MAX reads as negative and is refused as a count.
            _ => i64::from_ne_bytes(b),
        }
    }
}

/// How long an array argument is, in bytes.
#[derive(Clone, Copy, Debug)]
pub enum Len {
    /// `count / div` elements of `elem` bytes (a `len="n"`, `count*4` or `bufSize/4` rule).
    Count { count: Int, elem: u32, div: u32 },
    /// A fixed number of bytes (`len="16"`).
    Const { bytes: u32 },
    /// A `glcmd::Bytes`-style argument with its own `_len` field: `len` elements of `elem`
    /// bytes, or (where allowed) the markers for a buffer offset and a null pointer. `equals`:
    /// the count argument the length must match (compressed pixel data and its `imageSize`).
    Bytes { len: Int, elem: u32, offsets: bool, null: bool, equals: Option<Int> },
    /// As many elements as the pname takes (16 for a pname the tables do not know, as the
    /// recording method pads).
    Pname { pname: Int, count: fn(u32) -> Option<Count>, elem: u32 },
    /// A string: `length` bytes (the recording method's length, never negative), or, with no
    /// length argument, up to a NUL.
    String { length: Option<Int> },
    /// `count` strings: a table of `count` offsets, and the table of `count` lengths (never
    /// negative) at the packet field `lengths`; with no lengths, each string ends at a NUL.
    Strings { count: Int, lengths: Option<u16> },
}

/// An array argument: where its parameter-buffer offset is in the packet.
#[derive(Clone, Copy, Debug)]
pub struct ArrayField {
    pub param: &'static str,
    pub at: u16,
    /// The offset field is 8 bytes (`glcmd::Bytes` fields), else 4.
    pub wide: bool,
    /// The offset `u32::MAX` means a null pointer, which the GL accepts here.
    pub nullable: bool,
    pub len: Len,
}

/// How many names an array of names holds.
#[derive(Clone, Copy, Debug)]
pub enum NameCount {
    Field(Int),
    Const(u32),
}

/// Which object type a name argument names.
#[derive(Clone, Copy, Debug)]
pub enum NameClass {
    Fixed(Class),
    /// `glCopyImageSubData`: a renderbuffer when the target field is `GL_RENDERBUFFER`.
    RenderbufferOrTexture(Int),
    /// `glObjectLabel`: the class the identifier field says.
    Identifier(Int),
}

/// An argument naming GL objects: a `GLuint` packet field, or (with `array`) an array of them
/// in the parameter buffer whose offset is the field.
#[derive(Clone, Copy, Debug)]
pub struct NameField {
    pub param: &'static str,
    pub at: u16,
    pub class: NameClass,
    /// (count, nullable) of an array of names.
    pub array: Option<(NameCount, bool)>,
}

/// A binding target: a packet field, or a fixed enum value.
#[derive(Clone, Copy, Debug)]
pub enum Field {
    Int(Int),
    Value(u32),
}

/// Texel storage a command asks for (see `Cost::Image`).
#[derive(Clone, Copy, Debug)]
pub struct Image {
    /// `Texture` or `Renderbuffer`.
    pub class: Class,
    /// The object is the one bound to this target (`None` with `name` `None`: charged on top).
    pub target: Option<Int>,
    /// The object is named by this field.
    pub name: Option<Int>,
    /// A whole chain of this many levels, or one image of this level.
    pub levels: Option<Int>,
    pub level: Option<Int>,
    /// The internal format, for the bytes of a texel.
    pub format: Option<Int>,
    pub width: Int,
    pub height: Option<Int>,
    pub depth: Option<Int>,
    pub samples: Option<Int>,
    /// Compressed data of this many bytes (`imageSize`).
    pub bytes: Option<Int>,
}

/// What a command costs a replay of a capture: objects it frees, storage it allocates,
/// vertices it draws, bindings the storage calls resolve through (`codegen/src/budget.rs`).
#[derive(Clone, Copy, Debug)]
pub enum Cost {
    None,
    /// A delete: the names of the opcode's name fields are freed.
    Delete,
    /// Binds object `name` of `class` to `target` (textures: on the active unit).
    Bind {
        class: Class,
        target: Int,
        name: Int,
    },
    /// Changes bindings of `class` the budget does not follow (`target`'s, or every target's).
    Forget {
        class: Class,
        target: Option<Field>,
    },
    ActiveTexture {
        unit: Int,
    },
    /// `size` bytes of buffer storage for the buffer named by `buffer` or bound to `target`.
    Buffer {
        target: Option<Int>,
        buffer: Option<Int>,
        size: Int,
    },
    Image(Image),
    /// `count` vertices, or the sum of the `counts` array (parameter-buffer offset field, and
    /// the field of its length), times `instances`.
    Draw {
        count: Option<Int>,
        counts: Option<(u16, Int)>,
        instances: Option<Int>,
    },
}

/// What the capture loader knows about one opcode.
#[derive(Clone, Copy, Debug)]
pub struct Opcode {
    /// The GL function.
    pub function: &'static str,
    /// Why the opcode is not replayed from a capture, if it is not.
    pub refused: Option<&'static str>,
    pub arrays: &'static [ArrayField],
    pub names: &'static [NameField],
    /// The program field of a link (`glLinkProgram`, `glProgramBinary`).
    pub links: Option<Int>,
    /// What the command costs a replay.
    pub cost: Cost,
}

impl NameClass {
    /// The class of the name in `packet`, if it names a tracked object type.
    pub fn resolve(self, packet: &[u8]) -> Option<Class> {
        match self {
            NameClass::Fixed(c) => Some(c),
            NameClass::RenderbufferOrTexture(target) => {
                Some(if target.read(packet) == crate::gl::RENDERBUFFER as i64 {
                    Class::Renderbuffer
                } else {
                    Class::Texture
                })
            }
            NameClass::Identifier(identifier) => {
                let id = u32::try_from(identifier.read(packet)).ok()?;
                crate::dump::class_of_identifier(id).and_then(Class::from_xml)
            }
        }
    }
}
