//! The code glcmd-codegen writes: the committed `generated/` for the default features, the build
//! script's `$OUT_DIR` for a build with more (see `build.rs` and the `generated!` macro). Nothing
//! here is edited by hand; hand-written additions live in their own modules and `impl` blocks.

#![deny(warnings)]

/// Includes one generated file: for the default features the committed copy in `generated/`
/// (so a dependent's build runs no generator: the build script has nothing to do and
/// glcmd-codegen is not compiled); with `ext`, `vendor` or `checking` the build script's output
/// for that selection in `$OUT_DIR`. `codegen/tests/generated_fresh.rs` keeps the committed copy
/// identical to what the generator makes for the default features.
macro_rules! generated {
    ($file:literal) => {
        #[cfg(not(any(feature = "ext", feature = "vendor", feature = "checking")))]
        include!(concat!(env!("CARGO_MANIFEST_DIR"), "/generated/", $file));
        #[cfg(any(feature = "ext", feature = "vendor", feature = "checking"))]
        include!(concat!(env!("OUT_DIR"), "/", $file));
    };
}

#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
pub mod types {
    generated!("types.rs");
}
#[allow(non_upper_case_globals, clippy::unreadable_literal, clippy::match_same_arms)]
pub mod enums {
    generated!("enums.rs");
}
#[allow(non_snake_case, non_camel_case_types, clippy::missing_safety_doc, clippy::too_many_arguments)]
pub mod loader {
    generated!("loader.rs");
}
/// Per extension and core version, the functions it requires and the family of each
/// (`crate::served` decides from it what this build lists).
pub mod extensions {
    generated!("extensions.rs");
}
#[allow(clippy::match_same_arms)]
pub mod pname {
    generated!("pname.rs");
}
#[allow(
    clippy::too_many_arguments,
    clippy::missing_safety_doc,
    clippy::unnecessary_cast,
    clippy::let_unit_value,
    clippy::useless_conversion,
    unused_unsafe,
    unused_imports
)]
pub mod commands {
    generated!("commands.rs");
}
#[allow(clippy::unnecessary_cast, clippy::identity_op, unused_imports, unused_braces)]
pub mod inspect {
    generated!("inspect.rs");
}
#[allow(
    clippy::too_many_arguments,
    clippy::missing_safety_doc,
    clippy::unnecessary_cast,
    clippy::let_unit_value,
    unused_mut,
    unused_unsafe,
    unused_imports,
    clippy::useless_conversion,
    clippy::redundant_field_names,
    clippy::type_complexity,
    // The build script's copy is not formatted (the committed one is): two statements on one
    // line read to clippy as an `else` left out.
    clippy::possible_missing_else
)]
pub mod device {
    generated!("device.rs");
}

/// The immediate context's twins of the create and query methods (`crate::immediate`).
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub mod immediate {
    generated!("immediate.rs");
}

/// Capture tables: fingerprint, per-opcode array and name fields, replay of creates and
/// queries (`crate::capture`).
#[allow(clippy::needless_borrow, clippy::unnecessary_cast, clippy::identity_op, clippy::erasing_op, unused_imports)]
pub mod capture {
    generated!("capture.rs");
}

/// The GL error of each check where a function's differs from the usual one
/// (`crate::vocab::check`).
#[allow(unused_imports)]
pub mod spec_errors {
    generated!("spec_errors.rs");
}

/// The checking function table (`crate::checked`), compiled only with the `checking` feature.
#[cfg(feature = "checking")]
#[allow(
    non_snake_case,
    clippy::too_many_arguments,
    unused_mut,
    unused_variables,
    unused_unsafe,
    unused_imports,
    clippy::identity_op,
    clippy::erasing_op,
    clippy::unnecessary_cast
)]
pub mod checked {
    generated!("checked.rs");
}

pub use commands::{EXECUTE, NAMES, OPCODE_COUNT, SLOTS};
pub use loader::Gl;
