/* A GL program that leaves work queued when it ends, and an exit handler that looks at what is
 * still running: tests/unchanged.rs runs it directly and through glcmd-run and compares.
 *
 * It makes a 4.5 core context (EGL pbuffer on Mesa's surfaceless platform, or the device
 * platform), registers an atexit handler *after* the context is current (as a library that
 * initialises lazily does: LLVM's function-local statics, whose destructors then run before
 * any handler registered earlier), records clears and a read of nothing, and ends with
 * exit(0), or by returning from main with the argument `return`. The handler prints how many
 * of the process's threads are glcmd render threads: through glcmd-run, every device must have
 * finished (its queue replayed, its thread joined) before any exit handler runs, so that no
 * replay can reach a library whose statics are being destroyed. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif

static void die(const char *what) {
    fprintf(stderr, "exit: %s\n", what);
    exit(1);
}

/* The number of this process's threads named glcmd-render. */
static int render_threads(void) {
    DIR *tasks = opendir("/proc/self/task");
    if (!tasks) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(tasks))) {
        if (e->d_name[0] == '.') continue;
        char path[300], comm[32] = {0};
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        if (fgets(comm, sizeof comm, f) && strncmp(comm, "glcmd-render", 12) == 0) n++;
        fclose(f);
    }
    closedir(tasks);
    return n;
}

static void at_exit(void) {
    printf("render_threads_at_exit=%d\n", render_threads());
    fflush(stdout);
}

static void make_context(void) {
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!get_display) die("no eglGetPlatformDisplayEXT");
    EGLDisplay dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) {
        PFNEGLQUERYDEVICESEXTPROC query_devices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
        EGLDeviceEXT devices[8];
        EGLint n = 0;
        if (!query_devices || !query_devices(8, devices, &n) || n == 0) die("no EGL display");
        dpy = get_display(EGL_PLATFORM_DEVICE_EXT, devices[0], NULL);
        if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) die("eglInitialize");
    }
    const EGLint config_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                     EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
    EGLConfig config;
    EGLint count = 0;
    if (!eglChooseConfig(dpy, config_attribs, &config, 1, &count) || count == 0) die("eglChooseConfig");
    const EGLint surface_attribs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
    EGLSurface surface = eglCreatePbufferSurface(dpy, config, surface_attribs);
    if (surface == EGL_NO_SURFACE) die("eglCreatePbufferSurface");
    if (!eglBindAPI(EGL_OPENGL_API)) die("eglBindAPI");
    const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                      EGL_NONE};
    EGLContext context = eglCreateContext(dpy, config, EGL_NO_CONTEXT, context_attribs);
    if (context == EGL_NO_CONTEXT) die("eglCreateContext");
    if (!eglMakeCurrent(dpy, surface, surface, context)) die("eglMakeCurrent");
}

int main(int argc, char **argv) {
    make_context();
    if (atexit(at_exit) != 0) die("atexit");
    for (int i = 0; i < 64; i++) {
        glClearColor(i / 64.0f, 0.5f, 0.25f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
    }
    printf("recorded\n");
    fflush(stdout);
    if (argc > 1 && strcmp(argv[1], "return") == 0) return 0;
    exit(0);
}
