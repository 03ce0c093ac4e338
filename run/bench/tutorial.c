/* A tutorial-style single-threaded GL program whose frame is nothing but GL calls (issue 31's
 * shape), for comparing direct GL, glcmd-run, Mesa's glthread and NVIDIA's threaded
 * optimisations side by side (run/bench/tutorial.sh).
 *
 *   tutorial FRAME OBJECTS FRAMES [thread|moved]
 *
 * A GL 4.5 core context on an EGL pbuffer. Each frame clears, draws OBJECTS textured quads
 * (glDrawElements of 6 indices from a vertex array), calls glGetError once, and swaps. FRAME is
 * how the objects are drawn:
 *
 *   cached   per object glUseProgram, three glUniformMatrix4fv (model, view, projection),
 *            glUniform4fv, glUniform1i, glActiveTexture, glBindTexture, glBindVertexArray,
 *            glDrawElements: uniform locations looked up once after the link;
 *   lookups  the same with a glGetUniformLocation before every glUniform* (LearnOpenGL's shader
 *            class does this);
 *   lean     what does not change per object set once a frame: 4 calls per object;
 *   queries  lookups, plus glGetIntegerv(GL_VIEWPORT) and glGetError after every draw;
 *   imgui    cached, plus the 25 state queries Dear ImGui's OpenGL 3 backend makes every frame
 *            to save the state it changes (and the restores), once a frame;
 *
 * `thread` runs the frames on a second thread: the context is made (and made current once) on
 * the main thread and then current on the second one only, as glcmd-run's render thread had it
 * before its one driver thread, without glcmd (the driver's own cost of a context used from a
 * thread other than its maker's). `moved` runs everything, the EGL set-up included, on a second
 * thread while the main thread only waits for it: every EGL and GL call from one thread that is
 * not the main one, as glcmd-run's driver thread makes them (the driver's cost of that, if any).
 *
 * After 20 warm-up frames it times FRAMES frames, ends with glFinish, and prints the mean frame
 * time and a digest of the pixels and answers (equal across the ways of running one FRAME, so a
 * run that computes something else shows). With TUTORIAL_SPLIT=1 it also times each glGetError
 * call (a round trip through glcmd-run) and prints their mean and their share of the frame time
 * (`get_error_us=`, `get_error_share=`): what the program's thread waits for against what it
 * spends recording; two clock readings per glGetError, so not for the paired ratios. */
#define _POSIX_C_SOURCE 200809L
#define GL_GLEXT_PROTOTYPES 1
#define PROGRAM "tutorial"
#include "../tests/c/egl_pbuffer.h"
#include <GL/glcorearb.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "link.h"

enum frame { CACHED, LOOKUPS, LEAN, QUERIES, IMGUI };
static enum frame frame_kind;
static int objects, frames;
static GLuint program, vao, texture;
static GLint u_model, u_view, u_projection, u_color, u_texture;
static unsigned long long digest = 1469598103934665603ull;
/* TUTORIAL_SPLIT: glGetError timed while `measuring` (after the warm-up). */
static int split, measuring;
static double in_get_error;
static long get_errors;

static void mix(unsigned long long v) {
    digest = (digest ^ v) * 1099511628211ull;
}

static GLuint build_program(void) {
    const char *vs = "#version 450 core\nlayout(location=0) in vec2 p;\n"
                     "uniform mat4 model; uniform mat4 view; uniform mat4 projection; out vec2 uv;\n"
                     "void main() { uv = p * 0.5 + 0.5; gl_Position = projection * view * model * vec4(p, 0.0, 1.0); }\n";
    const char *fs = "#version 450 core\nin vec2 uv; uniform vec4 color; uniform sampler2D tex; out vec4 c;\n"
                     "void main() { c = color * texture(tex, uv); }\n";
    return link_program(vs, fs);
}

static void setup(void) {
    program = build_program();
    u_model = glGetUniformLocation(program, "model");
    u_view = glGetUniformLocation(program, "view");
    u_projection = glGetUniformLocation(program, "projection");
    u_color = glGetUniformLocation(program, "color");
    u_texture = glGetUniformLocation(program, "tex");
    const float quad[8] = {-1, -1, 1, -1, 1, 1, -1, 1};
    const GLuint indices[6] = {0, 1, 2, 0, 2, 3};
    GLuint buffers[2];
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(2, buffers);
    glBindBuffer(GL_ARRAY_BUFFER, buffers[0]);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buffers[1]);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof indices, indices, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glEnableVertexAttribArray(0);
    unsigned char texels[4 * 4 * 4];
    for (int i = 0; i < (int)sizeof texels; i++) texels[i] = (unsigned char)(i * 37 + 11);
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
}

/* The object's model matrix: a small quad on a grid that moves with the frame. */
static void model_of(int object, int f, float m[16]) {
    memset(m, 0, 16 * sizeof(float));
    m[0] = m[5] = 0.04f;
    m[10] = m[15] = 1.0f;
    m[12] = -0.95f + 0.08f * (float)(object % 24) + 0.001f * (float)(f % 10);
    m[13] = -0.95f + 0.08f * (float)((object / 24) % 24);
}

static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static GLenum get_error(void) {
    if (!split || !measuring) return glGetError();
    double start = seconds();
    GLenum e = glGetError();
    in_get_error += seconds() - start;
    get_errors++;
    return e;
}

static GLint where(GLint cached, const char *name) {
    return frame_kind == LOOKUPS || frame_kind == QUERIES ? glGetUniformLocation(program, name) : cached;
}

static void draw_object(int o, int f) {
    float model[16], color[4] = {(float)(o % 7) / 7.0f, (float)(o % 5) / 5.0f, 0.5f, 1.0f};
    model_of(o, f, model);
    if (frame_kind == LEAN) {
        glUniformMatrix4fv(u_model, 1, GL_FALSE, model);
        glUniform4fv(u_color, 1, color);
        glBindTexture(GL_TEXTURE_2D, texture);
        glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_INT, 0);
        return;
    }
    glUseProgram(program);
    glUniformMatrix4fv(where(u_model, "model"), 1, GL_FALSE, model);
    glUniformMatrix4fv(where(u_view, "view"), 1, GL_FALSE, identity);
    glUniformMatrix4fv(where(u_projection, "projection"), 1, GL_FALSE, identity);
    glUniform4fv(where(u_color, "color"), 1, color);
    glUniform1i(where(u_texture, "tex"), 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, texture);
    glBindVertexArray(vao);
    glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_INT, 0);
    if (frame_kind == QUERIES) {
        GLint viewport[4];
        glGetIntegerv(GL_VIEWPORT, viewport);
        mix((unsigned long long)viewport[2] + get_error());
    }
}

/* What Dear ImGui's OpenGL 3 backend saves before drawing its lists (and restores after). */
static void imgui_save_restore(void) {
    static const GLenum integers[] = {
        GL_ACTIVE_TEXTURE, GL_CURRENT_PROGRAM, GL_TEXTURE_BINDING_2D, GL_SAMPLER_BINDING,
        GL_ARRAY_BUFFER_BINDING, GL_VERTEX_ARRAY_BINDING, GL_BLEND_SRC_RGB, GL_BLEND_DST_RGB,
        GL_BLEND_SRC_ALPHA, GL_BLEND_DST_ALPHA, GL_BLEND_EQUATION_RGB, GL_BLEND_EQUATION_ALPHA};
    static const GLenum enables[] = {GL_BLEND, GL_CULL_FACE, GL_DEPTH_TEST, GL_STENCIL_TEST, GL_SCISSOR_TEST,
                                     GL_PRIMITIVE_RESTART};
    GLint saved[12], polygon_mode[2], viewport[4], scissor[4];
    GLboolean enabled[6];
    for (int i = 0; i < 12; i++) glGetIntegerv(integers[i], &saved[i]);
    glGetIntegerv(GL_POLYGON_MODE, polygon_mode);
    glGetIntegerv(GL_VIEWPORT, viewport);
    glGetIntegerv(GL_SCISSOR_BOX, scissor);
    for (int i = 0; i < 6; i++) enabled[i] = glIsEnabled(enables[i]);
    /* With these four: 12 + 3 + 6 + 4 = 25 queries. */
    GLint clip_origin = 0, element = 0, unpack = 0, pack = 0;
    glGetIntegerv(GL_CLIP_ORIGIN, &clip_origin);
    glGetIntegerv(GL_ELEMENT_ARRAY_BUFFER_BINDING, &element);
    glGetIntegerv(GL_UNPACK_ALIGNMENT, &unpack);
    glGetIntegerv(GL_PACK_ALIGNMENT, &pack);
    for (int i = 0; i < 12; i++) mix((unsigned long long)saved[i]);
    mix((unsigned long long)(polygon_mode[0] + viewport[2] + scissor[2] + clip_origin + element + unpack + pack));
    /* The restores. */
    glUseProgram((GLuint)saved[1]);
    glActiveTexture((GLenum)saved[0]);
    glBindTexture(GL_TEXTURE_2D, (GLuint)saved[2]);
    glBindSampler(0, (GLuint)saved[3]);
    glBindVertexArray((GLuint)saved[5]);
    glBindBuffer(GL_ARRAY_BUFFER, (GLuint)saved[4]);
    glBlendEquationSeparate((GLenum)saved[10], (GLenum)saved[11]);
    glBlendFuncSeparate((GLenum)saved[6], (GLenum)saved[7], (GLenum)saved[8], (GLenum)saved[9]);
    for (int i = 0; i < 6; i++) (enabled[i] ? glEnable : glDisable)(enables[i]);
    glPolygonMode(GL_FRONT_AND_BACK, (GLenum)polygon_mode[0]);
    glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
    glScissor(scissor[0], scissor[1], scissor[2], scissor[3]);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static double run_frames(EGLDisplay dpy, EGLSurface surface) {
    setup();
    double start = 0;
    for (int f = 0; f < frames + 20; f++) {
        if (f == 20) {
            glFinish();
            start = now();
            measuring = 1;
        }
        glClearColor(0.1f, 0.1f, 0.1f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        if (frame_kind == LEAN) {
            glUseProgram(program);
            glUniformMatrix4fv(u_view, 1, GL_FALSE, identity);
            glUniformMatrix4fv(u_projection, 1, GL_FALSE, identity);
            glUniform1i(u_texture, 0);
            glActiveTexture(GL_TEXTURE0);
            glBindVertexArray(vao);
        }
        for (int o = 0; o < objects; o++) draw_object(o, f);
        if (frame_kind == IMGUI) imgui_save_restore();
        mix(get_error());
        eglSwapBuffers(dpy, surface);
    }
    glFinish();
    double elapsed = now() - start;
    unsigned char pixels[16 * 16 * 4];
    glReadPixels(0, 0, 16, 16, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    for (int i = 0; i < (int)sizeof pixels; i++) mix(pixels[i]);
    return elapsed;
}

static EGLDisplay display;
static EGLSurface draw_surface;
static EGLContext ctx;
static double elapsed;

static void *second_thread(void *unused) {
    (void)unused;
    if (!eglMakeCurrent(display, draw_surface, draw_surface, ctx)) die("eglMakeCurrent on the second thread");
    elapsed = run_frames(display, draw_surface);
    return NULL;
}

/* `moved`: the EGL set-up and the frames, all on this thread. */
static void *whole_program(void *unused) {
    (void)unused;
    make_egl_context();
    elapsed = run_frames(eglGetCurrentDisplay(), eglGetCurrentSurface(EGL_DRAW));
    return NULL;
}

static void report(void) {
    printf("frame_ms=%.4f digest=%016llx", elapsed * 1000.0 / frames, digest);
    if (split && get_errors > 0)
        printf(" get_error_us=%.3f get_error_share=%.3f", in_get_error * 1e6 / get_errors, in_get_error / elapsed);
    printf("\n");
}

int main(int argc, char **argv) {
    if (argc < 4) die("usage: tutorial cached|lookups|lean|queries|imgui OBJECTS FRAMES [thread|moved]");
    const char *names[] = {"cached", "lookups", "lean", "queries", "imgui"};
    frame_kind = (enum frame)-1;
    for (int i = 0; i < 5; i++)
        if (strcmp(argv[1], names[i]) == 0) frame_kind = (enum frame)i;
    if ((int)frame_kind < 0) die("unknown frame (cached, lookups, lean, queries, imgui)");
    split = getenv("TUTORIAL_SPLIT") != NULL && strcmp(getenv("TUTORIAL_SPLIT"), "1") == 0;
    objects = atoi(argv[2]);
    frames = atoi(argv[3]);
    if (objects <= 0 || frames <= 0) die("OBJECTS and FRAMES must be positive");
    if (argc > 4 && strcmp(argv[4], "moved") == 0) {
        pthread_t t;
        if (pthread_create(&t, NULL, whole_program, NULL) != 0 || pthread_join(t, NULL) != 0) die("thread");
        report();
        return 0;
    }
    make_egl_context();
    display = eglGetCurrentDisplay();
    draw_surface = eglGetCurrentSurface(EGL_DRAW);
    ctx = eglGetCurrentContext();
    if (argc > 4 && strcmp(argv[4], "thread") == 0) {
        if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT)) die("release");
        pthread_t t;
        if (pthread_create(&t, NULL, second_thread, NULL) != 0 || pthread_join(t, NULL) != 0) die("thread");
    } else {
        elapsed = run_frames(display, draw_surface);
    }
    report();
    return 0;
}
