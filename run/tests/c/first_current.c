/* The state of a context right after the program first makes it current, for every kind of
 * context: glcmd-run looks at a context the first time it is made current (to decide whether
 * it serves it), and nothing it does there may leave a trace the program can see. The first
 * argument names the kind: egl-core, egl-compat, egl-gles2, egl-gles3 (a pbuffer of Mesa's
 * surfaceless platform, or of the first EGL device), glx-core, glx-compat, glx-gles2 (a window
 * on $DISPLAY). Every context is a debug context, so that an error raised on it is also written
 * to its debug log. The program prints the error flag, the debug log (every message in it) and
 * the initial state of bindings, pixel store, program and debug output; tests/unchanged.rs runs
 * it directly and through glcmd-run and compares, and checks the values the specifications give
 * a new context. */
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <GL/glx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif

static void die(const char *what) {
    fprintf(stderr, "first_current: %s\n", what);
    exit(1);
}

/* 0: made current; 1: the driver cannot make this kind (printed, both runs agree). */
static int make_egl(const char *kind) {
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!get_display) die("no eglGetPlatformDisplayEXT");
    EGLDisplay dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) {
        PFNEGLQUERYDEVICESEXTPROC query = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
        EGLDeviceEXT devices[8];
        EGLint n = 0;
        if (!query || !query(8, devices, &n) || n == 0) die("no EGL display");
        dpy = get_display(EGL_PLATFORM_DEVICE_EXT, devices[0], NULL);
        if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) die("eglInitialize");
    }
    int es = strstr(kind, "gles") != NULL;
    const EGLint config_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                     es ? EGL_OPENGL_ES2_BIT : EGL_OPENGL_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
                                     EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE};
    EGLConfig config;
    EGLint count = 0;
    if (!eglChooseConfig(dpy, config_attribs, &config, 1, &count) || count == 0) die("eglChooseConfig");
    const EGLint surface_attribs[] = {EGL_WIDTH, 24, EGL_HEIGHT, 16, EGL_NONE};
    EGLSurface surface = eglCreatePbufferSurface(dpy, config, surface_attribs);
    if (surface == EGL_NO_SURFACE) die("eglCreatePbufferSurface");
    if (!eglBindAPI(es ? EGL_OPENGL_ES_API : EGL_OPENGL_API)) die("eglBindAPI");
    EGLint attribs[16], n = 0;
    attribs[n++] = EGL_CONTEXT_OPENGL_DEBUG;
    attribs[n++] = EGL_TRUE;
    if (strcmp(kind, "egl-core") == 0) {
        EGLint core[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5, EGL_CONTEXT_OPENGL_PROFILE_MASK,
                         EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT};
        memcpy(attribs + n, core, sizeof core);
        n += 6;
    } else if (strcmp(kind, "egl-compat") == 0) {
        attribs[n++] = EGL_CONTEXT_OPENGL_PROFILE_MASK;
        attribs[n++] = EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT;
    } else {
        attribs[n++] = EGL_CONTEXT_MAJOR_VERSION;
        attribs[n++] = strcmp(kind, "egl-gles3") == 0 ? 3 : 2;
    }
    attribs[n] = EGL_NONE;
    EGLContext context = eglCreateContext(dpy, config, EGL_NO_CONTEXT, attribs);
    if (context == EGL_NO_CONTEXT) {
        printf("unsupported %s\n", kind);
        return 1;
    }
    if (!eglMakeCurrent(dpy, surface, surface, context)) die("eglMakeCurrent");
    return 0;
}

static int make_glx(const char *kind) {
    Display *x = XOpenDisplay(NULL);
    if (!x) die("XOpenDisplay");
    static const int fb_attribs[] = {GLX_X_RENDERABLE, True, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT, GLX_RENDER_TYPE,
                                     GLX_RGBA_BIT, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8,
                                     GLX_ALPHA_SIZE, 8, GLX_DOUBLEBUFFER, True, None};
    int n = 0;
    GLXFBConfig *configs = glXChooseFBConfig(x, DefaultScreen(x), fb_attribs, &n);
    if (!configs || n == 0) die("glXChooseFBConfig");
    XVisualInfo *vi = glXGetVisualFromFBConfig(x, configs[0]);
    XSetWindowAttributes swa;
    memset(&swa, 0, sizeof swa);
    swa.colormap = XCreateColormap(x, RootWindow(x, vi->screen), vi->visual, AllocNone);
    Window win = XCreateWindow(x, RootWindow(x, vi->screen), 0, 0, 24, 16, 0, vi->depth, InputOutput, vi->visual,
                               CWColormap, &swa);
    XMapWindow(x, win);
    XSync(x, False);
    typedef GLXContext (*Create)(Display *, GLXFBConfig, GLXContext, Bool, const int *);
    Create create = (Create)glXGetProcAddressARB((const GLubyte *)"glXCreateContextAttribsARB");
    if (!create) die("no glXCreateContextAttribsARB");
    /* GLX_CONTEXT_MAJOR/MINOR_VERSION_ARB, GLX_CONTEXT_FLAGS_ARB (DEBUG), PROFILE_MASK (core 1,
     * compatibility 2, ES2 4). */
    int profile = strcmp(kind, "glx-core") == 0 ? 1 : strcmp(kind, "glx-compat") == 0 ? 2 : 4;
    int major = profile == 4 ? 2 : profile == 1 ? 4 : 3, minor = profile == 1 ? 5 : 0;
    int attribs[] = {0x2091, major, 0x2092, minor, 0x2094, 1, 0x9126, profile, None};
    GLXContext ctx = create(x, configs[0], NULL, True, attribs);
    XSync(x, False);
    if (!ctx) {
        printf("unsupported %s\n", kind);
        return 1;
    }
    if (!glXMakeCurrent(x, win, ctx)) die("glXMakeCurrent");
    return 0;
}

static void integer(const char *name, GLenum pname) {
    GLint v[4] = {-7, -7, -7, -7};
    glGetIntegerv(pname, v);
    printf("%s=%d\n", name, v[0]);
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 2) die("usage: first_current KIND");
    const char *kind = argv[1];
    if ((strncmp(kind, "egl-", 4) == 0 ? make_egl(kind) : make_glx(kind)) != 0) return 0;
    int gles2 = strstr(kind, "gles2") != NULL;
    /* First of all: the error flag, then the debug log the driver wrote. */
    printf("error=%#x\n", glGetError());
    GLint logged = -1;
    glGetIntegerv(GL_DEBUG_LOGGED_MESSAGES, &logged);
    printf("logged_messages=%d\n", logged);
    for (GLint i = 0; i < logged; i++) {
        char text[512] = {0};
        GLenum source = 0, type = 0, severity = 0;
        GLuint id = 0;
        if (glGetDebugMessageLog(1, sizeof text, &source, &type, &id, &severity, NULL, text) == 0) break;
        printf("message source=%#x type=%#x id=%u: %s\n", source, type, id, text);
    }
    printf("debug_output=%d\n", glIsEnabled(GL_DEBUG_OUTPUT));
    printf("debug_output_synchronous=%d\n", glIsEnabled(GL_DEBUG_OUTPUT_SYNCHRONOUS));
    integer("debug_group_stack_depth", GL_DEBUG_GROUP_STACK_DEPTH);
    integer("current_program", GL_CURRENT_PROGRAM);
    integer("array_buffer", GL_ARRAY_BUFFER_BINDING);
    integer("element_array_buffer", GL_ELEMENT_ARRAY_BUFFER_BINDING);
    integer("texture_2d", GL_TEXTURE_BINDING_2D);
    integer("active_texture", GL_ACTIVE_TEXTURE);
    integer("framebuffer", GL_FRAMEBUFFER_BINDING);
    integer("renderbuffer", GL_RENDERBUFFER_BINDING);
    integer("unpack_alignment", GL_UNPACK_ALIGNMENT);
    integer("pack_alignment", GL_PACK_ALIGNMENT);
    if (!gles2) {
        integer("unpack_row_length", GL_UNPACK_ROW_LENGTH);
        integer("pack_row_length", GL_PACK_ROW_LENGTH);
        integer("unpack_buffer", GL_PIXEL_UNPACK_BUFFER_BINDING);
        integer("pack_buffer", GL_PIXEL_PACK_BUFFER_BINDING);
        integer("uniform_buffer", GL_UNIFORM_BUFFER_BINDING);
        integer("vertex_array", GL_VERTEX_ARRAY_BINDING);
    }
    GLint vp[4] = {0};
    glGetIntegerv(GL_VIEWPORT, vp);
    printf("viewport=%d,%d,%d,%d\n", vp[0], vp[1], vp[2], vp[3]);
    printf("error_end=%#x\n", glGetError());
    return 0;
}
