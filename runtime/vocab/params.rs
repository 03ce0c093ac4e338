//! How a packet stores an argument that is not a plain value: array and string arguments
//! are an offset and a length into the list's parameter buffer, and two reserved lengths mark
//! the forms that carry no bytes. Recording writes them, replay and every reader of packets
//! (dumps, diagnostics, capture) interpret them; the rule lives here so none of those imports
//! another.

/// `Bytes` packet fields: the length value that marks an offset into the bound buffer.
pub const BYTES_OFFSET: u32 = u32::MAX;
/// `Bytes` packet fields: the length value that marks `Bytes::None` (a null pointer).
pub const BYTES_NULL: u32 = u32::MAX - 1;

/// Buffer offsets and sizes (`GLintptr`, `GLsizeiptr`) must be non-negative, and their sum must
/// not overflow: Mesa checks `offset + size > buffer size` in 64-bit arithmetic, so an offset
/// near `i64::MAX` wraps the sum negative, passes the check, and the copy runs at that offset.
/// Returns the index of the first value that breaks the rule. Recorded commands (the shadow's
/// guards) and queries (`arguments::check_ranges`) both apply it.
pub fn first_bad_range(values: impl IntoIterator<Item = i64>) -> Option<usize> {
    let mut sum: i64 = 0;
    for (i, v) in values.into_iter().enumerate() {
        match sum.checked_add(v) {
            Some(s) if v >= 0 => sum = s,
            _ => return Some(i),
        }
    }
    None
}
