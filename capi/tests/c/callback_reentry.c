/*
 * Re-entry from callbacks (issue 16, items 8 and 10).
 *
 * The error callback (glcmdSetErrorCallback): one whose own calls fail (a failing GL entry
 * point, a failing glcmd function) is called once per failure raised outside it, never again
 * from inside itself, while those inner calls still return their errors and set glcmdLastError
 * and glGetError; one that replaces or removes itself from inside takes effect for the next
 * failure. Before the guard, the first case recursed until the stack overflowed.
 *
 * The GL debug callback (glDebugMessageCallback), which runs on the render thread during replay:
 * a GL entry point called there without a current device is an error, not a crash; with the
 * device made current there, glDebugMessageCallback replaces the running callback, and the
 * replacement gets the next message.
 *
 * capi/tests/c_programs.rs compiles and runs it; .ci/valgrind.sh runs it under memcheck.
 */
#include "glcmd.h"

#include <stdio.h>
#include <string.h>

#define GL_NO_ERROR 0
#define GL_INVALID_VALUE 0x0501
#define GL_INVALID_OPERATION 0x0502
#define GL_BLEND 0x0BE2
#define GL_VIEWPORT 0x0BA2
#define GL_DEBUG_OUTPUT 0x92E0

static GlcmdGL gl;
static int failures, checks;

static void expect(GlcmdStatus got, GlcmdStatus want, const char *what)
{
    checks++;
    if (got != want) {
        fprintf(stderr, "FAIL %s: got %s, want %s\n", what, glcmdStatusName(got), glcmdStatusName(want));
        failures++;
    } else {
        printf("ok   %-66s %s\n", what, glcmdStatusName(got));
    }
}

static void expect_int(long got, long want, const char *what)
{
    checks++;
    if (got != want) {
        fprintf(stderr, "FAIL %s: got %ld, want %ld\n", what, got, want);
        failures++;
    } else {
        printf("ok   %-66s %ld\n", what, got);
    }
}

/* What the callbacks saw. */
static int calls, depth, max_depth, replacement_calls, debug_calls, counted_messages;
static GlcmdStatus seen_outer, inner[4];
static GLenum inner_gl[2];
static const void *replacement_user;
static int token;
static GlcmdDevice *the_device;

/* Counts a call and the deepest nesting of calls. */
static void enter(void)
{
    calls++;
    if (++depth > max_depth)
        max_depth = depth;
}

static void reset(void)
{
    calls = depth = max_depth = replacement_calls = 0;
    memset(inner, 0, sizeof inner);
    memset(inner_gl, 0, sizeof inner_gl);
}

/* Makes failing GL calls: a recording entry point with no list current, a query with a NULL
 * output. */
static void GLCMD_APIENTRY failing_gl(GLenum source, GLenum kind, GLuint id, GLenum severity, GLsizei length,
                                      const GLchar *message, const void *user)
{
    (void)source, (void)kind, (void)severity, (void)length, (void)message, (void)user;
    enter();
    seen_outer = glcmdLastError(NULL);
    expect_int((long)id, (long)seen_outer, "inside: glcmdLastError is the failure reported (id)");
    gl.Enable(GL_BLEND);
    inner[0] = glcmdLastError(NULL);
    inner_gl[0] = gl.GetError();
    gl.GetIntegerv(GL_VIEWPORT, NULL);
    inner[1] = glcmdLastError(NULL);
    inner_gl[1] = gl.GetError();
    depth--;
}

/* Makes failing glcmd calls. */
static void GLCMD_APIENTRY failing_glcmd(GLenum source, GLenum kind, GLuint id, GLenum severity, GLsizei length,
                                         const GLchar *message, const void *user)
{
    (void)source, (void)kind, (void)id, (void)severity, (void)length, (void)message, (void)user;
    enter();
    inner[0] = glcmdFrameEnd(NULL);
    inner[1] = glcmdListSubmit(NULL, 0);
    inner[2] = glcmdSubmit(NULL);
    depth--;
}

static void GLCMD_APIENTRY replacement(GLenum source, GLenum kind, GLuint id, GLenum severity, GLsizei length,
                                       const GLchar *message, const void *user)
{
    (void)source, (void)kind, (void)id, (void)severity, (void)length, (void)message;
    replacement_calls++;
    replacement_user = user;
}

/* Replaces itself, then fails: the failure must reach neither it nor its replacement. */
static void GLCMD_APIENTRY replacing(GLenum source, GLenum kind, GLuint id, GLenum severity, GLsizei length,
                                     const GLchar *message, const void *user)
{
    (void)source, (void)kind, (void)id, (void)severity, (void)length, (void)message, (void)user;
    enter();
    inner[0] = glcmdSetErrorCallback(replacement, &token);
    inner[1] = glcmdFrameEnd(NULL);
    depth--;
}

/* Removes itself, then fails. */
static void GLCMD_APIENTRY clearing(GLenum source, GLenum kind, GLuint id, GLenum severity, GLsizei length,
                                    const GLchar *message, const void *user)
{
    (void)source, (void)kind, (void)id, (void)severity, (void)length, (void)message, (void)user;
    enter();
    inner[0] = glcmdSetErrorCallback(NULL, NULL);
    gl.Enable(GL_BLEND);
    inner[1] = glcmdLastError(NULL);
    depth--;
}

/* The GL debug callback's replacement: counts the messages it gets. */
static void GLCMD_APIENTRY counting(GLenum source, GLenum kind, GLuint id, GLenum severity, GLsizei length,
                                    const GLchar *message, const void *user)
{
    (void)source, (void)kind, (void)id, (void)severity, (void)length, (void)message;
    if (user == &token)
        counted_messages++;
}

/* The GL debug callback, on the render thread: glDebugMessageCallback there without a current
 * device fails; with the device made current it replaces this callback. */
static void GLCMD_APIENTRY debug_replacing(GLenum source, GLenum kind, GLuint id, GLenum severity, GLsizei length,
                                           const GLchar *message, const void *user)
{
    (void)source, (void)kind, (void)id, (void)severity, (void)length, (void)message, (void)user;
    debug_calls++;
    gl.DebugMessageCallback(counting, &token);
    inner[0] = glcmdLastError(NULL);
    inner[1] = glcmdDeviceMakeCurrent(the_device);
    gl.DebugMessageCallback(counting, &token);
    inner[2] = glcmdLastError(NULL);
    inner[3] = glcmdDeviceMakeCurrent(NULL);
}

/* Submits a list whose replay raises GL_INVALID_ENUM, and waits for it (a query). */
static void raise_gl_error(GlcmdDevice *device)
{
    GLint viewport[4];
    expect(glcmdListBegin(device), GLCMD_OK, "glcmdListBegin");
    /* The device's context has no debug flag: its output starts off, as the GL's does. */
    gl.Enable(GL_DEBUG_OUTPUT);
    gl.Enable(0x1234);
    expect(glcmdSubmit(device), GLCMD_OK, "glcmdSubmit(glEnable(0x1234))");
    gl.GetIntegerv(GL_VIEWPORT, viewport);
    expect(glcmdLastError(NULL), GLCMD_OK, "glGetIntegerv after it (waits for its replay)");
}

/* The device still answers, and the thread's error state is clean. */
static void expect_alive(const char *what)
{
    GLint viewport[4] = {-1, -1, -1, -1};
    gl.GetIntegerv(GL_VIEWPORT, viewport);
    expect(glcmdLastError(NULL), GLCMD_OK, what);
    expect_int(viewport[0], 0, "... glGetIntegerv(GL_VIEWPORT) answered");
}

static void error_callback_cases(void)
{
    /* Failing GL calls inside: one call per outside failure, each inner failure recorded. */
    reset();
    expect(glcmdSetErrorCallback(failing_gl, NULL), GLCMD_OK, "glcmdSetErrorCallback(failing_gl)");
    expect(glcmdFrameEnd(NULL), GLCMD_ERROR_INVALID_HANDLE, "a failing glcmd call (outside)");
    expect_int(calls, 1, "failing_gl: called once");
    expect_int(max_depth, 1, "... never from inside itself");
    expect(inner[0], GLCMD_ERROR_NO_CURRENT_LIST, "... inner glEnable without a list: its last error");
    expect_int(inner_gl[0], GL_INVALID_OPERATION, "... and its GL error");
    expect(inner[1], GLCMD_ERROR_NULL_POINTER, "... inner glGetIntegerv(NULL): noted as its last error");
    expect_int(inner_gl[1], GL_NO_ERROR, "... with no GL error (the GL's answer is the call's)");
    reset();
    gl.Enable(GL_BLEND);
    expect_int(calls, 1, "a failing GL call (outside): failing_gl called once");
    expect_int(max_depth, 1, "... never from inside itself");
    expect_int(gl.GetError(), GL_NO_ERROR, "... the inner GL errors were read inside");
    expect_alive("the device answers after failing_gl");

    /* Failing glcmd calls inside. */
    reset();
    expect(glcmdSetErrorCallback(failing_glcmd, NULL), GLCMD_OK, "glcmdSetErrorCallback(failing_glcmd)");
    gl.Enable(GL_BLEND);
    expect_int(gl.GetError(), GL_INVALID_OPERATION, "a failing GL call (outside): its GL error");
    expect_int(calls, 1, "failing_glcmd: called once");
    expect_int(max_depth, 1, "... never from inside itself");
    expect(inner[0], GLCMD_ERROR_INVALID_HANDLE, "... inner glcmdFrameEnd(NULL) returned its error");
    expect(inner[1], GLCMD_ERROR_INVALID_HANDLE, "... inner glcmdListSubmit(NULL, 0) returned its error");
    expect(inner[2], GLCMD_ERROR_INVALID_HANDLE, "... inner glcmdSubmit(NULL) returned its error");
    expect(glcmdLastError(NULL), GLCMD_ERROR_INVALID_HANDLE, "... the last inner failure is the last error");

    /* Replacing itself: the replacement gets the next failure, not those raised inside. */
    reset();
    expect(glcmdSetErrorCallback(replacing, NULL), GLCMD_OK, "glcmdSetErrorCallback(replacing)");
    expect(glcmdFrameEnd(NULL), GLCMD_ERROR_INVALID_HANDLE, "a failing glcmd call (outside)");
    expect_int(calls, 1, "replacing: called once");
    expect(inner[0], GLCMD_OK, "... glcmdSetErrorCallback(replacement) inside");
    expect(inner[1], GLCMD_ERROR_INVALID_HANDLE, "... then a failing call inside");
    expect_int(replacement_calls, 0, "... which did not reach the replacement");
    expect(glcmdFrameEnd(NULL), GLCMD_ERROR_INVALID_HANDLE, "the next failing call (outside)");
    expect_int(calls, 1, "... did not reach replacing");
    expect_int(replacement_calls, 1, "... reached the replacement");
    expect_int(replacement_user == &token, 1, "... with its user pointer");

    /* Removing itself: no later call, the failure is still recorded. */
    reset();
    expect(glcmdSetErrorCallback(clearing, NULL), GLCMD_OK, "glcmdSetErrorCallback(clearing)");
    expect(glcmdFrameEnd(NULL), GLCMD_ERROR_INVALID_HANDLE, "a failing glcmd call (outside)");
    expect_int(calls, 1, "clearing: called once");
    expect(inner[0], GLCMD_OK, "... glcmdSetErrorCallback(NULL) inside");
    expect(inner[1], GLCMD_ERROR_NO_CURRENT_LIST, "... then a failing GL call inside");
    expect_int(gl.GetError(), GL_INVALID_OPERATION, "... its GL error");
    expect(glcmdFrameEnd(NULL), GLCMD_ERROR_INVALID_HANDLE, "the next failing call (outside)");
    expect_int(calls, 1, "... called no callback");
    expect_int(replacement_calls, 0, "... not the earlier one either");
    expect(glcmdLastError(NULL), GLCMD_ERROR_INVALID_HANDLE, "... and is the last error");
}

static void debug_callback_cases(GlcmdDevice *device)
{
    reset();
    the_device = device;
    gl.DebugMessageCallback(debug_replacing, NULL);
    expect(glcmdLastError(NULL), GLCMD_OK, "glDebugMessageCallback(debug_replacing)");
    raise_gl_error(device);
    expect_int(debug_calls, 1, "debug_replacing: called once, on the render thread");
    expect(inner[0], GLCMD_ERROR_NO_CURRENT_DEVICE, "... glDebugMessageCallback there, no device current");
    expect(inner[1], GLCMD_OK, "... glcmdDeviceMakeCurrent there");
    expect(inner[2], GLCMD_OK, "... glDebugMessageCallback(counting) there: served");
    expect(inner[3], GLCMD_OK, "... glcmdDeviceMakeCurrent(NULL) there");
    raise_gl_error(device);
    expect_int(debug_calls, 1, "the next message: not to the replaced callback");
    expect_int(counted_messages, 1, "... to its replacement");
    gl.DebugMessageCallback(NULL, NULL);
    expect(glcmdLastError(NULL), GLCMD_OK, "glDebugMessageCallback(NULL)");
    raise_gl_error(device);
    expect_int(counted_messages, 1, "removed: no later message");
    expect_alive("the device answers after the debug callbacks");
}

int main(void)
{
    GlcmdDevice *device = NULL;

    expect(glcmdLoadGL(&gl), GLCMD_OK, "glcmdLoadGL");
    expect(glcmdDeviceCreateHeadless(NULL, &device), GLCMD_OK, "glcmdDeviceCreateHeadless");
    expect(glcmdDeviceMakeCurrent(device), GLCMD_OK, "glcmdDeviceMakeCurrent");
    error_callback_cases();
    debug_callback_cases(device);
    expect(glcmdDeviceDestroy(device), GLCMD_OK, "glcmdDeviceDestroy");
    printf("callback_reentry: %d checks, %d failures\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
