/* Every GLX function glcmd-run interposes, called as a program calls it, with its answer and
 * the X errors it raised (an X error handler records each: error code, request and minor
 * code): tests/unchanged.rs runs it on Xvfb directly and through glcmd-run and compares.
 *
 * Covered: glXMakeCurrent and glXMakeContextCurrent (first use, again, asked for on a second
 * thread while current on the first, with a drawable and no context: BadMatch, the current
 * context kept), the current-context queries, glXSwapBuffers, the swap intervals,
 * glXCreateContextAttribsARB (with a share context), glXDestroyContext (of a context current
 * on the calling thread, of one current on another thread: both stay alive until released, as
 * GLX specifies). With the argument `atexit`, an atexit handler reads a clear left pending, clears
 * and reads: the context is current there, as without glcmd. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#include <GL/glx.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static Display *x;
static Window win;
static GLXFBConfig config;
static GLXContext one, two;

static void die(const char *what) {
    fprintf(stderr, "glx_entry: %s\n", what);
    exit(1);
}

static int errors;
static char error_text[4096];

static int on_error(Display *d, XErrorEvent *e) {
    (void)d;
    errors++;
    size_t used = strlen(error_text);
    snprintf(error_text + used, sizeof error_text - used, " [code %d request %d minor %d]", e->error_code,
             e->request_code, e->minor_code);
    return 0;
}

/* Prints `what`, its value and the X errors raised since the last line. */
static void said(const char *what, long value) {
    XSync(x, False);
    printf("%s: %ld x errors %d%s\n", what, value, errors, error_text);
    errors = 0;
    error_text[0] = 0;
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

static GLXContext new_context(GLXContext share) {
    typedef GLXContext (*Create)(Display *, GLXFBConfig, GLXContext, Bool, const int *);
    static Create create;
    if (!create) create = (Create)glXGetProcAddressARB((const GLubyte *)"glXCreateContextAttribsARB");
    if (!create) die("no glXCreateContextAttribsARB");
    static const int attribs[] = {0x2091, 4, 0x2092, 5, 0x9126, 1, None};
    GLXContext c = create(x, config, share, True, attribs);
    if (!c) die("glXCreateContextAttribsARB");
    return c;
}

static void *refused(void *arg) {
    (void)arg;
    said("second thread: make current of a context current on the first", glXMakeCurrent(x, win, one));
    said("second thread: current context is none", glXGetCurrentContext() == NULL);
    return NULL;
}

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
    (void)arg;
    said("holder: make current of two", glXMakeContextCurrent(x, win, win, two));
    draw("holder: before two is destroyed", 1, 0, 0);
    set_stage(1);
    wait_stage(2);
    said("holder: current context is still two", glXGetCurrentContext() == two);
    draw("holder: two destroyed elsewhere, still current here", 0, 1, 0);
    said("holder: release", glXMakeContextCurrent(x, None, None, NULL));
    return NULL;
}

/* With the argument `atexit`: the GL in an atexit handler, on a GLX context (see lifetime.c). */
static void at_exit(void) {
    printf("handler: current context is one: %d\n", glXGetCurrentContext() == one);
    unsigned char px[4] = {1, 2, 3, 4};
    glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    printf("handler: the clear left pending: %d,%d,%d,%d\n", px[0], px[1], px[2], px[3]);
    draw("handler: its own clear", 0.25f, 0.5f, 1);
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (!XInitThreads()) die("XInitThreads");
    x = XOpenDisplay(NULL);
    if (!x) die("XOpenDisplay");
    XSetErrorHandler(on_error);
    static const int fb_attribs[] = {GLX_X_RENDERABLE, True, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT, GLX_RENDER_TYPE,
                                     GLX_RGBA_BIT, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8,
                                     GLX_ALPHA_SIZE, 8, GLX_DOUBLEBUFFER, True, None};
    int n = 0;
    GLXFBConfig *configs = glXChooseFBConfig(x, DefaultScreen(x), fb_attribs, &n);
    if (!configs || n == 0) die("glXChooseFBConfig");
    config = configs[0];
    XVisualInfo *vi = glXGetVisualFromFBConfig(x, config);
    XSetWindowAttributes swa;
    memset(&swa, 0, sizeof swa);
    swa.colormap = XCreateColormap(x, RootWindow(x, vi->screen), vi->visual, AllocNone);
    win = XCreateWindow(x, RootWindow(x, vi->screen), 0, 0, 32, 32, 0, vi->depth, InputOutput, vi->visual,
                        CWColormap, &swa);
    XMapWindow(x, win);
    XSync(x, False);

    one = new_context(NULL);
    said("make current", glXMakeCurrent(x, win, one));
    draw("one", 0, 0, 1);
    if (argc > 1 && strcmp(argv[1], "atexit") == 0) {
        atexit(at_exit);
        glClearColor(0, 1, 0, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        exit(0);
    }
    said("current context", glXGetCurrentContext() == one);
    said("current drawable", glXGetCurrentDrawable() == win);
    said("current read drawable", glXGetCurrentReadDrawable() == win);
    said("current display", glXGetCurrentDisplay() == x);
    said("make current again", glXMakeCurrent(x, win, one));
    said("make context current again", glXMakeContextCurrent(x, win, win, one));
    glXSwapBuffers(x, win);
    said("swap", 0);
    typedef int (*IntervalMesa)(unsigned);
    IntervalMesa mesa = (IntervalMesa)glXGetProcAddressARB((const GLubyte *)"glXSwapIntervalMESA");
    said("swap interval MESA", mesa ? mesa(0) : -1);
    typedef void (*IntervalExt)(Display *, GLXDrawable, int);
    IntervalExt ext = (IntervalExt)glXGetProcAddressARB((const GLubyte *)"glXSwapIntervalEXT");
    if (ext) ext(x, win, 0);
    said("swap interval EXT", ext != NULL);

    pthread_t t;
    pthread_create(&t, NULL, refused, NULL);
    pthread_join(t, NULL);
    draw("one after the refusal", 1, 1, 0);

    GLXContext shared = new_context(one);
    said("create with a share context", shared != NULL);
    glXDestroyContext(x, shared);
    said("destroy it", 0);

    said("make context current of a drawable and no context", glXMakeContextCurrent(x, win, win, NULL));
    said("current context is still one", glXGetCurrentContext() == one);
    draw("one after the refused release", 0, 1, 1);

    /* One, destroyed while current here, stays until released. */
    glClearColor(1, 0, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT); /* pending when the destroy comes */
    glXDestroyContext(x, one);
    said("destroy one while current", 0);
    said("current context is still one", glXGetCurrentContext() == one);
    unsigned char px[4] = {1, 2, 3, 4};
    glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    printf("the clear before the destroy: %d,%d,%d,%d\n", px[0], px[1], px[2], px[3]);
    draw("one, destroyed but current", 0.5f, 0.5f, 0);
    said("release", glXMakeCurrent(x, None, NULL));
    said("current context is none", glXGetCurrentContext() == NULL);

    /* Two, current on another thread, destroyed here. */
    two = new_context(NULL);
    pthread_create(&t, NULL, holder, NULL);
    wait_stage(1);
    glXDestroyContext(x, two);
    said("destroy two, current on the holder", 0);
    set_stage(2);
    pthread_join(t, NULL);

    GLXContext three = new_context(NULL);
    said("make context current of three", glXMakeContextCurrent(x, win, win, three));
    draw("three", 0, 0.5f, 0.5f);
    said("release", glXMakeContextCurrent(x, None, None, NULL));
    glXDestroyContext(x, three);
    said("destroy three", 0);
    printf("done\n");
    return 0;
}
