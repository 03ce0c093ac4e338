/* Two contexts that share nothing but a window, switched on one thread: each reads what the
 * other drew into the window's back buffer, which it sees only because a make-current flushes
 * the context the thread had current before. tests/switch.rs runs it directly and through
 * glcmd-run and compares.
 *
 *   switch glx|egl
 *
 * `core` is an OpenGL 4.5 core context (glcmd-run adopts it), `compat` a compatibility-profile
 * one (glcmd-run runs it directly), both current on one 32x32 window (GLX on X11, or EGL on X11
 * with a window surface each: `egl`). Every round draws with one (a clear, then a scissored clear
 * of the centre, without a flush), switches to the other (directly, through nothing, or to the
 * same context again), and reads the centre pixel there, printing it. Then the same between two
 * core contexts (two devices through glcmd-run). */
#define _GNU_SOURCE 1
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <GL/glx.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef EGL_PLATFORM_X11_KHR
#define EGL_PLATFORM_X11_KHR 0x31D5
#endif

#define W 32
#define H 32

static Display *x;
static Window win;
static int use_egl;
static EGLDisplay edpy;
static EGLSurface esurf;

static void die(const char *what) {
    fprintf(stderr, "switch: %s\n", what);
    exit(1);
}

static void make_window(Visual *visual, int depth) {
    XSetWindowAttributes a = {0};
    a.colormap = XCreateColormap(x, DefaultRootWindow(x), visual, AllocNone);
    win = XCreateWindow(x, DefaultRootWindow(x), 0, 0, W, H, 0, depth, InputOutput, visual, CWColormap, &a);
    XMapWindow(x, win);
    XSync(x, False);
}

typedef GLXContext (*CreateContextAttribs)(Display *, GLXFBConfig, GLXContext, Bool, const int *);

static void *glx_context(GLXFBConfig config, int core) {
    CreateContextAttribs create =
        (CreateContextAttribs)glXGetProcAddressARB((const GLubyte *)"glXCreateContextAttribsARB");
    const int core_attribs[] = {GLX_CONTEXT_MAJOR_VERSION_ARB, 4, GLX_CONTEXT_MINOR_VERSION_ARB, 5,
                                GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_CORE_PROFILE_BIT_ARB, None};
    const int compat_attribs[] = {GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB, None};
    GLXContext c = create(x, config, NULL, True, core ? core_attribs : compat_attribs);
    if (!c) die("glXCreateContextAttribsARB");
    return c;
}

static void *egl_context(EGLConfig config, int core) {
    const EGLint core_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                                   EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    const EGLint compat_attribs[] = {EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT,
                                     EGL_NONE};
    EGLContext c = eglCreateContext(edpy, config, EGL_NO_CONTEXT, core ? core_attribs : compat_attribs);
    if (c == EGL_NO_CONTEXT) die("eglCreateContext");
    return c;
}

static void *core_ctx, *core2_ctx, *compat_ctx;

static void setup(void) {
    x = XOpenDisplay(NULL);
    if (!x) die("XOpenDisplay");
    if (use_egl) {
        edpy = eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR, x, NULL);
        if (edpy == EGL_NO_DISPLAY || !eglInitialize(edpy, NULL, NULL)) die("eglInitialize");
        const EGLint attribs[] = {EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_RED_SIZE,
                                  8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
        EGLConfig config;
        EGLint n = 0;
        if (!eglChooseConfig(edpy, attribs, &config, 1, &n) || n == 0) die("eglChooseConfig");
        EGLint visual_id = 0;
        eglGetConfigAttrib(edpy, config, EGL_NATIVE_VISUAL_ID, &visual_id);
        XVisualInfo tmpl = {.visualid = (VisualID)visual_id};
        int count = 0;
        XVisualInfo *vi = XGetVisualInfo(x, VisualIDMask, &tmpl, &count);
        if (!vi) die("XGetVisualInfo");
        make_window(vi->visual, vi->depth);
        esurf = eglCreatePlatformWindowSurface(edpy, config, &win, NULL);
        if (esurf == EGL_NO_SURFACE) die("eglCreatePlatformWindowSurface");
        eglBindAPI(EGL_OPENGL_API);
        core_ctx = egl_context(config, 1);
        core2_ctx = egl_context(config, 1);
        compat_ctx = egl_context(config, 0);
    } else {
        const int fb_attribs[] = {GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT, GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_DOUBLEBUFFER,
                                  True, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8, None};
        int n = 0;
        GLXFBConfig *configs = glXChooseFBConfig(x, DefaultScreen(x), fb_attribs, &n);
        if (!configs || n == 0) die("glXChooseFBConfig");
        XVisualInfo *vi = glXGetVisualFromFBConfig(x, configs[0]);
        if (!vi) die("glXGetVisualFromFBConfig");
        make_window(vi->visual, vi->depth);
        core_ctx = glx_context(configs[0], 1);
        core2_ctx = glx_context(configs[0], 1);
        compat_ctx = glx_context(configs[0], 0);
    }
}

static void make_current(void *ctx) {
    int ok;
    if (use_egl) {
        ok = ctx ? eglMakeCurrent(edpy, esurf, esurf, ctx)
                 : eglMakeCurrent(edpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    } else {
        ok = ctx ? glXMakeCurrent(x, win, ctx) : glXMakeCurrent(x, None, NULL);
    }
    if (!ok) die("make current");
}

static const char *name(void *ctx) {
    return ctx == core_ctx ? "core" : ctx == core2_ctx ? "core2" : "compat";
}

/* Draws with `from`, switches to `to` (through no context with `via_none`) and reads there. */
static void round_trip(int i, void *from, void *to, int via_none) {
    float r = (i % 3) / 2.0f, g = ((i / 3) % 3) / 2.0f, b = (i % 2);
    make_current(from);
    glDisable(GL_SCISSOR_TEST);
    glClearColor(r, g, b, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    glScissor(W / 4, H / 4, W / 2, H / 2);
    glClearColor(b, r, g, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    if (via_none) make_current(NULL);
    make_current(to);
    unsigned char px[4] = {1, 2, 3, 4}, corner[4] = {1, 2, 3, 4};
    glReadBuffer(GL_BACK);
    glReadPixels(W / 2, H / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, corner);
    printf("%d %s -> %s%s: centre %d,%d,%d corner %d,%d,%d error %#x\n", i, name(from), name(to),
           via_none ? " (via none)" : "", px[0], px[1], px[2], corner[0], corner[1], corner[2], glGetError());
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc != 2) die("usage: switch glx|egl");
    use_egl = !strcmp(argv[1], "egl");
    setup();
    int i = 0;
    for (int rep = 0; rep < 3; rep++) {
        round_trip(i++, compat_ctx, core_ctx, 0);
        round_trip(i++, core_ctx, compat_ctx, 0);
        round_trip(i++, compat_ctx, core_ctx, 1);
        round_trip(i++, core_ctx, compat_ctx, 1);
        round_trip(i++, core_ctx, core2_ctx, 0);
        round_trip(i++, core2_ctx, core_ctx, 1);
        round_trip(i++, core_ctx, core_ctx, 1);
    }
    make_current(NULL);
    printf("done\n");
    return 0;
}
