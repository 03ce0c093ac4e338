//! The limits cache: the context's implementation-dependent constants, read once at start-up.
//!
//! `GL_MAX_TEXTURE_SIZE`, the alignments, the version numbers and strings, the extension list,
//! the compressed formats: none of them can change while the context lives, yet engines ask for
//! them from every thread. The render thread reads each of them (the list is generated:
//! `generated::pname::LIMITS`, documented there) with each typed getter (`glGetIntegerv`,
//! `glGetInteger64v`, `glGetFloatv`, `glGetDoublev`, `glGetBooleanv`, so every answer is the
//! GL's own conversion), the strings with `glGetString`/`glGetStringi`, before the device is
//! handed out. The generated getters answer those pnames from memory, without a round trip;
//! any other pname is a round trip as before. A pname the context does not know (a 4.6 limit
//! on a 4.5 context) raises an error at start-up, which is cleared, and is left out.

use std::collections::HashMap;
use std::ffi::CStr;

use crate::generated::pname::{INDEXED_LIMITS, LIMITS};
use crate::generated::{enums as gl, types::*, Gl};

/// The constants, by getter.
#[derive(Debug, Default)]
pub struct Limits {
    integer: HashMap<GLenum, Vec<GLint>>,
    integer64: HashMap<GLenum, Vec<GLint64>>,
    float: HashMap<GLenum, Vec<GLfloat>>,
    double: HashMap<GLenum, Vec<GLdouble>>,
    boolean: HashMap<GLenum, Vec<GLboolean>>,
    integer_indexed: HashMap<(GLenum, GLuint), Vec<GLint>>,
    integer64_indexed: HashMap<(GLenum, GLuint), Vec<GLint64>>,
    strings: HashMap<GLenum, Option<String>>,
    /// `glGetStringi(GL_EXTENSIONS, i)` and `(GL_SHADING_LANGUAGE_VERSION, i)`.
    strings_indexed: HashMap<(GLenum, GLuint), Option<String>>,
}

fn clear_errors(g: &Gl) -> bool {
    let mut any = false;
    // SAFETY: no arguments.
    while unsafe { (g.GetError)() } != gl::NO_ERROR {
        any = true;
    }
    any
}

/// How many values a limit has: its table count, or for the counted lists (compressed and
/// binary formats) the count the GL gives.
fn count(g: &Gl, pname: GLenum, table: u32) -> usize {
    let counted_by = match pname {
        gl::COMPRESSED_TEXTURE_FORMATS => gl::NUM_COMPRESSED_TEXTURE_FORMATS,
        gl::PROGRAM_BINARY_FORMATS => gl::NUM_PROGRAM_BINARY_FORMATS,
        gl::SHADER_BINARY_FORMATS => gl::NUM_SHADER_BINARY_FORMATS,
        _ => return table as usize,
    };
    let mut n = 0;
    // SAFETY: a single-integer query.
    unsafe { (g.GetIntegerv)(counted_by, &mut n) };
    n.max(0) as usize
}

impl Limits {
    /// Reads every constant. Render thread, before anything else ran on the context (errors
    /// the reads raise are cleared; there are no application errors yet).
    pub(crate) fn read(g: &Gl) -> Limits {
        let mut l = Limits::default();
        clear_errors(g);
        for &(pname, table) in LIMITS {
            let n = count(g, pname, table);
            // Room past the count, as a driver may write more than the table says.
            let room = n.max(1) + 16;
            let mut i = vec![0 as GLint; room];
            let mut i64v = vec![0 as GLint64; room];
            let mut f = vec![0 as GLfloat; room];
            let mut d = vec![0 as GLdouble; room];
            let mut b = vec![0 as GLboolean; room];
            // SAFETY: each buffer holds more values than the pname has.
            unsafe {
                (g.GetIntegerv)(pname, i.as_mut_ptr());
                (g.GetInteger64v)(pname, i64v.as_mut_ptr());
                (g.GetFloatv)(pname, f.as_mut_ptr());
                (g.GetDoublev)(pname, d.as_mut_ptr());
                (g.GetBooleanv)(pname, b.as_mut_ptr());
            }
            if clear_errors(g) {
                continue; // unknown to this context
            }
            i.truncate(n);
            i64v.truncate(n);
            f.truncate(n);
            d.truncate(n);
            b.truncate(n);
            l.integer.insert(pname, i);
            l.integer64.insert(pname, i64v);
            l.float.insert(pname, f);
            l.double.insert(pname, d);
            l.boolean.insert(pname, b);
        }
        for &(pname, indices) in INDEXED_LIMITS {
            for index in 0..indices {
                let (mut i, mut i64v) = ([0 as GLint; 16], [0 as GLint64; 16]);
                // SAFETY: one value each, into arrays of 16.
                unsafe {
                    (g.GetIntegeri_v)(pname, index, i.as_mut_ptr());
                    (g.GetInteger64i_v)(pname, index, i64v.as_mut_ptr());
                }
                if clear_errors(g) {
                    continue;
                }
                l.integer_indexed.insert((pname, index), vec![i[0]]);
                l.integer64_indexed.insert((pname, index), vec![i64v[0]]);
            }
        }
        let text = |p: *const GLubyte| {
            // SAFETY: the GL returns null or a static NUL-terminated string.
            (!p.is_null()).then(|| unsafe { CStr::from_ptr(p.cast()) }.to_string_lossy().into_owned())
        };
        for name in [gl::VENDOR, gl::RENDERER, gl::VERSION, gl::SHADING_LANGUAGE_VERSION] {
            // SAFETY: a valid name.
            let s = text(unsafe { (g.GetString)(name) });
            l.strings.insert(name, s);
        }
        for (name, count) in
            [(gl::EXTENSIONS, gl::NUM_EXTENSIONS), (gl::SHADING_LANGUAGE_VERSION, gl::NUM_SHADING_LANGUAGE_VERSIONS)]
        {
            let mut n = 0;
            // SAFETY: a single-integer query; valid indices below it.
            unsafe { (g.GetIntegerv)(count, &mut n) };
            if clear_errors(g) {
                continue;
            }
            for i in 0..n.max(0) as GLuint {
                let s = text(unsafe { (g.GetStringi)(name, i) });
                l.strings_indexed.insert((name, i), s);
            }
        }
        clear_errors(g);
        l
    }

    pub fn integerv(&self, pname: GLenum) -> Option<Vec<GLint>> {
        self.integer.get(&pname).cloned()
    }
    pub fn integer64v(&self, pname: GLenum) -> Option<Vec<GLint64>> {
        self.integer64.get(&pname).cloned()
    }
    pub fn floatv(&self, pname: GLenum) -> Option<Vec<GLfloat>> {
        self.float.get(&pname).cloned()
    }
    pub fn doublev(&self, pname: GLenum) -> Option<Vec<GLdouble>> {
        self.double.get(&pname).cloned()
    }
    pub fn booleanv(&self, pname: GLenum) -> Option<Vec<GLboolean>> {
        self.boolean.get(&pname).cloned()
    }
    pub fn integeri_v(&self, pname: GLenum, index: GLuint) -> Option<Vec<GLint>> {
        self.integer_indexed.get(&(pname, index)).cloned()
    }
    pub fn integer64i_v(&self, pname: GLenum, index: GLuint) -> Option<Vec<GLint64>> {
        self.integer64_indexed.get(&(pname, index)).cloned()
    }
    pub fn string(&self, name: GLenum) -> Option<Option<String>> {
        self.strings.get(&name).cloned()
    }
    pub fn stringi(&self, name: GLenum, index: GLuint) -> Option<Option<String>> {
        self.strings_indexed.get(&(name, index)).cloned()
    }

    /// How many constants are cached.
    pub fn len(&self) -> usize {
        self.integer.len() + self.integer_indexed.len() + self.strings.len() + self.strings_indexed.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
