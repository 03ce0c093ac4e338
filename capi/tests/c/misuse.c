/*
 * Misuse of glcmd's C ABI, each of which must be an error (a status, glcmdLastError, the error
 * callback, a GL error), never a crash: no current list, the wrong thread, a destroyed device,
 * forged handles, NULL where an array is required, negative counts. capi/tests/c_programs.rs
 * compiles and runs it; .ci/valgrind.sh runs it under memcheck.
 */
#include "glcmd.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* GL enumerants used here (glcmd.h declares no enumerants). */
#define GL_NO_ERROR 0
#define GL_INVALID_VALUE 0x0501
#define GL_INVALID_OPERATION 0x0502
#define GL_TEXTURE_2D 0x0DE1
#define GL_MAX_TEXTURE_SIZE 0x0D33
#define GL_COLOR_BUFFER_BIT 0x00004000
#define GL_RGBA 0x1908
#define GL_UNSIGNED_BYTE 0x1401
#define GL_FRAGMENT_SHADER 0x8B30
#define GL_SAMPLES_PASSED 0x8914
#define GL_QUERY_COUNTER_BITS 0x8864

static GlcmdGL gl;
static int failures, checks;
static int callbacks;

static void GLCMD_APIENTRY on_error(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                    const GLchar *message, const void *user)
{
    (void)source, (void)type, (void)id, (void)severity, (void)user;
    if (message == NULL || (GLsizei)strlen(message) != length)
        fprintf(stderr, "callback: bad message\n"), failures++;
    __atomic_fetch_add(&callbacks, 1, __ATOMIC_SEQ_CST);
}

/* Checks that the last failure of this thread was `want` (and clears it). */
static void expect_last(GlcmdStatus want, const char *what)
{
    const char *message = NULL;
    GlcmdStatus got = glcmdLastError(&message);
    checks++;
    if (got != want || message == NULL) {
        fprintf(stderr, "FAIL %s: got %s (%s), want %s\n", what, glcmdStatusName(got), message ? message : "NULL",
                glcmdStatusName(want));
        failures++;
    } else {
        printf("ok   %-58s %s%s%s\n", what, glcmdStatusName(got), *message ? ": " : "", message);
    }
}

static void expect(GlcmdStatus got, GlcmdStatus want, const char *what)
{
    checks++;
    if (got != want) {
        fprintf(stderr, "FAIL %s: got %s, want %s\n", what, glcmdStatusName(got), glcmdStatusName(want));
        failures++;
    } else {
        printf("ok   %-58s %s\n", what, glcmdStatusName(got));
    }
    glcmdLastError(NULL);
}

static void expect_gl_error(GLenum want, const char *what)
{
    GLenum got = gl.GetError();
    checks++;
    if (got != want) {
        fprintf(stderr, "FAIL %s: glGetError 0x%04x, want 0x%04x\n", what, got, want);
        failures++;
    } else {
        printf("ok   %-58s glGetError 0x%04x\n", what, got);
    }
}

static GlcmdDevice *device;
static GlcmdFrame *frame;

/* Another thread: the list current on the main thread is not current here. */
static void *other_thread(void *arg)
{
    (void)arg;
    gl.Clear(GL_COLOR_BUFFER_BIT);
    expect_last(GLCMD_ERROR_NO_CURRENT_LIST, "wrong thread: a GL call where no list is current");
    expect(glcmdListSubmit(frame, 0), GLCMD_ERROR_NO_CURRENT_LIST, "wrong thread: submitting another thread's list");
    expect(glcmdListSetLabel("x"), GLCMD_ERROR_NO_CURRENT_LIST, "wrong thread: labelling another thread's list");
    return NULL;
}

/* Runs on the render thread: waiting there could never end. */
static void on_render_thread(void *user)
{
    GlcmdStatus *status = user;
    *status = glcmdDeviceWaitFrames(device, 1000);
}

int main(void)
{
    GLint value = 0;
    GLuint names[2] = {0, 0};
    pthread_t thread;
    GlcmdStatus inner = GLCMD_OK;

    expect(glcmdLoadGL(&gl), GLCMD_OK, "glcmdLoadGL");
    expect(glcmdLoadGL(NULL), GLCMD_ERROR_NULL_POINTER, "glcmdLoadGL(NULL)");
    glcmdSetErrorCallback(on_error, NULL);

    /* No current list, no current device. */
    gl.BindTexture(GL_TEXTURE_2D, 1);
    expect_last(GLCMD_ERROR_NO_CURRENT_LIST, "a GL call with no current list");
    expect_gl_error(GL_INVALID_OPERATION, "... raises GL_INVALID_OPERATION");
    gl.GetIntegerv(GL_MAX_TEXTURE_SIZE, &value);
    expect_last(GLCMD_ERROR_NO_CURRENT_DEVICE, "a query with no current device");
    expect_gl_error(GL_INVALID_OPERATION, "... raises GL_INVALID_OPERATION");
    expect_gl_error(GL_NO_ERROR, "glGetError with no device: GL_NO_ERROR (loops end)");
    expect_last(GLCMD_ERROR_NO_CURRENT_DEVICE, "... and reports that it could not ask");
    expect(glcmdListSubmit(NULL, 0), GLCMD_ERROR_INVALID_HANDLE, "glcmdListSubmit(NULL frame)");
    expect(glcmdListBegin(NULL), GLCMD_ERROR_INVALID_HANDLE, "glcmdListBegin(NULL)");
    expect(glcmdListBegin((GlcmdDevice *)(uintptr_t)0x1234), GLCMD_ERROR_INVALID_HANDLE, "glcmdListBegin(forged)");
    expect(glcmdDeviceCreateHeadless(NULL, NULL), GLCMD_ERROR_NULL_POINTER, "glcmdDeviceCreateHeadless(.., NULL)");

    expect(glcmdDeviceCreateHeadless(NULL, &device), GLCMD_OK, "glcmdDeviceCreateHeadless");
    expect(glcmdListBegin(device), GLCMD_OK, "glcmdListBegin");
    expect(glcmdListBegin(device), GLCMD_ERROR_LIST_ACTIVE, "glcmdListBegin twice");

    /* NULL where an array is required: noted (glcmdLastError), and the call goes to the GL with
     * zeros in its place, so the GL's own checks answer it (issue 30 item 4): deleting the name
     * 0 twice is no error. Negative counts: nothing recorded, no crash. */
    gl.DeleteTextures(2, NULL);
    expect_last(GLCMD_ERROR_NULL_POINTER, "glDeleteTextures(2, NULL)");
    expect_gl_error(GL_NO_ERROR, "... raises no GL error (the GL's answer for zeros)");
    gl.DeleteTextures(-3, names);
    expect_last(GLCMD_ERROR_INVALID_ARGUMENT, "glDeleteTextures(-3, names)");
    gl.UniformMatrix4fv(0, 1, 0, NULL);
    expect_last(GLCMD_ERROR_NULL_POINTER, "glUniformMatrix4fv(.., NULL)");
    gl.ShaderSource(1, 1, NULL, NULL);
    expect_last(GLCMD_ERROR_NULL_POINTER, "glShaderSource(.., NULL strings)");
    {
        const GLchar *strings[2] = {"void main() {}", NULL};
        gl.ShaderSource(1, 2, strings, NULL);
        expect_last(GLCMD_ERROR_NULL_POINTER, "glShaderSource(.., one NULL string)");
    }
    /* NULL where the GL takes NULL (issue 30, item 4): sub-image pixels with no unpack buffer
     * reach the GL's own checks and write nothing, and a NULL label removes the label, as
     * directly; not a glcmd error. */
    gl.TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    expect_last(GLCMD_OK, "glTexSubImage2D(.., NULL pixels)");
    gl.ObjectLabel(GL_TEXTURE_2D, 1, 5, NULL);
    expect_last(GLCMD_OK, "glObjectLabel(.., 5, NULL)");
    gl.BindAttribLocation(1, 0, NULL);
    expect_last(GLCMD_ERROR_NULL_POINTER, "glBindAttribLocation(.., NULL name)");
    gl.CreateTextures(GL_TEXTURE_2D, 2, NULL);
    expect_last(GLCMD_ERROR_NULL_POINTER, "glCreateTextures(.., 2, NULL)");
    gl.GetIntegerv(GL_MAX_TEXTURE_SIZE, NULL);
    expect_last(GLCMD_ERROR_NULL_POINTER, "glGetIntegerv(.., NULL)");
    gl.GetProgramInfoLog(1, 16, NULL, NULL);
    /* A NULL output does not stop a query (the GL answers it: issue 30 item 4), so these meet
     * the list's unsubmitted calls first. */
    expect_last(GLCMD_ERROR_LIST_ACTIVE, "glGetProgramInfoLog(.., 16, NULL, NULL) with calls unsubmitted");
    gl.ReadPixels(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    expect_last(GLCMD_ERROR_LIST_ACTIVE, "glReadPixels(.., NULL) with calls unsubmitted");
    gl.PathCommandsNV(1, 1, NULL, 1, 0, NULL);
    expect_last(GLCMD_ERROR_UNSUPPORTED, "an entry point unsupported through C");
    gl.GetUniformLocation(1, NULL);
    expect_last(GLCMD_ERROR_LIST_ACTIVE, "glGetUniformLocation(.., NULL) with calls unsubmitted");
    (void)gl.CreateShader(GL_FRAGMENT_SHADER);
    expect_last(GLCMD_OK, "a create after all that");
    expect_gl_error(GL_INVALID_VALUE, "glGetError: the first error since it was last read");
    expect_gl_error(GL_NO_ERROR, "glGetError: no error left");
    expect(glcmdRunOnRenderThread(device, on_render_thread, &inner), GLCMD_OK, "glcmdRunOnRenderThread");
    expect(inner, GLCMD_ERROR_ON_RENDER_THREAD, "... waiting on the render thread fails");
    expect(glcmdRunOnRenderThread(device, NULL, NULL), GLCMD_ERROR_NULL_POINTER, "glcmdRunOnRenderThread(NULL)");

    /* The wrong thread, and waits that could never end. */
    expect(glcmdFrameBegin(device, 2, &frame), GLCMD_OK, "glcmdFrameBegin");
    pthread_create(&thread, NULL, other_thread, NULL);
    pthread_join(thread, NULL);
    expect(glcmdListSubmit(frame, 5), GLCMD_ERROR_SLOT, "glcmdListSubmit(slot out of range)");
    expect(glcmdListSubmit(frame, 1), GLCMD_OK, "glcmdListSubmit(slot 1)");
    gl.GetQueryiv(GL_SAMPLES_PASSED, GL_QUERY_COUNTER_BITS, &value);
    expect_last(GLCMD_ERROR_WOULD_DEADLOCK, "a query behind a slot this thread holds");
    expect(glcmdDeviceWaitFrames(device, 1), GLCMD_ERROR_WOULD_DEADLOCK, "waiting for a frame this thread holds");

    /* A destroyed device: every handle and the thread's current device are dead. */
    expect(glcmdListBegin(device), GLCMD_OK, "glcmdListBegin");
    expect(glcmdDeviceDestroy(device), GLCMD_OK, "glcmdDeviceDestroy (with an open frame)");
    expect(glcmdDeviceDestroy(device), GLCMD_ERROR_INVALID_HANDLE, "glcmdDeviceDestroy twice");
    expect(glcmdFrameEnd(frame), GLCMD_ERROR_INVALID_HANDLE, "glcmdFrameEnd of its ended frame");
    expect(glcmdListSubmit(frame, 0), GLCMD_ERROR_INVALID_HANDLE, "glcmdListSubmit to its ended frame");
    expect(glcmdSubmit(device), GLCMD_ERROR_INVALID_HANDLE, "glcmdSubmit to it");
    expect(glcmdFrameBegin(device, 1, &frame), GLCMD_ERROR_INVALID_HANDLE, "glcmdFrameBegin on it");
    {
        GlcmdReport report;
        expect(glcmdGetReport(device, &report), GLCMD_ERROR_INVALID_HANDLE, "glcmdGetReport on it");
    }
    gl.GenTextures(2, names);
    expect_last(GLCMD_ERROR_INVALID_HANDLE, "a create on the thread's destroyed device");
    expect_gl_error(GL_INVALID_OPERATION, "... raises GL_INVALID_OPERATION");
    expect(glcmdListDiscard(), GLCMD_OK, "glcmdListDiscard of the orphan list");
    expect(glcmdDeviceMakeCurrent(NULL), GLCMD_OK, "glcmdDeviceMakeCurrent(NULL)");

    if (callbacks == 0)
        fprintf(stderr, "FAIL the error callback was never called\n"), failures++;
    glcmdSetErrorCallback(NULL, NULL);
    printf("misuse: %d checks, %d failures, %d errors reported through the callback\n", checks, failures, callbacks);
    return failures == 0 ? 0 : 1;
}
