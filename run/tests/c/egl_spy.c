/* A spy between glcmd-run's preload library and libEGL and libGL (tests/driver_thread.rs):
 * preloaded after libglcmd_preload.so, it is the "next" definition of every EGL 1.5 function and
 * of the GLX functions a program uses that that library finds,
 * and the definition a program that runs without glcmd-run links to. It notes which thread
 * makes each call and, at exit, writes to $EGL_SPY_OUT one line per calling thread:
 *   <main|other> <calls> <first function>
 * so that a test can check that one thread, and which one, called EGL. The spy's
 * eglGetProcAddress hands out its own functions for the names it defines, so calls made
 * through looked-up pointers (glcmd's render thread makes all of its calls that way) are seen
 * too (and its glXGetProcAddress(ARB) likewise). */
#define _GNU_SOURCE
#define EGL_EGL_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glx.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_THREADS 64
static struct {
    long tid;
    long calls;
    const char *first;
} threads[MAX_THREADS];
static int thread_count;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void note(const char *name) {
    long tid = syscall(SYS_gettid);
    pthread_mutex_lock(&lock);
    int i = 0;
    while (i < thread_count && threads[i].tid != tid) i++;
    if (i == thread_count && thread_count < MAX_THREADS) {
        threads[i].tid = tid;
        threads[i].first = name;
        thread_count++;
    }
    if (i < MAX_THREADS) threads[i].calls++;
    pthread_mutex_unlock(&lock);
}

__attribute__((destructor)) static void report(void) {
    const char *path = getenv("EGL_SPY_OUT");
    /* Only a process that called EGL reports (a helper process the driver starts does not
     * overwrite the report); appended, so two that did would both show. */
    if (!path || thread_count == 0) return;
    FILE *f = fopen(path, "a");
    if (!f) return;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < thread_count; i++)
        fprintf(f, "%s %ld %s\n", threads[i].tid == getpid() ? "main" : "other", threads[i].calls, threads[i].first);
    pthread_mutex_unlock(&lock);
    fclose(f);
}

static void *next(const char *name) {
    return dlsym(RTLD_NEXT, name);
}

#define WRAP(ret, name, params, args)                                                            \
    ret name params {                                                                           \
        note(#name);                                                                            \
        static ret(*f) params;                                                                  \
        if (!f) f = (ret(*) params)next(#name);                                                 \
        return f args;                                                                          \
    }

WRAP(EGLBoolean, eglChooseConfig, (EGLDisplay a, const EGLint *b, EGLConfig *c, EGLint d, EGLint *e), (a, b, c, d, e))
WRAP(EGLBoolean, eglCopyBuffers, (EGLDisplay a, EGLSurface b, EGLNativePixmapType c), (a, b, c))
WRAP(EGLContext, eglCreateContext, (EGLDisplay a, EGLConfig b, EGLContext c, const EGLint *d), (a, b, c, d))
WRAP(EGLSurface, eglCreatePbufferSurface, (EGLDisplay a, EGLConfig b, const EGLint *c), (a, b, c))
WRAP(EGLSurface, eglCreateWindowSurface, (EGLDisplay a, EGLConfig b, EGLNativeWindowType c, const EGLint *d), (a, b, c, d))
WRAP(EGLBoolean, eglDestroyContext, (EGLDisplay a, EGLContext b), (a, b))
WRAP(EGLBoolean, eglDestroySurface, (EGLDisplay a, EGLSurface b), (a, b))
WRAP(EGLBoolean, eglGetConfigAttrib, (EGLDisplay a, EGLConfig b, EGLint c, EGLint *d), (a, b, c, d))
WRAP(EGLBoolean, eglGetConfigs, (EGLDisplay a, EGLConfig *b, EGLint c, EGLint *d), (a, b, c, d))
WRAP(EGLDisplay, eglGetCurrentDisplay, (void), ())
WRAP(EGLSurface, eglGetCurrentSurface, (EGLint a), (a))
WRAP(EGLDisplay, eglGetDisplay, (EGLNativeDisplayType a), (a))
WRAP(EGLint, eglGetError, (void), ())
WRAP(EGLBoolean, eglInitialize, (EGLDisplay a, EGLint *b, EGLint *c), (a, b, c))
WRAP(EGLBoolean, eglMakeCurrent, (EGLDisplay a, EGLSurface b, EGLSurface c, EGLContext d), (a, b, c, d))
WRAP(EGLBoolean, eglQueryContext, (EGLDisplay a, EGLContext b, EGLint c, EGLint *d), (a, b, c, d))
WRAP(const char *, eglQueryString, (EGLDisplay a, EGLint b), (a, b))
WRAP(EGLBoolean, eglQuerySurface, (EGLDisplay a, EGLSurface b, EGLint c, EGLint *d), (a, b, c, d))
WRAP(EGLBoolean, eglSwapBuffers, (EGLDisplay a, EGLSurface b), (a, b))
WRAP(EGLBoolean, eglTerminate, (EGLDisplay a), (a))
WRAP(EGLBoolean, eglWaitGL, (void), ())
WRAP(EGLBoolean, eglWaitNative, (EGLint a), (a))
WRAP(EGLBoolean, eglSurfaceAttrib, (EGLDisplay a, EGLSurface b, EGLint c, EGLint d), (a, b, c, d))
WRAP(EGLBoolean, eglSwapInterval, (EGLDisplay a, EGLint b), (a, b))
WRAP(EGLBoolean, eglBindAPI, (EGLenum a), (a))
WRAP(EGLenum, eglQueryAPI, (void), ())
WRAP(EGLBoolean, eglReleaseThread, (void), ())
WRAP(EGLBoolean, eglWaitClient, (void), ())
WRAP(EGLContext, eglGetCurrentContext, (void), ())
WRAP(EGLSync, eglCreateSync, (EGLDisplay a, EGLenum b, const EGLAttrib *c), (a, b, c))
WRAP(EGLBoolean, eglDestroySync, (EGLDisplay a, EGLSync b), (a, b))
WRAP(EGLint, eglClientWaitSync, (EGLDisplay a, EGLSync b, EGLint c, EGLTime d), (a, b, c, d))
WRAP(EGLDisplay, eglGetPlatformDisplay, (EGLenum a, void *b, const EGLAttrib *c), (a, b, c))
WRAP(GLXFBConfig *, glXChooseFBConfig, (Display *a, int b, const int *c, int *d), (a, b, c, d))
WRAP(XVisualInfo *, glXGetVisualFromFBConfig, (Display *a, GLXFBConfig b), (a, b))
WRAP(int, glXGetFBConfigAttrib, (Display *a, GLXFBConfig b, int c, int *d), (a, b, c, d))
WRAP(Bool, glXQueryVersion, (Display *a, int *b, int *c), (a, b, c))
WRAP(const char *, glXQueryExtensionsString, (Display *a, int b), (a, b))
WRAP(GLXWindow, glXCreateWindow, (Display *a, GLXFBConfig b, Window c, const int *d), (a, b, c, d))
WRAP(Bool, glXMakeContextCurrent, (Display *a, GLXDrawable b, GLXDrawable c, GLXContext d), (a, b, c, d))
WRAP(Bool, glXMakeCurrent, (Display *a, GLXDrawable b, GLXContext c), (a, b, c))
WRAP(GLXContext, glXGetCurrentContext, (void), ())
WRAP(void, glXQueryDrawable, (Display *a, GLXDrawable b, int c, unsigned int *d), (a, b, c, d))
WRAP(void, glXSwapBuffers, (Display *a, GLXDrawable b), (a, b))
WRAP(void, glXDestroyContext, (Display *a, GLXContext b), (a, b))
WRAP(void, glXDestroyWindow, (Display *a, GLXWindow b), (a, b))
WRAP(void, glXWaitGL, (void), ())

static void *ext_get_platform_display, *ext_query_devices, *ext_create_context_attribs;

static EGLDisplay spy_get_platform_display_ext(EGLenum a, void *b, const EGLint *c) {
    note("eglGetPlatformDisplayEXT");
    return ((PFNEGLGETPLATFORMDISPLAYEXTPROC)ext_get_platform_display)(a, b, c);
}

static EGLBoolean spy_query_devices_ext(EGLint a, EGLDeviceEXT *b, EGLint *c) {
    note("eglQueryDevicesEXT");
    return ((PFNEGLQUERYDEVICESEXTPROC)ext_query_devices)(a, b, c);
}

static GLXContext spy_create_context_attribs(Display *a, GLXFBConfig b, GLXContext c, Bool d, const int *e) {
    note("glXCreateContextAttribsARB");
    return ((PFNGLXCREATECONTEXTATTRIBSARBPROC)ext_create_context_attribs)(a, b, c, d, e);
}

/* The spy's own definition of `name`, if it has one (its own object only, not libEGL's). */
static void *own(const char *name) {
    static void *self;
    if (!self) {
        Dl_info info;
        if (!dladdr((void *)note, &info)) return NULL;
        self = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
        if (!self) return NULL;
    }
    return dlsym(self, name);
}

__eglMustCastToProperFunctionPointerType eglGetProcAddress(const char *name) {
    note("eglGetProcAddress");
    static __eglMustCastToProperFunctionPointerType (*f)(const char *);
    if (!f) f = (__eglMustCastToProperFunctionPointerType(*)(const char *))next("eglGetProcAddress");
    if (strcmp(name, "eglGetPlatformDisplayEXT") == 0) {
        ext_get_platform_display = (void *)f(name);
        return ext_get_platform_display ? (__eglMustCastToProperFunctionPointerType)spy_get_platform_display_ext : NULL;
    }
    if (strcmp(name, "eglQueryDevicesEXT") == 0) {
        ext_query_devices = (void *)f(name);
        return ext_query_devices ? (__eglMustCastToProperFunctionPointerType)spy_query_devices_ext : NULL;
    }
    void *mine = strncmp(name, "egl", 3) == 0 ? own(name) : NULL;
    return mine ? (__eglMustCastToProperFunctionPointerType)mine : f(name);
}

static __GLXextFuncPtr glx_lookup(const char *callee, const GLubyte *name) {
    note(callee);
    __GLXextFuncPtr (*f)(const GLubyte *) = (__GLXextFuncPtr(*)(const GLubyte *))next(callee);
    if (strcmp((const char *)name, "glXCreateContextAttribsARB") == 0) {
        ext_create_context_attribs = (void *)f(name);
        return ext_create_context_attribs ? (__GLXextFuncPtr)spy_create_context_attribs : NULL;
    }
    void *mine = strncmp((const char *)name, "glX", 3) == 0 ? own((const char *)name) : NULL;
    return mine ? (__GLXextFuncPtr)mine : f(name);
}

__GLXextFuncPtr glXGetProcAddressARB(const GLubyte *name) {
    return glx_lookup("glXGetProcAddressARB", name);
}

__GLXextFuncPtr glXGetProcAddress(const GLubyte *name) {
    return glx_lookup("glXGetProcAddress", name);
}
