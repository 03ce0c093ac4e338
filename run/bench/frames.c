/* An unmodified single-threaded GL program with CPU work between its GL calls, for comparing
 * direct GL, glcmd-run, Mesa's glthread (mesa_glthread=true) and NVIDIA's threaded
 * optimisations (__GL_THREADED_OPTIMIZATIONS=1) side by side (run/bench/frames.sh).
 *
 *   frames OBJECTS WORK FRAMES QUERIES
 *
 * Each frame clears a 256x256 pbuffer, then for each of OBJECTS objects does WORK iterations of
 * deterministic CPU work (a stand-in for culling and matrix maths), sets a uniform and draws a
 * small triangle; QUERIES times per frame it asks glGetIntegerv(GL_VIEWPORT) (a query that must
 * see the frame's calls, so through glcmd it hands them to the render thread and waits); then
 * it swaps. After a warm-up of 10 frames it times FRAMES frames, ends with glFinish, and prints
 * the mean frame time and the checksum of the CPU work (so the compiler keeps it). */
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif

static void die(const char *what) {
    fprintf(stderr, "frames: %s\n", what);
    exit(1);
}

#include "link.h"

static EGLDisplay dpy;
static EGLSurface surface;

static void context(void) {
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    PFNEGLQUERYDEVICESEXTPROC query_devices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    if (!get_display || !query_devices) die("no EGL device extensions");
    EGLDeviceEXT devices[8];
    EGLint n = 0;
    if (!query_devices(8, devices, &n) || n == 0) die("no EGL device");
    dpy = get_display(EGL_PLATFORM_DEVICE_EXT, devices[0], NULL);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) {
        dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
        if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) die("eglInitialize");
    }
    const EGLint config_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                     EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
    EGLConfig config;
    EGLint count = 0;
    if (!eglChooseConfig(dpy, config_attribs, &config, 1, &count) || count == 0) die("eglChooseConfig");
    const EGLint surface_attribs[] = {EGL_WIDTH, 256, EGL_HEIGHT, 256, EGL_NONE};
    surface = eglCreatePbufferSurface(dpy, config, surface_attribs);
    if (surface == EGL_NO_SURFACE) die("eglCreatePbufferSurface");
    eglBindAPI(EGL_OPENGL_API);
    const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, context_attribs);
    if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, surface, surface, ctx)) die("context");
}

static GLuint program(void) {
    const char *vs = "#version 450 core\nlayout(location=0) in vec2 p; uniform vec4 t;\n"
                     "void main() { gl_Position = vec4(p * 0.02 + t.xy, 0.0, 1.0); }\n";
    const char *fs = "#version 450 core\nuniform vec4 t; out vec4 c; void main() { c = vec4(t.zw, 0.5, 1.0); }\n";
    return link_program(vs, fs);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc != 5) die("usage: frames OBJECTS WORK FRAMES QUERIES");
    int objects = atoi(argv[1]), work = atoi(argv[2]), frames = atoi(argv[3]), queries = atoi(argv[4]);
    context();
    GLuint p = program();
    GLint t = glGetUniformLocation(p, "t");
    GLuint vao, vbo;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    const float tri[6] = {-1, -1, 1, -1, 0, 1};
    glBufferData(GL_ARRAY_BUFFER, sizeof tri, tri, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glEnableVertexAttribArray(0);
    glUseProgram(p);
    unsigned long long x = 88172645463325252ull, checksum = 0;
    double start = 0;
    for (int f = 0; f < frames + 10; f++) {
        if (f == 10) {
            glFinish();
            start = now();
        }
        glClearColor(0.1f, 0.1f, 0.1f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        for (int o = 0; o < objects; o++) {
            for (int w = 0; w < work; w++) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
            }
            checksum += x;
            float u = (float)(x & 0xffff) / 65536.0f, v = (float)((x >> 16) & 0xffff) / 65536.0f;
            glUniform4f(t, u * 2 - 1, v * 2 - 1, u, v);
            glDrawArrays(GL_TRIANGLES, 0, 3);
            if (queries > 0 && o % (objects / queries > 0 ? objects / queries : 1) == 0) {
                GLint vp[4];
                glGetIntegerv(GL_VIEWPORT, vp);
                checksum += (unsigned)vp[2];
            }
        }
        eglSwapBuffers(dpy, surface);
    }
    glFinish();
    double elapsed = now() - start;
    printf("frame_ms=%.4f checksum=%llu\n", elapsed * 1000.0 / frames, checksum);
    return 0;
}
