//! The limits cache (issue 9): every implementation-dependent constant is answered from memory,
//! without a round trip, with the value direct GL gives (every getter, every pname of the
//! generated list, the strings and the extension list).

mod common;

use std::ffi::CStr;

use common::*;
use glcmd::generated::pname::{INDEXED_LIMITS, LIMITS};
use glcmd::gl;
use glcmd::types::*;

#[test]
fn every_limit_equals_direct_gl_and_makes_no_round_trip() {
    let d = Direct::new();
    let g = &d.gl;
    let device = device();
    device.finish().unwrap();
    let text =
        |p: *const GLubyte| (!p.is_null()).then(|| unsafe { CStr::from_ptr(p.cast()) }.to_string_lossy().into_owned());
    // The extension list is the driver's filtered to what this build serves (docs/extensions.md).
    let mut n = 0;
    unsafe { (g.GetIntegerv)(gl::NUM_EXTENSIONS, &mut n) };
    let driver: Vec<String> =
        (0..n as GLuint).map(|i| text(unsafe { (g.GetStringi)(gl::EXTENSIONS, i) }).unwrap()).collect();
    let served = glcmd::served::served_extensions(&driver);
    assert!(!served.is_empty() && served.len() <= driver.len());
    let before = device.stats().round_trips;
    let mut checked = 0;
    for &(pname, table) in LIMITS {
        let Some(cached) = device.limits().integerv(pname) else { continue };
        let n = cached.len();
        let mut i = vec![0 as GLint; n + 16];
        let mut f = vec![0 as GLfloat; n + 16];
        let mut b = vec![0 as GLboolean; n + 16];
        let mut w = vec![0 as GLint64; n + 16];
        unsafe {
            (g.GetIntegerv)(pname, i.as_mut_ptr());
            (g.GetFloatv)(pname, f.as_mut_ptr());
            (g.GetBooleanv)(pname, b.as_mut_ptr());
            (g.GetInteger64v)(pname, w.as_mut_ptr());
        }
        if pname == gl::NUM_EXTENSIONS {
            (i[0], f[0], b[0], w[0]) = (served.len() as GLint, served.len() as GLfloat, 1, served.len() as GLint64);
        }
        let name = glcmd::dump::EnumName(pname);
        assert_eq!(device.get_integerv(pname).unwrap(), i[..n], "{name}");
        assert_eq!(device.get_floatv(pname).unwrap(), f[..n], "{name}");
        assert_eq!(device.get_booleanv(pname).unwrap(), b[..n], "{name}");
        assert_eq!(device.get_integer64v(pname).unwrap(), w[..n], "{name}");
        let _ = table;
        checked += 1;
    }
    for &(pname, indices) in INDEXED_LIMITS {
        for index in 0..indices {
            let mut v = [0 as GLint; 16];
            unsafe { (g.GetIntegeri_v)(pname, index, v.as_mut_ptr()) };
            assert_eq!(device.get_integeri_v(pname, index).unwrap(), vec![v[0]]);
            checked += 1;
        }
    }
    for name in [gl::VENDOR, gl::RENDERER, gl::VERSION, gl::SHADING_LANGUAGE_VERSION] {
        assert_eq!(device.get_string(name).unwrap(), text(unsafe { (g.GetString)(name) }));
        checked += 1;
    }
    for (i, name) in served.iter().enumerate() {
        assert_eq!(device.get_stringi(gl::EXTENSIONS, i as GLuint).unwrap().as_ref(), Some(name));
        checked += 1;
    }
    assert!(checked > 150, "{checked} constants checked");
    assert_eq!(device.stats().round_trips, before, "limits are answered from memory");
    // Other pnames are state: a round trip, after earlier lists.
    let mut list = device.command_list();
    list.viewport(1, 2, 3, 4);
    device.submit(list).unwrap();
    assert_eq!(device.get_integerv(gl::VIEWPORT).unwrap(), vec![1, 2, 3, 4]);
    assert_eq!(device.stats().round_trips, before + 1);
    // Past the served list, the GL's answer past its own: GL_INVALID_VALUE, which the failed
    // query returns (and glGetError then reports, as the GL would).
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
    let past = device.get_stringi(gl::EXTENSIONS, served.len() as GLuint).unwrap_err();
    assert_eq!(past.gl_error(), Some(gl::INVALID_VALUE), "{past}");
    assert_eq!(device.get_error().unwrap(), gl::INVALID_VALUE);
}

// ---------------------------------------------------------------------------------------------
// Only implementation constants are cached (issue 16, item 5)
// ---------------------------------------------------------------------------------------------

/// `tests/data/gl46_implementation_dependent.txt`: (table, pname name) rows.
fn spec_tables() -> Vec<(String, String)> {
    let text = include_str!("data/gl46_implementation_dependent.txt");
    let mut table = String::new();
    let mut rows = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if let Some(t) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            table = t.to_string();
        } else {
            rows.push((table.clone(), line.split_whitespace().next().unwrap().to_string()));
        }
    }
    rows
}

/// Every `#define GL_* 0x...` of the vendored glcorearb.h: name to value.
fn enum_values() -> std::collections::HashMap<String, u32> {
    let header = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/codegen/vendor/glcorearb.h")).unwrap();
    header
        .lines()
        .filter_map(|l| {
            let mut w = l.strip_prefix("#define ")?.split_whitespace();
            let (name, value) = (w.next()?, w.next()?);
            let v = match value.strip_prefix("0x") {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => value.parse().ok()?,
            };
            Some((name.to_string(), v))
        })
        .collect()
}

/// The values of the spec's implementation-dependent rows and of its framebuffer-dependent ones.
fn spec_values() -> (std::collections::HashSet<u32>, std::collections::HashSet<u32>) {
    let values = enum_values();
    let (mut constant, mut framebuffer) = (std::collections::HashSet::new(), std::collections::HashSet::new());
    for (table, name) in spec_tables() {
        let v = *values.get(&name).unwrap_or_else(|| panic!("{name} is not defined in glcorearb.h"));
        if table == "Framebuffer Dependent Values" {
            framebuffer.insert(v);
        } else {
            constant.insert(v);
        }
    }
    (constant, framebuffer)
}

#[test]
fn every_cached_pname_is_in_the_specification_s_implementation_dependent_tables() {
    let (constant, framebuffer) = spec_values();
    let mut outside = Vec::new();
    for &(pname, _) in LIMITS.iter().chain(INDEXED_LIMITS) {
        if !constant.contains(&pname) || framebuffer.contains(&pname) {
            outside.push(format!("{}", glcmd::dump::EnumName(pname)));
        }
    }
    assert!(outside.is_empty(), "cached, but not implementation constants of the GL 4.6 tables: {outside:?}");
    // And on a real context: what the limits cache holds is among them.
    let device = device();
    for &(pname, _) in LIMITS {
        if device.limits().integerv(pname).is_some() {
            assert!(constant.contains(&pname), "{}", glcmd::dump::EnumName(pname));
        }
    }
    for pname in [gl::DOUBLEBUFFER, gl::STEREO, gl::SAMPLES, gl::SAMPLE_BUFFERS, gl::MAX_SHADER_COMPILER_THREADS_KHR] {
        assert!(device.limits().integerv(pname).is_none(), "{} is cached", glcmd::dump::EnumName(pname));
    }
    eprintln!(
        "{} cached pnames, all in the {} rows of the 4.6 tables",
        LIMITS.len() + INDEXED_LIMITS.len(),
        constant.len()
    );
}

/// State that was cached once: `GL_MAX_SHADER_COMPILER_THREADS_KHR` after
/// `glMaxShaderCompilerThreadsKHR(2)`, `GL_DOUBLEBUFFER` and `GL_STEREO` with a framebuffer
/// object bound. Each answers as direct GL after the same calls, and so does every cached pname.
#[test]
fn settable_and_framebuffer_dependent_pnames_answer_as_the_gl_after_they_change() {
    let d = Direct::new();
    let g = &d.gl;
    let device = device();
    let fbo = device_fbo_rgba8(&device, 4, 4);
    let direct_fbo = d.fbo_rgba8(4, 4);
    let mut list = device.command_list();
    list.max_shader_compiler_threads_khr(2);
    list.bind_framebuffer(gl::DRAW_FRAMEBUFFER, fbo);
    device.submit(list).unwrap();
    unsafe {
        (g.MaxShaderCompilerThreadsKHR)(2);
        (g.BindFramebuffer)(gl::DRAW_FRAMEBUFFER, direct_fbo);
    }
    assert_eq!(device.get_error().unwrap(), d.error(), "the same error for the set");
    let threads = device.get_integerv(gl::MAX_SHADER_COMPILER_THREADS_KHR).unwrap();
    assert_eq!(threads, d.integers(gl::MAX_SHADER_COMPILER_THREADS_KHR, 1), "after glMaxShaderCompilerThreadsKHR(2)");
    eprintln!("GL_MAX_SHADER_COMPILER_THREADS_KHR: {threads:?}");
    for pname in [gl::DOUBLEBUFFER, gl::STEREO, gl::SAMPLES, gl::SAMPLE_BUFFERS] {
        let mut b = [0u8; 16];
        unsafe { (g.GetBooleanv)(pname, b.as_mut_ptr()) };
        assert_eq!(device.get_booleanv(pname).unwrap(), b[..1], "{}", glcmd::dump::EnumName(pname));
        assert_eq!(device.get_integerv(pname).unwrap(), d.integers(pname, 1), "{}", glcmd::dump::EnumName(pname));
    }
    for &(pname, _) in LIMITS {
        let Some(cached) = device.limits().integerv(pname) else { continue };
        if pname == gl::NUM_EXTENSIONS {
            continue; // this build's count, not the driver's (every_limit_equals_direct_gl_...)
        }
        assert_eq!(
            device.get_integerv(pname).unwrap(),
            d.integers(pname, cached.len()),
            "{}",
            glcmd::dump::EnumName(pname)
        );
    }
    assert_eq!(device.get_error().unwrap(), d.error());
}
