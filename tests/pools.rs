//! Name pools (issue 9): creates of the core object types come from pools the render thread
//! refills ahead of demand. Differential against direct GL: a sequence of creates of one kind
//! returns the names direct GL returns, the objects are the same kind of object in the same
//! state, and once a pool is started its creates make no round trip.

mod common;

use common::*;
use glcmd::types::*;
use glcmd::{gl, DiagnosticOptions, Options, ReportKind};

/// Names direct GL gives for `counts` successive `glCreateBuffers`/`glCreateTextures`.
fn direct_names(counts: &[usize], make: impl Fn(&glcmd::Gl, usize) -> Vec<GLuint>) -> Vec<Vec<GLuint>> {
    let d = Direct::new();
    counts.iter().map(|&n| make(&d.gl, n)).collect()
}

#[test]
fn pooled_buffer_and_texture_names_equal_direct_gl() {
    let counts = [1, 1, 3, 1, 64, 200, 1];
    let direct = direct_names(&counts, |g, n| {
        let mut v = vec![0; n];
        unsafe { (g.CreateBuffers)(n as GLsizei, v.as_mut_ptr()) };
        v
    });
    let device = device();
    let pooled: Vec<Vec<GLuint>> = counts.iter().map(|&n| device.create_buffers(n as GLsizei).unwrap()).collect();
    assert_eq!(pooled, direct);

    let direct = direct_names(&counts, |g, n| {
        let mut v = vec![0; n];
        unsafe { (g.CreateTextures)(gl::TEXTURE_2D_ARRAY, n as GLsizei, v.as_mut_ptr()) };
        v
    });
    let device = common::device();
    let pooled: Vec<Vec<GLuint>> =
        counts.iter().map(|&n| device.create_textures(gl::TEXTURE_2D_ARRAY, n as GLsizei).unwrap()).collect();
    assert_eq!(pooled, direct);
    // The same objects: created with their target, in their default state.
    for &t in pooled.iter().flatten() {
        assert_eq!(device.get_texture_parameteriv(t, gl::TEXTURE_TARGET).unwrap(), vec![gl::TEXTURE_2D_ARRAY as GLint]);
        assert_eq!(
            device.get_texture_parameteriv(t, gl::TEXTURE_MIN_FILTER).unwrap()[0],
            gl::NEAREST_MIPMAP_LINEAR as GLint
        );
    }
}

#[test]
fn generated_names_are_reserved_until_bound_as_in_direct_gl() {
    let d = Direct::new();
    let (mut a, mut b) = ([0u32; 2], [0u32; 2]);
    let direct_is = unsafe {
        (d.gl.GenBuffers)(2, a.as_mut_ptr());
        (d.gl.BindBuffer)(gl::ARRAY_BUFFER, a[0]);
        (d.gl.GenVertexArrays)(2, b.as_mut_ptr());
        [(d.gl.IsBuffer)(a[0]) != 0, (d.gl.IsBuffer)(a[1]) != 0, (d.gl.IsVertexArray)(b[0]) != 0]
    };
    let device = device();
    let names = device.gen_buffers(2).unwrap();
    let arrays = device.gen_vertex_arrays(2).unwrap();
    assert_eq!(names, a.to_vec());
    assert_eq!(arrays, b.to_vec());
    let mut list = device.command_list();
    list.bind_buffer(gl::ARRAY_BUFFER, names[0]);
    device.submit(list).unwrap();
    let is = [
        device.is_buffer(names[0]).unwrap(),
        device.is_buffer(names[1]).unwrap(),
        device.is_vertex_array(arrays[0]).unwrap(),
    ];
    assert_eq!(is, direct_is);
}

#[test]
fn once_a_pool_is_started_creates_make_no_round_trip() {
    let device = device();
    device.create_buffers(1).unwrap();
    device.create_textures(gl::TEXTURE_2D, 1).unwrap();
    device.create_queries(gl::TIME_ELAPSED, 1).unwrap();
    device.finish().unwrap(); // the first refills have run
    let before = device.stats().round_trips;
    let mut all = Vec::new();
    for _ in 0..50 {
        all.extend(device.create_buffers(1).unwrap());
        all.extend(device.create_textures(gl::TEXTURE_2D, 1).unwrap());
        all.extend(device.create_queries(gl::TIME_ELAPSED, 1).unwrap());
    }
    let after = device.stats().round_trips;
    assert_eq!(after, before, "pooled creates made {} round trips", after - before);
    assert!(all.iter().all(|&n| n != 0));
    // Many more than a pool holds: the pool refills, with a round trip only if it ran dry.
    let many: Vec<GLuint> = (0..1000).flat_map(|_| device.create_buffers(1).unwrap()).collect();
    let mut sorted = many.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), 1000, "every name is handed out once");
}

#[test]
fn pooled_names_and_use_after_delete_tracking() {
    // Mesa reuses deleted names only when asked to (as NVIDIA does by default).
    if !rerun_in_child("pooled_names_and_use_after_delete_tracking", &[("force_gl_names_reuse", "true")]) {
        return;
    }
    let device =
        glcmd::Device::with_options(Options::default().diagnostics(DiagnosticOptions::default().track_deletes(true)))
            .unwrap();
    // Delete buffers for a few frames while creating more: a name the GL hands out again is
    // live when the pool gives it out, so its use is no use after delete.
    for round in 0..5 {
        let names = device.create_buffers(40).unwrap();
        let mut list = device.command_list();
        for &b in &names {
            list.named_buffer_storage(b, 16, None, 0);
        }
        list.delete_buffers(&names);
        device.submit(list).unwrap();
        device.wait_frames(device.stats().frames.max(1)).unwrap();
        let fresh = device.create_buffers(40).unwrap();
        let mut list = device.command_list();
        for &b in &fresh {
            list.named_buffer_storage(b, 16, None, 0);
        }
        device.submit(list).unwrap();
        device.get_error().unwrap();
        let false_alarms: Vec<_> =
            device.reports().try_iter().filter(|r| r.kind == ReportKind::UseAfterDelete).collect();
        assert!(false_alarms.is_empty(), "round {round}: {false_alarms:#?}");
    }
}

/// Every other pooled kind, the `glCreate*` and the `glGen*` forms: a sequence of creates on a
/// fresh device returns the names direct GL returns on a fresh context, and the names are
/// objects of their kind (or reserved names, for `glGen*`, as in direct GL).
#[test]
fn every_pooled_kind_returns_the_names_of_direct_gl() {
    type DirectFn = fn(&glcmd::Gl, GLsizei, *mut GLuint);
    type Pooled = fn(&glcmd::Device, GLsizei) -> Vec<GLuint>;
    type Is = fn(&glcmd::Device, GLuint) -> bool;
    let kinds: [(&str, DirectFn, Pooled, Option<Is>); 9] = [
        (
            "framebuffers",
            |g, n, p| unsafe { (g.CreateFramebuffers)(n, p) },
            |d, n| d.create_framebuffers(n).unwrap(),
            Some(|d, x| d.is_framebuffer(x).unwrap()),
        ),
        (
            "renderbuffers",
            |g, n, p| unsafe { (g.CreateRenderbuffers)(n, p) },
            |d, n| d.create_renderbuffers(n).unwrap(),
            Some(|d, x| d.is_renderbuffer(x).unwrap()),
        ),
        (
            "samplers",
            |g, n, p| unsafe { (g.CreateSamplers)(n, p) },
            |d, n| d.create_samplers(n).unwrap(),
            Some(|d, x| d.is_sampler(x).unwrap()),
        ),
        (
            "program pipelines",
            |g, n, p| unsafe { (g.CreateProgramPipelines)(n, p) },
            |d, n| d.create_program_pipelines(n).unwrap(),
            Some(|d, x| d.is_program_pipeline(x).unwrap()),
        ),
        (
            "transform feedbacks",
            |g, n, p| unsafe { (g.CreateTransformFeedbacks)(n, p) },
            |d, n| d.create_transform_feedbacks(n).unwrap(),
            Some(|d, x| d.is_transform_feedback(x).unwrap()),
        ),
        (
            "vertex arrays",
            |g, n, p| unsafe { (g.CreateVertexArrays)(n, p) },
            |d, n| d.create_vertex_arrays(n).unwrap(),
            Some(|d, x| d.is_vertex_array(x).unwrap()),
        ),
        (
            "queries",
            |g, n, p| unsafe { (g.CreateQueries)(gl::SAMPLES_PASSED, n, p) },
            |d, n| d.create_queries(gl::SAMPLES_PASSED, n).unwrap(),
            Some(|d, x| d.is_query(x).unwrap()),
        ),
        ("generated textures", |g, n, p| unsafe { (g.GenTextures)(n, p) }, |d, n| d.gen_textures(n).unwrap(), None),
        (
            "generated framebuffers",
            |g, n, p| unsafe { (g.GenFramebuffers)(n, p) },
            |d, n| d.gen_framebuffers(n).unwrap(),
            None,
        ),
    ];
    let counts = [1, 2, 1, 70, 1];
    for (kind, direct, pooled, is) in kinds {
        let d = Direct::new();
        let expected: Vec<Vec<GLuint>> = counts
            .iter()
            .map(|&n| {
                let mut v = vec![0; n];
                direct(&d.gl, n as GLsizei, v.as_mut_ptr());
                v
            })
            .collect();
        drop(d);
        let device = device();
        let got: Vec<Vec<GLuint>> = counts.iter().map(|&n| pooled(&device, n as GLsizei)).collect();
        assert_eq!(got, expected, "{kind}");
        if let Some(is) = is {
            assert!(got.iter().flatten().all(|&x| is(&device, x)), "{kind}: every name is an object of its kind");
        }
    }
}
