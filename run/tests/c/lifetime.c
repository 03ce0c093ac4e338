/* GL at the edges of a process's and a thread's life; tests/unchanged.rs runs each mode directly
 * and through glcmd-run and compares stdout (and looks for panics on stderr).
 *
 *   atexit        an atexit handler (registered after the context is current) asks the state
 *                 the program left (bindings, pixel store, debug output: nothing glcmd did on
 *                 its own behalf may show), reads a clear the program left pending, clears,
 *                 finishes and reads pixels, asks glGetError, glGetString and the current
 *                 context; the program ends with exit(0)
 *   return        the same, ending with a return from main
 *   atexit-debug  the program installs a debug callback; its atexit handler raises a GL error
 *                 (the context's callback must not be glcmd's, whose state is gone by then)
 *   thread-exit   a second thread makes the context current, draws and calls exit(0) there; the
 *                 handler runs on that thread
 *   thread-end    a thread makes the context current, draws and ends without releasing it; the
 *                 main thread then asks for it (the context stays bound to the ended thread)
 *   fork-exit     a child made by fork() ends with exit(0) (and one with _exit); the parent goes
 *                 on drawing
 *   fork-gl       a child made by fork() calls GL on the context it inherited, then exit(0)
 *                 (what it gets is undefined; it prints nothing: only its exit is compared)
 *
 * Every line printed is an answer of the GL or of EGL. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define PROGRAM "lifetime"
#include "egl_pbuffer.h"

static EGLDisplay dpy;
static EGLSurface surface;
static EGLContext context;

static void pixel(const char *what) {
    unsigned char px[4] = {1, 2, 3, 4};
    glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    printf("%s: pixel %d,%d,%d,%d error %#x\n", what, px[0], px[1], px[2], px[3], glGetError());
}

static void clear(float r, float g, float b) {
    glClearColor(r, g, b, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
}

static void state(const char *what, GLenum pname) {
    GLint v = -7;
    glGetIntegerv(pname, &v);
    printf("handler: %s %d\n", what, v);
}

static void at_exit(void) {
    printf("handler: current context is the program's: %d\n", eglGetCurrentContext() == context);
    /* What the program set, and nothing glcmd did on its own behalf. */
    state("unpack buffer", GL_PIXEL_UNPACK_BUFFER_BINDING);
    state("pack buffer", GL_PIXEL_PACK_BUFFER_BINDING);
    state("unpack alignment", GL_UNPACK_ALIGNMENT);
    state("pack alignment", GL_PACK_ALIGNMENT);
    state("unpack row length", GL_UNPACK_ROW_LENGTH);
    state("array buffer", GL_ARRAY_BUFFER_BINDING);
    state("texture 2d", GL_TEXTURE_BINDING_2D);
    state("current program", GL_CURRENT_PROGRAM);
    state("vertex array", GL_VERTEX_ARRAY_BINDING);
    state("draw framebuffer", GL_DRAW_FRAMEBUFFER_BINDING);
    state("read framebuffer", GL_READ_FRAMEBUFFER_BINDING);
    printf("handler: debug output %d\n", glIsEnabled(GL_DEBUG_OUTPUT));
    void *callback = (void *)1;
    glGetPointerv(GL_DEBUG_CALLBACK_FUNCTION, &callback);
    printf("handler: debug callback %s\n", callback ? "set" : "none");
    pixel("handler, the clear left pending");
    clear(0, 0, 1);
    glFinish();
    pixel("handler, after its own clear and glFinish");
    const GLubyte *version = glGetString(GL_VERSION);
    printf("handler: version string: %s\n", version ? "yes" : "NULL");
    fflush(stdout);
}

static int messages;
static void APIENTRY count_message(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                   const GLchar *message, const void *user) {
    (void)source, (void)type, (void)id, (void)severity, (void)length, (void)message, (void)user;
    messages++;
}

static void at_exit_debug(void) {
    glEnable(0xFFFF);
    printf("handler: error %#x\n", glGetError());
    fflush(stdout);
}

static void *exiting_thread(void *arg) {
    (void)arg;
    if (!eglMakeCurrent(dpy, surface, surface, context)) die("eglMakeCurrent on the thread");
    clear(1, 0, 1);
    printf("thread: exit\n");
    fflush(stdout);
    exit(0);
}

static void *ending_thread(void *arg) {
    (void)arg;
    if (!eglMakeCurrent(dpy, surface, surface, context)) die("eglMakeCurrent on the thread");
    clear(0, 1, 1);
    pixel("thread, before it ends");
    return NULL;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *mode = argc > 1 ? argv[1] : "atexit";
    make_egl_context();
    dpy = eglGetCurrentDisplay();
    surface = eglGetCurrentSurface(EGL_DRAW);
    context = eglGetCurrentContext();
    clear(1, 0, 0);
    pixel("main");
    if (strcmp(mode, "atexit") == 0 || strcmp(mode, "return") == 0) {
        if (atexit(at_exit) != 0) die("atexit");
        /* State of the program's own, and work that glcmd may do through state of its own: an
         * upload and a read through client memory. */
        GLuint texture, buffer;
        glGenTextures(1, &texture);
        glBindTexture(GL_TEXTURE_2D, texture);
        static unsigned char texels[4 * 4 * 4];
        glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
        glPixelStorei(GL_UNPACK_ROW_LENGTH, 4);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
        glPixelStorei(GL_PACK_ALIGNMENT, 2);
        glGenBuffers(1, &buffer);
        glBindBuffer(GL_ARRAY_BUFFER, buffer);
        glBufferData(GL_ARRAY_BUFFER, 64, NULL, GL_STATIC_DRAW);
        pixel("main, after the upload");
        clear(0, 1, 0); /* left pending: the handler reads it */
        if (strcmp(mode, "return") == 0) return 0;
        exit(0);
    }
    if (strcmp(mode, "atexit-debug") == 0) {
        glEnable(GL_DEBUG_OUTPUT);
        glDebugMessageCallback(count_message, NULL);
        if (atexit(at_exit_debug) != 0) die("atexit");
        exit(0);
    }
    if (strcmp(mode, "thread-exit") == 0) {
        if (atexit(at_exit) != 0) die("atexit");
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        pthread_t t;
        pthread_create(&t, NULL, exiting_thread, NULL);
        pthread_join(t, NULL);
        die("the thread's exit returned");
    }
    if (strcmp(mode, "thread-end") == 0) {
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        pthread_t t;
        pthread_create(&t, NULL, ending_thread, NULL);
        pthread_join(t, NULL);
        EGLBoolean ok = eglMakeCurrent(dpy, surface, surface, context);
        printf("main: make current after the thread ended: %d error %#x\n", ok, eglGetError());
        return 0;
    }
    if (strcmp(mode, "fork-exit") == 0 || strcmp(mode, "fork-gl") == 0) {
        for (int quick = 0; quick < 2; quick++) {
            fflush(stdout);
            pid_t child = fork();
            if (child < 0) die("fork");
            if (child == 0) {
                if (strcmp(mode, "fork-gl") == 0) {
                    unsigned char px[4];
                    glClear(GL_COLOR_BUFFER_BIT);
                    glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
                    glGetError();
                }
                if (quick) _exit(3);
                exit(2);
            }
            int status = 0;
            waitpid(child, &status, 0);
            printf("child %s: exited %d status %d\n", quick ? "_exit" : "exit", WIFEXITED(status),
                   WEXITSTATUS(status));
        }
        clear(1, 1, 0);
        pixel("parent after the children");
        return 0;
    }
    die("unknown mode");
}
