//! Driver defects worked around at replay: calls the GL accepts that a driver mishandles in a
//! way no argument check catches, each with the smallest change that keeps the GL's answer.
//!
//! Unlike the guards (`shadow/guards.rs`), which refuse arguments the GL itself rejects, these
//! are calls the GL accepts: glcmd must not raise an error or print a refusal for them, only
//! keep the driver away from its own bug.

use crate::generated::{enums as gl, types::*, Gl};
use crate::replay::Replayer;

impl Replayer<'_> {
    /// Whether `glUniformSubroutinesuiv(shadertype, count, ..)` may reach the driver.
    ///
    /// Mesa 22 walks the stage's subroutine uniforms with a do-while loop, so a `count` of 0 on
    /// a stage whose program has none (which the GL accepts and which changes nothing) reads
    /// the first entry of a table of none: whatever the heap holds there, dereferenced on the
    /// render thread (a crash in some runs, depending on the heap). That one case is skipped.
    /// Every other call reaches the GL, which answers it: a count other than 0, a stage that is
    /// not one (`GL_INVALID_ENUM`), no program for the stage (`GL_INVALID_OPERATION`), a count
    /// that is not the program's (`GL_INVALID_VALUE`). The queries that decide this keep the
    /// program's pending errors (they are its own), in their order.
    ///
    /// Left alone: a current program that has no shader of that stage, where the GL raises
    /// `GL_INVALID_OPERATION` and glcmd, which cannot tell that apart from a stage with no
    /// subroutine uniforms without a query that would itself fail, skips the call silently.
    pub(crate) fn subroutine_call_is_safe(&mut self, shadertype: GLenum, count: GLsizei) -> bool {
        const STAGES: [GLenum; 6] = [
            gl::VERTEX_SHADER,
            gl::TESS_CONTROL_SHADER,
            gl::TESS_EVALUATION_SHADER,
            gl::GEOMETRY_SHADER,
            gl::FRAGMENT_SHADER,
            gl::COMPUTE_SHADER,
        ];
        if count != 0 || !STAGES.contains(&shadertype) {
            return true;
        }
        let raw = self.raw;
        let (state, _) = self.state_and_list();
        state.keep_pending_errors(raw);
        let program = program_of_stage(raw, shadertype);
        if program == 0 {
            return true;
        }
        let mut locations = 0;
        // SAFETY: a single-integer query of a program object the context uses for the stage.
        unsafe {
            (raw.GetProgramStageiv)(program, shadertype, gl::ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS, &mut locations)
        };
        // A failure of the query itself is glcmd's, not the program's: dropped.
        // SAFETY: no arguments.
        while unsafe { (raw.GetError)() } != gl::NO_ERROR {}
        locations != 0
    }
}

/// The program the context uses for `stage`: the current program, else the bound pipeline's
/// program for the stage; 0 for none.
fn program_of_stage(raw: &Gl, stage: GLenum) -> GLuint {
    let (mut program, mut pipeline) = (0, 0);
    // SAFETY: single-integer queries every core context answers; the pipeline query runs on a
    // bound pipeline only, with a stage enum (`STAGES`).
    unsafe {
        (raw.GetIntegerv)(gl::CURRENT_PROGRAM, &mut program);
        if program == 0 {
            (raw.GetIntegerv)(gl::PROGRAM_PIPELINE_BINDING, &mut pipeline);
            if pipeline != 0 {
                (raw.GetProgramPipelineiv)(pipeline as GLuint, stage, &mut program);
            }
        }
    }
    program as GLuint
}
