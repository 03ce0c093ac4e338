/* The context of the small test programs (exit.c, loader.c): an OpenGL 4.5 core context current
 * on a 16x16 pbuffer of Mesa's surfaceless platform, or of the first EGL device where that
 * platform is missing. Define PROGRAM (the name `die` prefixes its message with) before
 * including. Static functions: each program compiles its own copy. */
#ifndef GLCMD_TEST_EGL_PBUFFER_H
#define GLCMD_TEST_EGL_PBUFFER_H

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif

static void die(const char *what) {
    fprintf(stderr, PROGRAM ": %s\n", what);
    exit(1);
}

static void make_egl_context(void) {
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!get_display) die("no eglGetPlatformDisplayEXT");
    EGLDisplay dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) {
        PFNEGLQUERYDEVICESEXTPROC query_devices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
        EGLDeviceEXT devices[8];
        EGLint n = 0;
        if (!query_devices || !query_devices(8, devices, &n) || n == 0) die("no EGL display");
        dpy = get_display(EGL_PLATFORM_DEVICE_EXT, devices[0], NULL);
        if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) die("eglInitialize");
    }
    const EGLint config_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                     EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
                                     EGL_NONE};
    EGLConfig config;
    EGLint count = 0;
    if (!eglChooseConfig(dpy, config_attribs, &config, 1, &count) || count == 0) die("eglChooseConfig");
    const EGLint surface_attribs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
    EGLSurface surface = eglCreatePbufferSurface(dpy, config, surface_attribs);
    if (surface == EGL_NO_SURFACE) die("eglCreatePbufferSurface");
    if (!eglBindAPI(EGL_OPENGL_API)) die("eglBindAPI");
    const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                      EGL_NONE};
    EGLContext context = eglCreateContext(dpy, config, EGL_NO_CONTEXT, context_attribs);
    if (context == EGL_NO_CONTEXT) die("eglCreateContext");
    if (!eglMakeCurrent(dpy, surface, surface, context)) die("eglMakeCurrent");
}

#endif
