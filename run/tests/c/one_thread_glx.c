/* one_thread.c's program with GLX (tests/driver_thread.rs): a GL 4.5 core context on an X
 * window of Xvfb, frames of GL calls with a swap, the GLX queries programs make between frames,
 * then the teardown. It prints what it sees, line for line the same directly and through
 * glcmd-run; the test checks with egl_spy.c which threads called GLX. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#include <GL/glx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what) {
    fprintf(stderr, "one_thread_glx: %s\n", what);
    exit(1);
}

static int x_errors;
static int on_error(Display *d, XErrorEvent *e) {
    (void)d;
    (void)e;
    x_errors++;
    return 0;
}

int main(void) {
    Display *x = XOpenDisplay(NULL);
    if (!x) die("XOpenDisplay");
    XSetErrorHandler(on_error);
    int major = 0, minor = 0;
    if (!glXQueryVersion(x, &major, &minor)) die("glXQueryVersion");
    printf("glx %d.%d\n", major, minor);
    static const int fb_attribs[] = {GLX_X_RENDERABLE, True, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT, GLX_RENDER_TYPE,
                                     GLX_RGBA_BIT, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8,
                                     GLX_ALPHA_SIZE, 8, GLX_DOUBLEBUFFER, True, None};
    int n = 0;
    GLXFBConfig *configs = glXChooseFBConfig(x, DefaultScreen(x), fb_attribs, &n);
    if (!configs || n == 0) die("glXChooseFBConfig");
    GLXFBConfig config = configs[0];
    XFree(configs);
    int red = 0;
    glXGetFBConfigAttrib(x, config, GLX_RED_SIZE, &red);
    printf("red bits %d\n", red);
    XVisualInfo *vi = glXGetVisualFromFBConfig(x, config);
    if (!vi) die("glXGetVisualFromFBConfig");
    XSetWindowAttributes swa;
    memset(&swa, 0, sizeof swa);
    swa.colormap = XCreateColormap(x, RootWindow(x, vi->screen), vi->visual, AllocNone);
    Window win = XCreateWindow(x, RootWindow(x, vi->screen), 0, 0, 16, 16, 0, vi->depth, InputOutput, vi->visual,
                               CWColormap, &swa);
    XFree(vi);
    XMapWindow(x, win);
    XSync(x, False);
    GLXWindow glx_win = glXCreateWindow(x, config, win, NULL);
    PFNGLXCREATECONTEXTATTRIBSARBPROC create =
        (PFNGLXCREATECONTEXTATTRIBSARBPROC)glXGetProcAddressARB((const GLubyte *)"glXCreateContextAttribsARB");
    if (!create) die("no glXCreateContextAttribsARB");
    static const int ctx_attribs[] = {GLX_CONTEXT_MAJOR_VERSION_ARB, 4, GLX_CONTEXT_MINOR_VERSION_ARB, 5,
                                      GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_CORE_PROFILE_BIT_ARB, None};
    GLXContext ctx = create(x, config, NULL, True, ctx_attribs);
    if (!ctx) die("glXCreateContextAttribsARB");
    printf("make current %d\n", glXMakeContextCurrent(x, glx_win, glx_win, ctx));
    printf("current %d\n", glXGetCurrentContext() == ctx);
    unsigned int width = 0;
    glXQueryDrawable(x, glx_win, GLX_WIDTH, &width);
    printf("width %u\n", width);
    for (int frame = 0; frame < 4; frame++) {
        glClearColor(frame / 4.0f, 0.5f, 1.0f - frame / 4.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        unsigned char corner[4];
        glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, corner);
        glXWaitGL();
        GLenum gl_error = glGetError();
        glXSwapBuffers(x, glx_win);
        printf("frame %d: corner %d,%d,%d gl 0x%x\n", frame, corner[0], corner[1], corner[2], gl_error);
    }
    Bool released = glXMakeContextCurrent(x, None, None, NULL);
    printf("release %d; current after %d\n", released, glXGetCurrentContext() != NULL);
    glXDestroyContext(x, ctx);
    glXDestroyWindow(x, glx_win);
    XDestroyWindow(x, win);
    XSync(x, False);
    printf("x errors %d\n", x_errors);
    XCloseDisplay(x);
    return 0;
}
