/* Calls the GL refuses, or that glcmd refuses on the GL's behalf, each followed by the error it
 * raised and, for functions with a return value, what it returned: one line per call. Run
 * directly and through glcmd-run (run/tests/unchanged.rs), the two outputs must be equal.
 *
 * Issue 30 item 3: a refused call returns what the GL returns (a refused glFenceSync returns 0;
 * creates, maps and lookups of things that are no objects return 0, NULL, -1, GL_INVALID_INDEX).
 * Issue 34 item 4: where glcmd refuses a call for its own safety and the GL would refuse it for
 * an earlier reason, the error is the GL's (Mesa's order of checks): the target, the stream,
 * the attribute index, the object name come before glcmd's range, buffer and vertex-array
 * checks. Calls that crash Mesa directly (glcmd is better there) are left out. */
#define PROGRAM "refusals"
#define GL_GLEXT_PROTOTYPES
#include <GL/glcorearb.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "egl_pbuffer.h"

#define E(name) printf("%s error=0x%x\n", name, glGetError())

static void returns(void) {
    GLsync s = glFenceSync(0, 0);
    printf("fence_bad_condition_nonzero=%d ", s != 0);
    E("glFenceSync(0, 0)");
    s = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 1);
    printf("fence_bad_flags_nonzero=%d ", s != 0);
    E("glFenceSync(flags 1)");
    printf("is_sync_of_refused=%d ", glIsSync(s));
    E("glIsSync");
    s = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    printf("fence_nonzero=%d ", s != 0);
    E("glFenceSync");
    printf("wait=0x%x ", glClientWaitSync(s, 0x80, 0));
    E("glClientWaitSync(bad flags)");
    glDeleteSync(s);
    printf("create_shader=%u ", glCreateShader(0));
    E("glCreateShader(0)");
    const char *src = "void main(){}";
    printf("create_shader_programv=%u ", glCreateShaderProgramv(0, 1, &src));
    E("glCreateShaderProgramv(0)");
    printf("map_buffer_nonnull=%d ", glMapBuffer(GL_ARRAY_BUFFER, GL_READ_ONLY) != NULL);
    E("glMapBuffer(no buffer)");
    printf("map_buffer_range_nonnull=%d ", glMapBufferRange(GL_ARRAY_BUFFER, 0, 4, GL_MAP_READ_BIT) != NULL);
    E("glMapBufferRange(no buffer)");
    printf("map_named_buffer_nonnull=%d ", glMapNamedBuffer(777, GL_READ_ONLY) != NULL);
    E("glMapNamedBuffer(777)");
    printf("unmap_buffer=%d ", glUnmapBuffer(GL_ARRAY_BUFFER));
    E("glUnmapBuffer(no buffer)");
    printf("uniform_location=%d ", glGetUniformLocation(12345, "x"));
    E("glGetUniformLocation");
    printf("attrib_location=%d ", glGetAttribLocation(12345, "x"));
    E("glGetAttribLocation");
    printf("frag_data_location=%d ", glGetFragDataLocation(12345, "x"));
    E("glGetFragDataLocation");
    printf("frag_data_index=%d ", glGetFragDataIndex(12345, "x"));
    E("glGetFragDataIndex");
    printf("uniform_block_index=%u ", glGetUniformBlockIndex(12345, "x"));
    E("glGetUniformBlockIndex");
    printf("resource_index=%u ", glGetProgramResourceIndex(12345, GL_UNIFORM, "x"));
    E("glGetProgramResourceIndex");
    printf("resource_location=%d ", glGetProgramResourceLocation(12345, GL_UNIFORM, "x"));
    E("glGetProgramResourceLocation");
    printf("subroutine_index=%u ", glGetSubroutineIndex(12345, GL_VERTEX_SHADER, "x"));
    E("glGetSubroutineIndex");
    printf("subroutine_uniform_location=%d ", glGetSubroutineUniformLocation(12345, GL_VERTEX_SHADER, "x"));
    E("glGetSubroutineUniformLocation");
    printf("framebuffer_status=0x%x ", glCheckFramebufferStatus(0));
    E("glCheckFramebufferStatus(0)");
    printf("named_framebuffer_status=0x%x ", glCheckNamedFramebufferStatus(4242, GL_FRAMEBUFFER));
    E("glCheckNamedFramebufferStatus(4242)");
    GLenum sources[2], types[2], severities[2];
    GLuint ids[2];
    GLsizei lengths[2];
    char log[64];
    printf("debug_message_log=%u ", glGetDebugMessageLog(2, -1, sources, types, ids, severities, lengths, log));
    E("glGetDebugMessageLog(bufSize -1)");
    printf("string_null=%d ", glGetString(0) == NULL);
    E("glGetString(0)");
    printf("stringi_null=%d ", glGetStringi(GL_EXTENSIONS, 100000) == NULL);
    E("glGetStringi(past the end)");
    printf("is_enabled=%d ", glIsEnabled(0));
    E("glIsEnabled(0)");
}

static void order(void) {
    /* No vertex array is bound yet. */
    glDrawTransformFeedbackStream(GL_POINTS, 0, 1000);
    E("glDrawTransformFeedbackStream(stream 1000, no vertex array)");
    glDrawTransformFeedbackStreamInstanced(GL_POINTS, 0, 1000, 1);
    E("glDrawTransformFeedbackStreamInstanced(stream 1000)");
    glDrawTransformFeedbackStream(GL_QUADS, 0, 1000);
    E("glDrawTransformFeedbackStream(GL_QUADS, stream 1000)");
    glTexBufferRange(GL_TEXTURE_2D, GL_R8, 0, 0, 4);
    E("glTexBufferRange(GL_TEXTURE_2D)");
    glTexBufferRange(GL_TEXTURE_2D, GL_R8, 4242, -1, 4);
    E("glTexBufferRange(GL_TEXTURE_2D, no buffer, -1)");
    glTexBufferRange(GL_TEXTURE_BUFFER, GL_R8, 4242, -1, 4);
    E("glTexBufferRange(no buffer, -1)");
    glTexBufferRange(GL_TEXTURE_BUFFER, GL_R8, 0, -1, -1);
    E("glTexBufferRange(buffer 0, -1, -1)");
    glVertexAttribLPointer(100000, 1, GL_DOUBLE, 0, NULL);
    E("glVertexAttribLPointer(index 100000)");
    glVertexAttribLPointer(100000, 1, GL_DOUBLE, 0, (void *)16);
    E("glVertexAttribLPointer(index 100000, client pointer)");
    glVertexAttribPointer(100000, 1, GL_FLOAT, 0, 0, (void *)16);
    E("glVertexAttribPointer(index 100000, client pointer)");
    glVertexAttribIPointer(0, 1, GL_INT, 0, (void *)16);
    E("glVertexAttribIPointer(no vertex array, client pointer)");
    glInvalidateBufferData(4242);
    E("glInvalidateBufferData(4242)");
    glInvalidateBufferSubData(4242, -1, 4);
    E("glInvalidateBufferSubData(4242, -1)");
    glNamedBufferSubData(4242, -1, 4, "abcd");
    E("glNamedBufferSubData(4242, -1)");
    glBindBuffersBase(GL_TEXTURE_2D, 0xFFFFFFFFu, 2, NULL);
    E("glBindBuffersBase(GL_TEXTURE_2D, wrapping)");
    glSamplerParameterf(4242, GL_TEXTURE_MIN_LOD, NAN);
    E("glSamplerParameterf(4242, NaN)");
    glBindVertexBuffer(100000, 0, 16, 0);
    E("glBindVertexBuffer(index 100000, buffer 0 at 16)");
    glDrawElements(GL_TRIANGLES, -1, GL_UNSIGNED_SHORT, (void *)4);
    E("glDrawElements(count -1, no vertex array)");
    glDrawElements(GL_QUADS, 3, GL_UNSIGNED_SHORT, (void *)4);
    E("glDrawElements(GL_QUADS, no vertex array)");
    glDrawArrays(GL_TRIANGLES, 0, -1);
    E("glDrawArrays(count -1, no vertex array)");
    glBufferSubData(GL_TEXTURE_2D, -1, 4, "abcd");
    E("glBufferSubData(GL_TEXTURE_2D, -1)");
    glCopyBufferSubData(GL_TEXTURE_2D, GL_ARRAY_BUFFER, -1, 0, 4);
    E("glCopyBufferSubData(GL_TEXTURE_2D, -1)");
    glClearBufferSubData(GL_TEXTURE_2D, GL_R8, -1, 4, GL_RED, GL_UNSIGNED_BYTE, NULL);
    E("glClearBufferSubData(GL_TEXTURE_2D, -1)");
    glFlushMappedBufferRange(GL_TEXTURE_2D, -1, 4);
    E("glFlushMappedBufferRange(GL_TEXTURE_2D, -1)");
    glDispatchComputeIndirect(3);
    E("glDispatchComputeIndirect(no program, no buffer)");
}

/* Indirect draws, whose order of checks differs from the direct draws' (Mesa 22): the index
 * type, the vertex array and its element buffer, the mode, the alignment, the indirect buffer. */
static void indirect_order(void) {
    glDrawArraysIndirect(GL_QUADS, (void *)4);
    E("glDrawArraysIndirect(GL_QUADS, no vertex array, no buffer)");
    glMultiDrawArraysIndirect(GL_QUADS, 0, -1, 0);
    E("glMultiDrawArraysIndirect(GL_QUADS, drawcount -1)");
    glDrawElementsIndirect(GL_TRIANGLES, GL_FLOAT, (void *)4);
    E("glDrawElementsIndirect(GL_FLOAT, no vertex array)");
    glDrawElementsIndirect(GL_QUADS, GL_UNSIGNED_INT, (void *)4);
    E("glDrawElementsIndirect(GL_QUADS, no vertex array)");
    glDrawArraysIndirect(GL_TRIANGLES, (void *)3);
    E("glDrawArraysIndirect(misaligned, no vertex array)");
    GLuint vao, buffer;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glDrawArraysIndirect(GL_QUADS, (void *)4);
    E("glDrawArraysIndirect(GL_QUADS, no buffer)");
    glDrawArraysIndirect(GL_TRIANGLES, (void *)3);
    E("glDrawArraysIndirect(misaligned, no buffer)");
    glGenBuffers(1, &buffer);
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, buffer);
    glBufferData(GL_DRAW_INDIRECT_BUFFER, 64, NULL, GL_STATIC_DRAW);
    glDrawArraysIndirect(GL_QUADS, (void *)4000);
    E("glDrawArraysIndirect(GL_QUADS, past the buffer)");
    glDrawElementsIndirect(GL_QUADS, GL_UNSIGNED_INT, (void *)4);
    E("glDrawElementsIndirect(GL_QUADS, no element buffer)");
    glDrawElementsIndirect(GL_TRIANGLES, GL_FLOAT, (void *)4);
    E("glDrawElementsIndirect(GL_FLOAT, no element buffer)");
    glBindVertexArray(0);
    glDrawArraysIndirect(GL_QUADS, (void *)4);
    E("glDrawArraysIndirect(GL_QUADS, no vertex array)");
    glDeleteBuffers(1, &buffer);
    glDeleteVertexArrays(1, &vao);
}

/* glBindBufferRange's range after Mesa's earlier checks (the name, the size, the target), buffer 0
 * left to the GL; NaN in texture and sampler parameters answered as the GL answers it. */
static void ranges_and_nan(void) {
    GLuint buffer, sampler;
    GLfloat anisotropy = 0, max = 0;
    glBindBufferRange(GL_UNIFORM_BUFFER, 0, 4242, -256, 16);
    E("glBindBufferRange(4242, offset -256)");
    glCreateBuffers(1, &buffer);
    glBindBufferRange(GL_ARRAY_BUFFER, 0, buffer, -256, 16);
    E("glBindBufferRange(GL_ARRAY_BUFFER, offset -256)");
    glBindBufferRange(GL_ARRAY_BUFFER, 0, buffer, 0, -16);
    E("glBindBufferRange(GL_ARRAY_BUFFER, size -16)");
    glBindBufferRange(GL_UNIFORM_BUFFER, 0, 0, -256, -8);
    E("glBindBufferRange(buffer 0, offset -256)");
    glTexParameterf(GL_TEXTURE_2D_MULTISAMPLE, GL_TEXTURE_MIN_LOD, NAN);
    E("glTexParameterf(GL_TEXTURE_2D_MULTISAMPLE, GL_TEXTURE_MIN_LOD, NaN)");
    glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, NAN);
    E("glTexParameterf(GL_TEXTURE_MIN_FILTER, NaN)");
    glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_MAX_ANISOTROPY, NAN);
    glGetTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_MAX_ANISOTROPY, &anisotropy);
    glGetFloatv(GL_MAX_TEXTURE_MAX_ANISOTROPY, &max);
    printf("anisotropy_is_max=%d ", anisotropy == max);
    E("glTexParameterf(GL_TEXTURE_MAX_ANISOTROPY, NaN)");
    glCreateSamplers(1, &sampler);
    glSamplerParameterf(sampler, GL_TEXTURE_WRAP_S, NAN);
    E("glSamplerParameterf(GL_TEXTURE_WRAP_S, NaN)");
    glDeleteSamplers(1, &sampler);
    glDeleteBuffers(1, &buffer);
}

int main(void) {
    make_egl_context();
    while (glGetError() != GL_NO_ERROR) {
    }
    returns();
    order();
    indirect_order();
    ranges_and_nan();
    printf("done=1\n");
    return 0;
}
