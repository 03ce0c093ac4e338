//! A capture cannot amplify (issue 16, item 6): a replayed create makes exactly the names its
//! record holds, and the replay's resource budget (live objects, bytes of storage, vertices
//! drawn) stops a file that passes it with an error naming the record, before the record
//! reaches the device; `ReplayOptions::budget` raises it. Crafted files, in the style of
//! `tests/capture.rs`: real captures with one field patched, and a file written record by record.

use std::path::PathBuf;
use std::time::Duration;

use glcmd::capture::calls::CallProblem;
use glcmd::capture::tables::Cost;
use glcmd::capture::{
    self, format, CaptureOptions, LoadError, Record, ReplayBudget, ReplayError, ReplayOptions, Resource,
};
use glcmd::generated::capture::OPCODES;
use glcmd::{gl, CommandList, Device, Options};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("glcmd-budget-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A capture of one frame recorded by `record` on a capturing device (the set-up, made by
/// `set_up`, goes into the set-up log).
fn captured(
    name: &str,
    set_up: impl FnOnce(&Device) -> Vec<u32>,
    record: impl FnOnce(&mut CommandList, &[u32]),
) -> Vec<u8> {
    let path = temp(name);
    let device = Device::with_options(Options::default().capture(Some(CaptureOptions::default()))).unwrap();
    let objects = set_up(&device);
    let handle = device.capture(&path, 1).unwrap();
    let mut list = device.command_list();
    record(&mut list, &objects);
    device.submit(list).unwrap();
    handle.wait(Duration::from_secs(60)).unwrap();
    std::fs::read(&path).unwrap()
}

/// The file offset of the first packet of `function`, and its cost entry.
fn packet(bytes: &[u8], function: &str) -> (usize, Cost) {
    let c = capture::Capture::from_bytes(bytes).unwrap();
    for l in c.lists() {
        if let Some(p) = l.packet_infos().into_iter().find(|p| p.function == function) {
            return (p.offset, OPCODES[p.opcode as usize].cost);
        }
    }
    panic!("no {function} packet");
}

fn patch(bytes: &mut [u8], at: usize, value: &[u8]) {
    bytes[at..at + value.len()].copy_from_slice(value);
}

fn replay(bytes: &[u8], budget: ReplayBudget) -> Result<capture::ReplaySummary, ReplayError> {
    let c = capture::Capture::from_bytes(bytes).unwrap();
    let device = Device::with_options(Options::default().robust_access(true)).unwrap();
    let r = capture::replay(&c, &device, &ReplayOptions::default().budget(budget), &mut |_| {});
    assert_eq!(device.get_error().map(|_| ()).map_err(|e| e.to_string()), Ok(()), "the device survives");
    r
}

/// The budget error of a replay, after checking what it names.
fn over_budget(r: Result<capture::ReplaySummary, ReplayError>, resource: Resource, names: &str) -> u128 {
    match r {
        Err(e @ ReplayError::Budget { .. }) => {
            let text = e.to_string();
            eprintln!("{text}");
            let ReplayError::Budget { record, problem } = e else { unreachable!() };
            assert_eq!(problem.resource, resource, "{text}");
            assert!(record.contains(names), "the error names the record: {text}");
            assert!(text.contains("--max-"), "the error says how to raise the budget: {text}");
            problem.used
        }
        other => panic!("expected a budget error, got {other:?}"),
    }
}

fn buffers(n: i32) -> impl FnOnce(&Device) -> Vec<u32> {
    move |device: &Device| device.create_buffers(n).unwrap()
}

/// The file, written record by record: a CALL record of `glCreateBuffers(1 << 20)` whose
/// answer holds no names. It is refused at load, and so is the same create asking for more
/// names than a real capture recorded.
#[test]
fn a_create_asking_for_more_names_than_it_recorded_is_refused_at_load() {
    let good = captured("create.glcap", buffers(2), |_, _| {});
    let c = capture::Capture::from_bytes(&good).unwrap();
    let (offset, function, args) = c
        .records
        .iter()
        .find_map(|r| match r {
            Record::Call { offset, function, args, .. }
                if glcmd::generated::capture::call_info(*function).map(|(n, _)| n) == Some("glCreateBuffers") =>
            {
                Some((*offset, *function, args.clone()))
            }
            _ => None,
        })
        .expect("the create is recorded");
    assert_eq!(args, 2i32.to_ne_bytes());
    // From scratch: the header of a real capture, the create, the end.
    let mut file = good[..format::HEADER_BYTES].to_vec();
    file.extend(format::call_record(function, &(1i32 << 20).to_ne_bytes(), &capture::wire::encode(&Vec::<u32>::new())));
    file.extend(format::end_record(1));
    assert!(file.len() < 100, "{} bytes", file.len());
    match capture::Capture::from_bytes(&file) {
        Err(LoadError::Call { problem: CallProblem::CreateCount { asked, recorded: 0, param: "n" }, .. }) => {
            assert_eq!(asked, 1 << 20)
        }
        other => panic!("{other:?}"),
    }
    // Patched: the real create's `n` (after tag, length, function and the arguments' length).
    let mut patched = good.clone();
    patch(&mut patched, offset + 11, &(1i32 << 20).to_ne_bytes());
    match capture::Capture::from_bytes(&patched) {
        Err(e @ LoadError::Call { problem: CallProblem::CreateCount { recorded: 2, .. }, .. }) => {
            let text = e.to_string();
            assert!(text.contains("glCreateBuffers") && text.contains(&format!("byte {offset}")), "{text}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn live_objects_past_the_budget_stop_the_replay_at_the_create() {
    let bytes = captured("objects.glcap", buffers(3), |_, _| {});
    let used = over_budget(replay(&bytes, ReplayBudget::default().objects(2)), Resource::Objects, "glCreateBuffers");
    assert_eq!(used, 3);
    replay(&bytes, ReplayBudget::default().objects(3)).unwrap();
}

/// A buffer of 64 KiB whose recorded size is patched to 1 TiB (the data pointer is null, so the
/// file stays valid): refused under the default budget, naming the packet; at 64 MiB against a
/// budget of 32 MiB refused, against 128 MiB replayed.
#[test]
fn storage_past_the_budget_stops_the_replay_at_the_packet() {
    let bytes = captured("storage.glcap", buffers(1), |l, b| l.named_buffer_storage(b[0], 65536, None, 0));
    let (at, cost) = packet(&bytes, "glNamedBufferStorage");
    let Cost::Buffer { size, .. } = cost else { panic!("{cost:?}") };
    let field = at + size.at as usize;
    assert_eq!(&bytes[field..field + 8], &65536i64.to_ne_bytes());
    let mut huge = bytes.clone();
    patch(&mut huge, field, &(1i64 << 40).to_ne_bytes());
    let used = over_budget(replay(&huge, ReplayBudget::default()), Resource::StorageBytes, "glNamedBufferStorage");
    assert_eq!(used, 1 << 40);
    let mut big = bytes.clone();
    patch(&mut big, field, &(64i64 << 20).to_ne_bytes());
    over_budget(replay(&big, ReplayBudget::default().storage_bytes(32 << 20)), Resource::StorageBytes, "byte");
    replay(&big, ReplayBudget::default().storage_bytes(128 << 20)).unwrap();
}

/// What a case records, given the set-up's objects.
type Recording = dyn Fn(&mut CommandList, &[u32]);

/// Texel storage: a 2D chain, a cube map (six faces), a multisampled renderbuffer, each past a
/// budget its exact size passes.
#[test]
fn texel_storage_counts_levels_faces_and_samples() {
    let set_up = |device: &Device| {
        vec![
            device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0],
            device.create_textures(gl::TEXTURE_CUBE_MAP, 1).unwrap()[0],
            device.create_renderbuffers(1).unwrap()[0],
        ]
    };
    let cases: [(&str, Box<Recording>, u64); 3] = [
        // 256x256 RGBA8, 9 levels: 4 * (65536 + 16384 + ... + 1) bytes.
        (
            "chain",
            Box::new(|l: &mut CommandList, o: &[u32]| l.texture_storage_2d(o[0], 9, gl::RGBA8, 256, 256)),
            4 * 87381,
        ),
        (
            "cube",
            Box::new(|l: &mut CommandList, o: &[u32]| l.texture_storage_2d(o[1], 1, gl::RGBA16F, 64, 64)),
            6 * 8 * 4096,
        ),
        (
            "multisampled",
            Box::new(|l: &mut CommandList, o: &[u32]| {
                l.named_renderbuffer_storage_multisample(o[2], 4, gl::RGBA8, 32, 32)
            }),
            4 * 4 * 1024,
        ),
    ];
    for (name, record, exact) in cases {
        let bytes = captured(&format!("{name}.glcap"), set_up, |l, o| record(l, o));
        let used = over_budget(
            replay(&bytes, ReplayBudget::default().storage_bytes(exact - 1)),
            Resource::StorageBytes,
            "byte",
        );
        assert_eq!(used, exact as u128, "{name}");
        replay(&bytes, ReplayBudget::default().storage_bytes(exact)).unwrap();
    }
}

/// Storage specified again replaces what the object was charged, and a delete frees it: a
/// buffer orphaned 64 times through its binding, 64 buffers made and deleted, a renderbuffer
/// specified 64 times through its binding, each 1 MiB, replay under a budget of 2 MiB.
#[test]
fn storage_specified_again_or_deleted_is_not_counted_twice() {
    let mib = 1 << 20;
    let bytes = captured(
        "respecified.glcap",
        |device: &Device| {
            let mut names = device.create_buffers(65).unwrap();
            names.extend(device.create_renderbuffers(1).unwrap());
            names
        },
        |l, o| {
            l.bind_buffer(gl::ARRAY_BUFFER, o[0]);
            for _ in 0..64 {
                l.buffer_data(gl::ARRAY_BUFFER, mib, None, gl::STREAM_DRAW);
            }
            for &b in &o[1..65] {
                l.named_buffer_data(b, mib, None, gl::STATIC_DRAW);
                l.delete_buffers(&[b]);
            }
            l.bind_renderbuffer(gl::RENDERBUFFER, o[65]);
            for _ in 0..64 {
                l.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA8, 512, 512);
            }
        },
    );
    replay(&bytes, ReplayBudget::default().storage_bytes(2 * mib as u64 + 1)).unwrap();
}

/// A draw of 3 vertices patched to 2^30 vertices times 2^10 instances: refused under the
/// default budget, naming the draw; 1000 x 1000 against budgets below and at a million.
#[test]
fn vertices_past_the_budget_stop_the_replay_at_the_draw() {
    let bytes = captured("draw.glcap", |_| Vec::new(), |l, _| l.draw_arrays_instanced(gl::TRIANGLES, 0, 3, 1));
    let (at, cost) = packet(&bytes, "glDrawArraysInstanced");
    let Cost::Draw { count: Some(count), instances: Some(instances), .. } = cost else { panic!("{cost:?}") };
    let set = |bytes: &mut Vec<u8>, c: i32, i: i32| {
        patch(bytes, at + count.at as usize, &c.to_ne_bytes());
        patch(bytes, at + instances.at as usize, &i.to_ne_bytes());
    };
    let mut huge = bytes.clone();
    set(&mut huge, 1 << 30, 1 << 10);
    let used = over_budget(replay(&huge, ReplayBudget::default()), Resource::Vertices, "glDrawArraysInstanced");
    assert_eq!(used, 1 << 40);
    let mut million = bytes.clone();
    set(&mut million, 1000, 1000);
    over_budget(replay(&million, ReplayBudget::default().vertices(999_999)), Resource::Vertices, "byte");
    replay(&million, ReplayBudget::default().vertices(1_000_000)).unwrap();
}
