//! Device and frame handles: opaque numbers, not pointers.
//!
//! A C program can pass a handle after destroying it, or one it never got. So a handle is a
//! number (never reused, never 0) looked up in a registry; a stale or forged one is
//! `GLCMD_ERROR_INVALID_HANDLE`, never a read of freed memory. The lookup is a mutex and a map
//! per management call; the GL entry points never touch the registry (they use the thread's
//! current list and device, `current.rs`).
//!
//! A device entry holds the `glcmd::Device` in an `RwLock<Option<_>>`: destroying takes it out,
//! so every later use through any path (a handle, or a thread's current device) fails, and the
//! render thread shuts down as soon as no call in flight holds a clone. Destroying a device also
//! ends its open frames (each frame holds its device).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use glcmd::{Device, DiagnosticOptions, Frame, Options};

use crate::error::CallError;
use crate::types::{
    GlcmdDeviceOptions, GLCMD_DEVICE_DEBUG_OUTPUT, GLCMD_DEVICE_ROBUST_ACCESS, GLCMD_DEVICE_STRICT,
    GLCMD_DEVICE_TRACK_DELETES, GLCMD_ERROR_INVALID_ARGUMENT, GLCMD_ERROR_INVALID_HANDLE,
};

/// A device as the registry and the threads that made it current hold it.
pub struct DeviceEntry {
    pub id: usize,
    device: RwLock<Option<Device>>,
    /// Whether the program's debug messages must reach it on its own thread (`debug_sync.rs`).
    pub debug: Arc<crate::debug_sync::DebugSync>,
}

impl DeviceEntry {
    /// `f` of the device, unless it was destroyed: without a clone of the handle (two atomic
    /// operations fewer than [`DeviceEntry::device`], for the lookups' fast path).
    #[inline]
    pub fn with_device<R>(&self, f: impl FnOnce(&Device) -> R) -> Option<R> {
        self.device.read().unwrap_or_else(|e| e.into_inner()).as_ref().map(f)
    }

    /// The device, unless it was destroyed.
    pub fn device(&self, function: &str) -> Result<Device, CallError> {
        self.device.read().unwrap_or_else(|e| e.into_inner()).clone().ok_or_else(|| {
            CallError::new(
                GLCMD_ERROR_INVALID_HANDLE,
                format!("{function}: device {} was destroyed (glcmdDeviceDestroy)", self.id),
            )
        })
    }
}

/// A frame and the device entry it belongs to.
pub struct FrameEntry {
    pub device: Arc<DeviceEntry>,
    pub frame: Frame,
}

static NEXT: AtomicUsize = AtomicUsize::new(1);
static DEVICES: Mutex<BTreeMap<usize, Arc<DeviceEntry>>> = Mutex::new(BTreeMap::new());
static FRAMES: Mutex<BTreeMap<usize, Arc<FrameEntry>>> = Mutex::new(BTreeMap::new());

fn invalid(function: &str, what: &str, handle: usize) -> CallError {
    CallError::new(
        GLCMD_ERROR_INVALID_HANDLE,
        format!("{function}: {handle:#x} is not a live {what} handle (destroyed, ended, NULL, or never made)"),
    )
}

/// The options a `GlcmdDeviceOptions` (or NULL) asks for.
///
/// # Safety
/// `options` is NULL or points to a `GlcmdDeviceOptions` of at least `options->size` bytes.
pub unsafe fn device_options(function: &str, options: *const GlcmdDeviceOptions) -> Result<Options, CallError> {
    let mut o = Options::default();
    if options.is_null() {
        return Ok(o);
    }
    // SAFETY: the caller's contract; `size` is read first and checked.
    let size = unsafe { std::ptr::addr_of!((*options).size).read_unaligned() } as usize;
    if size < std::mem::size_of::<GlcmdDeviceOptions>() {
        return Err(CallError::new(
            GLCMD_ERROR_INVALID_ARGUMENT,
            format!(
                "{function}: options->size is {size}; set it to sizeof(GlcmdDeviceOptions) ({})",
                std::mem::size_of::<GlcmdDeviceOptions>()
            ),
        ));
    }
    // SAFETY: at least a whole GlcmdDeviceOptions, checked above.
    let opts = unsafe { options.read_unaligned() };
    let flag = |f: u32| opts.flags & f != 0;
    o.diagnostics = DiagnosticOptions::default()
        .debug_output(flag(GLCMD_DEVICE_DEBUG_OUTPUT))
        .strict(flag(GLCMD_DEVICE_STRICT))
        .track_deletes(flag(GLCMD_DEVICE_TRACK_DELETES))
        .watchdog((opts.watchdog_ms > 0).then(|| Duration::from_millis(opts.watchdog_ms as u64)));
    o.robust_access = flag(GLCMD_DEVICE_ROBUST_ACCESS);
    if opts.wait_limit_ms > 0 {
        o.wait_limit = Duration::from_millis(opts.wait_limit_ms as u64);
    }
    Ok(o)
}

/// Starts a device and registers it; returns its handle.
pub fn create_device(options: Options) -> Result<usize, CallError> {
    let device = Device::with_options(options).map_err(|e| CallError::from_glcmd("glcmdDeviceCreateHeadless", e))?;
    Ok(register_device(device))
}

/// Registers a started device (headless or adopted); returns its handle.
pub fn register_device(device: Device) -> usize {
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    let entry = Arc::new(DeviceEntry { id, device: RwLock::new(Some(device)), debug: Arc::default() });
    DEVICES.lock().unwrap_or_else(|e| e.into_inner()).insert(id, entry);
    id
}

/// The live device of a handle.
pub fn device(function: &str, handle: usize) -> Result<Arc<DeviceEntry>, CallError> {
    DEVICES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&handle)
        .cloned()
        .ok_or_else(|| invalid(function, "device", handle))
}

/// Unregisters a device, ends its frames and drops it (the last holder replays what was
/// submitted and joins the render thread).
pub fn destroy_device(function: &str, handle: usize) -> Result<(), CallError> {
    let entry = DEVICES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(&handle)
        .ok_or_else(|| invalid(function, "device", handle))?;
    let frames: Vec<Arc<FrameEntry>> = {
        let mut all = FRAMES.lock().unwrap_or_else(|e| e.into_inner());
        let ids: Vec<usize> = all.iter().filter(|(_, f)| f.device.id == handle).map(|(&id, _)| id).collect();
        ids.iter().filter_map(|id| all.remove(id)).collect()
    };
    drop(frames);
    let device = entry.device.write().unwrap_or_else(|e| e.into_inner()).take();
    drop(device);
    Ok(())
}

/// Begins a frame on a device and registers it; returns its handle.
pub fn begin_frame(function: &str, handle: usize, slots: u32) -> Result<usize, CallError> {
    let entry = device(function, handle)?;
    let frame = entry.device(function)?.begin_frame(slots as usize).map_err(|e| CallError::from_glcmd(function, e))?;
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    FRAMES.lock().unwrap_or_else(|e| e.into_inner()).insert(id, Arc::new(FrameEntry { device: entry, frame }));
    Ok(id)
}

/// The open frame of a handle.
pub fn frame(function: &str, handle: usize) -> Result<Arc<FrameEntry>, CallError> {
    FRAMES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&handle)
        .cloned()
        .ok_or_else(|| invalid(function, "frame", handle))
}

/// Unregisters a frame; it closes when the last call using it returns.
pub fn end_frame(function: &str, handle: usize) -> Result<(), CallError> {
    let entry = FRAMES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(&handle)
        .ok_or_else(|| invalid(function, "frame", handle))?;
    drop(entry);
    Ok(())
}
