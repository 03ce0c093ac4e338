//! The library half of `glcmd-replay`: writing the final framebuffer as a PNG, and the
//! mutation fuzzer of the capture loader (`fuzz`), which the tests (a short round) and
//! `examples/fuzz.rs` (the long round) run.

pub mod fuzz;

/// The device a capture is replayed on: headless, with robust buffer access asked for. A capture
/// from elsewhere is untrusted input, and glcmd's checks cannot see one thing in it: a draw that
/// reads past the end of a buffer (more vertices or indices than the buffer holds, or a buffer
/// whose storage the GL refused). Without robust access that read is undefined; NVIDIA's driver
/// crashed on one the fuzzer made (a buffer left without storage, then drawn from). With it, such
/// reads return zeros. `Device::robust_access` says whether the driver granted it.
pub fn replay_device() -> Result<glcmd::Device, glcmd::Error> {
    glcmd::Device::with_options(glcmd::Options::default().robust_access(true))
}

use glcmd::capture::Image;

/// Writes RGBA8 pixels as a PNG, flipping rows (GL's first row is the bottom one), with the
/// encoder settings `examples/scene.rs` uses, so equal pixels give equal files.
pub fn write_png(path: &str, image: &Image) -> Result<(), Box<dyn std::error::Error>> {
    let row = image.width as usize * 4;
    let flipped: Vec<u8> = image.rgba.chunks_exact(row).rev().flatten().copied().collect();
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut encoder = png::Encoder::new(file, image.width, image.height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&flipped)?;
    writer.finish()?;
    Ok(())
}

/// Reads an RGBA8 PNG: (width, height, pixels top row first).
pub fn read_png(path: &str) -> Result<(u32, u32, Vec<u8>), Box<dyn std::error::Error>> {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path)?));
    let mut reader = decoder.read_info()?;
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf)?;
    buf.truncate(info.buffer_size());
    if info.color_type != png::ColorType::Rgba || info.bit_depth != png::BitDepth::Eight {
        return Err(format!("{path}: {:?} {:?}, not RGBA8", info.color_type, info.bit_depth).into());
    }
    Ok((info.width, info.height, buf))
}
