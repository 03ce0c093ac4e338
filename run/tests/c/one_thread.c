/* A single-threaded EGL program of the common shape (tests/driver_thread.rs): a GL 4.5 core
 * context on a pbuffer, frames of GL calls with a swap, the EGL queries programs make between
 * frames (the current context and surface, the surface's size, the error, a fence), then the
 * teardown. It prints what it sees, line for line the same directly and through glcmd-run; the
 * test checks with egl_spy.c which threads called EGL. */
#define PROGRAM "one_thread"
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>

#include "egl_pbuffer.h"

int main(void) {
    make_egl_context();
    EGLDisplay dpy = eglGetCurrentDisplay();
    EGLSurface surface = eglGetCurrentSurface(EGL_DRAW);
    EGLContext context = eglGetCurrentContext();
    EGLint error = eglGetError();
    printf("current: %d %d %d error 0x%x\n", dpy != EGL_NO_DISPLAY, surface != EGL_NO_SURFACE,
           context != EGL_NO_CONTEXT, error);
    EGLint width = 0, height = 0;
    eglQuerySurface(dpy, surface, EGL_WIDTH, &width);
    eglQuerySurface(dpy, surface, EGL_HEIGHT, &height);
    printf("surface %dx%d\n", width, height);
    EGLBoolean ok = eglQuerySurface(dpy, surface, 0x7fff, &width);
    error = eglGetError();
    printf("bad query: %d error 0x%x\n", ok, error);
    printf("api 0x%x\n", eglQueryAPI());
    for (int frame = 0; frame < 4; frame++) {
        glClearColor(frame / 4.0f, 0.5f, 1.0f - frame / 4.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glEnable(GL_SCISSOR_TEST);
        glScissor(4, 4, 8, 8);
        glClearColor(1.0f, 1.0f, 0.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glDisable(GL_SCISSOR_TEST);
        unsigned char corner[4], centre[4];
        glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, corner);
        glReadPixels(8, 8, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, centre);
        EGLSync fence = eglCreateSync(dpy, EGL_SYNC_FENCE, NULL);
        EGLint waited = eglClientWaitSync(dpy, fence, EGL_SYNC_FLUSH_COMMANDS_BIT, EGL_FOREVER);
        eglDestroySync(dpy, fence);
        GLenum gl_error = glGetError();
        ok = eglSwapBuffers(dpy, surface);
        error = eglGetError();
        printf("frame %d: corner %d,%d,%d centre %d,%d,%d fence %s gl 0x%x swap %d egl 0x%x\n", frame, corner[0],
               corner[1], corner[2], centre[0], centre[1], centre[2],
               fence != EGL_NO_SYNC && waited == EGL_CONDITION_SATISFIED ? "signalled" : "FAILED", gl_error, ok, error);
    }
    ok = eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    error = eglGetError();
    printf("release %d error 0x%x; current after %d\n", ok, error, eglGetCurrentContext() != EGL_NO_CONTEXT);
    EGLBoolean destroyed = eglDestroyContext(dpy, context) && eglDestroySurface(dpy, surface);
    ok = eglTerminate(dpy);
    error = eglGetError();
    printf("destroy %d terminate %d error 0x%x\n", destroyed, ok, error);
    return 0;
}
