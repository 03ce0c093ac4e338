//! How a packet stores an argument that is not a plain value: array and string arguments
//! are an offset and a length into the list's parameter buffer, and two reserved lengths mark
//! the forms that carry no bytes. Recording writes them, replay and every reader of packets
//! (dumps, diagnostics, capture) interpret them; the rule lives here so none of those imports
//! another.

/// `Bytes` packet fields: the length value that marks an offset into the bound buffer.
pub const BYTES_OFFSET: u32 = u32::MAX;
/// `Bytes` packet fields: the length value that marks `Bytes::None` (a null pointer).
pub const BYTES_NULL: u32 = u32::MAX - 1;
