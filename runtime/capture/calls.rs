//! Recorded creates and queries: decoding them, checking and translating the object names they
//! take and return, and replaying them through the typed `Device` methods.
//!
//! The generated `generated::capture::call` has one arm per replayable create or query; each
//! decodes the arguments (`Decoder`), maps the names among them (`Names::map`), and hands a
//! closure calling the typed method to `query` or `create` here. Loading runs the same arms
//! without a device, which checks that every record decodes and that every name it takes was
//! returned by an earlier create of the capture.

use std::fmt::Debug;

use super::wire::{self, Get, Put, Reader, WireError};
use crate::device::Device;
use crate::vocab::Class;
use crate::Error;

/// Why a recorded create or query is not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallProblem {
    UnknownFunction(u16),
    Argument { param: &'static str, error: WireError },
    Answer { error: WireError },
    UnknownName { param: &'static str, class: Class, name: u32 },
    CreateCount { param: &'static str, asked: i64, recorded: usize },
}

impl std::fmt::Display for CallProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CallProblem::UnknownFunction(index) => {
                write!(f, "function index {index} is no create or query this build can replay")
            }
            CallProblem::Argument { param, error } => {
                write!(f, "argument `{param}` does not decode: {} at byte {}", error.what, error.at)
            }
            CallProblem::Answer { error } => {
                write!(f, "the recorded answer does not decode: {} at byte {}", error.what, error.at)
            }
            CallProblem::UnknownName { param, class, name } => {
                write!(f, "argument `{param}` names {class:?} {name}, which no earlier create of the capture returned")
            }
            CallProblem::CreateCount { param, asked, recorded } => write!(
                f,
                "the create asks for {asked} names (`{param}`) but the capture recorded {recorded}: a replayed \
                 create makes exactly the names its record holds"
            ),
        }
    }
}

impl std::error::Error for CallProblem {}

/// Checks (loading) or translates (replay) object names.
pub trait Names {
    /// A name a call or packet takes. 0 always passes unchanged.
    fn map(&mut self, class: Class, name: u32, param: &'static str) -> Result<u32, CallProblem>;
    /// Names a create returned in the capture, and at replay the names the replay's create
    /// returned (the same number, in the same order).
    fn created(&mut self, class: Class, captured: &[u32], replayed: Option<&[u32]>);
}

/// The arguments of one record.
pub struct Decoder<'a> {
    r: Reader<'a>,
}

impl<'a> Decoder<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Decoder { r: Reader::new(bytes) }
    }

    pub fn get<T: Get>(&mut self, param: &'static str) -> Result<T, CallProblem> {
        self.r.get().map_err(|error| CallProblem::Argument { param, error })
    }

    /// A string argument: the typed methods take `&str` and refuse a NUL inside.
    pub fn string(&mut self, param: &'static str) -> Result<String, CallProblem> {
        let at = self.r.at();
        let s: String = self.get(param)?;
        if s.contains('\0') {
            return Err(CallProblem::Argument {
                param,
                error: WireError { at, what: "a string with a NUL inside".into() },
            });
        }
        Ok(s)
    }

    /// A string-array argument, each string as for [`Decoder::string`].
    pub fn strings(&mut self, param: &'static str) -> Result<Vec<String>, CallProblem> {
        let at = self.r.at();
        let v: Vec<String> = self.get(param)?;
        if v.iter().any(|s| s.contains('\0')) {
            return Err(CallProblem::Argument {
                param,
                error: WireError { at, what: "a string with a NUL inside".into() },
            });
        }
        Ok(v)
    }

    pub fn finish(&self) -> Result<(), CallProblem> {
        self.r.finish().map_err(|error| CallProblem::Argument { param: "(end)", error })
    }
}

/// One replayed create or query: the answer the capture holds, and the replay's.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub function: &'static str,
    pub captured: String,
    /// The replay's answer, or the error it got; `None` when only loading.
    pub replayed: Option<Result<String, String>>,
    /// The answers differ (for a create: it failed; the names themselves are remapped, not
    /// compared).
    pub differs: bool,
    /// For a create: the names the capture recorded, with their class and the create's target
    /// (`glCreateTextures`), for the replay's budget.
    pub created: Option<Created>,
}

/// The names a recorded create returned.
#[derive(Clone, Debug)]
pub struct Created {
    pub class: Class,
    pub names: Vec<u32>,
    pub target: Option<u32>,
}

/// The names in a create's answer.
pub trait CreatedNames {
    fn names(&self) -> Vec<u32>;
}

impl CreatedNames for u32 {
    fn names(&self) -> Vec<u32> {
        vec![*self]
    }
}

impl CreatedNames for Vec<u32> {
    fn names(&self) -> Vec<u32> {
        self.clone()
    }
}

/// Runs a typed method. Its checks of impossible input (a slice shorter than its pname needs)
/// panic on the calling thread before anything is sent; from a file they are an error of the
/// record, not a crash of the replay.
///
/// Generic over the answer's type only: the generated arms (one per create or query) pass their
/// closures as `&dyn Fn`, so this and the functions below are compiled once per answer type,
/// not once per arm.
fn run<T>(call: &dyn Fn(&Device) -> Result<T, Error>, device: &Device) -> Result<T, String> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| call(device))) {
        Ok(r) => r.map_err(|e| e.to_string()),
        Err(p) => Err(format!(
            "the method refused the recorded arguments: {}",
            p.downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".into())
        )),
    }
}

fn captured<T: Get>(answer: &[u8]) -> Result<T, CallProblem> {
    wire::decode(answer).map_err(|error| CallProblem::Answer { error })
}

/// A query: decodes the captured answer and, given a device, asks it again and compares.
pub(crate) fn query<T: Get + Put + Debug>(
    function: &'static str,
    call: &dyn Fn(&Device) -> Result<T, Error>,
    answer: &[u8],
    device: Option<&Device>,
) -> Result<Outcome, CallProblem> {
    let was: T = captured(answer)?;
    let mut out = Outcome { function, captured: format!("{was:?}"), replayed: None, differs: false, created: None };
    if let Some(device) = device {
        match run(call, device) {
            Ok(now) => {
                out.differs = wire::encode(&now) != answer;
                out.replayed = Some(Ok(format!("{now:?}")));
            }
            Err(e) => {
                out.differs = true;
                out.replayed = Some(Err(e));
            }
        }
    }
    Ok(out)
}

/// What a create is asked to make: (the count argument, how many names it asks for), or
/// `None` for a create of one name; and the create's target, if it has one.
pub(crate) struct Asked {
    pub count: Option<(&'static str, i64)>,
    pub target: Option<u32>,
}

/// A create: its names become known (loading) or mapped to the replay's (replay). It must ask
/// for exactly the names its record holds: a record whose count argument says more (a million
/// names from a 25-byte record) is refused, at load and at replay, before anything is made.
pub(crate) fn create<T: Get + Put + Debug + CreatedNames>(
    function: &'static str,
    class: Class,
    asked: Asked,
    call: &dyn Fn(&Device) -> Result<T, Error>,
    answer: &[u8],
    names: &mut dyn Names,
    device: Option<&Device>,
) -> Result<Outcome, CallProblem> {
    let was: T = captured(answer)?;
    let recorded = was.names();
    let (param, n) = asked.count.unwrap_or(("(one name)", 1));
    if n != recorded.len() as i64 {
        return Err(CallProblem::CreateCount { param, asked: n, recorded: recorded.len() });
    }
    let created = Some(Created { class, names: recorded, target: asked.target });
    let mut out = Outcome { function, captured: format!("{was:?}"), replayed: None, differs: false, created };
    match device {
        None => names.created(class, &was.names(), None),
        Some(device) => match run(call, device) {
            Ok(now) => {
                let (a, b) = (was.names(), now.names());
                out.differs = a.len() != b.len();
                names.created(class, &a, (!out.differs).then_some(&b[..]));
                out.replayed = Some(Ok(format!("{now:?}")));
            }
            Err(e) => {
                names.created(class, &was.names(), None);
                out.differs = true;
                out.replayed = Some(Err(e));
            }
        },
    }
    Ok(out)
}
