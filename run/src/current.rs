//! The vocabulary of the library: which API made a context, and what a thread made current.

/// Which window-system API made a context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Api {
    Egl,
    Glx,
}

/// The handles a thread made current: the display, the draw and read surfaces (EGL surfaces
/// or GLX drawables, as integers) and the context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Current {
    pub api: Api,
    pub display: usize,
    pub draw: usize,
    pub read: usize,
    pub context: usize,
}
