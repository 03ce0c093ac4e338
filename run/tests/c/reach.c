/* Every way a program reaches a GL function, while its OpenGL 4.5 core context is current (and,
 * through glcmd-run, adopted): the function linked from libGLESv2 (this program links
 * -lGLESv2), dlsym on RTLD_DEFAULT, dlsym on a dlopen handle of libGL, libOpenGL, libGLESv2 and
 * libGLESv1_CM, and the get-proc-address functions: eglGetProcAddress (linked, and from a dlopen
 * handle of libEGL), glXGetProcAddress and glXGetProcAddressARB (from dlopen handles of libGLX
 * and libGL). Each way clears to a colour of its own and reads it back, and asks glGetString and
 * glGetError through the same way; tests/unchanged.rs compares the output directly and through
 * glcmd-run. (A function that reached the driver on a thread where only glcmd's render thread
 * has the context current returned NULL from glGetString and drew nothing.) */
#define _GNU_SOURCE 1
#include <GLES2/gl2.h>
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>

#define PROGRAM "reach"
#include "egl_pbuffer.h"

typedef void (*Fn)(void);
typedef Fn (*GetProc)(const char *);

struct way {
    const char *name;
    Fn (*get)(const struct way *, const char *);
    const char *library; /* for dlsym, or where the get-proc-address function comes from */
    const char *getter;  /* the get-proc-address function's name, or NULL for dlsym */
};

static Fn linked(const struct way *w, const char *name) {
    (void)w;
#define L(n) if (strcmp(name, #n) == 0) return (Fn)n;
    L(glClearColor) L(glClear) L(glReadPixels) L(glGetString) L(glGetError)
#undef L
    return NULL;
}

static Fn from_default(const struct way *w, const char *name) {
    (void)w;
    return (Fn)dlsym(RTLD_DEFAULT, name);
}

static Fn from_library(const struct way *w, const char *name) {
    void *handle = dlopen(w->library, RTLD_NOW | RTLD_LOCAL);
    if (!handle) return NULL;
    if (!w->getter) return (Fn)dlsym(handle, name);
    GetProc get = (GetProc)dlsym(handle, w->getter);
    return get ? get(name) : NULL;
}

static Fn from_linked_egl(const struct way *w, const char *name) {
    (void)w;
    return (Fn)eglGetProcAddress(name);
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    make_egl_context();
    const struct way ways[] = {
        {"linked libGLESv2", linked, NULL, NULL},
        {"dlsym RTLD_DEFAULT", from_default, NULL, NULL},
        {"dlsym libGL.so.1", from_library, "libGL.so.1", NULL},
        {"dlsym libOpenGL.so.0", from_library, "libOpenGL.so.0", NULL},
        {"dlsym libGLESv2.so.2", from_library, "libGLESv2.so.2", NULL},
        {"dlsym libGLESv1_CM.so.1", from_library, "libGLESv1_CM.so.1", NULL},
        {"eglGetProcAddress linked", from_linked_egl, NULL, NULL},
        {"eglGetProcAddress of libEGL.so.1", from_library, "libEGL.so.1", "eglGetProcAddress"},
        {"glXGetProcAddressARB of libGLX.so.0", from_library, "libGLX.so.0", "glXGetProcAddressARB"},
        {"glXGetProcAddress of libGLX.so.0", from_library, "libGLX.so.0", "glXGetProcAddress"},
        {"glXGetProcAddressARB of libGL.so.1", from_library, "libGL.so.1", "glXGetProcAddressARB"},
    };
    for (size_t i = 0; i < sizeof ways / sizeof ways[0]; i++) {
        const struct way *w = &ways[i];
        void (*clear_color)(GLfloat, GLfloat, GLfloat, GLfloat) = (void (*)(GLfloat, GLfloat, GLfloat, GLfloat))w->get(w, "glClearColor");
        void (*clear)(GLbitfield) = (void (*)(GLbitfield))w->get(w, "glClear");
        void (*read_pixels)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void *) =
            (void (*)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void *))w->get(w, "glReadPixels");
        const GLubyte *(*get_string)(GLenum) = (const GLubyte *(*)(GLenum))w->get(w, "glGetString");
        GLenum (*get_error)(void) = (GLenum(*)(void))w->get(w, "glGetError");
        if (!clear_color || !clear || !read_pixels || !get_string || !get_error) {
            printf("%s: not found\n", w->name);
            continue;
        }
        const GLubyte *version = get_string(GL_VERSION);
        clear_color((i + 1) / 16.0f, 1.0f - (i + 1) / 16.0f, 0.5f, 1.0f);
        clear(GL_COLOR_BUFFER_BIT);
        unsigned char px[4] = {1, 2, 3, 4};
        read_pixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
        printf("%s: version %s pixel %d,%d,%d,%d error %#x\n", w->name, version ? (const char *)version : "NULL",
               px[0], px[1], px[2], px[3], get_error());
    }
    return 0;
}
