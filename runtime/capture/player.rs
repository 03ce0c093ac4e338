//! Replaying a loaded capture on a device, through the same path as any list: the lists go
//! through `Frame::submit` to the render thread, whose binding shadow, name checks and range
//! checks apply as they do to lists recorded in the process; creates and queries go through the
//! typed `Device` methods.
//!
//! ## Names
//!
//! The capture's names are the capturing context's: its program may be 7 where the replay gets
//! 3. Each recorded create is made again and its names paired with the capture's, per object
//! type; every argument that names an object (the generated tables know which, from gl.xml's
//! `class`) is translated before the list is submitted, as apitrace does. Translating writes
//! into the list's copy, so the list is checked again afterwards (a malicious file could make
//! two arrays overlap).
//!
//! ## Frames
//!
//! The lists of a captured frame are submitted to one frame of the replay, in the order they
//! replayed when captured, so deferred deletes run where they ran. Creates and queries run at
//! their place between lists.

use std::collections::HashMap;
use std::ops::Range;

use super::budget::Budget;
use super::calls::{CallProblem, Names, Outcome};
use super::load::{Capture, ListRecord, Record};
use super::validate;
use crate::diagnostics::Report;
use crate::list::CommandList;
use crate::vocab::Class;
use crate::{gl, Device, Error, Frame};

/// How to replay.
///
/// `#[non_exhaustive]`, with builder methods as every options type of glcmd (`options.rs`):
/// `ReplayOptions::default().frames(Some(0..1)).dump(true)`.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct ReplayOptions {
    /// Captured frames to replay (indices from 0, after the set-up). Frames before the range
    /// are replayed too (the state they leave is needed) but not reported; frames after it are
    /// not replayed.
    pub frames: Option<Range<usize>>,
    /// Report every list as text, one GL call per line.
    pub dump: bool,
    /// What the replay may use (`budget.rs`): a record that would pass it stops the replay
    /// with [`ReplayError::Budget`] before it reaches the device.
    pub budget: super::budget::ReplayBudget,
}

crate::builders::builders!(ReplayOptions {
    frames: Option<Range<usize>>,
    dump: bool,
    budget: super::budget::ReplayBudget,
});

/// What the replay tells its caller as it goes.
#[derive(Debug)]
pub enum ReplayEvent {
    /// The set-up ended; captured frame 0 starts.
    SetupDone,
    /// Captured frame `index` (the capturing device's frame `frame`) ended.
    FrameEnd { index: usize, frame: u64 },
    /// A list, as text (`ReplayOptions::dump`).
    List { frame: u64, slot: u32, label: String, text: String },
    /// A create or query, with the captured and the replayed answer.
    Call(Outcome),
    /// A report of the replaying device (a skipped command, a GL error with diagnostics on).
    Report(Report),
    /// A note of the capture (a post-mortem reason, a `with_gl` that was not captured).
    Note(String),
}

/// Counts of a replay. `#[non_exhaustive]`: read only, as every counters type of glcmd
/// (`options.rs`).
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct ReplaySummary {
    /// Captured frames replayed (after the set-up).
    pub frames: usize,
    pub lists: usize,
    pub commands: u64,
    pub calls: usize,
    /// Queries whose replayed answer differs from the captured one, and creates that failed.
    pub differences: usize,
    /// Commands the replaying device skipped (an argument failed a check).
    pub skipped: u64,
    /// Names the capture uses that no replayed create paired (their create failed).
    pub unmapped: usize,
}

/// Why a replay stopped.
#[derive(Debug)]
pub enum ReplayError {
    Device(Error),
    Translated { frame: u64, list: usize, problem: validate::PacketProblem },
    Call { function: String, problem: CallProblem },
    Frames { asked: Range<usize>, has: usize },
    Framebuffer(String),
    Budget { record: String, problem: super::budget::OverBudget },
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::Device(e) => write!(f, "the replaying device: {e}"),
            ReplayError::Translated { frame, list, problem } => {
                write!(f, "frame {frame}, list {list}: after translating names: {problem}")
            }
            ReplayError::Call { function, problem } => write!(f, "{function}: {problem}"),
            ReplayError::Frames { asked, has } => write!(f, "frames {asked:?} asked for, the capture has {has}"),
            ReplayError::Framebuffer(message) => write!(f, "the final framebuffer: {message}"),
            ReplayError::Budget { record, problem } => write!(f, "{record}: {problem}"),
        }
    }
}

/// The replaying device's error is the source; the other problems are part of the message.
impl std::error::Error for ReplayError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReplayError::Device(e) => Some(e),
            _ => None,
        }
    }
}

impl From<Error> for ReplayError {
    fn from(e: Error) -> Self {
        ReplayError::Device(e)
    }
}

/// The capture's names paired with the replay's, per class.
#[derive(Default)]
struct NameMap {
    maps: [HashMap<u32, u32>; 11],
    unmapped: usize,
}

impl Names for NameMap {
    fn map(&mut self, class: Class, name: u32, _: &'static str) -> Result<u32, CallProblem> {
        if name == 0 {
            return Ok(0);
        }
        match self.maps[class as usize].get(&name) {
            Some(&n) => Ok(n),
            None => {
                // Its create failed in the replay: the name goes through unchanged, and the
                // render thread's name checks refuse it if it names nothing.
                self.unmapped += 1;
                Ok(name)
            }
        }
    }

    fn created(&mut self, class: Class, captured: &[u32], replayed: Option<&[u32]>) {
        if let Some(replayed) = replayed {
            for (&c, &r) in captured.iter().zip(replayed) {
                if c != 0 {
                    self.maps[class as usize].insert(c, r);
                }
            }
        }
    }
}

/// Accepts any name: the second check of a translated list only re-checks ranges.
struct AnyName;

impl Names for AnyName {
    fn map(&mut self, _: Class, name: u32, _: &'static str) -> Result<u32, CallProblem> {
        Ok(name)
    }
    fn created(&mut self, _: Class, _: &[u32], _: Option<&[u32]>) {}
}

/// Replays `capture` on `device`, telling `observe` what happens.
pub fn replay(
    capture: &Capture,
    device: &Device,
    options: &ReplayOptions,
    observe: &mut dyn FnMut(ReplayEvent),
) -> Result<ReplaySummary, ReplayError> {
    let has = capture.frames();
    let range = options.frames.clone().unwrap_or(0..has);
    if range.start > range.end || range.end > has {
        return Err(ReplayError::Frames { asked: range, has });
    }
    // Lists per captured frame number, and which frame each list record belongs to in order.
    let mut lists_per_frame: HashMap<u64, usize> = HashMap::new();
    for l in capture.lists() {
        *lists_per_frame.entry(l.frame).or_default() += 1;
    }
    let reports = device.reports();
    let mut names = NameMap::default();
    let mut budget = Budget::new(options.budget);
    let mut summary = ReplaySummary::default();
    let before = device.stats();
    let mut open: Option<(u64, Frame, usize)> = None;
    let mut begun = 0u64;
    let mut in_setup = capture.records.iter().any(|r| matches!(r, Record::SetupEnd));
    let mut index = 0usize; // captured frame index after the set-up
    let reporting = |in_setup: bool, index: usize| in_setup || range.contains(&index);
    for record in &capture.records {
        if !in_setup && index >= range.end {
            break;
        }
        match record {
            Record::SetupEnd => {
                in_setup = false;
                observe(ReplayEvent::SetupDone);
            }
            Record::Note(text) => observe(ReplayEvent::Note(text.clone())),
            Record::Call { function, args, answer, offset } => {
                budget_call(&mut budget, *function, args, answer, *offset)?;
                let outcome = crate::generated::capture::call(*function, args, answer, &mut names, Some(device))
                    .map_err(|problem| ReplayError::Call {
                        function: crate::generated::capture::call_info(*function).map_or("?", |(n, _)| n).to_string(),
                        problem,
                    })?;
                summary.calls += 1;
                if outcome.differs {
                    summary.differences += 1;
                }
                if reporting(in_setup, index) {
                    observe(ReplayEvent::Call(outcome));
                }
            }
            Record::List(l) => {
                if open.as_ref().is_some_and(|(f, _, _)| *f != l.frame) {
                    // A frame whose end record is missing (a post-mortem capture's last frame).
                    open = None;
                }
                if open.is_none() {
                    let n = lists_per_frame.get(&l.frame).copied().unwrap_or(1);
                    open = Some((l.frame, device.begin_frame(n)?, 0));
                    begun += 1;
                }
                let (_, frame, slot) = open.as_mut().expect("opened above");
                budget_list(&mut budget, l, *slot)?;
                let list = translate(device, l, &mut names).map_err(|problem| ReplayError::Translated {
                    frame: l.frame,
                    list: *slot,
                    problem,
                })?;
                if options.dump && reporting(in_setup, index) {
                    observe(ReplayEvent::List {
                        frame: l.frame,
                        slot: l.slot,
                        label: l.label.clone(),
                        text: dump(l, &list),
                    });
                }
                summary.lists += 1;
                summary.commands += l.commands;
                frame.submit(*slot, list).map_err(Error::from)?;
                *slot += 1;
            }
            Record::FrameEnd { frame } => {
                if open.as_ref().is_some_and(|(f, _, _)| f == frame) {
                    open = None;
                }
                if !in_setup {
                    if range.contains(&index) {
                        summary.frames += 1;
                    }
                    observe(ReplayEvent::FrameEnd { index, frame: *frame });
                    index += 1;
                }
                while let Some(r) = reports.try_recv() {
                    observe(ReplayEvent::Report(r));
                }
            }
        }
    }
    drop(open);
    // Everything submitted has replayed once the frames have ended.
    let stats = device.wait_frames(before.frames + begun)?;
    while let Some(r) = reports.try_recv() {
        observe(ReplayEvent::Report(r));
    }
    summary.skipped = stats.refused - before.refused;
    summary.unmapped = names.unmapped;
    Ok(summary)
}

/// Counts what a recorded create makes, before it is made.
fn budget_call(
    budget: &mut Budget,
    function: u16,
    args: &[u8],
    answer: &[u8],
    offset: usize,
) -> Result<(), ReplayError> {
    let gl_name = crate::generated::capture::call_info(function).map_or("?", |(n, _)| n);
    if let Ok(Outcome { created: Some(created), .. }) =
        crate::generated::capture::call(function, args, answer, &mut AnyName, None)
    {
        budget
            .created(&created)
            .map_err(|problem| ReplayError::Budget { record: format!("{gl_name} at byte {offset}"), problem })?;
    }
    Ok(())
}

/// Counts what a list (the `index`-th of its frame) allocates and draws, before it is submitted.
fn budget_list(budget: &mut Budget, l: &ListRecord, index: usize) -> Result<(), ReplayError> {
    budget.list(l).map_err(|(at, command, function, problem)| ReplayError::Budget {
        record: format!(
            "frame {}, list {index} (slot {}), command {command} ({function}) at byte {}",
            l.frame,
            l.slot,
            l.packets_offset + at * 8
        ),
        problem,
    })
}

/// A copy of a captured list with the replay's names, checked again, as a `CommandList`.
fn translate(device: &Device, l: &ListRecord, names: &mut NameMap) -> Result<CommandList, validate::PacketProblem> {
    let mut packets = l.packets.clone();
    let mut params = l.params.clone();
    validate::check_list(&mut packets, &mut params, Some(names), true).map_err(|e| e.problem)?;
    let commands = validate::check_list(&mut packets, &mut params, Some(&mut AnyName), false).map_err(|e| e.problem)?;
    let links = validate::links(&packets);
    let mut list = device.command_list();
    list.packets = packets;
    list.params = params;
    list.commands = commands;
    list.set_label(&l.label);
    for program in links {
        list.note_link(program);
    }
    Ok(list)
}

/// A list as text, with its captured recording sites.
fn dump(l: &ListRecord, list: &CommandList) -> String {
    let mut out = String::new();
    let sites: HashMap<usize, &str> = l.sites.iter().map(|(s, t)| (*s as usize, t.as_str())).collect();
    list.walk(|_, slot, _| {
        let _ = list.write_command(slot, &mut out);
        if let Some(site) = sites.get(&slot) {
            out.push_str("  // ");
            out.push_str(site);
        }
        out.push('\n');
    });
    out
}

/// An RGBA8 image, rows bottom first (the GL's order).
#[derive(Clone, Debug)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

/// Reads the framebuffer the replay last drew to: colour attachment of its first draw buffer,
/// at the attachment's size.
pub fn read_final_framebuffer(device: &Device) -> Result<Image, ReplayError> {
    let fail = |s: String| ReplayError::Framebuffer(s);
    let fbo = device.get_integerv(gl::DRAW_FRAMEBUFFER_BINDING)?[0] as u32;
    if fbo == 0 {
        return Err(fail(
            "the replay ends drawing to the default framebuffer, which a headless device does not have".into(),
        ));
    }
    let attachment = device.get_named_framebuffer_parameteriv_draw_buffer(fbo)?;
    let kind = device.get_named_framebuffer_attachment_parameteriv(
        fbo,
        attachment,
        gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
    )?[0] as u32;
    let object = device.get_named_framebuffer_attachment_parameteriv(
        fbo,
        attachment,
        gl::FRAMEBUFFER_ATTACHMENT_OBJECT_NAME,
    )?[0] as u32;
    let (width, height) = match kind {
        gl::TEXTURE => {
            let level = device.get_named_framebuffer_attachment_parameteriv(
                fbo,
                attachment,
                gl::FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL,
            )?[0];
            (
                device.get_texture_level_parameteriv(object, level, gl::TEXTURE_WIDTH)?[0],
                device.get_texture_level_parameteriv(object, level, gl::TEXTURE_HEIGHT)?[0],
            )
        }
        gl::RENDERBUFFER => (
            device.get_named_renderbuffer_parameteriv(object, gl::RENDERBUFFER_WIDTH)?[0],
            device.get_named_renderbuffer_parameteriv(object, gl::RENDERBUFFER_HEIGHT)?[0],
        ),
        other => {
            return Err(fail(format!("framebuffer {fbo}: attachment {attachment:#x} holds object type {other:#x}")))
        }
    };
    if width <= 0 || height <= 0 {
        return Err(fail(format!("framebuffer {fbo}: an attachment of {width}x{height}")));
    }
    let bytes = (width as u64) * (height as u64) * 4;
    if bytes > i32::MAX as u64 {
        return Err(fail(format!("framebuffer {fbo}: {width}x{height} is too large to read back at once")));
    }
    let mut list = device.command_list();
    list.bind_framebuffer(gl::READ_FRAMEBUFFER, fbo);
    list.named_framebuffer_read_buffer(fbo, attachment);
    list.bind_buffer(gl::PIXEL_PACK_BUFFER, 0);
    list.pixel_storei(gl::PACK_ALIGNMENT, 1);
    list.pixel_storei(gl::PACK_ROW_LENGTH, 0);
    list.pixel_storei(gl::PACK_SKIP_PIXELS, 0);
    list.pixel_storei(gl::PACK_SKIP_ROWS, 0);
    device.submit(list).map_err(Error::from)?;
    let rgba = device.readn_pixels(0, 0, width, height, gl::RGBA, gl::UNSIGNED_BYTE, bytes as i32)?;
    Ok(Image { width: width as u32, height: height as u32, rgba })
}

impl Device {
    /// The first draw buffer of a framebuffer (`GL_DRAW_BUFFER0` while it is bound).
    fn get_named_framebuffer_parameteriv_draw_buffer(&self, fbo: u32) -> Result<u32, Error> {
        let mut list = self.command_list();
        list.bind_framebuffer(gl::DRAW_FRAMEBUFFER, fbo);
        self.submit(list)?;
        Ok(self.get_integerv(gl::DRAW_BUFFER0)?[0] as u32)
    }
}
