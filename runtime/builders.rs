//! The rule for glcmd's public options and counters types, and the macro that writes the
//! options types' builder methods.
//!
//! * **Options** (what a user configures: [`Options`](crate::Options),
//!   [`DiagnosticOptions`](crate::DiagnosticOptions), `capture::CaptureOptions`,
//!   `capture::PostMortem`, `capture::ReplayOptions`, `capture::ReplayBudget`) are
//!   `#[non_exhaustive]` with public fields. One is made from its `Default` (or, where a field
//!   has no sensible default, a `new` taking those fields) and changed with builder methods: one
//!   per field, named as the field, taking `self` by value and returning it, `#[must_use]` (a
//!   builder whose result is dropped changed nothing), so options are written in one
//!   expression: `Options::default().diagnostics(DiagnosticOptions::default().strict(true))`.
//!   Assigning a field of a value one already has works too.
//! * **Counters and summaries** (what glcmd fills in for the user to read: `Stats`,
//!   `RenderTimes`, `FrameStats`, `capture::CaptureSummary`, `capture::ReplaySummary`) are
//!   `#[non_exhaustive]` with public fields, read and never built outside glcmd (`Default`
//!   makes an empty one where a caller needs a starting value).
//!
//! What it protects against: a struct literal, or `..Default::default()`, outside glcmd is
//! impossible, so adding an option or a counter is not a breaking change, and every option can
//! still be set in one expression. Plain handles whose every field is required and has no
//! default (`AdoptEgl`, `AdoptGlx`) are neither, and stay exhaustive: a new field there would be
//! a breaking change whatever the attribute says.
//!
//! The workspace's other crates follow the same rule for their public types: glcmd-capi's
//! `immediate::ImmediateStats`, glcmd-replay's `fuzz::Outcome` and glcmd-sweep's summaries are
//! counters; glcmd-codegen's `Selection` (made from `default()`) and glcmd-replay's `fuzz::Config`
//! (from `new(seed, iterations)`) are options, with builders written by hand in the same form,
//! since this macro is glcmd's own. (C structs such as `GlcmdDeviceOptions` are `#[repr(C)]` and
//! versioned by their `size` field instead; glcmd-run has no Rust API.)
//!
//! The macro pins "one builder per field" at compile time: besides the methods it writes a
//! function that destructures the type naming exactly the fields given, without `..`, so a field
//! added to an options type without its builder stops glcmd from compiling. `tests/options_rule.rs`
//! pins the rest: in the source of every crate of the workspace, the attribute on every such type
//! and a builder for every field; from outside glcmd, as a user calls them, every builder of
//! glcmd's options types sets its own field and no other. A struct literal does not compile
//! (`options.rs`'s `compile_fail` example); the hand-written builders of the other crates are
//! called in their types' doc tests.

/// Writes the builder methods of an options type: `builders!(Type { field: FieldType, .. });`
/// gives `Type::field(self, field: FieldType) -> Self`, documented and `#[must_use]`, for each
/// field named; the fields named must be all of the type's (checked when glcmd compiles).
macro_rules! builders {
    ($ty:ident { $($field:ident: $t:ty),* $(,)? }) => {
        /// Builder methods, one per field: each takes the options by value and returns them with
        /// the field set, so they chain from `default()`.
        impl $ty {
            $(
                #[doc = concat!("Sets [`", stringify!($ty), "::", stringify!($field), "`] and returns the options.")]
                #[must_use = "a builder method returns the changed options; the options it was called on are gone"]
                pub fn $field(mut self, $field: $t) -> Self {
                    self.$field = $field;
                    self
                }
            )*
        }

        // Every field has its builder: this pattern names exactly the fields above, so it stops
        // compiling when the type gains a field the list lacks (or the list names a field the
        // type does not have).
        const _: () = {
            #[allow(dead_code)]
            fn every_field_has_a_builder(options: $ty) {
                let $ty { $($field: _),* } = options;
            }
        };
    };
}
pub(crate) use builders;
