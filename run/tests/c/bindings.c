/* State that decides what a pointer means, and what a delete does to the context, directly and
 * through glcmd-run: tests/unchanged.rs runs it both ways and compares every line.
 *
 *   bindings deletes   every binding a glDeleteBuffers (and the other deletes) clears, queried
 *                      after the delete and the program's next calls, with no query between
 *                      them (issue 34, item 5: a delete has its effects at its place);
 *   bindings pixels    pixel-buffer bindings the GL refused or dropped (a name never generated,
 *                      a deleted buffer, a refused rebind that keeps the old binding, a context
 *                      switch), each followed by an upload from client memory or a buffer offset
 *                      and a read into client memory or a pack buffer (issue 30, item 1);
 *   bindings switch    the pixel-buffer bindings of two contexts kept across switches between
 *                      them and across a move of one context to another thread.
 *
 * Each line is one answer: a binding, an error, or the bytes a transfer moved. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#include <pthread.h>
#include <string.h>

#define PROGRAM "bindings"
#include "egl_pbuffer.h"

static void error(const char *what) { printf("%s error=0x%x\n", what, glGetError()); }

static void integer(const char *what, GLenum pname) {
    GLint v = -1;
    glGetIntegerv(pname, &v);
    printf("%s=%d\n", what, v);
}

static void indexed(const char *what, GLenum pname, GLuint i) {
    GLint v = -1;
    glGetIntegeri_v(pname, i, &v);
    printf("%s[%u]=%d\n", what, i, v);
}

/* Every buffer binding of the context (generic, indexed 0..3, the current vertex array's). */
static void buffer_bindings(const char *when) {
    printf("-- %s\n", when);
    static const struct { const char *name; GLenum pname; } generic[] = {
        {"array", GL_ARRAY_BUFFER_BINDING},
        {"element", GL_ELEMENT_ARRAY_BUFFER_BINDING},
        {"copy_read", GL_COPY_READ_BUFFER_BINDING},
        {"copy_write", GL_COPY_WRITE_BUFFER_BINDING},
        {"pack", GL_PIXEL_PACK_BUFFER_BINDING},
        {"unpack", GL_PIXEL_UNPACK_BUFFER_BINDING},
        {"draw_indirect", GL_DRAW_INDIRECT_BUFFER_BINDING},
        {"dispatch_indirect", GL_DISPATCH_INDIRECT_BUFFER_BINDING},
        {"query", GL_QUERY_BUFFER_BINDING},
        {"texture", GL_TEXTURE_BUFFER_BINDING},
        {"uniform", GL_UNIFORM_BUFFER_BINDING},
        {"storage", GL_SHADER_STORAGE_BUFFER_BINDING},
        {"atomic", GL_ATOMIC_COUNTER_BUFFER_BINDING},
        {"xfb", GL_TRANSFORM_FEEDBACK_BUFFER_BINDING},
    };
    for (size_t i = 0; i < sizeof generic / sizeof generic[0]; i++) integer(generic[i].name, generic[i].pname);
    for (GLuint i = 0; i < 4; i++) {
        indexed("uniform", GL_UNIFORM_BUFFER_BINDING, i);
        indexed("storage", GL_SHADER_STORAGE_BUFFER_BINDING, i);
        indexed("atomic", GL_ATOMIC_COUNTER_BUFFER_BINDING, i);
        indexed("xfb", GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, i);
        indexed("vertex_buffer", GL_VERTEX_BINDING_BUFFER, i);
    }
    error(when);
}

/* Binds `b` everywhere a buffer can be bound. */
static void bind_everywhere(GLuint b) {
    static const GLenum targets[] = {GL_ARRAY_BUFFER,         GL_ELEMENT_ARRAY_BUFFER,     GL_COPY_READ_BUFFER,
                                     GL_COPY_WRITE_BUFFER,    GL_PIXEL_PACK_BUFFER,        GL_PIXEL_UNPACK_BUFFER,
                                     GL_DRAW_INDIRECT_BUFFER, GL_DISPATCH_INDIRECT_BUFFER, GL_QUERY_BUFFER,
                                     GL_TEXTURE_BUFFER};
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) glBindBuffer(targets[i], b);
    glBindBufferBase(GL_UNIFORM_BUFFER, 1, b);
    glBindBufferRange(GL_UNIFORM_BUFFER, 3, b, 0, 16);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, b);
    glBindBufferBase(GL_ATOMIC_COUNTER_BUFFER, 1, b);
    glBindBufferBase(GL_ATOMIC_COUNTER_BUFFER, 3, b);
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, b);
    glBindVertexBuffer(1, b, 4, 16);
}

static void deletes(void) {
    GLuint vao, a, b;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &a);
    glGenBuffers(1, &b);
    glBindBuffer(GL_ARRAY_BUFFER, b);
    glBufferData(GL_ARRAY_BUFFER, 64, NULL, GL_STATIC_DRAW);
    bind_everywhere(a);
    glBufferData(GL_ARRAY_BUFFER, 64, NULL, GL_STATIC_DRAW);
    buffer_bindings("bound");

    /* The piglit instance (arb_shader_atomic_counters@semantics): delete, bind another buffer
     * to an indexed target (which sets the generic one too), allocate through the generic one.
     * The delete unbinds `a` from every indexed binding as glBindBufferBase(..., 0) does, which
     * clears the generic binding too: it must happen before the program's next bind. */
    glDeleteBuffers(1, &a);
    glBindBufferBase(GL_ATOMIC_COUNTER_BUFFER, 0, b);
    glBufferData(GL_ATOMIC_COUNTER_BUFFER, 4, NULL, GL_STATIC_DRAW);
    glBindBufferBase(GL_UNIFORM_BUFFER, 0, b);
    glBindBuffer(GL_COPY_READ_BUFFER, b);
    buffer_bindings("deleted then rebound");

    /* A deleted name is no name: binding it is refused at its place, whatever follows. */
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, b);
    glDeleteBuffers(1, &b);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, b);
    glBindBuffer(GL_ARRAY_BUFFER, b);
    buffer_bindings("deleted name bound again");

    /* Textures, vertex arrays, framebuffers, renderbuffers, samplers, programs: the binding
     * after a delete and a bind of the deleted name made before any query. */
    GLuint t, t2, s, fb, rb;
    glGenTextures(1, &t);
    glGenTextures(1, &t2);
    glActiveTexture(GL_TEXTURE2);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4);
    glBindImageTexture(1, t, 0, GL_FALSE, 0, GL_READ_WRITE, GL_RGBA8);
    glGenSamplers(1, &s);
    glBindSampler(2, s);
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, 0);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, 4, 4);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb);
    glDeleteTextures(1, &t);
    glDeleteSamplers(1, &s);
    glDeleteRenderbuffers(1, &rb);
    glBindTexture(GL_TEXTURE_2D, t);
    glBindSampler(2, s);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    error("rebind deleted texture, sampler, renderbuffer");
    integer("texture_2d", GL_TEXTURE_BINDING_2D);
    integer("sampler", GL_SAMPLER_BINDING);
    integer("renderbuffer", GL_RENDERBUFFER_BINDING);
    indexed("image", GL_IMAGE_BINDING_NAME, 1);
    GLint attached = -1;
    glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME,
                                          &attached);
    printf("color_attachment=%d\n", attached);
    glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME,
                                          &attached);
    printf("depth_attachment=%d\n", attached);
    glBindTexture(GL_TEXTURE_2D, t2);
    glDeleteFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glDeleteVertexArrays(1, &vao);
    glBindVertexArray(vao);
    error("rebind deleted framebuffer, vertex array");
    integer("framebuffer", GL_DRAW_FRAMEBUFFER_BINDING);
    integer("vertex_array", GL_VERTEX_ARRAY_BINDING);
    integer("texture_2d_other", GL_TEXTURE_BINDING_2D);
    glActiveTexture(GL_TEXTURE0);
}

/* A 4x4 RGBA8 texture's bytes, read into client memory, hashed to one line. */
static void texture_bytes(const char *what, GLuint tex) {
    unsigned char out[64];
    memset(out, 0xEE, sizeof out);
    glGetTextureImage(tex, 0, GL_RGBA, GL_UNSIGNED_BYTE, sizeof out, out);
    unsigned sum = 0;
    for (int i = 0; i < 64; i++) sum = sum * 31 + out[i];
    printf("%s texture=%u,%u,%u,%u..%u hash=%u\n", what, out[0], out[1], out[2], out[3], out[63], sum);
}

/* An upload of 4x4 pixels from `pixels` (client memory or an offset), then its error and the
 * texture's content. */
static void upload(const char *what, GLuint tex, const void *pixels) {
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    error(what);
    integer("unpack", GL_PIXEL_UNPACK_BUFFER_BINDING);
    texture_bytes(what, tex);
}

/* A read of the 4x4 framebuffer into client memory. */
static void read_client(const char *what) {
    unsigned char out[64];
    memset(out, 0xEE, sizeof out);
    glReadPixels(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, out);
    error(what);
    integer("pack", GL_PIXEL_PACK_BUFFER_BINDING);
    printf("%s read=%u,%u,%u,%u..%u\n", what, out[0], out[1], out[2], out[3], out[63]);
}

static void pixels(void) {
    unsigned char src[64];
    for (int i = 0; i < 64; i++) src[i] = (unsigned char)(i * 3 + 1);
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4);
    GLuint fb;
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    glClearColor(0.2f, 0.4f, 0.6f, 0.8f);

    /* A name never generated: the bind is refused, the pointer stays client memory. */
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 4242);
    upload("unpack never generated", tex, src);
    glClear(GL_COLOR_BUFFER_BIT);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 4243);
    read_client("pack never generated");

    /* The bound unpack buffer deleted: the GL unbinds it. */
    GLuint ub, pb;
    glGenBuffers(1, &ub);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, ub);
    unsigned char other[64];
    for (int i = 0; i < 64; i++) other[i] = (unsigned char)(200 - i);
    glBufferData(GL_PIXEL_UNPACK_BUFFER, 64, other, GL_STATIC_DRAW);
    upload("unpack from buffer", tex, (const void *)0);
    glDeleteBuffers(1, &ub);
    upload("unpack deleted", tex, src);

    /* A bound pack buffer deleted. */
    glGenBuffers(1, &pb);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, pb);
    glBufferData(GL_PIXEL_PACK_BUFFER, 64, NULL, GL_STREAM_READ);
    glClearColor(0.9f, 0.1f, 0.5f, 0.3f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDeleteBuffers(1, &pb);
    read_client("pack deleted");

    /* A refused bind keeps the binding there was: the pointer stays an offset. */
    GLuint keep;
    glGenBuffers(1, &keep);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, keep);
    glBufferData(GL_PIXEL_UNPACK_BUFFER, 128, NULL, GL_STATIC_DRAW);
    glBufferSubData(GL_PIXEL_UNPACK_BUFFER, 64, 64, src);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 4242);
    upload("refused rebind keeps the buffer", tex, (const void *)64);
    /* A deleted name bound again: refused too, the buffer stays. */
    GLuint gone;
    glGenBuffers(1, &gone);
    glDeleteBuffers(1, &gone);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, gone);
    upload("deleted name keeps the buffer", tex, (const void *)0);
    /* Another buffer deleted (not the bound one): the binding stays. */
    GLuint spare;
    glGenBuffers(1, &spare);
    glDeleteBuffers(1, &spare);
    upload("other delete keeps the buffer", tex, (const void *)64);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    upload("unbound", tex, other);

    /* Refused pixel-store values change nothing; accepted ones size the next upload. */
    glPixelStorei(GL_UNPACK_ALIGNMENT, 3);
    error("alignment 3");
    glPixelStorei(GL_UNPACK_ROW_LENGTH, -1);
    error("row length -1");
    integer("unpack_alignment", GL_UNPACK_ALIGNMENT);
    integer("unpack_row_length", GL_UNPACK_ROW_LENGTH);
    upload("after refused stores", tex, src);
}

/* A texture of its own for a context, 4x4 RGBA8. */
static GLuint texture(void) {
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4);
    return tex;
}

struct other_thread {
    EGLDisplay dpy;
    EGLSurface surface;
    EGLContext context;
    GLuint tex;
};

/* On another thread: context A, still with its unpack buffer bound: the pointer is an offset. */
static void *on_other_thread(void *arg) {
    struct other_thread *o = arg;
    if (!eglMakeCurrent(o->dpy, o->surface, o->surface, o->context)) die("eglMakeCurrent (thread)");
    upload("other thread: a's buffer", o->tex, (const void *)0);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    eglMakeCurrent(o->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    return NULL;
}

static void context_switches(void) {
    EGLDisplay dpy = eglGetCurrentDisplay();
    EGLSurface surface = eglGetCurrentSurface(EGL_DRAW);
    EGLContext a = eglGetCurrentContext();
    EGLint id = 0, count = 0;
    eglQueryContext(dpy, a, EGL_CONFIG_ID, &id);
    const EGLint by_id[] = {EGL_CONFIG_ID, id, EGL_NONE};
    EGLConfig config;
    if (!eglChooseConfig(dpy, by_id, &config, 1, &count) || count == 0) die("eglChooseConfig (by id)");
    const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                              EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext b = eglCreateContext(dpy, config, EGL_NO_CONTEXT, attribs);
    if (b == EGL_NO_CONTEXT) die("eglCreateContext (b)");
    /* A surface of its own (glcmd-run's render thread holds a's current). */
    const EGLint size[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
    EGLSurface surface_b = eglCreatePbufferSurface(dpy, config, size);
    if (surface_b == EGL_NO_SURFACE) die("eglCreatePbufferSurface (b)");

    unsigned char src[64], other[64];
    for (int i = 0; i < 64; i++) src[i] = (unsigned char)(i * 3 + 1), other[i] = (unsigned char)(200 - i);
    GLuint tex_a = texture(), ub;
    glGenBuffers(1, &ub);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, ub);
    glBufferData(GL_PIXEL_UNPACK_BUFFER, 64, other, GL_STATIC_DRAW);
    upload("a: buffer", tex_a, (const void *)0);

    /* Context b has nothing bound: its pointer is client memory. */
    if (!eglMakeCurrent(dpy, surface_b, surface_b, b)) die("eglMakeCurrent (b)");
    GLuint tex_b = texture();
    upload("b: client memory", tex_b, src);
    GLuint pb;
    glGenBuffers(1, &pb);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, pb);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 4242);
    upload("b: refused bind", tex_b, src);

    /* Back on a: its buffer is still bound; b's pack buffer is b's. */
    if (!eglMakeCurrent(dpy, surface, surface, a)) die("eglMakeCurrent (a again)");
    upload("a again: buffer", tex_a, (const void *)0);
    integer("a: pack", GL_PIXEL_PACK_BUFFER_BINDING);
    glClearColor(0.2f, 0.4f, 0.6f, 0.8f);
    GLuint fb;
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex_a, 0);
    glClear(GL_COLOR_BUFFER_BIT);
    read_client("a: read");

    /* Context a moved to another thread, and back. */
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    struct other_thread o = {dpy, surface, a, tex_a};
    pthread_t thread;
    if (pthread_create(&thread, NULL, on_other_thread, &o) != 0) die("pthread_create");
    pthread_join(thread, NULL);
    if (!eglMakeCurrent(dpy, surface, surface, a)) die("eglMakeCurrent (a after the thread)");
    upload("a after the thread: client memory", tex_a, src);
    eglDestroyContext(dpy, b);
}

int main(int argc, char **argv) {
    make_egl_context();
    if (argc > 1 && strcmp(argv[1], "deletes") == 0) {
        deletes();
    } else if (argc > 1 && strcmp(argv[1], "pixels") == 0) {
        pixels();
    } else if (argc > 1 && strcmp(argv[1], "switch") == 0) {
        context_switches();
    } else {
        die("usage: bindings deletes|pixels|switch");
    }
    error("end");
    printf("done=1\n");
    return 0;
}
