/* Several contexts, surfaces and threads, in plain single-threaded-per-context style: two core
 * contexts on two pbuffers of Mesa's surfaceless platform (or the device platform), switched
 * between on one thread, a context moved to another thread and back, a context asked for on a
 * second thread while current on the first (the APIs refuse: EGL_BAD_ACCESS), a context made
 * current on another surface, and a surface destroyed. Prints what it sees; tests/unchanged.rs
 * compares the output directly and through glcmd-run. */
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif

static EGLDisplay dpy;
static EGLConfig config;

static void die(const char *what) {
    fprintf(stderr, "contexts: %s\n", what);
    exit(1);
}

static void display(void) {
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!get_display) die("no eglGetPlatformDisplayEXT");
    dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) {
        PFNEGLQUERYDEVICESEXTPROC query = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
        EGLDeviceEXT devices[8];
        EGLint n = 0;
        if (!query || !query(8, devices, &n) || n == 0) die("no EGL display");
        dpy = get_display(EGL_PLATFORM_DEVICE_EXT, devices[0], NULL);
        if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) die("eglInitialize");
    }
    const EGLint attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_RED_SIZE, 8,
                              EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE};
    EGLint count = 0;
    if (!eglChooseConfig(dpy, attribs, &config, 1, &count) || count == 0) die("eglChooseConfig");
    eglBindAPI(EGL_OPENGL_API);
}

static EGLSurface pbuffer(int w, int h) {
    const EGLint attribs[] = {EGL_WIDTH, w, EGL_HEIGHT, h, EGL_NONE};
    EGLSurface s = eglCreatePbufferSurface(dpy, config, attribs);
    if (s == EGL_NO_SURFACE) die("eglCreatePbufferSurface");
    return s;
}

static EGLContext context(void) {
    const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                              EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext c = eglCreateContext(dpy, config, EGL_NO_CONTEXT, attribs);
    if (c == EGL_NO_CONTEXT) die("eglCreateContext");
    return c;
}

static void clear_and_read(const char *what, float r, float g, float b) {
    glClearColor(r, g, b, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    unsigned char px[4] = {1, 2, 3, 4};
    glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    GLint vp[4] = {0};
    glGetIntegerv(GL_VIEWPORT, vp);
    printf("%s: pixel %d,%d,%d,%d viewport %dx%d error %#x\n", what, px[0], px[1], px[2], px[3], vp[2], vp[3],
           glGetError());
}

static EGLContext shared_ctx;
static EGLSurface shared_surface;
static GLuint made_texture;

static void *other_thread(void *arg) {
    (void)arg;
    EGLBoolean ok = eglMakeCurrent(dpy, shared_surface, shared_surface, shared_ctx);
    printf("other thread make current: %d, current context matches: %d\n", ok, eglGetCurrentContext() == shared_ctx);
    if (ok) {
        unsigned char px[4] = {0};
        glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
        printf("other thread sees pixel %d,%d,%d,%d\n", px[0], px[1], px[2], px[3]);
        glGenTextures(1, &made_texture);
        glBindTexture(GL_TEXTURE_2D, made_texture);
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    }
    return NULL;
}

static void *refused_thread(void *arg) {
    (void)arg;
    EGLBoolean ok = eglMakeCurrent(dpy, shared_surface, shared_surface, shared_ctx);
    printf("second thread while current elsewhere: %d\n", ok);
    return NULL;
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    display();
    EGLSurface a = pbuffer(32, 32), b = pbuffer(16, 16), c = pbuffer(8, 8);
    EGLContext one = context(), two = context();

    if (!eglMakeCurrent(dpy, a, a, one)) die("make current one");
    clear_and_read("one on a", 1, 0, 0);
    if (!eglMakeCurrent(dpy, b, b, two)) die("make current two");
    clear_and_read("two on b", 0, 1, 0);
    if (!eglMakeCurrent(dpy, a, a, one)) die("make current one again");
    unsigned char px[4] = {0};
    glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    printf("one on a again: pixel %d,%d,%d,%d\n", px[0], px[1], px[2], px[3]);

    /* One is current here: another thread may not make it current too. */
    shared_ctx = one;
    shared_surface = a;
    pthread_t t;
    pthread_create(&t, NULL, refused_thread, NULL);
    pthread_join(t, NULL);

    /* Two moves to another thread and back. */
    shared_ctx = two;
    shared_surface = b;
    pthread_create(&t, NULL, other_thread, NULL);
    pthread_join(t, NULL);
    if (!eglMakeCurrent(dpy, b, b, two)) die("make current two after the thread");
    printf("texture made on the other thread: %d\n", glIsTexture(made_texture));

    /* One on another surface (the viewport stays the GL's: the first surface's size). */
    if (!eglMakeCurrent(dpy, c, c, one)) die("make current one on c");
    clear_and_read("one on c", 0, 0, 1);

    /* The surface one is current on goes away once released. */
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    printf("destroy c: %d\n", eglDestroySurface(dpy, c));
    if (!eglMakeCurrent(dpy, a, a, one)) die("make current one on a at the end");
    clear_and_read("one on a at the end", 1, 1, 0);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    printf("destroy contexts: %d %d\n", eglDestroyContext(dpy, one), eglDestroyContext(dpy, two));
    printf("done\n");
    return 0;
}
