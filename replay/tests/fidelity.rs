//! Replay fidelity: `scene --capture` then `glcmd-replay --png` gives the same pixels as the PNG
//! the scene wrote, byte for byte (and the same file: same encoder, same settings), with every
//! recorded answer alike (exit status 0).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Builds glcmd's `examples/scene.rs` with this test's profile and target directory, and with
/// the extension families this glcmd-replay was built with (a capture replays only on a build
/// with the same function table).
fn scene() -> PathBuf {
    // A test runs as <target>/<profile dir>/deps/<test>-<hash>.
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(Path::parent).unwrap().to_path_buf();
    let target_dir = profile_dir.parent().unwrap().to_path_buf();
    let profile = match profile_dir.file_name().and_then(|n| n.to_str()) {
        Some("debug") | None => "dev".to_string(),
        Some(name) => name.to_string(),
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    // The scene must record with the families this replayer decodes. `--workspace --tests`
    // resolves the same features as the README's `cargo test --workspace`, so the scene is the
    // one that run has already built, not a further copy of glcmd (CI's disk is small).
    let families = glcmd::capture::format::family_features(glcmd::capture::format::families());
    let features: Vec<String> =
        if families == "none" { vec![] } else { families.split(", ").map(|f| format!("glcmd/{f}")).collect() };
    let output = Command::new(env!("CARGO"))
        .args(["build", "--workspace", "--tests", "--example", "scene", "--profile", &profile])
        .args(["--features", &features.join(",")])
        .arg("--target-dir")
        .arg(&target_dir)
        .current_dir(root)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(output.status.success(), "building the scene failed:\n{}", String::from_utf8_lossy(&output.stderr));
    profile_dir.join("examples").join(format!("scene{}", std::env::consts::EXE_SUFFIX))
}

fn run(cmd: &mut Command) -> String {
    let output = cmd.stdin(Stdio::null()).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{cmd:?} failed ({}):\n{text}", output.status);
    text
}

#[test]
fn scene_capture_replays_to_the_same_png() {
    let dir = std::env::temp_dir().join(format!("glcmd-fidelity-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (scene_png, capture, replay_png) = (dir.join("scene.png"), dir.join("scene.glcap"), dir.join("replay.png"));
    let text = run(Command::new(scene())
        .args(["--workers", "3", "--frames", "4", "--objects", "600", "--out"])
        .arg(&scene_png)
        .arg("--capture")
        .arg(&capture));
    assert!(text.contains("captured 4 frames"), "{text}");
    let text =
        run(Command::new(env!("CARGO_BIN_EXE_glcmd-replay")).arg(&capture).args(["--quiet", "--png"]).arg(&replay_png));
    eprintln!("{text}");
    // The set-up list, then 4 frames of a clear and 3 workers.
    assert!(text.contains("replayed 4 frames, 17 lists"), "{text}");
    assert!(text.contains(", 0 differ; 0 commands skipped; 0 names unmapped"), "{text}");

    let (w, h, scene) = glcmd_replay::read_png(scene_png.to_str().unwrap()).unwrap();
    let (rw, rh, replayed) = glcmd_replay::read_png(replay_png.to_str().unwrap()).unwrap();
    assert_eq!((rw, rh), (w, h));
    assert!(scene.iter().any(|&b| b != scene[0]), "the scene drew something");
    let differing = scene.chunks(4).zip(replayed.chunks(4)).filter(|(a, b)| a != b).count();
    assert_eq!(differing, 0, "{differing} of {} pixels differ", w * h);
    assert_eq!(std::fs::read(&scene_png).unwrap(), std::fs::read(&replay_png).unwrap(), "the PNG files differ");
}

#[test]
fn bad_files_and_arguments_fail_with_a_message() {
    let dir = std::env::temp_dir().join(format!("glcmd-replay-args-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let junk = dir.join("junk.glcap");
    std::fs::write(&junk, b"not a capture").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_glcmd-replay")).arg(&junk).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a glcmd capture"));
    let out = Command::new(env!("CARGO_BIN_EXE_glcmd-replay")).args(["x", "--frames", "2"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// The budget options (issue 16, item 6): a capture whose buffer is 64 MiB fails under
/// `--max-storage 32M` with a message naming the record and the option, and replays under
/// `--max-storage 128M`; a bad amount is an argument error.
#[test]
fn the_budget_options_raise_the_budget() {
    use glcmd::capture::{CaptureOptions, ReplayBudget};
    let dir = std::env::temp_dir().join(format!("glcmd-replay-budget-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("buffer.glcap");
    {
        let device =
            glcmd::Device::with_options(glcmd::Options::default().capture(Some(CaptureOptions::default()))).unwrap();
        let buffer = device.create_buffers(1).unwrap()[0];
        let handle = device.capture(&path, 1).unwrap();
        let mut list = device.command_list();
        list.named_buffer_storage(buffer, 64 << 20, None, 0);
        device.submit(list).unwrap();
        handle.wait(std::time::Duration::from_secs(60)).unwrap();
    }
    assert!(ReplayBudget::default().storage_bytes > 64 << 20);
    let replay =
        |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_glcmd-replay")).arg(&path).args(args).output().unwrap();
    let out = replay(&["--quiet", "--max-storage", "32M"]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("glNamedBufferStorage") && stderr.contains("--max-storage"), "{stderr}");
    assert!(stderr.contains(&format!("{}", 64u64 << 20)), "{stderr}");
    let out = replay(&["--quiet", "--max-storage", "128M", "--max-objects", "10", "--max-vertices", "unlimited"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(replay(&["--max-storage", "lots"]).status.code(), Some(2));
    assert_eq!(replay(&["--max-objects", "0"]).status.code(), Some(1), "no object fits a budget of 0");
}
