//! Ranges of a buffer's storage named by sub-data, copy, clear, invalidate, texture-buffer,
//! query-result and flush calls lie inside that storage (`runtime/shadow/storage.rs`).
//!
//! Each function is driven at the last range that fits and one byte past it, in its target form
//! (through a target the binding shadow tracks, `GL_ARRAY_BUFFER`, and through ones it does not,
//! `GL_UNIFORM_BUFFER` and the copy targets) and its named form. The same calls made directly on
//! the render thread (`with_gl`) into fresh buffers of the same sizes are the reference: glcmd
//! must raise the GL's error, refuse exactly the calls past the end, and leave every buffer's
//! bytes as the GL leaves them.

mod common;

use common::*;
use glcmd::types::*;
use glcmd::{gl, CommandList, Device, Gl, ReportKind};

const SENTINEL: u8 = 0x5A;

/// Buffers of `sizes` bytes, each byte [`SENTINEL`].
fn buffers(device: &Device, sizes: &[usize]) -> Vec<GLuint> {
    let names = device.create_buffers(sizes.len() as GLsizei).unwrap();
    let mut list = device.command_list();
    for (&b, &size) in names.iter().zip(sizes) {
        let flags = gl::DYNAMIC_STORAGE_BIT | gl::MAP_WRITE_BIT;
        list.named_buffer_storage(b, size as GLsizeiptr, Some(&vec![SENTINEL; size]), flags);
    }
    device.submit(list).unwrap();
    names
}

fn contents(device: &Device, names: &[GLuint], sizes: &[usize]) -> Vec<Vec<u8>> {
    names.iter().zip(sizes).map(|(&b, &s)| device.get_named_buffer_sub_data(b, 0, s as GLsizeiptr).unwrap()).collect()
}

/// Runs `record` through glcmd and `call` directly, each on buffers of `sizes`; asserts the same
/// error and bytes and returns (error, calls glcmd refused).
fn compare<R, D>(device: &Device, what: &str, sizes: &[usize], record: R, call: D) -> (GLenum, usize)
where
    R: FnOnce(&mut CommandList, &[GLuint]),
    D: FnOnce(&Gl, &[GLuint]) + Send + 'static,
{
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR, "{what}: an error left from before");
    let _ = device.reports().try_iter().count();
    let ours = buffers(device, sizes);
    let mut list = device.command_list();
    record(&mut list, &ours);
    device.submit(list).unwrap();
    let error = device.get_error().unwrap();
    let refused = device.reports().try_iter().filter(|r| r.kind == ReportKind::Skipped).count();
    let theirs = buffers(device, sizes);
    let names = theirs.clone();
    let direct_error = device
        .with_gl(move |g| unsafe {
            while (g.GetError)() != gl::NO_ERROR {}
            call(g, &names);
            (g.GetError)()
        })
        .unwrap();
    assert_eq!(error, direct_error, "{what}: glcmd's error, then direct GL's");
    assert_eq!(
        contents(device, &ours, sizes),
        contents(device, &theirs, sizes),
        "{what}: bytes differ from direct GL's"
    );
    (error, refused)
}

/// The call at the edge (`fits`) and one byte past it: no error and no refusal, then the GL's
/// `error` and one refusal.
fn edge<R, D>(device: &Device, what: &str, sizes: &[usize], fits: i64, error: GLenum, record: R, call: D)
where
    R: Fn(&mut CommandList, &[GLuint], i64) + Clone,
    D: Fn(&Gl, &[GLuint], i64) + Send + Clone + 'static,
{
    for (n, expected) in [(fits, (gl::NO_ERROR, 0)), (fits + 1, (error, 1))] {
        let (r, c) = (record.clone(), call.clone());
        let got = compare(device, &format!("{what} at {n}"), sizes, move |l, b| r(l, b, n), move |g, b| c(g, b, n));
        assert_eq!(got, expected, "{what} at {n}: (error, refused)");
    }
}

#[test]
fn sub_data_through_tracked_and_untracked_targets_and_by_name() {
    let device = device();
    let data = [7u8; 16];
    for target in [gl::ARRAY_BUFFER, gl::UNIFORM_BUFFER] {
        edge(
            &device,
            &format!("glBufferSubData({target:#x})"),
            &[64],
            48,
            gl::INVALID_VALUE,
            move |l, b, o| {
                l.bind_buffer(target, b[0]);
                l.buffer_sub_data(target, o as GLintptr, &data[..]);
                l.bind_buffer(target, 0);
            },
            move |g, b, o| unsafe {
                (g.BindBuffer)(target, b[0]);
                (g.BufferSubData)(target, o as GLintptr, 16, data.as_ptr().cast());
                (g.BindBuffer)(target, 0);
            },
        );
    }
    edge(
        &device,
        "glNamedBufferSubData",
        &[64],
        48,
        gl::INVALID_VALUE,
        move |l, b, o| l.named_buffer_sub_data(b[0], o as GLintptr, &data[..]),
        move |g, b, o| unsafe { (g.NamedBufferSubData)(b[0], o as GLintptr, 16, data.as_ptr().cast()) },
    );
}

#[test]
fn clears_copies_and_invalidates() {
    let device = device();
    let value = [3u8; 4];
    edge(
        &device,
        "glClearBufferSubData",
        &[64],
        48,
        gl::INVALID_VALUE,
        move |l, b, o| {
            l.bind_buffer(gl::COPY_WRITE_BUFFER, b[0]);
            l.clear_buffer_sub_data(
                gl::COPY_WRITE_BUFFER,
                gl::R32UI,
                o as GLintptr,
                16,
                gl::RED_INTEGER,
                gl::UNSIGNED_INT,
                &value[..],
            );
            l.bind_buffer(gl::COPY_WRITE_BUFFER, 0);
        },
        move |g, b, o| unsafe {
            (g.BindBuffer)(gl::COPY_WRITE_BUFFER, b[0]);
            (g.ClearBufferSubData)(
                gl::COPY_WRITE_BUFFER,
                gl::R32UI,
                o as GLintptr,
                16,
                gl::RED_INTEGER,
                gl::UNSIGNED_INT,
                value.as_ptr().cast(),
            );
            (g.BindBuffer)(gl::COPY_WRITE_BUFFER, 0);
        },
    );
    // A size past the end (offsets stay aligned to the format).
    edge(
        &device,
        "glClearNamedBufferSubData",
        &[64],
        48,
        gl::INVALID_VALUE,
        move |l, b, s| {
            l.clear_named_buffer_sub_data(
                b[0],
                gl::R8UI,
                0,
                s as GLsizeiptr + 16,
                gl::RED_INTEGER,
                gl::UNSIGNED_BYTE,
                &value[..1],
            )
        },
        move |g, b, s| unsafe {
            (g.ClearNamedBufferSubData)(
                b[0],
                gl::R8UI,
                0,
                s as GLsizeiptr + 16,
                gl::RED_INTEGER,
                gl::UNSIGNED_BYTE,
                value.as_ptr().cast(),
            )
        },
    );
    // The read range of one copy and the write range of another.
    for read in [true, false] {
        let at = move |o: i64| if read { (o, 0) } else { (0, o) };
        edge(
            &device,
            &format!("glCopyBufferSubData (read {read})"),
            &[64, 64],
            48,
            gl::INVALID_VALUE,
            move |l, b, o| {
                let (r, w) = at(o);
                l.bind_buffer(gl::COPY_READ_BUFFER, b[0]);
                l.bind_buffer(gl::COPY_WRITE_BUFFER, b[1]);
                l.named_buffer_sub_data(b[0], 0, &[9u8; 64][..]);
                l.copy_buffer_sub_data(gl::COPY_READ_BUFFER, gl::COPY_WRITE_BUFFER, r as GLintptr, w as GLintptr, 16);
            },
            move |g, b, o| unsafe {
                let (r, w) = at(o);
                (g.BindBuffer)(gl::COPY_READ_BUFFER, b[0]);
                (g.BindBuffer)(gl::COPY_WRITE_BUFFER, b[1]);
                (g.NamedBufferSubData)(b[0], 0, 64, [9u8; 64].as_ptr().cast());
                (g.CopyBufferSubData)(gl::COPY_READ_BUFFER, gl::COPY_WRITE_BUFFER, r as GLintptr, w as GLintptr, 16);
            },
        );
        edge(
            &device,
            &format!("glCopyNamedBufferSubData (read {read})"),
            &[64, 64],
            48,
            gl::INVALID_VALUE,
            move |l, b, o| {
                let (r, w) = at(o);
                l.copy_named_buffer_sub_data(b[0], b[1], r as GLintptr, w as GLintptr, 16);
            },
            move |g, b, o| unsafe {
                let (r, w) = at(o);
                (g.CopyNamedBufferSubData)(b[0], b[1], r as GLintptr, w as GLintptr, 16);
            },
        );
    }
    edge(
        &device,
        "glInvalidateBufferSubData",
        &[64],
        48,
        gl::INVALID_VALUE,
        |l, b, o| l.invalidate_buffer_sub_data(b[0], o as GLintptr, 16),
        |g, b, o| unsafe { (g.InvalidateBufferSubData)(b[0], o as GLintptr, 16) },
    );
}

#[test]
fn texture_buffer_ranges() {
    let device = device();
    let texture = device.create_texture(gl::TEXTURE_BUFFER).unwrap();
    let direct_texture = device.create_texture(gl::TEXTURE_BUFFER).unwrap();
    // Sizes past the end (the offset must stay aligned).
    edge(
        &device,
        "glTextureBufferRange",
        &[64],
        48,
        gl::INVALID_VALUE,
        move |l, b, s| l.texture_buffer_range(texture, gl::R8, b[0], 0, s as GLsizeiptr + 16),
        move |g, b, s| unsafe { (g.TextureBufferRange)(direct_texture, gl::R8, b[0], 0, s as GLsizeiptr + 16) },
    );
    edge(
        &device,
        "glTexBufferRange",
        &[64],
        48,
        gl::INVALID_VALUE,
        move |l, b, s| {
            l.bind_texture(gl::TEXTURE_BUFFER, texture);
            l.tex_buffer_range(gl::TEXTURE_BUFFER, gl::R8, b[0], 0, s as GLsizeiptr + 16);
        },
        move |g, b, s| unsafe {
            (g.BindTexture)(gl::TEXTURE_BUFFER, direct_texture);
            (g.TexBufferRange)(gl::TEXTURE_BUFFER, gl::R8, b[0], 0, s as GLsizeiptr + 16);
        },
    );
}

#[test]
fn query_results_past_the_buffer_are_invalid_operation() {
    let device = device();
    let query = device.create_queries(gl::TIMESTAMP, 1).unwrap()[0];
    let mut list = device.command_list();
    list.query_counter(query, gl::TIMESTAMP);
    device.submit(list).unwrap();
    // The result itself (the same query on both sides, so the same value), not its availability,
    // which depends on timing.
    device.finish().unwrap();
    edge(
        &device,
        "glGetQueryBufferObjectiv",
        &[16],
        12,
        gl::INVALID_OPERATION,
        move |l, b, o| l.get_query_buffer_objectiv(query, b[0], gl::QUERY_RESULT, o as GLintptr),
        move |g, b, o| unsafe { (g.GetQueryBufferObjectiv)(query, b[0], gl::QUERY_RESULT, o as GLintptr) },
    );
    edge(
        &device,
        "glGetQueryBufferObjecti64v",
        &[16],
        8,
        gl::INVALID_OPERATION,
        move |l, b, o| l.get_query_buffer_objecti64v(query, b[0], gl::QUERY_RESULT, o as GLintptr),
        move |g, b, o| unsafe { (g.GetQueryBufferObjecti64v)(query, b[0], gl::QUERY_RESULT, o as GLintptr) },
    );
}

/// A flush names a range of the mapping, not of the storage: a 16-byte mapping of a 64-byte
/// buffer refuses a flush that passes the mapping's end though the storage is larger.
#[test]
fn flushes_fit_the_mapped_range() {
    let device = device();
    let map = |g: &Gl, b: GLuint| unsafe {
        (g.MapNamedBufferRange)(b, 16, 16, gl::MAP_WRITE_BIT | gl::MAP_FLUSH_EXPLICIT_BIT);
    };
    let unmap = |g: &Gl, b: GLuint| unsafe {
        (g.UnmapNamedBuffer)(b);
    };
    for fits in [12, 0] {
        // Offsets (fits = 12, length 4) and lengths (fits = 0: offset 0, length 16).
        let at = move |n: i64| if fits == 12 { (n, 4) } else { (0, n + 16) };
        for n in [fits, fits + 1] {
            let (o, len) = at(n);
            let ours = buffers(&device, &[64])[0];
            device.with_gl(move |g| map(g, ours)).unwrap();
            let _ = device.reports().try_iter().count();
            let mut list = device.command_list();
            list.flush_mapped_named_buffer_range(ours, o as GLintptr, len as GLsizeiptr);
            device.submit(list).unwrap();
            let error = device.get_error().unwrap();
            let refused = device.reports().try_iter().filter(|r| r.kind == ReportKind::Skipped).count();
            device.with_gl(move |g| unmap(g, ours)).unwrap();
            let theirs = buffers(&device, &[64])[0];
            let direct_error = device
                .with_gl(move |g| unsafe {
                    map(g, theirs);
                    (g.FlushMappedNamedBufferRange)(theirs, o as GLintptr, len as GLsizeiptr);
                    let e = (g.GetError)();
                    unmap(g, theirs);
                    e
                })
                .unwrap();
            assert_eq!(error, direct_error, "flush of {len} bytes at {o}");
            let expected = if n == fits { (gl::NO_ERROR, 0) } else { (gl::INVALID_VALUE, 1) };
            assert_eq!((error, refused), expected, "flush of {len} bytes at {o}");
        }
    }
}
