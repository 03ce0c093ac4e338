//! The binding-shadow audit (issue 16, item 1): the shadow decides whether an offset may reach
//! the GL, so it must never believe more is bound than the GL has, whatever a call's arguments
//! and whether or not the GL accepted the call.
//!
//! Every safe recording method whose replay updates or checks the shadow (the generator's
//! `shadow_hooks::hook` table, emitted as [`calls::SHADOW_HOOKED`]:
//! binds, multi-binds, deletes, vertex-array and DSA forms, storage changes, checked draws) is
//! called with the sweep's adversarial arguments in three binding states: nothing bound, a
//! buffer on every target, and a fresh vertex array whose attributes are all enabled with no
//! buffer (the state in which a shadow that records a refused bind would let a draw read client
//! memory). After each call, [`glcmd::Device::audit_binding_shadow`] compares the shadow with the
//! GL's own bindings read back with `glGet*`; every place the shadow claims more is collected.

use std::panic::AssertUnwindSafe;

use glcmd::{gl, CommandList, Device, Options};

use crate::calls;
use crate::fixture::Fixture;

/// What an audit did and found. `#[non_exhaustive]`: read only, as every counters type of glcmd
/// (glcmd's `runtime/builders.rs` gives the rule).
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct AuditSummary {
    /// GL functions audited, and methods (their safe forms).
    pub functions: usize,
    pub methods: usize,
    /// Calls made, and audits (one after each call).
    pub calls: usize,
    pub audits: usize,
    /// Commands glcmd skipped at replay (an unsafe argument).
    pub skipped: u64,
    /// Each place where the shadow claimed more than the GL had, with the call before it.
    pub differences: Vec<String>,
}

/// The binding states the calls start from.
#[derive(Clone, Copy, Debug)]
enum State {
    Bare,
    Bound,
    ClientArrays,
}

/// Runs the audit with `variants` argument variants per method.
pub fn run(variants: usize) -> Result<AuditSummary, glcmd::Error> {
    let device = Device::with_options(Options::default().checked_gl(true))?;
    let fx = Fixture::new(&device)?;
    // Deletes go last: the adversarial names are the fixture's own (0, 1, 2, ...), and a buffer
    // deleted early would leave later calls nothing real to bind.
    let mut entries: Vec<_> = calls::RECORD.iter().filter(|(name, _, _)| calls::SHADOW_HOOKED.contains(name)).collect();
    entries.sort_by_key(|(name, _, _)| name.starts_with("glDelete"));
    let mut summary =
        AuditSummary { functions: calls::SHADOW_HOOKED.len(), methods: entries.len(), ..Default::default() };
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result: Result<(), glcmd::Error> = (|| {
        let (deletes, others) = entries.iter().partition::<Vec<_>, _>(|(name, _, _)| name.starts_with("glDelete"));
        for group in [others, deletes] {
            for state in [State::ClientArrays, State::Bound, State::Bare] {
                for v in 0..variants {
                    for &&&(gl_name, method, record) in &group {
                        let mut list = device.command_list();
                        let vao = start_state(&device, &fx, &mut list, state)?;
                        if std::panic::catch_unwind(AssertUnwindSafe(|| record(&mut list, &fx, v))).is_err() {
                            // Refused at the caller's line: nothing of it is replayed.
                            list = device.command_list();
                            start_state(&device, &fx, &mut list, state)?;
                        }
                        device.submit(list)?;
                        summary.calls += 1;
                        summary.audits += 1;
                        for d in device.audit_binding_shadow()? {
                            summary
                                .differences
                                .push(format!("after {method} ({gl_name}, variant {v}, {state:?}): {d}"));
                        }
                        if let Some(vao) = vao {
                            // So the audits do not read back ever more vertex arrays.
                            let mut list = device.command_list();
                            list.bind_vertex_array(0);
                            list.delete_vertex_arrays(&[vao]);
                            device.submit(list)?;
                        }
                    }
                }
            }
        }
        Ok(())
    })();
    std::panic::set_hook(hook);
    result?;
    summary.skipped = device.stats().refused;
    Ok(summary)
}

/// Records the start of one call's list in `state`; returns the vertex array it made, if any.
fn start_state(
    device: &Device,
    fx: &Fixture,
    list: &mut CommandList,
    state: State,
) -> Result<Option<u32>, glcmd::Error> {
    Ok(match state {
        State::Bare => {
            fx.prelude(list, crate::State::Bare);
            None
        }
        State::Bound => {
            fx.prelude(list, crate::State::Bound);
            None
        }
        State::ClientArrays => {
            fx.prelude(list, crate::State::Bound);
            // A vertex array of its own for each call (the call may change it): every attribute
            // enabled, no buffer on any binding, no element buffer.
            // The fixture's own vertex array (which the DSA forms name) the same way.
            for &named in fx.real_names("vertex array") {
                list.vertex_array_vertex_buffers(named, 0, 16, None, &[0; 16], &[0; 16]);
                for i in 0..16 {
                    list.enable_vertex_array_attrib(named, i);
                }
            }
            let vao = device.create_vertex_array()?;
            list.bind_vertex_array(vao);
            for i in 0..16 {
                list.enable_vertex_attrib_array(i);
            }
            // A draw makes the shadow read anything it is unsure of back from the GL, so the
            // call starts from a vertex array the shadow knows exactly (and the audit compares
            // it; one the shadow marked for reading back is safe and not compared). The draw
            // reads client arrays, so glcmd skips it.
            list.draw_arrays(gl::POINTS, 0, 1);
            Some(vao)
        }
    })
}
