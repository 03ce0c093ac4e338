//! A render host (`glcmd::render_host`): the device's render loop runs on a thread the host
//! chose, the host's jobs run there between the device's work while it lives, the host's
//! thread is free again once the device is dropped, and a host that cannot start a thread is
//! a clear error. glcmd-run's one driver thread is such a host (run/tests/driver_thread.rs
//! checks the whole of it with a real program).

use std::sync::{mpsc, Arc, Mutex};
use std::thread::ThreadId;
use std::time::Duration;

use glcmd::render_host::{HostJob, RenderHost};
use glcmd::{gl, Device, Error, Options};

/// A host thread as glcmd-run's: it runs jobs in turn, a device's render loop among them, and
/// lends the loop its job queue. `bodies` counts the render loops it ran to their end.
struct Host {
    jobs: crossbeam_channel::Sender<HostJob>,
    thread: ThreadId,
    bodies: Arc<Mutex<u32>>,
}

fn host() -> (Host, RenderHost) {
    let (jobs, inbox) = crossbeam_channel::unbounded::<HostJob>();
    let queue = inbox.clone();
    let thread = std::thread::Builder::new()
        .name("glcmd-render".into())
        .spawn(move || {
            for job in queue.iter() {
                job();
            }
        })
        .unwrap();
    let id = thread.thread().id();
    let bodies = Arc::new(Mutex::new(0));
    let (tx, counted) = (jobs.clone(), bodies.clone());
    let render_host = RenderHost::new(move |body| {
        let (inbox, counted) = (inbox.clone(), counted.clone());
        tx.send(Box::new(move || {
            let end = body(Some(inbox));
            *counted.lock().unwrap() += 1;
            drop(end);
        }))
        .map_err(|e| e.to_string())?;
        Ok(id)
    });
    (Host { jobs, thread: id, bodies }, render_host)
}

/// Runs `f` as a job of the host and waits for its answer.
fn on_host<R: Send + 'static>(host: &Host, f: impl FnOnce() -> R + Send + 'static) -> R {
    let (tx, rx) = mpsc::channel();
    host.jobs.send(Box::new(move || tx.send(f()).unwrap())).unwrap();
    rx.recv_timeout(Duration::from_secs(30)).expect("the host's job ran")
}

#[test]
fn a_device_replays_on_its_hosts_thread_and_the_host_runs_jobs_between() {
    let (host, render_host) = host();
    for round in 0..2 {
        let device = Device::with_options(Options::default().render_host(Some(render_host.clone()))).unwrap();
        // The render loop runs on the host's thread.
        let render_thread = device.with_gl(|_| std::thread::current().id()).unwrap();
        assert_eq!(render_thread, host.thread, "round {round}");
        // A job of the host's runs while the device lives (its loop takes it between lists), on
        // the same thread, with the device's context current there.
        let (thread, inside) = on_host(&host, || (std::thread::current().id(), making_a_context_is_refused()));
        assert_eq!(thread, host.thread);
        assert!(inside, "the job runs inside the render loop (a context cannot be made there)");
        // The device's work is exact meanwhile: a clear read back.
        let mut imm = device.immediate();
        let fbo = framebuffer(&mut imm);
        imm.clear_color(0.0, 1.0, 0.0, 1.0);
        imm.clear(gl::COLOR_BUFFER_BIT);
        let pixel = imm.readn_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, 4).unwrap();
        assert_eq!(pixel, [0, 255, 0, 255], "round {round}");
        imm.delete_framebuffers(&[fbo]);
        drop(imm);
        drop(device);
        // Dropped: the loop has ended and the host's thread is free for plain jobs again.
        assert_eq!(*host.bodies.lock().unwrap(), round + 1);
        assert!(!on_host(&host, making_a_context_is_refused), "the loop is gone: a context can be made there again");
    }
}

/// Whether making a context on this thread is refused as on a render thread.
fn making_a_context_is_refused() -> bool {
    matches!(glcmd::context::GlContext::headless(), Err(glcmd::ContextError::OnRenderThread))
}

/// A 4x4 framebuffer object bound for drawing and reading.
fn framebuffer(imm: &mut glcmd::Immediate) -> u32 {
    let rb = imm.create_renderbuffers(1).unwrap()[0];
    imm.named_renderbuffer_storage(rb, gl::RGBA8, 4, 4);
    let fbo = imm.create_framebuffers(1).unwrap()[0];
    imm.named_framebuffer_renderbuffer(fbo, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, rb);
    imm.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    fbo
}

#[test]
fn a_host_that_cannot_start_the_render_loop_is_a_clear_error() {
    let refusing = RenderHost::new(|_| Err("this host has no thread to lend".into()));
    match Device::with_options(Options::default().render_host(Some(refusing))) {
        Err(Error::DeviceLost { reason }) => {
            assert!(reason.contains("cannot start the render thread: this host has no thread to lend"), "{reason}")
        }
        other => panic!("expected DeviceLost, got {:?}", other.map(|_| "a device")),
    }
}
