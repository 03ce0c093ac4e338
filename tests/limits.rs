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
    let text =
        |p: *const GLubyte| (!p.is_null()).then(|| unsafe { CStr::from_ptr(p.cast()) }.to_string_lossy().into_owned());
    for name in [gl::VENDOR, gl::RENDERER, gl::VERSION, gl::SHADING_LANGUAGE_VERSION] {
        assert_eq!(device.get_string(name).unwrap(), text(unsafe { (g.GetString)(name) }));
        checked += 1;
    }
    let mut n = 0;
    unsafe { (g.GetIntegerv)(gl::NUM_EXTENSIONS, &mut n) };
    for i in 0..n as GLuint {
        assert_eq!(device.get_stringi(gl::EXTENSIONS, i).unwrap(), text(unsafe { (g.GetStringi)(gl::EXTENSIONS, i) }));
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
}
