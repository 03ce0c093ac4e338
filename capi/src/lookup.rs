//! Finding an entry point by GL name (`glcmdGetProcAddress`).

use std::ffi::{c_void, CStr, CString};
use std::sync::OnceLock;

use crate::generated::{GlcmdGL, ALIASES, COUNT, NAMES, TABLE};

// `GlcmdGL` is `#[repr(C)]` with one function pointer per function and nothing else, so it is
// laid out as an array of `COUNT` pointers (checked here at compile time).
const _: () = assert!(std::mem::size_of::<GlcmdGL>() == COUNT * std::mem::size_of::<*const c_void>());
const _: () = assert!(std::mem::align_of::<GlcmdGL>() == std::mem::align_of::<*const c_void>());

/// The index of GL function `name` (`NAMES` is sorted).
pub fn index(name: &str) -> Option<usize> {
    NAMES.binary_search(&name).ok()
}

/// The index of the function that serves `name`: `name` itself, or the canonical function of
/// a gl.xml alias (`glFramebufferTextureLayerEXT` is served by `glFramebufferTextureLayer`;
/// `ALIASES` is sorted).
pub fn serving(name: &str) -> Option<usize> {
    index(name).or_else(|| {
        let i = ALIASES.binary_search_by(|(alias, _)| alias.cmp(&name)).ok()?;
        index(ALIASES[i].1)
    })
}

/// The entry point of function `index` (below `COUNT`).
pub fn address(index: usize) -> *const c_void {
    assert!(index < COUNT);
    // SAFETY: `TABLE` is laid out as `COUNT` pointer-sized, pointer-aligned function pointers
    // (the assertions above), each initialised, and `index < COUNT`.
    unsafe { (&TABLE as *const GlcmdGL).cast::<*const c_void>().add(index).read() }
}

/// The GL name of function `index` as a C string.
pub fn c_name(index: usize) -> &'static CStr {
    static NAMES_C: OnceLock<Vec<CString>> = OnceLock::new();
    &NAMES_C.get_or_init(|| NAMES.iter().map(|n| CString::new(*n).expect("GL names have no NUL")).collect())[index]
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_are_sorted_and_found() {
        assert!(super::NAMES.windows(2).all(|w| w[0] < w[1]));
        let i = super::index("glBindTexture").unwrap();
        assert_eq!(super::address(i), super::TABLE.BindTexture as *const std::ffi::c_void);
        assert!(super::index("glBegin").is_none());
        assert!(super::ALIASES.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(super::index("glFramebufferTextureLayerEXT").is_none());
        assert_eq!(super::serving("glFramebufferTextureLayerEXT"), super::index("glFramebufferTextureLayer"));
        assert!(super::serving("glBindFramebufferEXT").is_none(), "not an alias: never served");
    }
}
