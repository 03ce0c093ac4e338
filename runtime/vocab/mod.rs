//! # The ground floor: the vocabulary every part of glcmd shares
//!
//! Nothing here depends on any other hand-written part of the crate (only on the generated
//! typedefs, enumerants and function table), so every part can speak these words without
//! importing another part:
//!
//! * [`params`]: how a packet stores array, string and pixel arguments (offset and length into
//!   the parameter buffer, and the reserved lengths for "none" and "buffer offset");
//! * [`class`]: the GL object classes whose names glcmd tracks;
//! * [`report`]: reports, their kinds, the sink they go to, and KHR_debug messages;
//! * [`names`]: enum values by name, for messages;
//! * [`check`]: the kinds of check glcmd makes and which GL error each raises, per function;
//! * [`hash`]: a fast hash for glcmd's own small keys (names), where SipHash would dominate.
//!
//! Recording (`list`, `arguments`), replay (`replay`, `shadow`), diagnostics and capture all build on
//! this floor; it is why, for example, recording no longer imports replay to know how a null
//! array is stored.

pub mod check;
pub mod class;
pub(crate) mod hash;
pub mod names;
pub mod params;
pub mod report;

pub use check::Check;
pub use class::Class;
pub use names::EnumName;
pub(crate) use report::Sink;
pub use report::{DebugMessage, Report, ReportKind, ReportWait, Reports};
