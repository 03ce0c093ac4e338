//! GL-exact behaviour (issue 19): where glcmd checks an argument, the program gets what the GL
//! would give it. Each test is written from a class of the description.

mod common;

use common::*;
use glcmd::gl;

/// Class 3 of issue 19: `glTextureView`'s new texture must be a name that was generated and
/// never bound; glcmd's existence check refused such a name as "not an existing texture" (eight
/// positive rendering tests of piglit's `arb_texture_view` failed). The check must accept a
/// generated-but-unbound name even after arbitrary GL code ran (`with_gl`, after which glcmd
/// forgets what it knew of names and asks the GL, which answers `glIsTexture` = false for such a
/// name).
#[test]
fn texture_view_takes_a_generated_name_that_was_never_bound() {
    let device = device();
    let original = device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
    let views = device.gen_textures(2).unwrap();
    let mut list = device.command_list();
    list.texture_storage_2d(original, 3, gl::RGBA8, 8, 8);
    list.texture_view(views[0], gl::TEXTURE_2D, original, gl::RGBA8, 1, 2, 0, 1);
    device.submit(list).unwrap();
    device.with_gl(|_| {}).unwrap(); // arbitrary GL code: names are verified anew
    let mut list = device.command_list();
    list.texture_view(views[1], gl::TEXTURE_2D, original, gl::RGBA8, 0, 1, 0, 1);
    device.submit(list).unwrap();
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
    for (view, min_level, levels) in [(views[0], 1, 2), (views[1], 0, 1)] {
        assert_eq!(device.get_texture_parameteri(view, gl::TEXTURE_VIEW_MIN_LEVEL).unwrap(), min_level);
        assert_eq!(device.get_texture_parameteri(view, gl::TEXTURE_VIEW_NUM_LEVELS).unwrap(), levels);
        assert_eq!(device.get_texture_parameteri(view, gl::TEXTURE_IMMUTABLE_FORMAT).unwrap(), 1);
    }
    let skipped: Vec<_> = device.reports().try_iter().filter(|r| r.kind == glcmd::ReportKind::Skipped).collect();
    assert!(skipped.is_empty(), "{skipped:#?}");
}

/// The same class for program pipelines: `glUseProgramStages` and `glActiveShaderProgram` create
/// a pipeline whose name was generated and never bound (GL 4.6 §7.4).
#[test]
fn program_pipeline_calls_take_a_generated_name_that_was_never_bound() {
    let device = device();
    let vs = "#version 450 core\nout gl_PerVertex { vec4 gl_Position; };\nvoid main() { gl_Position = vec4(0.0); }\n";
    let program = device.create_shader_programv(gl::VERTEX_SHADER, &[vs]).unwrap();
    let pipelines = device.gen_program_pipelines(2).unwrap();
    device.with_gl(|_| {}).unwrap();
    let mut list = device.command_list();
    list.use_program_stages(pipelines[0], gl::VERTEX_SHADER_BIT, program);
    list.active_shader_program(pipelines[1], program);
    device.submit(list).unwrap();
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
    assert_eq!(device.get_program_pipelinei(pipelines[0], gl::VERTEX_SHADER).unwrap(), program as i32);
    assert_eq!(device.get_program_pipelinei(pipelines[1], gl::ACTIVE_PROGRAM).unwrap(), program as i32);
}

/// Class 1 of issue 19: `glIsSync` of a handle that names no sync object answers false and raises
/// no error (piglit's `arb_sync@clientwaitsync-errors` used 0xDEADBEEF); glcmd failed the call
/// with its own "unknown sync" error. Other uses of such a handle stay errors.
#[test]
fn is_sync_of_a_handle_that_names_nothing_is_false_without_an_error() {
    let device = device();
    let bogus = glcmd::SyncHandle::from_id(0xDEAD_BEEF);
    assert!(!device.is_sync(bogus).unwrap());
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
    let mut list = device.command_list();
    let fence = list.fence_sync(gl::SYNC_GPU_COMMANDS_COMPLETE, 0);
    device.submit(list).unwrap();
    assert!(device.is_sync(fence).unwrap(), "a real fence is a sync object");
    assert!(device.get_synciv(bogus, gl::SYNC_STATUS, 1).is_err(), "querying a handle that names nothing fails");
}

/// Class 2 of issue 19: pooled creates validate as the GL does. `glCreateQueries` with a target
/// that is no query target raises `GL_INVALID_ENUM` and makes no object (glcmd's name pool handed
/// out a name), and so does `glCreateTextures` with a target that is no texture target.
#[test]
fn pooled_creates_with_a_target_the_gl_refuses_raise_its_error() {
    let device = device();
    type Create<'a> = &'a dyn Fn() -> Result<Vec<u32>, glcmd::Error>;
    let creates: [(&str, Create); 2] = [
        ("glCreateQueries", &|| device.create_queries(0x1234, 2)),
        ("glCreateTextures", &|| device.create_textures(0x1234, 2)),
    ];
    for (what, create) in creates {
        // One at a time: two errors of one kind are one GL error flag.
        let names = create().unwrap_or_default();
        assert_eq!(device.get_error().unwrap(), gl::INVALID_ENUM, "{what}: the GL's error");
        assert!(names.iter().all(|&n| n == 0), "{what}: no object is made: {names:?}");
    }
    // The pools still serve valid targets.
    let queries = device.create_queries(gl::SAMPLES_PASSED, 2).unwrap();
    assert!(queries.iter().all(|&q| q != 0));
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
}
