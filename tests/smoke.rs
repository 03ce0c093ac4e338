//! First light: a list recorded on a worker thread clears an offscreen framebuffer, and the
//! pixel read back has the clear colour.

use glcmd::{gl, Device};

#[test]
fn clear_through_a_list_reads_back() {
    let device = Device::headless().expect("headless device");
    let fbo = device.create_framebuffers(1).unwrap()[0];
    let rb = device.create_renderbuffers(1).unwrap()[0];
    let mut setup = device.command_list();
    setup.named_renderbuffer_storage(rb, gl::RGBA8, 4, 4);
    setup.named_framebuffer_renderbuffer(fbo, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, rb);
    device.submit(setup).unwrap();
    assert_eq!(device.check_named_framebuffer_status(fbo, gl::FRAMEBUFFER).unwrap(), gl::FRAMEBUFFER_COMPLETE);

    let worker = {
        let device = device.clone();
        std::thread::spawn(move || {
            let mut list = device.command_list();
            list.bind_framebuffer(gl::FRAMEBUFFER, fbo);
            list.viewport(0, 0, 4, 4);
            list.clear_color(1.0, 0.5, 0.0, 1.0);
            list.clear(gl::COLOR_BUFFER_BIT);
            device.submit(list).unwrap();
        })
    };
    worker.join().unwrap();
    let pixels = device.readn_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, 4).unwrap();
    assert_eq!(pixels, vec![255, 128, 0, 255]);
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
}
