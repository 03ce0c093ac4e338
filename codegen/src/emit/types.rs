//! GL typedefs as Rust type aliases (`pub type GLenum = u32;`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::error::{Error, Position};
use crate::model::Api;

/// The Rust spelling of each C definition the header uses.
fn rust_of(definition: &str) -> Option<&'static str> {
    Some(match definition {
        "void" => "std::ffi::c_void",
        "unsigned int" | "khronos_uint32_t" => "u32",
        "int" | "khronos_int32_t" => "i32",
        "unsigned char" | "khronos_uint8_t" => "u8",
        "signed char" | "khronos_int8_t" => "i8",
        "char" => "std::ffi::c_char",
        "short" | "khronos_int16_t" => "i16",
        "unsigned short" | "khronos_uint16_t" => "u16",
        "khronos_float_t" | "float" => "f32",
        "double" => "f64",
        "khronos_intptr_t" | "khronos_ssize_t" => "isize",
        "khronos_int64_t" => "i64",
        "khronos_uint64_t" => "u64",
        "struct __GLsync *" => "*const __GLsync",
        "void *" => "*mut std::ffi::c_void",
        _ => return None,
    })
}

/// Function-pointer typedefs, spelled by hand: the header gives them as C declarations.
fn callback(name: &str) -> Option<TokenStream> {
    Some(match name {
        "GLDEBUGPROC" | "GLDEBUGPROCARB" => quote! {
            Option<unsafe extern "system" fn(GLenum, GLenum, GLuint, GLenum, GLsizei, *const GLchar, *mut std::ffi::c_void)>
        },
        "GLVULKANPROCNV" => quote!(Option<unsafe extern "system" fn()>),
        _ => return None,
    })
}

pub fn emit(api: &Api) -> Result<TokenStream, Vec<Error>> {
    let mut errors = Vec::new();
    let mut items = Vec::new();
    // Later definitions win: the header defines GLhandleARB twice, for Apple and for the rest.
    let mut seen = std::collections::BTreeMap::new();
    for (name, definition) in &api.typedefs {
        seen.insert(name.clone(), definition.clone());
    }
    for (name, definition) in &seen {
        let id = format_ident!("{}", name);
        let doc = format!(" C: `typedef {definition} {name};`");
        let ty: TokenStream = match callback(name) {
            Some(t) => t,
            None => match rust_of(definition) {
                Some(r) => super::tokens(r),
                None => {
                    errors.push(Error::Classify {
                        at: Position { file: "glcorearb.h".into(), line: 0 },
                        function: name.clone(),
                        message: format!("typedef `{definition}` has no Rust spelling"),
                    });
                    continue;
                }
            },
        };
        let doc = if callback(name).is_some() { format!(" C: `{definition}`") } else { doc };
        items.push(quote! { #[doc = #doc] pub type #id = #ty; });
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(quote! {
        /// The opaque object behind `GLsync`.
        #[repr(C)]
        pub struct __GLsync { _private: [u8; 0] }
        /// OpenCL context, opaque (`glCreateSyncFromCLeventARB`).
        #[repr(C)]
        pub struct _cl_context { _private: [u8; 0] }
        /// OpenCL event, opaque (`glCreateSyncFromCLeventARB`).
        #[repr(C)]
        pub struct _cl_event { _private: [u8; 0] }
        #(#items)*
    })
}
