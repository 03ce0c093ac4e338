//! Which object names exist, as far as the shadow knows: names a create made (objects), names a
//! gen reserved (bindable, objects once bound), names seen bound, names deleted. A name the
//! shadow does not know is asked of the GL (`glIs*`) before a call that would dereference it.

use std::collections::HashMap;

use crate::vocab::hash::FastHash;

/// What glcmd knows about a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Known {
    /// Generated (`glGen*`): bindable; becomes an object when first bound.
    Reserved,
    /// An object exists (created, or bound once).
    Object,
}

/// The known names of one object type: a dense array for the small names drivers hand out, a
/// map beyond. `verified` is compared with the shadow's generation: a name seen before the last
/// `with_gl` may have been deleted behind glcmd's back.
#[derive(Default)]
pub(super) struct Names {
    pub(super) dense: Vec<(u8, u32)>,
    pub(super) sparse: HashMap<u32, (u8, u32), FastHash>,
}

pub(super) const DENSE_LIMIT: u32 = 1 << 20;

impl Names {
    pub(super) fn get(&self, name: u32, generation: u32) -> Option<Known> {
        let (state, g) = if name < DENSE_LIMIT { *self.dense.get(name as usize)? } else { *self.sparse.get(&name)? };
        (g == generation).then_some(())?;
        match state {
            1 => Some(Known::Reserved),
            2 => Some(Known::Object),
            _ => None,
        }
    }

    pub(super) fn set(&mut self, name: u32, known: Option<Known>, generation: u32) {
        let state = match known {
            None => 0,
            Some(Known::Reserved) => 1,
            Some(Known::Object) => 2,
        };
        if name < DENSE_LIMIT {
            let i = name as usize;
            if self.dense.len() <= i {
                if state == 0 {
                    return;
                }
                self.dense.resize((i + 1).next_power_of_two().min(DENSE_LIMIT as usize), (0, 0));
            }
            self.dense[i] = (state, generation);
        } else if state == 0 {
            self.sparse.remove(&name);
        } else {
            self.sparse.insert(name, (state, generation));
        }
    }
}
