/* Every EGL function glcmd-run interposes, called as a program calls it, with the answer and
 * eglGetError after each: tests/unchanged.rs runs it directly and through glcmd-run and
 * compares the output. Before each call whose own error is checked, an earlier call fails on
 * purpose (eglQuerySurface of no attribute: EGL_BAD_ATTRIBUTE), so that a call glcmd answers
 * itself must also leave EGL_SUCCESS behind, as the real one does.
 *
 * Covered: eglMakeCurrent (first use, again, refused on a second thread while current on the
 * first, with mismatched arguments, of a destroyed context), eglGetCurrentContext /
 * Surface / Display, eglSwapBuffers, eglSwapBuffersWithDamageKHR (where the driver has it),
 * eglSwapInterval, eglCreateContext (with a share context),
 * eglDestroyContext (of a context current on the calling thread, of one current on another
 * thread, twice), eglReleaseThread, eglDestroySurface. A context destroyed while current stays
 * alive until released (EGL 1.5): clears, reads and glGetString work until then. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#include <pthread.h>
#include <string.h>

#define PROGRAM "egl_entry"
#include "egl_pbuffer.h"

static EGLDisplay dpy;
static EGLSurface a;
static EGLConfig config;
static EGLContext one;

static void fail_on_purpose(void) {
    EGLint v;
    eglQuerySurface(dpy, a, 0x7FFF, &v);
}

static void said(const char *what, long value) {
    EGLint error = eglGetError();
    printf("%s: %ld error %#x\n", what, value, error);
}

static EGLContext new_context(EGLContext share) {
    const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                              EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    return eglCreateContext(dpy, config, share, attribs);
}

static void draw(const char *what, float r, float g, float b) {
    glClearColor(r, g, b, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    unsigned char px[4] = {1, 2, 3, 4};
    glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    const GLubyte *version = glGetString(GL_VERSION);
    printf("%s: pixel %d,%d,%d,%d version %s gl error %#x\n", what, px[0], px[1], px[2], px[3],
           version ? "yes" : "NULL", glGetError());
}

static void *refused(void *arg) {
    (void)arg;
    EGLBoolean ok = eglMakeCurrent(dpy, a, a, one);
    said("second thread: make current of a context current on the first", ok);
    said("second thread: eglGetError again", 0);
    said("second thread: current context is none", eglGetCurrentContext() == EGL_NO_CONTEXT);
    return NULL;
}

static EGLContext two;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int stage;

static void wait_stage(int s) {
    pthread_mutex_lock(&lock);
    while (stage < s) pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
}

static void set_stage(int s) {
    pthread_mutex_lock(&lock);
    stage = s;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
}

static void *holder(void *arg) {
    EGLSurface s = arg;
    said("holder: make current of two", eglMakeCurrent(dpy, s, s, two));
    draw("holder: before two is destroyed", 1, 0, 0);
    set_stage(1);
    wait_stage(2);
    said("holder: current context is still two", eglGetCurrentContext() == two);
    draw("holder: two destroyed elsewhere, still current here", 0, 1, 0);
    said("holder: release", eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
    return NULL;
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    make_egl_context();
    dpy = eglGetCurrentDisplay();
    a = eglGetCurrentSurface(EGL_DRAW);
    one = eglGetCurrentContext();
    EGLint n = 0;
    EGLint config_id = 0;
    eglQueryContext(dpy, one, EGL_CONFIG_ID, &config_id);
    const EGLint by_id[] = {EGL_CONFIG_ID, config_id, EGL_NONE};
    if (!eglChooseConfig(dpy, by_id, &config, 1, &n) || n != 1) die("eglChooseConfig by id");
    said("make current", 1);
    draw("one", 0, 0, 1);

    fail_on_purpose();
    said("current context", eglGetCurrentContext() == one);
    fail_on_purpose();
    said("current draw surface", eglGetCurrentSurface(EGL_DRAW) == a);
    fail_on_purpose();
    said("current read surface", eglGetCurrentSurface(EGL_READ) == a);
    fail_on_purpose();
    said("current display", eglGetCurrentDisplay() == dpy);
    fail_on_purpose();
    said("make current again", eglMakeCurrent(dpy, a, a, one));
    fail_on_purpose();
    said("swap", eglSwapBuffers(dpy, a));
    fail_on_purpose();
    said("swap interval", eglSwapInterval(dpy, 0));
    PFNEGLSWAPBUFFERSWITHDAMAGEKHRPROC damage =
        (PFNEGLSWAPBUFFERSWITHDAMAGEKHRPROC)eglGetProcAddress("eglSwapBuffersWithDamageKHR");
    if (damage) {
        EGLint rect[4] = {0, 0, 4, 4};
        fail_on_purpose();
        said("swap with damage", damage(dpy, a, rect, 1));
    }

    pthread_t t;
    pthread_create(&t, NULL, refused, NULL);
    pthread_join(t, NULL);
    draw("one after the refusal", 1, 1, 0);

    said("make current with a surface and no context", eglMakeCurrent(dpy, a, a, EGL_NO_CONTEXT));
    said("current context is still one", eglGetCurrentContext() == one);
    draw("one after the refused release", 0, 1, 1);

    /* The share context is one never made current: sharing with an adopted context hands that
     * one back to the driver (tests/share_groups.rs), and `one` is to stay glcmd's here. */
    EGLContext lone = new_context(EGL_NO_CONTEXT);
    EGLContext shared = new_context(lone);
    said("create with a share context", shared != EGL_NO_CONTEXT);
    said("destroy it", eglDestroyContext(dpy, shared));
    eglDestroyContext(dpy, lone);

    /* One, destroyed while current here, stays until released. */
    glClearColor(1, 0, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT); /* pending when the destroy comes */
    fail_on_purpose();
    said("destroy one while current", eglDestroyContext(dpy, one));
    said("current context is still one", eglGetCurrentContext() == one);
    unsigned char px[4] = {1, 2, 3, 4};
    glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    printf("the clear before the destroy: %d,%d,%d,%d\n", px[0], px[1], px[2], px[3]);
    draw("one, destroyed but current", 0.5f, 0.5f, 0);
    said("swap", eglSwapBuffers(dpy, a));
    said("release", eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
    said("current context is none", eglGetCurrentContext() == EGL_NO_CONTEXT);
    said("make current of the destroyed one", eglMakeCurrent(dpy, a, a, one));
    said("current context is none", eglGetCurrentContext() == EGL_NO_CONTEXT);
    said("destroy it again", eglDestroyContext(dpy, one));

    /* A context never made current, destroyed, then asked for. */
    EGLContext unused = new_context(EGL_NO_CONTEXT);
    said("destroy a context never current", eglDestroyContext(dpy, unused));
    said("make current of it", eglMakeCurrent(dpy, a, a, unused));

    /* Two, current on another thread, destroyed here. */
    const EGLint size[] = {EGL_WIDTH, 8, EGL_HEIGHT, 8, EGL_NONE};
    EGLSurface b = eglCreatePbufferSurface(dpy, config, size);
    two = new_context(EGL_NO_CONTEXT);
    pthread_create(&t, NULL, holder, b);
    wait_stage(1);
    said("destroy two, current on the holder", eglDestroyContext(dpy, two));
    set_stage(2);
    pthread_join(t, NULL);
    said("make current of two after the holder released it", eglMakeCurrent(dpy, b, b, two));

    /* Three, released by eglReleaseThread. */
    EGLContext three = new_context(EGL_NO_CONTEXT);
    said("make current of three", eglMakeCurrent(dpy, b, b, three));
    draw("three", 0, 0.5f, 0.5f);
    said("release thread", eglReleaseThread());
    said("current context is none", eglGetCurrentContext() == EGL_NO_CONTEXT);
    said("make current of three again", eglMakeCurrent(dpy, b, b, three));
    draw("three again", 0.25f, 0.5f, 0.75f);
    said("release", eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
    said("destroy three", eglDestroyContext(dpy, three));
    said("destroy surface b", eglDestroySurface(dpy, b));
    said("destroy surface b again", eglDestroySurface(dpy, b));
    printf("done\n");
    return 0;
}
