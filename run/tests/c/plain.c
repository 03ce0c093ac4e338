/* A GL program in plain single-threaded style, as nobody writes it for glcmd: it makes its own
 * context (EGL: a 64x48 pbuffer on Mesa's surfaceless platform or the device platform; GLX: a
 * 64x48 window, with `glx` as the first argument), links the GL functions it calls directly
 * (libGL), and prints every answer it gets, one per line. tests/programs.rs runs it directly and
 * through glcmd-run and compares the two outputs line by line (differential), and checks the
 * answers a correct GL gives.
 *
 * Built with -DCOMPAT, it asks for a compatibility-profile context (glcmd-run lets it run directly).
 * Built with -DVIA_DLOPEN (implies VIA_PROC), it links no GL library: it opens libEGL.so.1 with
 * dlopen and takes every EGL function from that handle with dlsym, as waffle (piglit), SDL and
 * GLFW do.
 * Built with -DVIA_PROC, every GL function is taken from the get-proc-address function
 * (eglGetProcAddress, or glXGetProcAddressARB for GLX) instead of the directly linked symbol. */
#ifdef VIA_DLOPEN
#define VIA_PROC 1
#define _GNU_SOURCE 1
#include <dlfcn.h>
#define EGL_NO_PROTOTYPES 1
#endif
#ifndef VIA_PROC
#define GL_GLEXT_PROTOTYPES 1
#endif
#include <GL/glcorearb.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef WITH_GLX
#include <GL/glx.h>
#define GET_PROC_GLX(n) glXGetProcAddressARB((const GLubyte *)(n))
#else
#define GET_PROC_GLX(n) NULL
#endif

static void die(const char *what) {
    fprintf(stderr, "plain: %s\n", what);
    exit(1);
}

#ifdef VIA_DLOPEN
#define EGL_FUNCS \
    E(PFNEGLGETPROCADDRESSPROC, eglGetProcAddress) \
    E(PFNEGLINITIALIZEPROC, eglInitialize) \
    E(PFNEGLCHOOSECONFIGPROC, eglChooseConfig) \
    E(PFNEGLCREATEPBUFFERSURFACEPROC, eglCreatePbufferSurface) \
    E(PFNEGLBINDAPIPROC, eglBindAPI) \
    E(PFNEGLCREATECONTEXTPROC, eglCreateContext) \
    E(PFNEGLMAKECURRENTPROC, eglMakeCurrent) \
    E(PFNEGLGETCURRENTCONTEXTPROC, eglGetCurrentContext) \
    E(PFNEGLGETCURRENTSURFACEPROC, eglGetCurrentSurface) \
    E(PFNEGLGETCURRENTDISPLAYPROC, eglGetCurrentDisplay) \
    E(PFNEGLSWAPBUFFERSPROC, eglSwapBuffers)
#define E(T, n) static T d_##n;
EGL_FUNCS
#undef E
#define eglGetProcAddress d_eglGetProcAddress
#define eglInitialize d_eglInitialize
#define eglChooseConfig d_eglChooseConfig
#define eglCreatePbufferSurface d_eglCreatePbufferSurface
#define eglBindAPI d_eglBindAPI
#define eglCreateContext d_eglCreateContext
#define eglMakeCurrent d_eglMakeCurrent
#define eglGetCurrentContext d_eglGetCurrentContext
#define eglGetCurrentSurface d_eglGetCurrentSurface
#define eglGetCurrentDisplay d_eglGetCurrentDisplay
#define eglSwapBuffers d_eglSwapBuffers
static void open_egl(void) {
    void *lib = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) die("dlopen libEGL.so.1");
#define E(T, n)                                                                                        \
    d_##n = (T)dlsym(lib, #n);                                                                         \
    if (!d_##n) die("dlsym " #n);
    EGL_FUNCS
#undef E
}
#endif

#ifdef VIA_PROC
#define FUNCS \
    X(PFNGLCREATESHADERPROC, glCreateShader) \
    X(PFNGLSHADERSOURCEPROC, glShaderSource) \
    X(PFNGLCOMPILESHADERPROC, glCompileShader) \
    X(PFNGLGETSHADERIVPROC, glGetShaderiv) \
    X(PFNGLREADPIXELSPROC, glReadPixels) \
    X(PFNGLGETINTEGERVPROC, glGetIntegerv) \
    X(PFNGLGETERRORPROC, glGetError) \
    X(PFNGLCREATEPROGRAMPROC, glCreateProgram) \
    X(PFNGLATTACHSHADERPROC, glAttachShader) \
    X(PFNGLLINKPROGRAMPROC, glLinkProgram) \
    X(PFNGLGETPROGRAMIVPROC, glGetProgramiv) \
    X(PFNGLDELETESHADERPROC, glDeleteShader) \
    X(PFNGLGETUNIFORMLOCATIONPROC, glGetUniformLocation) \
    X(PFNGLGETUNIFORMBLOCKINDEXPROC, glGetUniformBlockIndex) \
    X(PFNGLGETACTIVEUNIFORMBLOCKIVPROC, glGetActiveUniformBlockiv) \
    X(PFNGLUSEPROGRAMPROC, glUseProgram) \
    X(PFNGLBINDBUFFERPROC, glBindBuffer) \
    X(PFNGLENABLEPROC, glEnable) \
    X(PFNGLGENVERTEXARRAYSPROC, glGenVertexArrays) \
    X(PFNGLBINDVERTEXARRAYPROC, glBindVertexArray) \
    X(PFNGLGENBUFFERSPROC, glGenBuffers) \
    X(PFNGLBUFFERDATAPROC, glBufferData) \
    X(PFNGLMAPBUFFERRANGEPROC, glMapBufferRange) \
    X(PFNGLUNMAPBUFFERPROC, glUnmapBuffer) \
    X(PFNGLVERTEXATTRIBPOINTERPROC, glVertexAttribPointer) \
    X(PFNGLENABLEVERTEXATTRIBARRAYPROC, glEnableVertexAttribArray) \
    X(PFNGLBINDBUFFERBASEPROC, glBindBufferBase) \
    X(PFNGLPIXELSTOREIPROC, glPixelStorei) \
    X(PFNGLFLUSHPROC, glFlush) \
    X(PFNGLGENTEXTURESPROC, glGenTextures) \
    X(PFNGLBINDTEXTUREPROC, glBindTexture) \
    X(PFNGLTEXIMAGE2DPROC, glTexImage2D) \
    X(PFNGLTEXPARAMETERIPROC, glTexParameteri) \
    X(PFNGLGETTEXIMAGEPROC, glGetTexImage) \
    X(PFNGLCLEARCOLORPROC, glClearColor) \
    X(PFNGLCLEARPROC, glClear) \
    X(PFNGLUNIFORM1IPROC, glUniform1i) \
    X(PFNGLUNIFORM2FPROC, glUniform2f) \
    X(PFNGLDRAWARRAYSPROC, glDrawArrays) \
    X(PFNGLFENCESYNCPROC, glFenceSync) \
    X(PFNGLCLIENTWAITSYNCPROC, glClientWaitSync) \
    X(PFNGLDELETESYNCPROC, glDeleteSync) \
    X(PFNGLDELETEBUFFERSPROC, glDeleteBuffers) \
    X(PFNGLDELETETEXTURESPROC, glDeleteTextures) \
    X(PFNGLISBUFFERPROC, glIsBuffer) \
    X(PFNGLISTEXTUREPROC, glIsTexture) \
    X(PFNGLISPROGRAMPROC, glIsProgram) \
    X(PFNGLDELETEPROGRAMPROC, glDeleteProgram) \
    X(PFNGLFINISHPROC, glFinish)
#define X(T, n) static T p_##n;
FUNCS
#undef X
#define glCreateShader p_glCreateShader
#define glShaderSource p_glShaderSource
#define glCompileShader p_glCompileShader
#define glGetShaderiv p_glGetShaderiv
#define glReadPixels p_glReadPixels
#define glGetIntegerv p_glGetIntegerv
#define glGetError p_glGetError
#define glCreateProgram p_glCreateProgram
#define glAttachShader p_glAttachShader
#define glLinkProgram p_glLinkProgram
#define glGetProgramiv p_glGetProgramiv
#define glDeleteShader p_glDeleteShader
#define glGetUniformLocation p_glGetUniformLocation
#define glGetUniformBlockIndex p_glGetUniformBlockIndex
#define glGetActiveUniformBlockiv p_glGetActiveUniformBlockiv
#define glUseProgram p_glUseProgram
#define glBindBuffer p_glBindBuffer
#define glEnable p_glEnable
#define glGenVertexArrays p_glGenVertexArrays
#define glBindVertexArray p_glBindVertexArray
#define glGenBuffers p_glGenBuffers
#define glBufferData p_glBufferData
#define glMapBufferRange p_glMapBufferRange
#define glUnmapBuffer p_glUnmapBuffer
#define glVertexAttribPointer p_glVertexAttribPointer
#define glEnableVertexAttribArray p_glEnableVertexAttribArray
#define glBindBufferBase p_glBindBufferBase
#define glPixelStorei p_glPixelStorei
#define glFlush p_glFlush
#define glGenTextures p_glGenTextures
#define glBindTexture p_glBindTexture
#define glTexImage2D p_glTexImage2D
#define glTexParameteri p_glTexParameteri
#define glGetTexImage p_glGetTexImage
#define glClearColor p_glClearColor
#define glClear p_glClear
#define glUniform1i p_glUniform1i
#define glUniform2f p_glUniform2f
#define glDrawArrays p_glDrawArrays
#define glFenceSync p_glFenceSync
#define glClientWaitSync p_glClientWaitSync
#define glDeleteSync p_glDeleteSync
#define glDeleteBuffers p_glDeleteBuffers
#define glDeleteTextures p_glDeleteTextures
#define glIsBuffer p_glIsBuffer
#define glIsTexture p_glIsTexture
#define glIsProgram p_glIsProgram
#define glDeleteProgram p_glDeleteProgram
#define glFinish p_glFinish
#endif

#define W 64
#define H 48


#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif

static void make_egl_context(void) {
#ifdef VIA_DLOPEN
    open_egl();
#endif
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
    const EGLint surface_attribs[] = {EGL_WIDTH, W, EGL_HEIGHT, H, EGL_NONE};
    EGLSurface surface = eglCreatePbufferSurface(dpy, config, surface_attribs);
    if (surface == EGL_NO_SURFACE) die("eglCreatePbufferSurface");
    if (!eglBindAPI(EGL_OPENGL_API)) die("eglBindAPI");
#ifdef COMPAT
    const EGLint context_attribs[] = {EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT,
                                      EGL_NONE};
#else
    const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                      EGL_NONE};
#endif
    EGLContext context = eglCreateContext(dpy, config, EGL_NO_CONTEXT, context_attribs);
    if (context == EGL_NO_CONTEXT) die("eglCreateContext");
    if (!eglMakeCurrent(dpy, surface, surface, context)) die("eglMakeCurrent");
    printf("current_context_matches=%d\n", eglGetCurrentContext() == context);
    printf("current_surface_matches=%d\n", eglGetCurrentSurface(EGL_DRAW) == surface);
}

static void (*swap)(void);
static EGLDisplay swap_dpy;
static EGLSurface swap_surface;
static void swap_egl(void) { eglSwapBuffers(swap_dpy, swap_surface); }

#ifdef WITH_GLX
static Display *x_dpy;
static Window x_win;
static void swap_glx(void) { glXSwapBuffers(x_dpy, x_win); }

static void make_glx_context(void) {
    x_dpy = XOpenDisplay(NULL);
    if (!x_dpy) die("XOpenDisplay");
    static const int fb_attribs[] = {GLX_X_RENDERABLE, True, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT, GLX_RENDER_TYPE,
                                     GLX_RGBA_BIT, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8,
                                     GLX_ALPHA_SIZE, 8, GLX_DOUBLEBUFFER, True, None};
    int n = 0;
    GLXFBConfig *configs = glXChooseFBConfig(x_dpy, DefaultScreen(x_dpy), fb_attribs, &n);
    if (!configs || n == 0) die("glXChooseFBConfig");
    XVisualInfo *vi = glXGetVisualFromFBConfig(x_dpy, configs[0]);
    XSetWindowAttributes swa;
    memset(&swa, 0, sizeof swa);
    swa.colormap = XCreateColormap(x_dpy, RootWindow(x_dpy, vi->screen), vi->visual, AllocNone);
    x_win = XCreateWindow(x_dpy, RootWindow(x_dpy, vi->screen), 0, 0, W, H, 0, vi->depth, InputOutput, vi->visual,
                          CWColormap, &swa);
    XMapWindow(x_dpy, x_win);
    XSync(x_dpy, False);
    typedef GLXContext (*CreateContextAttribs)(Display *, GLXFBConfig, GLXContext, Bool, const int *);
    CreateContextAttribs create =
        (CreateContextAttribs)glXGetProcAddressARB((const GLubyte *)"glXCreateContextAttribsARB");
    if (!create) die("no glXCreateContextAttribsARB");
    static const int ctx_attribs[] = {0x2091 /* MAJOR */, 4, 0x2092 /* MINOR */, 5, 0x9126 /* PROFILE_MASK */,
                                      1 /* CORE */, None};
    GLXContext ctx = create(x_dpy, configs[0], NULL, True, ctx_attribs);
    if (!ctx) die("glXCreateContextAttribsARB");
    if (!glXMakeCurrent(x_dpy, x_win, ctx)) die("glXMakeCurrent");
    printf("current_context_matches=%d\n", glXGetCurrentContext() == ctx);
    printf("current_surface_matches=%d\n", glXGetCurrentDrawable() == x_win);
}
#endif

static const char *VS = "#version 450 core\n"
                        "layout(location = 0) in vec2 pos;\n"
                        "layout(std140, binding = 0) uniform Block { vec4 tint; };\n"
                        "uniform vec2 offset;\n"
                        "out vec4 color;\n"
                        "void main() { color = tint; gl_Position = vec4(pos + offset, 0.0, 1.0); }\n";
static const char *FS = "#version 450 core\n"
                        "in vec4 color;\n"
                        "uniform sampler2D tex;\n"
                        "out vec4 frag;\n"
                        "void main() { frag = color * texture(tex, vec2(0.5)); }\n";
static const char *BAD_FS = "#version 450 core\nvoid main() { this is not glsl; }\n";

static GLuint shader(GLenum type, const char *src) {
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = -1;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    printf("compile_status=%d\n", ok);
    return s;
}

/* Sums the pixels of the bound read framebuffer with a position weight. */
static void print_pixels(const char *what) {
    static unsigned char px[W * H * 4];
    memset(px, 0xAB, sizeof px);
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
    unsigned long long sum = 0;
    for (int i = 0; i < W * H * 4; i++) sum = sum * 31 + px[i];
    printf("%s_hash=%llu\n", what, sum);
    printf("%s_center=%d,%d,%d,%d\n", what, px[(H / 2 * W + W / 2) * 4], px[(H / 2 * W + W / 2) * 4 + 1],
           px[(H / 2 * W + W / 2) * 4 + 2], px[(H / 2 * W + W / 2) * 4 + 3]);
    printf("%s_corner=%d,%d,%d,%d\n", what, px[0], px[1], px[2], px[3]);
}

int main(int argc, char **argv) {
    int glx = argc > 1 && strcmp(argv[1], "glx") == 0;
    if (glx) {
#ifdef WITH_GLX
        make_glx_context();
        swap = swap_glx;
#else
        die("built without GLX");
#endif
    } else {
        make_egl_context();
        swap_dpy = eglGetCurrentDisplay();
        swap_surface = eglGetCurrentSurface(EGL_DRAW);
        swap = swap_egl;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
#ifdef VIA_PROC
#define X(T, n)                                                                                        \
    p_##n = glx ? (T)GET_PROC_GLX(#n) : (T)eglGetProcAddress(#n);                                      \
    if (!p_##n) die("no " #n);
    FUNCS
#undef X
#endif

    GLint v[4] = {-1, -1, -1, -1};
    glGetIntegerv(GL_VIEWPORT, v);
    printf("viewport=%d,%d,%d,%d\n", v[0], v[1], v[2], v[3]);
    glGetIntegerv(GL_SCISSOR_BOX, v);
    printf("scissor=%d,%d,%d,%d\n", v[0], v[1], v[2], v[3]);
    GLint fb = -1;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &fb);
    printf("framebuffer=%d\n", fb);
    printf("error_start=%#x\n", glGetError());

    /* Compile and link with status checks, as every tutorial does. */
    GLuint vs = shader(GL_VERTEX_SHADER, VS);
    GLuint fs = shader(GL_FRAGMENT_SHADER, FS);
    GLuint bad = shader(GL_FRAGMENT_SHADER, BAD_FS);
    GLint log_length = -1;
    glGetShaderiv(bad, GL_INFO_LOG_LENGTH, &log_length);
    printf("bad_log_nonempty=%d\n", log_length > 1);
    GLuint program = glCreateProgram();
    glAttachShader(program, vs);
    glAttachShader(program, fs);
    glLinkProgram(program);
    GLint linked = -1;
    glGetProgramiv(program, GL_LINK_STATUS, &linked);
    printf("link_status=%d\n", linked);
    glDeleteShader(vs);
    glDeleteShader(fs);
    glDeleteShader(bad);
    GLint offset = glGetUniformLocation(program, "offset");
    GLint tex_loc = glGetUniformLocation(program, "tex");
    printf("uniform_offset_found=%d\n", offset >= 0);
    printf("uniform_missing=%d\n", glGetUniformLocation(program, "nothing"));
    GLuint block = glGetUniformBlockIndex(program, "Block");
    printf("block_index=%u\n", block);
    GLint block_size = -1;
    glGetActiveUniformBlockiv(program, block, GL_UNIFORM_BLOCK_DATA_SIZE, &block_size);
    printf("block_size=%d\n", block_size);

    /* Refused calls: the GL's errors, and state as the GL keeps it. */
    glUseProgram(987654);
    printf("error_use_program=%#x\n", glGetError());
    GLint cur = -1;
    glGetIntegerv(GL_CURRENT_PROGRAM, &cur);
    printf("current_program_after_refused=%d\n", cur);
    glBindBuffer(GL_ARRAY_BUFFER, 987654);
    printf("error_bind_buffer=%#x\n", glGetError());
    glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &cur);
    printf("array_buffer_after_refused=%d\n", cur);
    glEnable(0x1234);
    printf("error_enable=%#x\n", glGetError());
    printf("error_none=%#x\n", glGetError());

    /* Bind, then map the bound buffer, then write through the map. */
    GLuint vao, vbo, ubo;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, 6 * sizeof(float), NULL, GL_STATIC_DRAW);
    glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &cur);
    printf("array_buffer_is_vbo=%d\n", cur == (GLint)vbo);
    float *map = (float *)glMapBufferRange(GL_ARRAY_BUFFER, 0, 6 * sizeof(float),
                                           GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
    printf("map_nonnull=%d\n", map != NULL);
    if (map) {
        const float tri[6] = {-1.0f, -1.0f, 1.0f, -1.0f, 0.0f, 1.0f};
        memcpy(map, tri, sizeof tri);
        printf("unmap=%d\n", glUnmapBuffer(GL_ARRAY_BUFFER));
    }
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, (const void *)0);
    glEnableVertexAttribArray(0);
    const float tint[4] = {1.0f, 0.5f, 0.25f, 1.0f};
    glGenBuffers(1, &ubo);
    glBindBuffer(GL_UNIFORM_BUFFER, ubo);
    glBufferData(GL_UNIFORM_BUFFER, sizeof tint, tint, GL_STATIC_DRAW);
    glBindBufferBase(GL_UNIFORM_BUFFER, 0, ubo);

    /* A texture uploaded with a pixel-store state set before a flush. */
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 3);
    glFlush();
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    const unsigned char texels[2 * 3 * 3] = {255, 255, 255, 200, 200, 200, 9, 9, 9,
                                             100, 100, 100, 50, 50, 50, 9, 9, 9};
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, 2, 2, 0, GL_RGB, GL_UNSIGNED_BYTE, texels);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    unsigned char back[4 * 4] = {0};
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, back);
    printf("texels=%d,%d,%d,%d\n", back[0], back[4], back[8], back[12]);

    /* Draw into the default framebuffer, read it back, swap. */
    glClearColor(0.0f, 0.25f, 0.5f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glUseProgram(program);
    glUniform1i(tex_loc, 0);
    glUniform2f(offset, 0.0f, 0.0f);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    print_pixels("frame0");
    printf("error_after_draw=%#x\n", glGetError());
    GLsync fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    GLenum waited = glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000ull);
    printf("fence_signaled=%d\n", waited == GL_ALREADY_SIGNALED || waited == GL_CONDITION_SATISFIED);
    glDeleteSync(fence);
    swap();

    /* A second frame, then deletes with no list, checked with glIs*. */
    glClearColor(0.5f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glUniform2f(offset, 0.5f, 0.0f);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    print_pixels("frame1");
    swap();
    glDeleteBuffers(1, &vbo);
    glDeleteTextures(1, &tex);
    printf("is_buffer_after_delete=%d\n", glIsBuffer(vbo));
    printf("is_texture_after_delete=%d\n", glIsTexture(tex));
    printf("is_program=%d\n", glIsProgram(program));
    glDeleteProgram(program);
    glFinish();
    printf("error_end=%#x\n", glGetError());
    printf("done=1\n");
    return 0;
}
