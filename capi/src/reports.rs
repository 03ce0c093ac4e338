//! Diagnostic reports as plain C structs (`glcmdGetReport`).

use std::cell::RefCell;
use std::ffi::{c_char, CString};

use glcmd::{Device, ReportKind};

use crate::c_terms::translate;
use crate::types::{
    GlcmdReport, GLCMD_REPORT_ABANDONED_FRAME, GLCMD_REPORT_DEBUG_MESSAGE, GLCMD_REPORT_GL_ERROR, GLCMD_REPORT_NONE,
    GLCMD_REPORT_PRESENT, GLCMD_REPORT_SKIPPED, GLCMD_REPORT_STALL, GLCMD_REPORT_SUBMISSION, GLCMD_REPORT_UNAVAILABLE,
    GLCMD_REPORT_USE_AFTER_DELETE, GLCMD_REPORT_VALIDATION,
};

thread_local! {
    /// The strings of the last report this thread took (valid until its next glcmdGetReport).
    static STRINGS: RefCell<Vec<CString>> = const { RefCell::new(Vec::new()) };
}

fn kind(k: ReportKind) -> u32 {
    match k {
        ReportKind::DebugMessage => GLCMD_REPORT_DEBUG_MESSAGE,
        ReportKind::GlError => GLCMD_REPORT_GL_ERROR,
        ReportKind::UseAfterDelete => GLCMD_REPORT_USE_AFTER_DELETE,
        ReportKind::Stall => GLCMD_REPORT_STALL,
        ReportKind::Validation => GLCMD_REPORT_VALIDATION,
        ReportKind::Skipped => GLCMD_REPORT_SKIPPED,
        ReportKind::Unavailable => GLCMD_REPORT_UNAVAILABLE,
        ReportKind::Submission => GLCMD_REPORT_SUBMISSION,
        ReportKind::AbandonedFrame => GLCMD_REPORT_ABANDONED_FRAME,
        ReportKind::Present => GLCMD_REPORT_PRESENT,
    }
}

/// The next report of `device`, or one of kind `GLCMD_REPORT_NONE`.
pub fn next(device: &Device) -> GlcmdReport {
    let none = GlcmdReport {
        kind: GLCMD_REPORT_NONE,
        index: -1,
        call: c"".as_ptr(),
        list: std::ptr::null(),
        message: c"".as_ptr(),
        deleted_by: std::ptr::null(),
        text: c"".as_ptr(),
    };
    let Some(r) = device.reports().try_recv() else { return none };
    // The runtime's text, in C terms (`c_terms.rs`).
    let c = |s: &str| CString::new(translate(s).replace('\0', " ")).unwrap_or_default();
    let strings = vec![
        c(&r.call),
        c(r.list.as_deref().unwrap_or("")),
        c(&r.message),
        c(r.deleted_by.as_ref().map(|(call, _)| call.as_str()).unwrap_or("")),
        c(&r.to_string()),
    ];
    let ptr = |i: usize| strings[i].as_ptr();
    let report = GlcmdReport {
        kind: kind(r.kind),
        index: r.index.map_or(-1, |i| i as i64),
        call: ptr(0),
        list: if r.list.is_some() { ptr(1) } else { std::ptr::null::<c_char>() },
        message: ptr(2),
        deleted_by: if r.deleted_by.is_some() { ptr(3) } else { std::ptr::null() },
        text: ptr(4),
    };
    // The CStrings' heap buffers do not move when the Vec moves into the thread local; if it
    // cannot (the thread is exiting), the strings would be freed: report nothing instead.
    let kept = STRINGS
        .try_with(move |s| match s.try_borrow_mut() {
            Ok(mut s) => {
                *s = strings;
                true
            }
            Err(_) => false,
        })
        .unwrap_or(false);
    if kept {
        report
    } else {
        none
    }
}
