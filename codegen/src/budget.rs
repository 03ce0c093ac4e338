//! What a recorded command costs a replay of a capture: the objects, storage and vertices that
//! `glcmd-replay`'s resource budget counts (`runtime/capture/budget.rs`), by GL function.
//!
//! A capture is untrusted input, and a 30-byte packet can ask the driver for a terabyte buffer
//! or two billion instances of two billion vertices. The replayer counts, before it submits a
//! list, what the list's packets would allocate and draw, and refuses a file past its budget.
//! This table says, for each function that allocates storage, draws, or changes a binding the
//! storage calls resolve through, which arguments carry what. Functions not listed cost
//! nothing; deletes are found by their kind (they free what their names held).
//!
//! The table names arguments by their gl.xml names; a name the function lacks is a generator
//! error (`emit/capture.rs`).

/// A binding target: an argument, or a fixed enum value.
#[derive(Clone, Copy, Debug)]
pub enum Target {
    Arg(&'static str),
    Value(u32),
}

/// Which kind of object a binding or storage call is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Object {
    Buffer,
    Texture,
    Renderbuffer,
}

/// The arguments of one costed function.
#[derive(Clone, Copy, Debug)]
pub enum CostRule {
    /// Binds object `name` to `target` (on the active texture unit, for textures).
    Bind { object: Object, target: &'static str, name: &'static str },
    /// Changes bindings of `object` in ways the budget does not follow: `target`'s (all
    /// targets' with `None`) binding becomes unknown.
    Forget { object: Object, target: Option<Target> },
    /// `glActiveTexture`.
    ActiveTexture { unit: &'static str },
    /// `size` bytes of buffer storage, for the buffer named by `buffer`, or bound to `target`
    /// (neither: charged on top, as sparse commitments are).
    Buffer { target: Option<&'static str>, buffer: Option<&'static str>, size: &'static str },
    /// Texel storage: for the object named by `name`, or bound to `target` (neither: charged
    /// on top). `levels` (a whole chain) or `level` (one image), `format`, the extent (absent
    /// dimensions are 1), `samples`, or `bytes` (compressed data sized by `imageSize`).
    Image {
        object: Object,
        target: Option<&'static str>,
        name: Option<&'static str>,
        levels: Option<&'static str>,
        level: Option<&'static str>,
        format: Option<&'static str>,
        width: &'static str,
        height: Option<&'static str>,
        depth: Option<&'static str>,
        samples: Option<&'static str>,
        bytes: Option<&'static str>,
    },
    /// Vertices drawn: `count` (or the sum of the `counts` array of `drawcount` entries) times
    /// `instances`.
    Draw { count: Option<&'static str>, counts: Option<&'static str>, instances: Option<&'static str> },
}

const fn draw(count: &'static str, instances: Option<&'static str>) -> CostRule {
    CostRule::Draw { count: Some(count), counts: None, instances }
}

const fn multi_draw() -> CostRule {
    CostRule::Draw { count: None, counts: Some("count"), instances: None }
}

const fn buffer(target: Option<&'static str>, buffer: Option<&'static str>) -> CostRule {
    CostRule::Buffer { target, buffer, size: "size" }
}

/// Texel storage of a whole chain (`glTexStorage*`, `glTextureStorage*`), of one image
/// (`glTexImage*`, `glCopyTexImage*`) or multisampled (no levels, `samples`).
#[allow(clippy::too_many_arguments)]
const fn image(
    object: Object,
    named: bool,
    levels: bool,
    level: bool,
    height: bool,
    depth: bool,
    samples: bool,
    bytes: bool,
) -> CostRule {
    let (target, name) = match (named, object) {
        (true, Object::Texture) => (None, Some("texture")),
        (true, _) => (None, Some("renderbuffer")),
        (false, _) => (Some("target"), None),
    };
    CostRule::Image {
        object,
        target,
        name,
        levels: if levels { Some("levels") } else { None },
        level: if level { Some("level") } else { None },
        format: if bytes { None } else { Some("internalformat") },
        width: "width",
        height: if height { Some("height") } else { None },
        depth: if depth { Some("depth") } else { None },
        samples: if samples { Some("samples") } else { None },
        bytes: if bytes { Some("imageSize") } else { None },
    }
}

/// `GL_ELEMENT_ARRAY_BUFFER`: vertex array state, changed by binding a vertex array.
const ELEMENT_ARRAY_BUFFER: u32 = 0x8893;

/// The cost rule of a GL function, if it has one.
pub fn rule(function: &str) -> Option<CostRule> {
    use Object::*;
    let t = Texture;
    Some(match function {
        "glBindBuffer" | "glBindBufferBase" | "glBindBufferRange" => {
            CostRule::Bind { object: Buffer, target: "target", name: "buffer" }
        }
        "glBindBuffersBase" | "glBindBuffersRange" => {
            CostRule::Forget { object: Buffer, target: Some(Target::Arg("target")) }
        }
        "glBindVertexArray" | "glVertexArrayElementBuffer" => {
            CostRule::Forget { object: Buffer, target: Some(Target::Value(ELEMENT_ARRAY_BUFFER)) }
        }
        "glActiveTexture" => CostRule::ActiveTexture { unit: "texture" },
        "glBindTexture" => CostRule::Bind { object: t, target: "target", name: "texture" },
        "glBindTextureUnit" | "glBindTextures" => CostRule::Forget { object: t, target: None },
        "glBindRenderbuffer" => CostRule::Bind { object: Renderbuffer, target: "target", name: "renderbuffer" },
        "glBufferData" | "glBufferStorage" => buffer(Some("target"), None),
        "glNamedBufferData" | "glNamedBufferStorage" | "glNamedBufferDataEXT" | "glNamedBufferStorageEXT" => {
            buffer(None, Some("buffer"))
        }
        "glBufferPageCommitmentARB" | "glNamedBufferPageCommitmentARB" | "glNamedBufferPageCommitmentEXT" => {
            buffer(None, None)
        }
        //                                           named  levels level  height depth  samples bytes
        "glTexImage1D" => image(t, false, false, true, false, false, false, false),
        "glTexImage2D" => image(t, false, false, true, true, false, false, false),
        "glTexImage3D" => image(t, false, false, true, true, true, false, false),
        "glCopyTexImage1D" => image(t, false, false, true, false, false, false, false),
        "glCopyTexImage2D" => image(t, false, false, true, true, false, false, false),
        "glCompressedTexImage1D" => image(t, false, false, true, false, false, false, true),
        "glCompressedTexImage2D" => image(t, false, false, true, true, false, false, true),
        "glCompressedTexImage3D" => image(t, false, false, true, true, true, false, true),
        "glTexImage2DMultisample" => image(t, false, false, false, true, false, true, false),
        "glTexImage3DMultisample" => image(t, false, false, false, true, true, true, false),
        "glTexStorage1D" => image(t, false, true, false, false, false, false, false),
        "glTexStorage2D" => image(t, false, true, false, true, false, false, false),
        "glTexStorage3D" => image(t, false, true, false, true, true, false, false),
        "glTexStorage2DMultisample" => image(t, false, false, false, true, false, true, false),
        "glTexStorage3DMultisample" => image(t, false, false, false, true, true, true, false),
        "glTextureStorage1D" => image(t, true, true, false, false, false, false, false),
        "glTextureStorage2D" => image(t, true, true, false, true, false, false, false),
        "glTextureStorage3D" => image(t, true, true, false, true, true, false, false),
        "glTextureStorage2DMultisample" => image(t, true, false, false, true, false, true, false),
        "glTextureStorage3DMultisample" => image(t, true, false, false, true, true, true, false),
        "glRenderbufferStorage" => image(Renderbuffer, false, false, false, true, false, false, false),
        "glRenderbufferStorageMultisample" => image(Renderbuffer, false, false, false, true, false, true, false),
        "glNamedRenderbufferStorage" => image(Renderbuffer, true, false, false, true, false, false, false),
        "glNamedRenderbufferStorageMultisample" => image(Renderbuffer, true, false, false, true, false, true, false),
        "glTexPageCommitmentARB" => CostRule::Image {
            object: t,
            target: None,
            name: None,
            levels: None,
            level: None,
            format: None,
            width: "width",
            height: Some("height"),
            depth: Some("depth"),
            samples: None,
            bytes: None,
        },
        "glDrawArrays"
        | "glDrawElements"
        | "glDrawElementsBaseVertex"
        | "glDrawRangeElements"
        | "glDrawRangeElementsBaseVertex" => draw("count", None),
        "glDrawArraysInstanced"
        | "glDrawArraysInstancedBaseInstance"
        | "glDrawElementsInstanced"
        | "glDrawElementsInstancedBaseVertex"
        | "glDrawElementsInstancedBaseInstance"
        | "glDrawElementsInstancedBaseVertexBaseInstance" => draw("count", Some("instancecount")),
        "glMultiDrawArrays" | "glMultiDrawElements" | "glMultiDrawElementsBaseVertex" => multi_draw(),
        _ => return None,
    })
}
