//! The code glcmd-codegen writes into `$OUT_DIR` (see `build.rs`). Nothing here is edited by
//! hand; hand-written additions live in their own modules and `impl` blocks.

#![deny(warnings)]

#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
pub mod types {
    include!(concat!(env!("OUT_DIR"), "/types.rs"));
}
#[allow(non_upper_case_globals, clippy::unreadable_literal, clippy::match_same_arms)]
pub mod enums {
    include!(concat!(env!("OUT_DIR"), "/enums.rs"));
}
#[allow(non_snake_case, non_camel_case_types, clippy::missing_safety_doc, clippy::too_many_arguments)]
pub mod loader {
    include!(concat!(env!("OUT_DIR"), "/loader.rs"));
}
/// Per extension and core version, the functions it requires and the family of each
/// (`crate::served` decides from it what this build lists).
pub mod extensions {
    include!(concat!(env!("OUT_DIR"), "/extensions.rs"));
}
#[allow(clippy::match_same_arms)]
pub mod pname {
    include!(concat!(env!("OUT_DIR"), "/pname.rs"));
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
    include!(concat!(env!("OUT_DIR"), "/commands.rs"));
}
#[allow(clippy::unnecessary_cast, clippy::identity_op, unused_imports, unused_braces)]
pub mod inspect {
    include!(concat!(env!("OUT_DIR"), "/inspect.rs"));
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
    clippy::type_complexity
)]
pub mod device {
    include!(concat!(env!("OUT_DIR"), "/device.rs"));
}

/// The immediate context's twins of the create and query methods (`crate::immediate`).
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub mod immediate {
    include!(concat!(env!("OUT_DIR"), "/immediate.rs"));
}

/// Capture tables: fingerprint, per-opcode array and name fields, replay of creates and
/// queries (`crate::capture`).
#[allow(clippy::needless_borrow, clippy::unnecessary_cast, clippy::identity_op, clippy::erasing_op, unused_imports)]
pub mod capture {
    include!(concat!(env!("OUT_DIR"), "/capture.rs"));
}

/// The GL error of each check where a function's differs from the usual one
/// (`crate::vocab::check`).
#[allow(unused_imports)]
pub mod spec_errors {
    include!(concat!(env!("OUT_DIR"), "/spec_errors.rs"));
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
    include!(concat!(env!("OUT_DIR"), "/checked.rs"));
}

pub use commands::{EXECUTE, NAMES, OPCODE_COUNT, SLOTS};
pub use loader::Gl;
