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
//!
//! The extension list and the version are then made to describe this build (`served.rs`): the
//! list keeps only the extensions whose functions all have entry points here (in the driver's
//! order, `GL_NUM_EXTENSIONS` to match in every getter), and the version is capped where a core
//! function would be missing. An index past a cached list goes to the GL as an index past the
//! GL's own, so the GL raises the error it raises there ([`Limits::uncached_index`]).

use std::collections::HashMap;

use crate::vocab::hash::FastHash;
use std::ffi::CStr;

use crate::generated::pname::{INDEXED_LIMITS, LIMITS};
use crate::generated::{enums as gl, types::*, Gl};

/// The constants, by getter.
#[derive(Debug, Default)]
pub struct Limits {
    integer: HashMap<GLenum, Vec<GLint>, FastHash>,
    integer64: HashMap<GLenum, Vec<GLint64>, FastHash>,
    float: HashMap<GLenum, Vec<GLfloat>, FastHash>,
    double: HashMap<GLenum, Vec<GLdouble>, FastHash>,
    boolean: HashMap<GLenum, Vec<GLboolean>, FastHash>,
    integer_indexed: HashMap<(GLenum, GLuint), Vec<GLint>, FastHash>,
    integer64_indexed: HashMap<(GLenum, GLuint), Vec<GLint64>, FastHash>,
    strings: HashMap<GLenum, Option<String>, FastHash>,
    /// `glGetStringi(GL_EXTENSIONS, i)` and `(GL_SHADING_LANGUAGE_VERSION, i)`.
    strings_indexed: HashMap<(GLenum, GLuint), Option<String>, FastHash>,
    /// The names whose whole indexed list is cached, and its length.
    lists: HashMap<GLenum, GLuint, FastHash>,
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
            l.lists.insert(name, n.max(0) as GLuint);
        }
        clear_errors(g);
        l.serve_this_build();
        l
    }

    /// Makes the extension list and the version describe this build (`served.rs`): only the
    /// extensions whose functions all have entry points here, in the driver's order, with
    /// `GL_NUM_EXTENSIONS` to match; the version capped where a core function is missing.
    fn serve_this_build(&mut self) {
        if let Some(&n) = self.lists.get(&gl::EXTENSIONS) {
            let driver: Vec<String> =
                (0..n).filter_map(|i| self.strings_indexed.remove(&(gl::EXTENSIONS, i)).flatten()).collect();
            let served = crate::served::served_extensions(&driver);
            for (i, name) in served.iter().enumerate() {
                self.strings_indexed.insert((gl::EXTENSIONS, i as GLuint), Some(name.clone()));
            }
            self.lists.insert(gl::EXTENSIONS, served.len() as GLuint);
            self.set_integer(gl::NUM_EXTENSIONS, served.len() as i64);
        }
        let (Some(major), Some(minor)) = (self.integer.get(&gl::MAJOR_VERSION), self.integer.get(&gl::MINOR_VERSION))
        else {
            return;
        };
        let driver = (major.first().copied().unwrap_or(0) as u32, minor.first().copied().unwrap_or(0) as u32);
        let served = crate::served::served_version(driver);
        if served == driver {
            return;
        }
        self.set_integer(gl::MAJOR_VERSION, served.0.into());
        self.set_integer(gl::MINOR_VERSION, served.1.into());
        if let Some(Some(v)) = self.strings.get(&gl::VERSION) {
            let v = crate::served::version_string(v, served);
            self.strings.insert(gl::VERSION, Some(v));
        }
        if let Some(Some(v)) = self.strings.get(&gl::SHADING_LANGUAGE_VERSION) {
            let v = crate::served::glsl_version_string(v, served);
            self.strings.insert(gl::SHADING_LANGUAGE_VERSION, Some(v));
        }
    }

    /// Sets a cached single-value constant in every typed getter, converted as the GL converts
    /// an integer (a boolean is whether it is non-zero).
    fn set_integer(&mut self, pname: GLenum, value: i64) {
        if !self.integer.contains_key(&pname) {
            return;
        }
        self.integer.insert(pname, vec![value as GLint]);
        self.integer64.insert(pname, vec![value]);
        self.float.insert(pname, vec![value as GLfloat]);
        self.double.insert(pname, vec![value as GLdouble]);
        self.boolean.insert(pname, vec![(value != 0) as GLboolean]);
    }

    /// The index to ask the GL for where the cache does not answer `glGetStringi(name,
    /// index)`: for a name whose whole list is cached (the index is past it), an index past any
    /// list of the GL's too, so that the GL raises `GL_INVALID_VALUE` and returns NULL, as it
    /// does past the end of its list; otherwise `index`.
    pub fn uncached_index(&self, name: GLenum, index: GLuint) -> GLuint {
        if self.lists.contains_key(&name) {
            GLuint::MAX
        } else {
            index
        }
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
