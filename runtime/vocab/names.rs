//! GL enum values by name, for messages: errors, reports and dumps print `GL_COLOR`, not
//! `0x1800`.

use std::fmt;

use crate::generated::enums::enum_name;

/// Displays a GL enum value by name (`GL_COLOR`), or in hex when no enumerant has that value.
/// Error messages use it.
#[derive(Clone, Copy, Debug)]
pub struct EnumName(pub u32);

impl fmt::Display for EnumName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match enum_name("", self.0) {
            Some(name) => f.write_str(name),
            None => write!(f, "0x{:04X}", self.0),
        }
    }
}
