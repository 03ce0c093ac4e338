//! The audit of the recording side's pixel state (issue 30, item 1), as the binding shadow's
//! audit does for the render thread (`sweep/src/audit.rs`): what a list tracks to decide what a
//! pointer means and how many bytes to copy (`glcmd::pixels::PixelState`: the unpack and pack
//! pixel-store parameters and the pixel-pack and pixel-unpack bindings) is compared with the
//! GL's own state, read back with `glGetIntegerv`, after every call that can change it.
//!
//! The calls are drawn, from a fixed seed, from every call that changes that state, with
//! adversarial arguments: `bind_buffer` on the two pixel targets, on other targets and on no
//! target, with 0, buffers created and generated through glcmd, buffers made behind glcmd's back
//! (`with_gl`), names never generated (4242, `u32::MAX`) and deleted names; `delete_buffers` of
//! bound, unbound, unknown and already deleted names, several at once; `pixel_storei` and
//! `pixel_storef` of every pixel-store pname and a few that are none, with values the GL refuses
//! (negative, alignment 3), accepts, and rounds (`x.5`); hand-overs between implicit lists (a
//! query submits the pending calls); and creates that may hand a deleted name out again.
//!
//! The rule checked: a binding the tracking is sure of is the GL's, exactly (a refused bind
//! changes nothing, a delete unbinds); a binding it is unsure of (a name glcmd cannot prove
//! exists) reads pointers as offsets, never as client memory, and becomes the GL's once asked
//! (`PixelState::resolve`, what an immediate C thread does at once). The pixel-store state is
//! always the GL's. The binding shadow is audited at the same points, since deletes now take
//! effect in place on an immediate context.

use glcmd::pixels::{PixelState, UNSURE_PACK, UNSURE_UNPACK};

use glcmd::types::GLuint;
use glcmd::{gl, Device};

/// A small deterministic generator (xorshift64*), so a failure names a step that repeats.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn pick<T: Copy>(&mut self, from: &[T]) -> T {
        from[(self.next() % from.len() as u64) as usize]
    }
}

const STORE_PNAMES: [u32; 17] = [
    gl::UNPACK_SWAP_BYTES,
    gl::UNPACK_LSB_FIRST,
    gl::UNPACK_ROW_LENGTH,
    gl::UNPACK_IMAGE_HEIGHT,
    gl::UNPACK_SKIP_ROWS,
    gl::UNPACK_SKIP_PIXELS,
    gl::UNPACK_SKIP_IMAGES,
    gl::UNPACK_ALIGNMENT,
    gl::PACK_SWAP_BYTES,
    gl::PACK_LSB_FIRST,
    gl::PACK_ROW_LENGTH,
    gl::PACK_IMAGE_HEIGHT,
    gl::PACK_SKIP_ROWS,
    gl::PACK_SKIP_PIXELS,
    gl::PACK_SKIP_IMAGES,
    gl::PACK_ALIGNMENT,
    // No pixel-store pname: GL_INVALID_ENUM, nothing changes.
    gl::TEXTURE_2D,
];
const INT_VALUES: [i32; 12] = [i32::MIN, -7, -1, 0, 1, 2, 3, 4, 5, 8, 4096, i32::MAX];
const FLOAT_VALUES: [f32; 10] = [-0.5, 0.49, 0.5, 1.5, 2.5, 3.0, 3.5, 7.49, 8.0, 1.0e9];
const TARGETS: [u32; 6] = [
    gl::PIXEL_UNPACK_BUFFER,
    gl::PIXEL_PACK_BUFFER,
    gl::PIXEL_UNPACK_BUFFER,
    gl::PIXEL_PACK_BUFFER,
    gl::ARRAY_BUFFER,
    // No buffer target: GL_INVALID_ENUM.
    gl::TEXTURE_2D,
];

/// What the audit saw.
#[derive(Debug, Default)]
struct Seen {
    calls: usize,
    unsure: usize,
    deletes_unbinding: usize,
}

#[test]
fn pixel_state_tracking_follows_what_the_gl_accepted() {
    let device = Device::headless().unwrap();
    let mut imm = device.immediate();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    // Names of every provenance. `foreign`: made by the GL behind glcmd's back.
    let mut names: Vec<GLuint> = device.create_buffers(3).unwrap();
    names.extend(device.gen_buffers(3).unwrap());
    // Names made through glcmd and not deleted since: a bind of them must never need asking
    // (each would cost an immediate C thread a round trip).
    let mut live: std::collections::HashSet<GLuint> = names.iter().copied().collect();
    let foreign: Vec<GLuint> = imm
        .with_gl(|g| {
            let mut n = [0u32; 2];
            // SAFETY: two names into a local array of two.
            unsafe { (g.GenBuffers)(2, n.as_mut_ptr()) };
            n.to_vec()
        })
        .unwrap();
    names.extend(&foreign);
    names.extend([0, 4242, u32::MAX]);
    let mut seen = Seen::default();
    let mut last = String::new();
    for step in 0..2500 {
        let what = match rng.next() % 16 {
            0..=5 => {
                let (target, name) = (rng.pick(&TARGETS), rng.pick(&names));
                imm.bind_buffer(target, name);
                let bit = match target {
                    gl::PIXEL_UNPACK_BUFFER => UNSURE_UNPACK,
                    gl::PIXEL_PACK_BUFFER => UNSURE_PACK,
                    _ => 0,
                };
                if live.contains(&name) || name == 0 {
                    assert_eq!(imm.pixel_state().unsure & bit, 0, "step {step}: a bind of {name}, made through glcmd");
                }
                format!("bind_buffer({target:#x}, {name})")
            }
            6 | 7 => {
                let n = 1 + rng.next() % 3;
                let victims: Vec<GLuint> = (0..n).map(|_| rng.pick(&names)).collect();
                let before = imm.pixel_state();
                imm.delete_buffers(&victims);
                for v in &victims {
                    live.remove(v);
                }
                let after = imm.pixel_state();
                if (before.unpack_name != after.unpack_name) || (before.pack_name != after.pack_name) {
                    seen.deletes_unbinding += 1;
                }
                format!("delete_buffers({victims:?})")
            }
            8..=10 => {
                let (pname, v) = (rng.pick(&STORE_PNAMES), rng.pick(&INT_VALUES));
                imm.pixel_storei(pname, v);
                format!("pixel_storei({pname:#x}, {v})")
            }
            11 | 12 => {
                let (pname, v) = (rng.pick(&STORE_PNAMES), rng.pick(&FLOAT_VALUES));
                imm.pixel_storef(pname, v);
                format!("pixel_storef({pname:#x}, {v})")
            }
            13 => {
                // A create may hand a deleted name out again: it must be believed again.
                let more = device.gen_buffers(1).unwrap();
                names.extend(&more);
                live.extend(&more);
                format!("gen_buffers() = {more:?}")
            }
            14 => {
                imm.submit_pending().unwrap();
                "a hand-over (implicit submit)".to_string()
            }
            _ => {
                let more = device.create_buffers(1).unwrap();
                names.extend(&more);
                live.extend(&more);
                format!("create_buffers() = {more:?}")
            }
        };
        seen.calls += 1;
        let context = format!("step {step}, after {what} (before it: {last})");
        compare(&mut imm, &device, &context, &mut seen);
        last = what;
    }
    println!("PIXEL STATE AUDIT: {seen:?}");
    assert!(seen.unsure > 0, "no bind of a name glcmd could not prove exists was made: {seen:?}");
    assert!(seen.deletes_unbinding > 0, "no delete unbound a pixel buffer: {seen:?}");
}

/// The GL's pixel state now, after the context's pending calls.
fn device_state(imm: &mut glcmd::Immediate) -> PixelState {
    imm.submit_pending().unwrap();
    imm.device().pixel_state_now().unwrap()
}

/// Compares the tracked state with the GL's (the module doc says the rule), then resolves an
/// unsure binding as an immediate C thread would.
fn compare(imm: &mut glcmd::Immediate, device: &Device, context: &str, seen: &mut Seen) {
    let gl_state = device_state(imm);
    let t = imm.pixel_state();
    assert_eq!((t.unpack, t.pack), (gl_state.unpack, gl_state.pack), "pixel store differs, {context}");
    for (bit, tracked, bound, real, what) in [
        (UNSURE_UNPACK, t.unpack_name, t.unpack_buffer, gl_state.unpack_name, "GL_PIXEL_UNPACK_BUFFER"),
        (UNSURE_PACK, t.pack_name, t.pack_buffer, gl_state.pack_name, "GL_PIXEL_PACK_BUFFER"),
    ] {
        if t.unsure & bit != 0 {
            // Unsure: a pointer is read as an offset (checked against the real binding at
            // replay), never as client memory.
            assert!(bound, "{what}: unsure but a pointer would be read as client memory, {context}");
            seen.unsure += 1;
        } else {
            assert_eq!(
                (tracked, bound),
                (real, real != 0),
                "{what}: the tracking has {tracked}, the GL {real}, {context}"
            );
        }
    }
    imm.resolve_pixel_bindings(gl_state.unpack_name, gl_state.pack_name);
    let differences = device.audit_binding_shadow().unwrap();
    assert!(differences.is_empty(), "the binding shadow claims more than the GL has, {context}: {differences:?}");
}
