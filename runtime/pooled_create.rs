//! # Pooled creates: names from the render thread's pools, validated as the GL validates
//!
//! `glCreate*` and `glGen*` are immediate (the caller gets real names at once), and most of them
//! are served from per-device name pools that the render thread refills ahead of demand
//! (`crate::pools`), without a round trip. A pool serves only a target the GL accepted when it
//! was filled, so an invalid target is never served from one: the create goes to the GL, which
//! raises its error (`GL_INVALID_ENUM`) and makes no name. A negative `n` is refused before
//! anything happens, with the GL's `GL_INVALID_VALUE` (`Error::InvalidArgument`). A create of
//! no names still validates its target, as the GL does (`glCreateQueries(GL_RGBA, 0, ids)`
//! raises `GL_INVALID_ENUM`): it is made on the GL with a count of 0.

use std::sync::atomic::Ordering;

use crate::device::{Device, Msg, MAX_CREATE};
use crate::Error;

impl Device {
    /// One name from the pool of (`index`, `target`) without a round trip or an allocation, if
    /// the pool has one (the generated singular creates fall back to the plural form).
    #[inline]
    pub(crate) fn pooled_take_one(&self, index: usize, target: u32) -> Option<u32> {
        let pools = &self.inner.shared.pools;
        let was_low = pools.low.load(Ordering::Acquire);
        let name = pools.take_one(index, target);
        if !was_low && pools.low.load(Ordering::Acquire) {
            let _ = self.inner.tx.try_send(Msg::Refill);
        }
        name
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn pooled_create(
        &self,
        function: &'static str,
        index: usize,
        target: u32,
        n: i32,
        class: &'static str,
        created: bool,
        make: crate::pools::MakeNames,
    ) -> Result<Vec<u32>, Error> {
        let n = crate::arguments::size_arg(function, "n", n as i64)?;
        if n > MAX_CREATE {
            return Err(Error::OutOfMemory { function, bytes: n as u128 * 4 });
        }
        if n == 0 {
            return self.validate_only(function, index, target, make);
        }
        let pools = &self.inner.shared.pools;
        let was_low = pools.low.load(Ordering::Acquire);
        let mut names = pools.take(index, target, n).unwrap_or_default();
        if !was_low && pools.low.load(Ordering::Acquire) {
            // Wake the render thread to refill (it also refills between messages anyway).
            let _ = self.inner.tx.try_send(Msg::Refill);
        }
        if names.len() == n {
            return Ok(names);
        }
        let rest = n - names.len();
        let more = self.create(function, move |ctx| {
            let gl = ctx.gl();
            if !gl.is_available(index) {
                return Err(ctx.unavailable(function));
            }
            // Names a refill put in the pool meanwhile come first: they are older than any the
            // GL makes now, so a sequence of creates gets the names direct GL would give.
            let mut more = ctx.shared.pools.take(index, target, rest).unwrap_or_default();
            let missing = rest - more.len();
            if missing > 0 {
                let mut fresh: Vec<u32> = crate::arguments::out_vec(function, missing)?;
                let _r = crate::arguments::region(fresh.as_ptr(), fresh.len() * 4);
                // SAFETY: `fresh` holds `missing` names.
                unsafe { make(gl, target, missing as i32, fresh.as_mut_ptr()) };
                fresh.truncate(missing);
                ctx.objects_created(class, &fresh, created);
                more.extend(fresh);
            }
            if !more.contains(&0) {
                ctx.shared.pools.start(index, target, class, created, make);
            }
            Ok(more)
        })?;
        names.extend(more);
        Ok(names)
    }

    /// A create of no names: the GL call runs with a count of 0, so the GL checks the target and
    /// raises its error; no name is made.
    #[cold]
    fn validate_only(
        &self,
        function: &'static str,
        index: usize,
        target: u32,
        make: crate::pools::MakeNames,
    ) -> Result<Vec<u32>, Error> {
        self.create(function, move |ctx| {
            let gl = ctx.gl();
            if !gl.is_available(index) {
                return Err(ctx.unavailable(function));
            }
            let mut none = [0u32; 1];
            // The checking table (`Options::checked_gl`) sees the pointer as this call's memory.
            let _r = crate::arguments::region(none.as_ptr(), std::mem::size_of_val(&none));
            // SAFETY: a count of 0 writes no name; the pointer is valid anyway.
            unsafe { make(gl, target, 0, none.as_mut_ptr()) };
            Ok(Vec::new())
        })
    }
}
