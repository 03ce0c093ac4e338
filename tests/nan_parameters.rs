//! NaN in float texture and sampler parameters (issue 34, item 4; `runtime/float_params.rs`):
//! each call made directly on the GL (llvmpipe, Mesa 22) and through glcmd, the error and the
//! parameter's value afterwards compared. Every kind of pname is here: integer-valued ones (the
//! GL converts NaN to an integer and refuses it), `GL_TEXTURE_MAX_ANISOTROPY` (NaN clamped to the
//! maximum), the border colour (a colour: NaN kept), the LOD pnames on targets and textures the
//! GL refuses them for and a pname the GL does not know (the GL's earlier errors), for
//! `glTexParameterf{,v}`, `glTextureParameterf{,v}` and `glSamplerParameterf{,v}`, and the point
//! parameters (an unknown pname is the GL's `GL_INVALID_ENUM`). Where Mesa keeps a NaN LOD or
//! point size (the cases glcmd refuses), glcmd's `GL_INVALID_VALUE` is checked apart.

mod common;

use common::*;
use glcmd::types::{GLenum, GLuint};
use glcmd::{gl, CommandList, Device, Gl, ReportKind};

const NAN: f32 = f32::NAN;

/// The objects of a run: a 2D texture, a multisample texture, a buffer texture, a sampler.
#[derive(Clone, Copy)]
struct Names {
    tex: GLuint,
    ms: GLuint,
    buffer_tex: GLuint,
    sampler: GLuint,
}

/// Whose parameter a case reads back afterwards.
#[derive(Clone, Copy)]
enum Of {
    Bound(GLenum),
    Tex,
    Sampler,
    /// The context's state (`glGetFloatv`).
    Point,
}

/// A case: its name, the call made directly, the call recorded, and the parameter read back
/// (`None`: the GL refuses the question too) with how many values it has.
type Case<'a> = (&'a str, &'a dyn Fn(&Gl, Names), &'a dyn Fn(&mut CommandList, Names), Option<(Of, GLenum, usize)>);

fn direct_names(g: &Gl) -> Names {
    let (mut tex, mut ms, mut buffer_tex, mut sampler) = (0, 0, 0, 0);
    // SAFETY: one name into each local; storage calls on the textures just made.
    unsafe {
        (g.CreateTextures)(gl::TEXTURE_2D, 1, &mut tex);
        (g.CreateTextures)(gl::TEXTURE_2D_MULTISAMPLE, 1, &mut ms);
        (g.TextureStorage2DMultisample)(ms, 4, gl::RGBA8, 4, 4, gl::TRUE as u8);
        (g.CreateTextures)(gl::TEXTURE_BUFFER, 1, &mut buffer_tex);
        (g.CreateSamplers)(1, &mut sampler);
    }
    Names { tex, ms, buffer_tex, sampler }
}

fn device_names(device: &Device) -> Names {
    let names = Names {
        tex: device.create_texture(gl::TEXTURE_2D).unwrap(),
        ms: device.create_texture(gl::TEXTURE_2D_MULTISAMPLE).unwrap(),
        buffer_tex: device.create_texture(gl::TEXTURE_BUFFER).unwrap(),
        sampler: device.create_sampler().unwrap(),
    };
    let mut list = device.command_list();
    list.texture_storage_2d_multisample(names.ms, 4, gl::RGBA8, 4, 4, true);
    device.submit(list).unwrap();
    names
}

/// The values of a parameter, as bits (NaN compared by its bits).
fn direct_value(g: &Gl, n: Names, of: Of, pname: GLenum, count: usize) -> Vec<u32> {
    let mut v = [0.0f32; 16];
    // SAFETY: at most 4 values into 16.
    unsafe {
        match of {
            Of::Bound(target) => (g.GetTexParameterfv)(target, pname, v.as_mut_ptr()),
            Of::Tex => (g.GetTextureParameterfv)(n.tex, pname, v.as_mut_ptr()),
            Of::Sampler => (g.GetSamplerParameterfv)(n.sampler, pname, v.as_mut_ptr()),
            Of::Point => (g.GetFloatv)(pname, v.as_mut_ptr()),
        }
    }
    v[..count].iter().map(|x| x.to_bits()).collect()
}

fn device_value(device: &Device, n: Names, of: Of, pname: GLenum) -> Vec<u32> {
    let v = match of {
        Of::Bound(target) => device.get_tex_parameterfv(target, pname),
        Of::Tex => device.get_texture_parameterfv(n.tex, pname),
        Of::Sampler => device.get_sampler_parameterfv(n.sampler, pname),
        Of::Point => device.get_floatv(pname),
    };
    v.unwrap().iter().map(|x| x.to_bits()).collect()
}

/// Records `call` alone and returns the error it raised and whether glcmd refused it.
fn through_glcmd(device: &Device, call: impl FnOnce(&mut CommandList)) -> (u32, bool) {
    let reports = device.reports();
    while reports.try_recv().is_some() {}
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR, "no error is pending before the call");
    let mut list = device.command_list();
    call(&mut list);
    device.submit(list).unwrap();
    let error = device.get_error().unwrap();
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR, "one error");
    let skipped = reports.try_iter().any(|r| r.kind == ReportKind::Skipped);
    (error, skipped)
}

fn direct_error(d: &Direct, n: Names, call: &dyn Fn(&Gl, Names)) -> u32 {
    while d.error() != gl::NO_ERROR {}
    call(&d.gl, n);
    let e = d.error();
    assert_eq!(d.error(), gl::NO_ERROR, "one error");
    e
}

#[test]
fn nan_texture_and_sampler_parameters_answer_as_the_gl() {
    let d = Direct::new();
    let dn = direct_names(&d.gl);
    let device = device();
    let gn = device_names(&device);
    let (t2d, ms) = (gl::TEXTURE_2D, gl::TEXTURE_2D_MULTISAMPLE);
    let border = [NAN, 0.25, 0.5, 1.0];
    let cases: [Case; 20] = [
        (
            "glTexParameterf(GL_TEXTURE_MIN_FILTER, NaN)",
            &|g, _| unsafe { (g.TexParameterf)(t2d, gl::TEXTURE_MIN_FILTER, NAN) },
            &|l, _| l.tex_parameterf(t2d, gl::TEXTURE_MIN_FILTER, NAN),
            Some((Of::Bound(t2d), gl::TEXTURE_MIN_FILTER, 1)),
        ),
        (
            "glTexParameterf(GL_TEXTURE_BASE_LEVEL, NaN)",
            &|g, _| unsafe { (g.TexParameterf)(t2d, gl::TEXTURE_BASE_LEVEL, NAN) },
            &|l, _| l.tex_parameterf(t2d, gl::TEXTURE_BASE_LEVEL, NAN),
            Some((Of::Bound(t2d), gl::TEXTURE_BASE_LEVEL, 1)),
        ),
        (
            "glTexParameterf(GL_TEXTURE_MAX_ANISOTROPY, NaN)",
            &|g, _| unsafe { (g.TexParameterf)(t2d, gl::TEXTURE_MAX_ANISOTROPY, NAN) },
            &|l, _| l.tex_parameterf(t2d, gl::TEXTURE_MAX_ANISOTROPY, NAN),
            Some((Of::Bound(t2d), gl::TEXTURE_MAX_ANISOTROPY, 1)),
        ),
        (
            "glTexParameterf(GL_TEXTURE_2D_MULTISAMPLE, GL_TEXTURE_MIN_LOD, NaN)",
            &|g, _| unsafe { (g.TexParameterf)(ms, gl::TEXTURE_MIN_LOD, NAN) },
            &|l, _| l.tex_parameterf(ms, gl::TEXTURE_MIN_LOD, NAN),
            None,
        ),
        (
            "glTexParameterf(GL_TEXTURE_BUFFER, GL_TEXTURE_MAX_LOD, NaN)",
            &|g, _| unsafe { (g.TexParameterf)(gl::TEXTURE_BUFFER, gl::TEXTURE_MAX_LOD, NAN) },
            &|l, _| l.tex_parameterf(gl::TEXTURE_BUFFER, gl::TEXTURE_MAX_LOD, NAN),
            None,
        ),
        (
            "glTexParameterf(pname 0x1234, NaN)",
            &|g, _| unsafe { (g.TexParameterf)(t2d, 0x1234, NAN) },
            &|l, _| l.tex_parameterf(t2d, 0x1234, NAN),
            None,
        ),
        (
            "glTexParameterfv(GL_TEXTURE_BORDER_COLOR, NaN first)",
            &|g, _| unsafe { (g.TexParameterfv)(t2d, gl::TEXTURE_BORDER_COLOR, border.as_ptr()) },
            &|l, _| l.tex_parameterfv(t2d, gl::TEXTURE_BORDER_COLOR, &border),
            Some((Of::Bound(t2d), gl::TEXTURE_BORDER_COLOR, 4)),
        ),
        (
            "glTexParameterfv(GL_TEXTURE_SWIZZLE_RGBA, NaN)",
            &|g, _| unsafe { (g.TexParameterfv)(t2d, gl::TEXTURE_SWIZZLE_RGBA, [NAN; 4].as_ptr()) },
            &|l, _| l.tex_parameterfv(t2d, gl::TEXTURE_SWIZZLE_RGBA, &[NAN; 4]),
            Some((Of::Bound(t2d), gl::TEXTURE_SWIZZLE_RGBA, 4)),
        ),
        (
            "glTextureParameterf(multisample texture, GL_TEXTURE_MIN_LOD, NaN)",
            &|g, n| unsafe { (g.TextureParameterf)(n.ms, gl::TEXTURE_MIN_LOD, NAN) },
            &|l, n| l.texture_parameterf(n.ms, gl::TEXTURE_MIN_LOD, NAN),
            None,
        ),
        (
            "glTextureParameterf(buffer texture, GL_TEXTURE_LOD_BIAS, NaN)",
            &|g, n| unsafe { (g.TextureParameterf)(n.buffer_tex, gl::TEXTURE_LOD_BIAS, NAN) },
            &|l, n| l.texture_parameterf(n.buffer_tex, gl::TEXTURE_LOD_BIAS, NAN),
            None,
        ),
        (
            "glTextureParameterfv(GL_TEXTURE_MAX_ANISOTROPY, NaN)",
            &|g, n| unsafe { (g.TextureParameterfv)(n.tex, gl::TEXTURE_MAX_ANISOTROPY, [NAN].as_ptr()) },
            &|l, n| l.texture_parameterfv(n.tex, gl::TEXTURE_MAX_ANISOTROPY, &[NAN]),
            Some((Of::Tex, gl::TEXTURE_MAX_ANISOTROPY, 1)),
        ),
        (
            "glTextureParameterf(GL_TEXTURE_WRAP_T, NaN)",
            &|g, n| unsafe { (g.TextureParameterf)(n.tex, gl::TEXTURE_WRAP_T, NAN) },
            &|l, n| l.texture_parameterf(n.tex, gl::TEXTURE_WRAP_T, NAN),
            Some((Of::Tex, gl::TEXTURE_WRAP_T, 1)),
        ),
        (
            "glSamplerParameterf(GL_TEXTURE_WRAP_S, NaN)",
            &|g, n| unsafe { (g.SamplerParameterf)(n.sampler, gl::TEXTURE_WRAP_S, NAN) },
            &|l, n| l.sampler_parameterf(n.sampler, gl::TEXTURE_WRAP_S, NAN),
            Some((Of::Sampler, gl::TEXTURE_WRAP_S, 1)),
        ),
        (
            "glSamplerParameterf(GL_TEXTURE_MAX_ANISOTROPY, NaN)",
            &|g, n| unsafe { (g.SamplerParameterf)(n.sampler, gl::TEXTURE_MAX_ANISOTROPY, NAN) },
            &|l, n| l.sampler_parameterf(n.sampler, gl::TEXTURE_MAX_ANISOTROPY, NAN),
            Some((Of::Sampler, gl::TEXTURE_MAX_ANISOTROPY, 1)),
        ),
        (
            "glSamplerParameterf(GL_TEXTURE_CUBE_MAP_SEAMLESS, NaN)",
            &|g, n| unsafe { (g.SamplerParameterf)(n.sampler, gl::TEXTURE_CUBE_MAP_SEAMLESS, NAN) },
            &|l, n| l.sampler_parameterf(n.sampler, gl::TEXTURE_CUBE_MAP_SEAMLESS, NAN),
            None,
        ),
        (
            "glSamplerParameterfv(GL_TEXTURE_BORDER_COLOR, NaN first)",
            &|g, n| unsafe { (g.SamplerParameterfv)(n.sampler, gl::TEXTURE_BORDER_COLOR, border.as_ptr()) },
            &|l, n| l.sampler_parameterfv(n.sampler, gl::TEXTURE_BORDER_COLOR, &border),
            Some((Of::Sampler, gl::TEXTURE_BORDER_COLOR, 4)),
        ),
        (
            "glSamplerParameterf(pname 0x1234, NaN)",
            &|g, n| unsafe { (g.SamplerParameterf)(n.sampler, 0x1234, NAN) },
            &|l, n| l.sampler_parameterf(n.sampler, 0x1234, NAN),
            None,
        ),
        (
            "glPointParameterf(pname 0x1234, NaN)",
            &|g, _| unsafe { (g.PointParameterf)(0x1234, NAN) },
            &|l, _| l.point_parameterf(0x1234, NAN),
            None,
        ),
        (
            "glPointParameterf(GL_POINT_SPRITE_COORD_ORIGIN, NaN)",
            &|g, _| unsafe { (g.PointParameterf)(gl::POINT_SPRITE_COORD_ORIGIN, NAN) },
            &|l, _| l.point_parameterf(gl::POINT_SPRITE_COORD_ORIGIN, NAN),
            Some((Of::Point, gl::POINT_SPRITE_COORD_ORIGIN, 1)),
        ),
        (
            "glPointParameterfv(pname 0x1234, NaN)",
            &|g, _| unsafe { (g.PointParameterfv)(0x1234, [NAN].as_ptr()) },
            &|l, _| l.point_parameterfv(0x1234, &[NAN]),
            None,
        ),
    ];
    let mut errors = Vec::new();
    for (what, direct_call, record, value) in cases {
        let direct = direct_error(&d, dn, direct_call);
        let (got, _) = through_glcmd(&device, |l| record(l, gn));
        assert_eq!(got, direct, "{what}: glcmd's error {got:#x} against the GL's {direct:#x}");
        if let Some((of, pname, count)) = value {
            let want = direct_value(&d.gl, dn, of, pname, count);
            assert_eq!(device_value(&device, gn, of, pname), want, "{what}: the value afterwards");
        }
        errors.push(direct);
    }
    let (none, enum_, value, op) = (gl::NO_ERROR, gl::INVALID_ENUM, gl::INVALID_VALUE, gl::INVALID_OPERATION);
    // Seamless cube maps per sampler: whatever this driver does with the pname (the value is
    // converted, as NaN is).
    let seamless = errors[14];
    let expected =
        [enum_, value, none, enum_, enum_, enum_, none, enum_, op, op, none, enum_, enum_, none, seamless, none, enum_]
            .into_iter()
            .chain([enum_, value, enum_])
            .collect::<Vec<_>>();
    assert_eq!(errors, expected, "{errors:x?}");
    // The anisotropy took the maximum, as the GL clamps NaN.
    let max = device.get_floatv(gl::MAX_TEXTURE_MAX_ANISOTROPY).unwrap()[0];
    assert_eq!(device.get_sampler_parameterfv(gn.sampler, gl::TEXTURE_MAX_ANISOTROPY).unwrap(), vec![max]);
}

/// A NaN LOD or point threshold the GL would keep (Mesa stores it; drivers convert LOD to fixed
/// point, and GL 4.6 §2.3.4.1 leaves NaN unspecified): glcmd refuses it with `GL_INVALID_VALUE`,
/// after the GL's own checks passed, and the parameter keeps its value.
#[test]
fn nan_lod_the_gl_would_keep_is_refused_after_the_gls_checks() {
    let d = Direct::new();
    let dn = direct_names(&d.gl);
    let device = device();
    let gn = device_names(&device);
    let t2d = gl::TEXTURE_2D;
    let cases: [Case; 4] = [
        (
            "glPointParameterf(GL_POINT_FADE_THRESHOLD_SIZE, NaN)",
            &|g, _| unsafe { (g.PointParameterf)(gl::POINT_FADE_THRESHOLD_SIZE, NAN) },
            &|l, _| l.point_parameterf(gl::POINT_FADE_THRESHOLD_SIZE, NAN),
            Some((Of::Point, gl::POINT_FADE_THRESHOLD_SIZE, 1)),
        ),
        (
            "glTexParameterf(GL_TEXTURE_MIN_LOD, NaN)",
            &|g, _| unsafe { (g.TexParameterf)(t2d, gl::TEXTURE_MIN_LOD, NAN) },
            &|l, _| l.tex_parameterf(t2d, gl::TEXTURE_MIN_LOD, NAN),
            Some((Of::Bound(t2d), gl::TEXTURE_MIN_LOD, 1)),
        ),
        (
            "glTextureParameterfv(GL_TEXTURE_LOD_BIAS, NaN)",
            &|g, n| unsafe { (g.TextureParameterfv)(n.tex, gl::TEXTURE_LOD_BIAS, [NAN].as_ptr()) },
            &|l, n| l.texture_parameterfv(n.tex, gl::TEXTURE_LOD_BIAS, &[NAN]),
            Some((Of::Tex, gl::TEXTURE_LOD_BIAS, 1)),
        ),
        (
            "glSamplerParameterf(GL_TEXTURE_MAX_LOD, NaN)",
            &|g, n| unsafe { (g.SamplerParameterf)(n.sampler, gl::TEXTURE_MAX_LOD, NAN) },
            &|l, n| l.sampler_parameterf(n.sampler, gl::TEXTURE_MAX_LOD, NAN),
            Some((Of::Sampler, gl::TEXTURE_MAX_LOD, 1)),
        ),
    ];
    for (what, direct_call, record, value) in cases {
        let (of, pname, count) = value.unwrap();
        let before = device_value(&device, gn, of, pname);
        assert_eq!(direct_error(&d, dn, direct_call), gl::NO_ERROR, "{what}: Mesa keeps the NaN");
        assert!(f32::from_bits(direct_value(&d.gl, dn, of, pname, count)[0]).is_nan(), "{what}");
        assert_eq!(through_glcmd(&device, |l| record(l, gn)), (gl::INVALID_VALUE, true), "{what}");
        assert_eq!(device_value(&device, gn, of, pname), before, "{what}: unchanged");
    }
}
