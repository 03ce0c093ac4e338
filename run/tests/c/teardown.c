/* A windowed GL program that draws, queues presents and then tears its window system down in
 * the order the command line gives: tests/teardown.rs runs it directly and through glcmd-run and
 * compares exit status, stdout and stderr.
 *
 *   teardown API STEP... END
 *   teardown inspect WINDOW      (prints the centre pixel of WINDOW, then frees what the earlier
 *                                 run retained on the X server)
 *
 * API: `egl` (EGL on X11: eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR) and a window surface),
 * `egl-default` (eglGetDisplay(the X display) with EGL_PLATFORM=x11), `glx` (a GLX 1.3 window,
 * glXCreateWindow) or `glx12` (the X window itself as the drawable, as Godot does). The program
 * makes a 4.5 core context current on a 64x48 window, draws three frames of different colours
 * and presents each (the last one is queued through glcmd), then runs each STEP:
 *
 *   release          make nothing current
 *   release-thread   eglReleaseThread
 *   destroy-window   XDestroyWindow of the window (or of its parent, `destroy-parent`; or
 *                    XDestroySubwindows of the parent, `destroy-subwindows`)
 *   destroy-surface  eglDestroySurface / glXDestroyWindow
 *   destroy-context  eglDestroyContext / glXDestroyContext
 *   terminate        eglTerminate
 *   close            XCloseDisplay (the program's connection; its resources are retained, so
 *                    that `inspect` can read the window afterwards)
 *   draw             one more frame (clear to white), presented
 *
 * and ends with END: `exit`, `return` (from main), `_exit`, `quick_exit`, `thread-exit` (exit
 * called on another thread) or `fork-_exit` (a forked child calls _exit, then the program). An X error handler prints every X error on stdout; after each
 * step the connection is synchronised (while it is open). After the frames and after each step
 * it prints how many glcmd render threads run (always 0 directly; through glcmd-run 1 until a
 * step ends what the context uses, which hands it back: the test strips those lines). */
#define _GNU_SOURCE 1
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <GL/glx.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef EGL_PLATFORM_X11_KHR
#define EGL_PLATFORM_X11_KHR 0x31D5
#endif

#define W 64
#define H 48

static Display *x;
static Window parent, win;
static int x_open;
static enum { EGL, EGL_DEFAULT, GLX, GLX12 } api;
static EGLDisplay edpy;
static EGLSurface esurf;
static EGLContext ectx;
static GLXContext gctx;
static GLXWindow gwin;

static void die(const char *what) {
    fprintf(stderr, "teardown: %s\n", what);
    exit(1);
}

static int on_x_error(Display *d, XErrorEvent *e) {
    (void)d;
    printf("X error %d, request %d.%d\n", e->error_code, e->request_code, e->minor_code);
    fflush(stdout);
    return 0;
}

static void sync_x(void) {
    if (x_open) XSync(x, False);
}

static void make_window(Visual *visual, int depth) {
    XSetWindowAttributes a = {0};
    a.colormap = XCreateColormap(x, DefaultRootWindow(x), visual, AllocNone);
    parent = XCreateSimpleWindow(x, DefaultRootWindow(x), 0, 0, W, H, 0, 0, 0);
    win = XCreateWindow(x, parent, 0, 0, W, H, 0, depth, InputOutput, visual, CWColormap, &a);
    XMapWindow(x, win);
    XMapWindow(x, parent);
    XSync(x, False);
}

static void setup_egl(void) {
    if (api == EGL) {
        edpy = eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR, x, NULL);
    } else {
        edpy = eglGetDisplay((EGLNativeDisplayType)x);
    }
    if (edpy == EGL_NO_DISPLAY || !eglInitialize(edpy, NULL, NULL)) die("eglInitialize");
    const EGLint attribs[] = {EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_RED_SIZE, 8,
                              EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
    EGLConfig config;
    EGLint n = 0;
    if (!eglChooseConfig(edpy, attribs, &config, 1, &n) || n == 0) die("eglChooseConfig");
    EGLint visual_id = 0;
    eglGetConfigAttrib(edpy, config, EGL_NATIVE_VISUAL_ID, &visual_id);
    XVisualInfo tmpl = {.visualid = (VisualID)visual_id}, *vi;
    int count = 0;
    vi = XGetVisualInfo(x, VisualIDMask, &tmpl, &count);
    if (!vi) die("XGetVisualInfo");
    make_window(vi->visual, vi->depth);
    if (api == EGL) {
        esurf = eglCreatePlatformWindowSurface(edpy, config, &win, NULL);
    } else {
        esurf = eglCreateWindowSurface(edpy, config, (EGLNativeWindowType)win, NULL);
    }
    if (esurf == EGL_NO_SURFACE) die("eglCreateWindowSurface");
    eglBindAPI(EGL_OPENGL_API);
    const EGLint ctx_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                                  EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    ectx = eglCreateContext(edpy, config, EGL_NO_CONTEXT, ctx_attribs);
    if (ectx == EGL_NO_CONTEXT) die("eglCreateContext");
    if (!eglMakeCurrent(edpy, esurf, esurf, ectx)) die("eglMakeCurrent");
}

typedef GLXContext (*CreateContextAttribs)(Display *, GLXFBConfig, GLXContext, Bool, const int *);

static void setup_glx(void) {
    const int fb_attribs[] = {GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT, GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_DOUBLEBUFFER, True,
                              GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8, None};
    int n = 0;
    GLXFBConfig *configs = glXChooseFBConfig(x, DefaultScreen(x), fb_attribs, &n);
    if (!configs || n == 0) die("glXChooseFBConfig");
    XVisualInfo *vi = glXGetVisualFromFBConfig(x, configs[0]);
    if (!vi) die("glXGetVisualFromFBConfig");
    make_window(vi->visual, vi->depth);
    CreateContextAttribs create =
        (CreateContextAttribs)glXGetProcAddressARB((const GLubyte *)"glXCreateContextAttribsARB");
    const int attribs[] = {GLX_CONTEXT_MAJOR_VERSION_ARB, 4, GLX_CONTEXT_MINOR_VERSION_ARB, 5,
                           GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_CORE_PROFILE_BIT_ARB, None};
    gctx = create(x, configs[0], NULL, True, attribs);
    if (!gctx) die("glXCreateContextAttribsARB");
    if (api == GLX) {
        gwin = glXCreateWindow(x, configs[0], win, NULL);
        if (!glXMakeContextCurrent(x, gwin, gwin, gctx)) die("glXMakeContextCurrent");
    } else {
        if (!glXMakeCurrent(x, win, gctx)) die("glXMakeCurrent");
    }
}

static int is_egl(void) { return api == EGL || api == EGL_DEFAULT; }

static void frame(float r, float g, float b) {
    glClearColor(r, g, b, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    /* Work the present depends on, beyond the clear: a scissored clear of the centre. */
    glEnable(GL_SCISSOR_TEST);
    glScissor(W / 4, H / 4, W / 2, H / 2);
    glClearColor(b, r, g, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    if (is_egl()) {
        eglSwapBuffers(edpy, esurf);
    } else {
        glXSwapBuffers(x, api == GLX ? gwin : win);
    }
}

static int render_threads(void);

static void step(const char *s) {
    if (!strcmp(s, "release")) {
        if (is_egl()) {
            printf("release: %d\n", eglMakeCurrent(edpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
        } else {
            printf("release: %d\n", glXMakeCurrent(x, None, NULL));
        }
    } else if (!strcmp(s, "release-thread")) {
        printf("release-thread: %d\n", eglReleaseThread());
    } else if (!strcmp(s, "destroy-window")) {
        XDestroyWindow(x, win);
    } else if (!strcmp(s, "destroy-parent")) {
        XDestroyWindow(x, parent);
    } else if (!strcmp(s, "destroy-subwindows")) {
        XDestroySubwindows(x, parent);
    } else if (!strcmp(s, "destroy-surface")) {
        if (is_egl()) {
            printf("destroy-surface: %d\n", eglDestroySurface(edpy, esurf));
        } else {
            glXDestroyWindow(x, gwin);
        }
    } else if (!strcmp(s, "destroy-context")) {
        if (is_egl()) {
            printf("destroy-context: %d\n", eglDestroyContext(edpy, ectx));
        } else {
            glXDestroyContext(x, gctx);
        }
    } else if (!strcmp(s, "terminate")) {
        printf("terminate: %d\n", eglTerminate(edpy));
    } else if (!strcmp(s, "close")) {
        XSync(x, False);
        XCloseDisplay(x);
        x_open = 0;
    } else if (!strcmp(s, "draw")) {
        frame(1, 1, 1);
    } else {
        die("unknown step");
    }
    sync_x();
    printf("after %s: render_threads=%d\n", s, render_threads());
    fflush(stdout);
}

/* The number of this process's threads named glcmd-render (glcmd-run's render threads). */
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

static void *exit_thread(void *arg) {
    (void)arg;
    exit(0);
}

/* Prints the centre pixel of the window an earlier run left on the server, and frees what that
 * run retained. */
static int inspect(const char *window) {
    Display *d = XOpenDisplay(NULL);
    if (!d) die("XOpenDisplay");
    XSetErrorHandler(on_x_error);
    Window w = (Window)strtoul(window, NULL, 0);
    XImage *image = XGetImage(d, w, W / 2, H / 2, 1, 1, AllPlanes, ZPixmap);
    if (image) {
        unsigned long p = XGetPixel(image, 0, 0);
        printf("centre pixel %06lx\n", p & 0xffffff);
        XDestroyImage(image);
    } else {
        printf("no window\n");
    }
    XKillClient(d, AllTemporary);
    XCloseDisplay(d);
    return 0;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc == 3 && !strcmp(argv[1], "inspect")) return inspect(argv[2]);
    if (argc < 3) die("usage: teardown API STEP... END");
    if (!strcmp(argv[1], "egl")) api = EGL;
    else if (!strcmp(argv[1], "egl-default")) api = EGL_DEFAULT;
    else if (!strcmp(argv[1], "glx")) api = GLX;
    else if (!strcmp(argv[1], "glx12")) api = GLX12;
    else die("unknown API");
    x = XOpenDisplay(NULL);
    if (!x) die("XOpenDisplay");
    x_open = 1;
    XSetErrorHandler(on_x_error);
    /* The window outlives the connection, so that `inspect` can read what was presented. */
    XSetCloseDownMode(x, RetainPermanent);
    if (is_egl()) setup_egl();
    else setup_glx();
    printf("window 0x%lx\n", (unsigned long)win);
    frame(1, 0, 0);
    frame(0, 1, 0);
    frame(0, 0, 1);
    sync_x();
    printf("render_threads=%d\n", render_threads());
    for (int i = 2; i < argc - 1; i++) step(argv[i]);
    const char *end = argv[argc - 1];
    printf("end %s\n", end);
    fflush(stdout);
    if (!strcmp(end, "exit")) exit(0);
    if (!strcmp(end, "return")) return 0;
    if (!strcmp(end, "_exit")) _exit(0);
    if (!strcmp(end, "quick_exit")) quick_exit(0);
    if (!strcmp(end, "fork-_exit")) {
        /* A forked child has glcmd's records but not its render threads: its _exit must not
         * wait for them. */
        pid_t child = fork();
        if (child == 0) _exit(7);
        int status = 0;
        waitpid(child, &status, 0);
        printf("child exited %d\n", WEXITSTATUS(status));
        fflush(stdout);
        _exit(0);
    }
    if (!strcmp(end, "thread-exit")) {
        pthread_t t;
        pthread_create(&t, NULL, exit_thread, NULL);
        for (;;) pause();
    }
    die("unknown end");
    return 1;
}
