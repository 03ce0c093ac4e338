/*
 * glcmdDeviceAdoptEGL: an EGL context made with raw EGL calls (Mesa's surfaceless platform, a
 * 32x24 pbuffer, OpenGL 4.5 core) is handed to glcmd, whose render thread makes it current and
 * presents on glcmdDevicePresent. Checked by content against a twin context used directly on this
 * thread: the initial viewport and scissor box (the pbuffer's size), and the pixels of
 * framebuffer 0 after the same clears. Also: after glcmdDeviceDestroy the context is released
 * (it can be made current here) and not destroyed (its pixels are still there); the refusals
 * (NULL getProcAddress, present on a headless device) are errors in C terms.
 * capi/tests/c_programs.rs compiles and runs it (linked with -lEGL).
 */
#include "glcmd.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <stdio.h>
#include <string.h>

#define GL_VIEWPORT 0x0BA2
#define GL_SCISSOR_BOX 0x0C10
#define GL_SCISSOR_TEST 0x0C11
#define GL_COLOR_BUFFER_BIT 0x00004000
#define GL_RGBA 0x1908
#define GL_UNSIGNED_BYTE 0x1401
#define W 32
#define H 24

static GlcmdGL gl;
static int failures, checks;

static void check(int ok, const char *what)
{
    checks++;
    if (!ok) {
        const char *message = "";
        glcmdLastError(&message);
        fprintf(stderr, "FAIL %s (last glcmd error: %s)\n", what, message ? message : "");
        failures++;
    } else {
        printf("ok   %s\n", what);
    }
}

struct raw {
    EGLDisplay display;
    EGLSurface surface;
    EGLContext context;
};

static struct raw make_context(void)
{
    struct raw r = {0};
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    EGLint major, minor, n = 0;
    EGLConfig config;
    const EGLint config_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                     EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
                                     EGL_NONE};
    const EGLint size[] = {EGL_WIDTH, W, EGL_HEIGHT, H, EGL_NONE};
    const EGLint version[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                              EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    r.display = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (!eglInitialize(r.display, &major, &minor) || !eglChooseConfig(r.display, config_attribs, &config, 1, &n) ||
        n != 1)
        return r;
    r.surface = eglCreatePbufferSurface(r.display, config, size);
    eglBindAPI(EGL_OPENGL_API);
    r.context = eglCreateContext(r.display, config, EGL_NO_CONTEXT, version);
    return r;
}

typedef void (*clear_color_fn)(float, float, float, float);
typedef void (*uint_fn)(unsigned);
typedef void (*scissor_fn)(int, int, int, int);
typedef void (*get_integerv_fn)(unsigned, int *);
typedef void (*read_pixels_fn)(int, int, int, int, unsigned, unsigned, void *);

/* The same clears, called directly on the context current on this thread. */
static void direct(int *viewport, int *scissor, unsigned char *pixels)
{
    clear_color_fn clear_color = (clear_color_fn)eglGetProcAddress("glClearColor");
    uint_fn clear = (uint_fn)eglGetProcAddress("glClear");
    uint_fn enable = (uint_fn)eglGetProcAddress("glEnable");
    uint_fn disable = (uint_fn)eglGetProcAddress("glDisable");
    scissor_fn scissor_box = (scissor_fn)eglGetProcAddress("glScissor");
    get_integerv_fn get = (get_integerv_fn)eglGetProcAddress("glGetIntegerv");
    read_pixels_fn read = (read_pixels_fn)eglGetProcAddress("glReadPixels");
    get(GL_VIEWPORT, viewport);
    get(GL_SCISSOR_BOX, scissor);
    clear_color(0.2f, 0.4f, 0.6f, 1.0f);
    clear(GL_COLOR_BUFFER_BIT);
    enable(GL_SCISSOR_TEST);
    scissor_box(4, 4, 10, 8);
    clear_color(1.0f, 0.5f, 0.0f, 1.0f);
    clear(GL_COLOR_BUFFER_BIT);
    disable(GL_SCISSOR_TEST);
    read(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
}

static void *lookup(const char *name)
{
    return (void *)eglGetProcAddress(name);
}

int main(void)
{
    static unsigned char through[W * H * 4], reference[W * H * 4], after[W * H * 4];
    int viewport[4] = {0}, scissor[4] = {0}, direct_viewport[4] = {0}, direct_scissor[4] = {0};
    struct raw adopted = make_context(), twin = make_context();
    GlcmdDevice *device = NULL, *headless = NULL;
    GlcmdAdoptEGL adopt;
    const char *message = NULL;

    check(adopted.context != EGL_NO_CONTEXT && twin.context != EGL_NO_CONTEXT, "two raw EGL contexts with pbuffers");
    check(glcmdLoadGL(&gl) == GLCMD_OK, "glcmdLoadGL");

    adopt.display = adopted.display;
    adopt.context = adopted.context;
    adopt.draw = adopted.surface;
    adopt.read = adopted.surface;
    adopt.getProcAddress = NULL;
    check(glcmdDeviceAdoptEGL(&adopt, NULL, &device) == GLCMD_ERROR_NULL_POINTER, "NULL getProcAddress refused");
    glcmdLastError(&message);
    check(message && strstr(message, "getProcAddress") != NULL, "the message names the NULL member");
    message = NULL;
    adopt.getProcAddress = lookup;
    check(glcmdDeviceAdoptEGL(&adopt, NULL, &device) == GLCMD_OK, "glcmdDeviceAdoptEGL");

    check(glcmdDeviceMakeCurrent(device) == GLCMD_OK, "glcmdDeviceMakeCurrent");
    gl.GetIntegerv(GL_VIEWPORT, viewport);
    gl.GetIntegerv(GL_SCISSOR_BOX, scissor);
    check(glcmdListBegin(device) == GLCMD_OK, "glcmdListBegin");
    gl.ClearColor(0.2f, 0.4f, 0.6f, 1.0f);
    gl.Clear(GL_COLOR_BUFFER_BIT);
    gl.Enable(GL_SCISSOR_TEST);
    gl.Scissor(4, 4, 10, 8);
    gl.ClearColor(1.0f, 0.5f, 0.0f, 1.0f);
    gl.Clear(GL_COLOR_BUFFER_BIT);
    gl.Disable(GL_SCISSOR_TEST);
    check(glcmdSubmit(device) == GLCMD_OK, "glcmdSubmit");
    check(glcmdDeviceMakeCurrent(device) == GLCMD_OK, "glcmdDeviceMakeCurrent after the submit");
    gl.ReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, through);
    check(glcmdLastError(NULL) == GLCMD_OK, "glReadPixels of framebuffer 0 through glcmd");
    check(glcmdDevicePresent(device) == GLCMD_OK, "glcmdDevicePresent");
    check(glcmdDeviceMakeCurrent(NULL) == GLCMD_OK, "glcmdDeviceMakeCurrent(NULL)");
    check(glcmdDeviceDestroy(device) == GLCMD_OK, "glcmdDeviceDestroy");

    eglBindAPI(EGL_OPENGL_API);
    check(eglMakeCurrent(twin.display, twin.surface, twin.surface, twin.context), "the twin, current here");
    direct(direct_viewport, direct_scissor, reference);
    eglMakeCurrent(twin.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);

    check(viewport[2] == W && viewport[3] == H && scissor[2] == W && scissor[3] == H,
          "the initial viewport and scissor box are the pbuffer's size");
    check(memcmp(viewport, direct_viewport, sizeof viewport) == 0 &&
              memcmp(scissor, direct_scissor, sizeof scissor) == 0,
          "viewport and scissor box as the GL gives them directly");
    check(memcmp(through, reference, sizeof through) == 0, "framebuffer 0: the same bytes as direct GL");
    check(memcmp(through, through + (5 * W + 5) * 4, 4) != 0, "the scissored clear is in the picture");

    check(eglMakeCurrent(adopted.display, adopted.surface, adopted.surface, adopted.context),
          "released by glcmdDeviceDestroy: current here now");
    ((read_pixels_fn)eglGetProcAddress("glReadPixels"))(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, after);
    check(memcmp(after, through, sizeof after) == 0, "not destroyed: its pixels are still there");
    eglMakeCurrent(adopted.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);

    check(glcmdDeviceCreateHeadless(NULL, &headless) == GLCMD_OK, "glcmdDeviceCreateHeadless");
    check(glcmdDevicePresent(headless) == GLCMD_ERROR_CONTEXT, "glcmdDevicePresent on a headless device");
    glcmdLastError(&message);
    check(message && strstr(message, "glcmdDeviceAdoptEGL") && !strstr(message, "Device::"),
          "its message names the C call to use");
    printf("message: %s\n", message ? message : "(none)");
    check(glcmdDeviceDestroy(headless) == GLCMD_OK, "glcmdDeviceDestroy(headless)");

    eglDestroyContext(adopted.display, adopted.context);
    eglDestroyContext(twin.display, twin.context);
    eglDestroySurface(adopted.display, adopted.surface);
    eglDestroySurface(twin.display, twin.surface);
    printf("adopt_egl: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
