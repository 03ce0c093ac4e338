/* The fixture of the generated differential calls (glcmd-codegen's emit/c_calls.rs writes the
 * calls, run/tests/generated_calls.rs runs them directly and through glcmd-run): the context,
 * one object of each name class of gl.xml (`fx_buffer`, `fx_texture`, ...), the buffers array
 * arguments point into, and the helpers each call prints its outcome with.
 *
 * Inputs point into `fx_in` (zeros: a count of 0, an empty string, the name 0; no call writes
 * there), outputs into `fx_out`, arrays of pointers into `fx_pointers` (each at `fx_in`). */
#define PROGRAM "calls"
#define GL_GLEXT_PROTOTYPES
#include <GL/glcorearb.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "egl_pbuffer.h"

struct call {
    const char *name;
    const char *variant;
    void (*run)(void);
};

/* 1 MiB each, aligned for any element type. */
static double fx_in_storage[1 << 17];
static double fx_out_storage[1 << 17];
#define fx_in ((const unsigned char *)fx_in_storage)
#define fx_out ((unsigned char *)fx_out_storage)
static const void *fx_pointers[64];

static GLuint fx_buffer, fx_texture, fx_framebuffer, fx_renderbuffer, fx_program, fx_shader, fx_vertex_array,
    fx_query, fx_sampler, fx_transform_feedback, fx_program_pipeline;
static GLsync fx_sync;
/* An address that is no sync object. */
static GLsync no_sync = (GLsync)(uintptr_t)0x1000;

static void *lookup(const char *name) { return (void *)eglGetProcAddress(name); }

static void finish_line(void) {
    printf(" error=0x%x\n", glGetError());
    fflush(stdout);
}
static void absent(void) {
    printf(" absent\n");
    fflush(stdout);
}
static void returned_nothing(void) { finish_line(); }
static void returned_value(long long value) {
    printf(" ret=%lld", value);
    finish_line();
}
static void returned_pointer(int nonzero) {
    printf(" ret_nonzero=%d", nonzero);
    finish_line();
}
static void returned_string(const char *s) {
    printf(" ret=%s", s ? s : "(null)");
    finish_line();
}

static GLuint compiled(GLenum type, const char *source) {
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &source, NULL);
    glCompileShader(s);
    return s;
}

static void make_fixture(void) {
    make_egl_context();
    for (unsigned i = 0; i < sizeof fx_pointers / sizeof *fx_pointers; i++) fx_pointers[i] = fx_in;
    glCreateBuffers(1, &fx_buffer);
    glNamedBufferData(fx_buffer, 1024, NULL, GL_DYNAMIC_DRAW);
    glCreateTextures(GL_TEXTURE_2D, 1, &fx_texture);
    glTextureStorage2D(fx_texture, 1, GL_RGBA8, 4, 4);
    glCreateRenderbuffers(1, &fx_renderbuffer);
    glNamedRenderbufferStorage(fx_renderbuffer, GL_RGBA8, 4, 4);
    glCreateFramebuffers(1, &fx_framebuffer);
    glNamedFramebufferRenderbuffer(fx_framebuffer, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, fx_renderbuffer);
    fx_shader = compiled(GL_VERTEX_SHADER, "#version 450\nvoid main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }\n");
    GLuint fragment = compiled(GL_FRAGMENT_SHADER, "#version 450\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n");
    fx_program = glCreateProgram();
    glAttachShader(fx_program, fx_shader);
    glAttachShader(fx_program, fragment);
    glLinkProgram(fx_program);
    glDeleteShader(fragment);
    glUseProgram(fx_program);
    glCreateVertexArrays(1, &fx_vertex_array);
    glBindVertexArray(fx_vertex_array);
    glCreateQueries(GL_SAMPLES_PASSED, 1, &fx_query);
    glCreateSamplers(1, &fx_sampler);
    glCreateTransformFeedbacks(1, &fx_transform_feedback);
    glCreateProgramPipelines(1, &fx_program_pipeline);
    fx_sync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    glFinish();
    GLint linked = 0;
    glGetProgramiv(fx_program, GL_LINK_STATUS, &linked);
    if (!linked || glGetError() != GL_NO_ERROR) die("the fixture was not made");
}
