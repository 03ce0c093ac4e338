//! Uses glcmd, so that building this crate compiles glcmd's library at the dependency
//! opt-level its Cargo.toml sets. Run by `.ci/opt_level.sh`.

fn main() {
    // Records one command: the recording path, generated and hand-written, is linked in.
    let mut list = glcmd::CommandList::new();
    list.bind_texture(glcmd::gl::TEXTURE_2D, 1);
    println!("recorded {} bytes of packets", list.byte_sizes().0);
}
