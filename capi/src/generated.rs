//! The code glcmd-codegen writes into `$OUT_DIR` (see `build.rs`): one C entry point per GL
//! function, the `GlcmdGL` table and the name, kind and flag tables. Nothing here is edited by
//! hand; the special functions' entry points are in `special.rs`.

// `&*slice` is deliberate (a plain slice also where a method is generic over its element);
// `()` is the error value of entry points that return nothing.
#![allow(
    non_snake_case,
    clippy::missing_safety_doc,
    clippy::needless_return,
    clippy::useless_conversion,
    clippy::explicit_auto_deref,
    clippy::unused_unit
)]

include!(concat!(env!("OUT_DIR"), "/glcmd_capi_entry.rs"));
