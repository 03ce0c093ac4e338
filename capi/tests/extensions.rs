//! The extension list and the version, asked through the C entry points (what a loader such
//! as glad asks), on a real context (llvmpipe), against the driver's own answers (read raw on a
//! second device's render thread with `Device::with_gl`):
//!
//! * the list is the driver's, filtered, in the driver's order, and every function of every
//!   listed extension has an entry point (`glcmdGetProcAddress` is not NULL for it);
//! * an extension the driver lists but glcmd leaves out lacks an entry point for one of its
//!   functions (or gl.xml does not know it): nothing is dropped without a reason;
//! * `GL_NUM_EXTENSIONS` agrees in every typed getter; an index past it raises
//!   `GL_INVALID_VALUE` and returns NULL, `glGetString(GL_EXTENSIONS)` `GL_INVALID_ENUM` (core);
//! * the version numbers and strings are the driver's where this build serves every core
//!   function of the driver's version.

use std::ffi::{c_char, CStr, CString};
use std::ptr::{null, null_mut};

use glcmd::gl;
use glcmd::types::*;
use glcmd_capi::generated::TABLE as GL;
use glcmd_capi::*;

fn check(status: GlcmdStatus) {
    if status != GLCMD_OK {
        let mut message: *const c_char = null();
        unsafe { glcmdLastError(&mut message) };
        panic!("status {status}: {}", unsafe { CStr::from_ptr(message) }.to_string_lossy());
    }
}

fn text(p: *const GLubyte) -> Option<String> {
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p.cast()) }.to_string_lossy().into_owned())
}

/// What the driver itself says: its extensions in order, its version numbers and strings.
struct Driver {
    extensions: Vec<String>,
    version: (u32, u32),
    version_string: String,
    glsl: String,
}

fn driver() -> Driver {
    let device = glcmd::Device::headless().expect("a headless device");
    device
        .with_gl(|g| unsafe {
            let (mut n, mut major, mut minor) = (0, 0, 0);
            (g.GetIntegerv)(gl::NUM_EXTENSIONS, &mut n);
            (g.GetIntegerv)(gl::MAJOR_VERSION, &mut major);
            (g.GetIntegerv)(gl::MINOR_VERSION, &mut minor);
            Driver {
                extensions: (0..n as GLuint).map(|i| text((g.GetStringi)(gl::EXTENSIONS, i)).unwrap()).collect(),
                version: (major as u32, minor as u32),
                version_string: text((g.GetString)(gl::VERSION)).unwrap(),
                glsl: text((g.GetString)(gl::SHADING_LANGUAGE_VERSION)).unwrap(),
            }
        })
        .unwrap()
}

/// The functions extension `name` requires where the extensions `listed` are listed.
fn functions_of(name: &str, listed: &[String]) -> Vec<&'static str> {
    let p = glcmd::served::extension(name).unwrap_or_else(|| panic!("{name} is listed but gl.xml does not know it"));
    let mut v: Vec<&str> = p.functions().map(|(f, _)| f).collect();
    for (other, functions) in p.conditional() {
        if listed.iter().any(|l| l == other) {
            v.extend(functions.map(|(f, _)| f));
        }
    }
    v
}

fn resolves(function: &str) -> bool {
    let c = CString::new(function).unwrap();
    !unsafe { glcmdGetProcAddress(c.as_ptr()) }.is_null()
}

#[test]
fn the_extension_list_is_the_drivers_filtered_to_what_has_entry_points() {
    let driver = driver();
    let mut d = null_mut();
    check(unsafe { glcmdDeviceCreateHeadless(null(), &mut d) });
    check(glcmdDeviceMakeCurrent(d));
    unsafe {
        let mut n = 0;
        (GL.GetIntegerv)(gl::NUM_EXTENSIONS, &mut n);
        let listed: Vec<String> =
            (0..n as GLuint).map(|i| text((GL.GetStringi)(gl::EXTENSIONS, i)).expect("an extension name")).collect();
        assert_eq!((GL.GetError)(), gl::NO_ERROR);

        // A subsequence of the driver's list, in its order.
        let mut rest = driver.extensions.iter();
        for name in &listed {
            assert!(rest.any(|d| d == name), "{name} is listed out of the driver's order, or the driver lacks it");
        }
        // Every function of every listed extension has an entry point.
        let mut functions = 0;
        for name in &listed {
            for f in functions_of(name, &listed) {
                assert!(resolves(f), "{name} is listed but glcmdGetProcAddress(\"{f}\") is NULL");
                functions += 1;
            }
        }
        // Every extension left out requires a function glcmd cannot serve (issue 34, item 8:
        // GLSL-only ones and those gl.xml does not know were left out too), and says which.
        let mut left_out = Vec::new();
        for name in driver.extensions.iter().filter(|e| !listed.contains(e)) {
            let reason = glcmd::served::hidden_because(name, &driver.extensions)
                .unwrap_or_else(|| panic!("{name} is served but not listed"));
            if glcmd::served::extension(name).is_some() {
                let missing: Vec<&str> = functions_of(name, &listed).into_iter().filter(|f| !resolves(f)).collect();
                assert!(!missing.is_empty(), "{name} was left out although all its functions resolve");
                assert!(reason.contains(missing[0]) || missing.iter().any(|m| reason.contains(m)), "{name}: {reason}");
            }
            left_out.push(format!("{name}: {reason}"));
        }
        for name in &listed {
            assert_eq!(glcmd::served::hidden_because(name, &driver.extensions), None, "{name}");
        }
        // Extensions that add no function are listed, gl.xml knowing them or not.
        for needed in
            ["GL_INTEL_shader_atomic_float_minmax", "GL_MESA_texture_signed_rgba", "GL_ARB_texture_buffer_object_rgb32"]
        {
            if driver.extensions.iter().any(|e| e == needed) {
                assert!(listed.iter().any(|e| e == needed), "{needed} adds no function and is not listed");
            }
        }
        println!(
            "driver: {} extensions; listed: {} ({functions} functions, all resolved); left out {}:\n{}",
            driver.extensions.len(),
            listed.len(),
            left_out.len(),
            left_out.join("\n")
        );
        assert!(listed.len() > 100, "llvmpipe serves more than 100 extensions of its {}", driver.extensions.len());
        // Extensions whose functions are partly gl.xml-only (codegen/src/aliases.rs): aliases
        // (glFramebufferTextureLayerEXT, glTexParameterIivEXT) and functions generated from
        // gl.xml (glClearColorIiEXT). llvmpipe lists both.
        for needed in ["GL_EXT_texture_integer", "GL_EXT_texture_array"] {
            assert!(driver.extensions.iter().any(|e| e == needed), "llvmpipe lists {needed}");
            assert!(listed.iter().any(|e| e == needed), "{needed} is listed through glcmd");
        }
        // An extension with a gl.xml-only function that is no alias and that glcmd does not
        // generate stays out (glBindFramebufferEXT accepts names never generated).
        assert!(!listed.iter().any(|e| e == "GL_EXT_framebuffer_object"));

        // GL_NUM_EXTENSIONS in every typed getter.
        let (mut i64v, mut f, mut dv, mut b) = (0i64, 0f32, 0f64, 0u8);
        (GL.GetInteger64v)(gl::NUM_EXTENSIONS, &mut i64v);
        (GL.GetFloatv)(gl::NUM_EXTENSIONS, &mut f);
        (GL.GetDoublev)(gl::NUM_EXTENSIONS, &mut dv);
        (GL.GetBooleanv)(gl::NUM_EXTENSIONS, &mut b);
        assert_eq!((i64v, f, dv, b), (n as i64, n as f32, n as f64, 1));

        // Past the list: NULL and GL_INVALID_VALUE, as the GL answers past its own.
        assert!((GL.GetStringi)(gl::EXTENSIONS, n as GLuint).is_null());
        assert_eq!((GL.GetError)(), gl::INVALID_VALUE);
        if (n as usize) < driver.extensions.len() {
            assert!((GL.GetStringi)(gl::EXTENSIONS, driver.extensions.len() as GLuint - 1).is_null());
            assert_eq!((GL.GetError)(), gl::INVALID_VALUE);
        }
        // The whole list as one string is not part of the core profile.
        assert!((GL.GetString)(gl::EXTENSIONS).is_null());
        assert_eq!((GL.GetError)(), gl::INVALID_ENUM);
    }
    check(glcmdDeviceMakeCurrent(null_mut()));
    check(glcmdDeviceDestroy(d));
}

#[test]
fn the_version_is_the_drivers_where_every_core_function_is_served() {
    let driver = driver();
    let served = glcmd::served::served_version(driver.version);
    assert_eq!(served, driver.version, "every core function through the driver's version has an entry point");
    let mut d = null_mut();
    check(unsafe { glcmdDeviceCreateHeadless(null(), &mut d) });
    check(glcmdDeviceMakeCurrent(d));
    unsafe {
        let (mut major, mut minor) = (0, 0);
        (GL.GetIntegerv)(gl::MAJOR_VERSION, &mut major);
        (GL.GetIntegerv)(gl::MINOR_VERSION, &mut minor);
        assert_eq!((major as u32, minor as u32), served);
        assert_eq!(text((GL.GetString)(gl::VERSION)).unwrap(), driver.version_string);
        assert_eq!(text((GL.GetString)(gl::SHADING_LANGUAGE_VERSION)).unwrap(), driver.glsl);
    }
    // And the strings a cap would give keep the driver's vendor part, with the cap's numbers.
    let capped = glcmd::served::version_string(&driver.version_string, (3, 3));
    assert!(capped.starts_with("3.3 ") && capped.ends_with(driver.version_string.split_once(' ').unwrap().1));
    assert_eq!(glcmd::served::glsl_version_string(&driver.glsl, (3, 3)).split(' ').next(), Some("3.30"));
    check(glcmdDeviceMakeCurrent(null_mut()));
    check(glcmdDeviceDestroy(d));
}
