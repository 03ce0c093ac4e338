//! The audit of the known answers (`runtime/known_answers.rs`: query results and fence states
//! answered without a round trip), as the binding shadow's audit is: from a fixed seed, every
//! call that can change what a query or a sync answers, with adversarial arguments, on an
//! immediate context, and after each step every answer the device would give without asking
//! compared with the GL's own answer at the same point of the stream.
//!
//! The calls: `begin_query` on every query target and one that is none, of names generated,
//! never generated (4242), 0 and deleted; `end_query` of active and inactive targets;
//! `query_counter` with `GL_TIMESTAMP` and with a target it refuses; `delete_queries` of live,
//! unknown and already deleted names; `fence_sync` (also with arguments the GL refuses, which give
//! the null handle), `delete_sync`; hand-overs at random points (a submit, a flush, a finish),
//! so that answers are asked while touches are recorded and not yet replayed; a `with_gl` closure
//! that begins and ends a query behind glcmd's back.
//!
//! The rule checked: an answer the device gives without asking (`KnownAnswers::query_object`,
//! `is_query`, `is_sync`, `fence_signalled`) is the GL's, exactly: the same value with no error,
//! for every getter's type and every pname. The audit also checks that such answers are given
//! (a known-answer path that never answers would pass the rule).

mod common;

use common::Rng;
use glcmd::types::GLuint;
use glcmd::{gl, Device, SyncHandle};

const TARGETS: [u32; 6] =
    [gl::SAMPLES_PASSED, gl::ANY_SAMPLES_PASSED, gl::PRIMITIVES_GENERATED, gl::TIME_ELAPSED, gl::TIMESTAMP, 0xFFFF];
const PNAMES: [u32; 4] = [gl::QUERY_RESULT, gl::QUERY_RESULT_AVAILABLE, gl::QUERY_RESULT_NO_WAIT, gl::QUERY_TARGET];

/// The GL's answer to `glGetQueryObjectui64v(id, pname)` and `glIsQuery(id)` at this point of
/// the stream: (the value, or `None` with the error the GL raised; whether it is a query).
fn gl_query(imm: &mut glcmd::Immediate, id: GLuint, pname: u32) -> (Result<u64, u32>, bool) {
    imm.with_gl(move |g| unsafe {
        while (g.GetError)() != gl::NO_ERROR {}
        let mut v = 0x5EED_u64;
        (g.GetQueryObjectui64v)(id, pname, &mut v);
        let e = (g.GetError)();
        let is = (g.IsQuery)(id) != 0;
        (if e == gl::NO_ERROR { Ok(v) } else { Err(e) }, is)
    })
    .unwrap()
}

/// The GL's `GL_SYNC_STATUS` of a sync at this point of the stream (an error if it is no sync).
fn gl_sync_status(imm: &mut glcmd::Immediate, sync: SyncHandle) -> Option<i32> {
    imm.get_synciv(sync, gl::SYNC_STATUS, 1).ok().map(|(_, v)| v[0])
}

#[test]
fn known_answers_are_the_gls() {
    let device = Device::headless().unwrap();
    let mut imm = device.immediate();
    let mut rng = Rng::new(0x0DDB_A11C_AFE5_EED5);
    let mut ids: Vec<GLuint> = imm.gen_queries(4).unwrap();
    ids.extend([4242, 0]);
    let mut syncs: Vec<SyncHandle> = Vec::new();
    let (mut checked, mut answered) = (0, 0);
    for step in 0..1500 {
        match rng.next_u64() % 11 {
            0 | 1 => imm.begin_query(rng.pick(&TARGETS), rng.pick(&ids)),
            2 | 3 => imm.end_query(rng.pick(&TARGETS)),
            4 => imm.query_counter(rng.pick(&ids), rng.pick(&[gl::TIMESTAMP, gl::SAMPLES_PASSED])),
            5 if rng.next_u64() % 4 == 0 => {
                let id = rng.pick(&ids);
                imm.delete_queries(&[id]);
                if rng.next_u64() % 2 == 0 {
                    ids.extend(imm.gen_queries(1).unwrap());
                }
            }
            6 => {
                let (condition, flags) =
                    rng.pick(&[(gl::SYNC_GPU_COMMANDS_COMPLETE, 0), (0, 0), (gl::SYNC_GPU_COMMANDS_COMPLETE, 1)]);
                syncs.push(imm.fence_sync(condition, flags));
            }
            7 if !syncs.is_empty() && rng.next_u64() % 3 == 0 => imm.delete_sync(rng.pick(&syncs)),
            8 => match rng.next_u64() % 3 {
                0 => imm.submit_pending().unwrap(),
                1 => imm.flush().unwrap(),
                _ => imm.finish().unwrap(),
            },
            9 if rng.next_u64() % 20 == 0 => {
                // Behind glcmd's back: a query begun and ended, and one left active.
                let id = rng.pick(&ids);
                let active = rng.next_u64() % 2 == 0;
                imm.with_gl(move |g| unsafe {
                    (g.BeginQuery)(gl::SAMPLES_PASSED, id);
                    if !active {
                        (g.EndQuery)(gl::SAMPLES_PASSED);
                    }
                })
                .unwrap();
            }
            _ => {}
        }
        // Hand the calls over now and then, so that answers are asked with touches in flight.
        if rng.next_u64() % 3 == 0 {
            imm.submit_pending().unwrap();
        }
        for &id in &ids {
            let pname = rng.pick(&PNAMES);
            let known = device.known_answers().query_object::<u64>(id, pname);
            let known_is = device.known_answers().is_query(id);
            if known.is_none() && !known_is {
                continue;
            }
            imm.submit_pending().unwrap();
            let (gl_answer, gl_is) = gl_query(&mut imm, id, pname);
            checked += 1;
            if let Some(k) = known {
                answered += 1;
                assert_eq!(Ok(k[0]), gl_answer, "step {step}: query {id} pname {pname:#x}");
            }
            assert!(!known_is || gl_is, "step {step}: query {id} known to exist, the GL says it is none");
        }
        for &s in &syncs {
            let (signalled, is) =
                (device.known_answers().fence_signalled(s.id()), device.known_answers().is_sync(s.id()));
            if signalled || is {
                let status = gl_sync_status(&mut imm, s);
                checked += 1;
                assert!(status.is_some(), "step {step}: sync {} known to exist, the GL says it is none", s.id());
                if signalled {
                    assert_eq!(status, Some(gl::SIGNALED as i32), "step {step}: sync {}", s.id());
                }
            }
        }
    }
    eprintln!("known answers audited: {answered} query answers, {checked} checks");
    // Every other kind of check is in the loop; these say the known answers were exercised.
    assert!(answered > 100, "only {answered} query answers came from what the render thread read ({checked} checks)");
    assert!(checked > 300, "{checked} checks");
}

#[test]
fn the_32_bit_getters_saturate_as_the_gl() {
    use glcmd::known_answers::QueryValue;
    assert_eq!(i32::from_result(5_000_000_000), i32::MAX);
    assert_eq!(u32::from_result(5_000_000_000), u32::MAX);
    assert_eq!(u32::from_result(7), 7);
    assert_eq!(i64::from_result(5_000_000_000), 5_000_000_000);
    assert_eq!(u64::from_result(u64::MAX), u64::MAX);
}
