//! What the shadow learns of names (creates, gens, deletes) and the check that a name a call
//! will dereference is an object: a name the shadow does not know is asked of the GL (`glIs*`).

use crate::generated::{types::*, Gl};
use crate::vocab::Class;

use super::names::Known;
use super::refusal::Refusal;
use super::state::Shadow;
use super::vao::Vao;

impl Shadow {
    // ---- names -------------------------------------------------------------------------

    /// Names a create function (`created`) or a gen function returned: objects exist, or the
    /// names are reserved and become objects when first bound.
    pub fn names_created(&mut self, class: Class, names: &[u32], created: bool) {
        self.draw_cache = None;
        let known = if created { Known::Object } else { Known::Reserved };
        for &n in names {
            if n == 0 {
                continue;
            }
            self.objects[class as usize].set(n, Some(known), self.generation);
            if class == Class::VertexArray {
                self.vaos.insert(n, Vao::new());
            }
        }
    }

    /// Names a delete ran for. They are forgotten; a later use asks the GL (`glIs*`) whether
    /// the object still exists (a program or shader flagged for deletion lives on while in use).
    pub fn names_deleted(&mut self, class: Class, names: &[u32]) {
        self.draw_cache = None;
        match class {
            Class::Buffer => self.buffers_deleted(names),
            Class::VertexArray => self.vertex_arrays_deleted(names),
            _ => {
                for &n in names {
                    self.objects[class as usize].set(n, None, self.generation);
                }
            }
        }
    }

    /// Before a call that names an object: a name that is neither known nor, asked of the GL,
    /// an object is refused (some drivers dereference the failed lookup: Mesa's
    /// `glInvalidateTexSubImage` crashes on a texture that does not exist). `first`: the object
    /// the call operates on, where 0 is not an object either (except the default framebuffer
    /// and transform feedback); elsewhere 0 means "none" and passes.
    pub fn check_name(&mut self, gl_fns: &Gl, class: Class, name: GLuint, first: bool) -> Result<(), Refusal> {
        if name == 0 {
            return if first && !class.zero_is_an_object() {
                Err(Refusal::NoSuchObject { class, name })
            } else {
                Ok(())
            };
        }
        if self.objects[class as usize].get(name, self.generation).is_some() {
            return Ok(());
        }
        if class.is_object(gl_fns, name) {
            self.objects[class as usize].set(name, Some(Known::Object), self.generation);
            return Ok(());
        }
        // Programs and shaders share one namespace: the GL tells a name of the other of the two
        // (GL_INVALID_OPERATION) from a name of neither (GL_INVALID_VALUE), GL 4.6 §7.1.
        let other = match class {
            Class::Program => Some(Class::Shader),
            Class::Shader => Some(Class::Program),
            _ => None,
        };
        if other.is_some_and(|other| other.is_object(gl_fns, name)) {
            return Err(Refusal::OtherClass { class, name });
        }
        Err(Refusal::NoSuchObject { class, name })
    }

    /// Compatibility forms of `names_created` for the binding shadow's own classes.
    pub fn buffers_created(&mut self, names: &[u32]) {
        self.names_created(Class::Buffer, names, true);
    }

    pub fn vertex_arrays_created(&mut self, names: &[u32]) {
        self.names_created(Class::VertexArray, names, true);
    }

    pub(super) fn buffer_known(&self, name: u32) -> Option<Known> {
        if name == 0 {
            return Some(Known::Object);
        }
        self.objects[Class::Buffer as usize].get(name, self.generation)
    }

    pub(super) fn array_known(&self, name: u32) -> Option<Known> {
        self.objects[Class::VertexArray as usize].get(name, self.generation)
    }

    pub(super) fn set_buffer(&mut self, name: u32, known: Option<Known>) {
        self.objects[Class::Buffer as usize].set(name, known, self.generation);
    }

    pub(super) fn set_array(&mut self, name: u32, known: Option<Known>) {
        self.objects[Class::VertexArray as usize].set(name, known, self.generation);
    }

    pub(super) fn vao_mut(&mut self, vao: u32) -> &mut Vao {
        self.vaos.entry(vao).or_insert_with(Vao::stale)
    }
}
