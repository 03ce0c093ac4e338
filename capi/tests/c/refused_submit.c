/*
 * A refused glcmdListSubmit or glcmdSubmit leaves the list current on the thread, unchanged:
 * for every refusal (a slot out of range, a slot taken, a list claimed for another slot, a frame
 * given up after the wait limit, a frame handle that is no longer valid), the thread goes on
 * recording into the same list, and submitted again it replays: the texture it deletes is
 * deleted at the end of that frame, the viewport it sets is set. capi/tests/c_programs.rs
 * compiles and runs it; .ci/valgrind.sh can run it under memcheck.
 */
#include "glcmd.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define GL_TEXTURE_2D 0x0DE1
#define GL_VIEWPORT 0x0BA2

static GlcmdGL gl;
static int failures, checks;

static void expect(GlcmdStatus got, GlcmdStatus want, const char *what)
{
    const char *message = "";
    checks++;
    if (got != GLCMD_OK)
        glcmdLastError(&message);
    if (got != want) {
        fprintf(stderr, "FAIL %s: got %s (%s), want %s\n", what, glcmdStatusName(got), message, glcmdStatusName(want));
        failures++;
    } else {
        printf("ok   %-62s %s\n", what, glcmdStatusName(got));
    }
}

static void expect_true(int ok, const char *what)
{
    checks++;
    if (!ok) {
        fprintf(stderr, "FAIL %s\n", what);
        failures++;
    } else {
        printf("ok   %s\n", what);
    }
}

/* glIsTexture, or -1 when the query itself failed (a failure is not a deleted texture). */
static int is_texture(GLuint texture)
{
    int r = gl.IsTexture(texture);
    return glcmdLastError(NULL) == GLCMD_OK ? r : -1;
}

/* Records, into the thread's current list, a viewport and the delete of `texture`. */
static void record(GLuint texture, GLint x)
{
    gl.Viewport(x, 2, 3, 4);
    gl.DeleteTextures(1, &texture);
    expect(glcmdLastError(NULL), GLCMD_OK, "recording into the list");
}

/*
 * After a refusal: the same list is still current (a second glcmdListBegin is refused, a GL call
 * records without error); submitted with glcmdSubmit it replays (its delete runs, its viewport
 * is set).
 */
static void check_resubmit(GlcmdDevice *device, GLuint texture, GLint x, const char *what)
{
    GLint viewport[4] = {0, 0, 0, 0};
    char line[160];
    snprintf(line, sizeof line, "%s: the list is still current", what);
    expect(glcmdListBegin(device), GLCMD_ERROR_LIST_ACTIVE, line);
    /* A query behind the unsubmitted list is refused (capi/src/immediate.rs), not answered stale. */
    expect_true(is_texture(texture) == -1, "... a query behind it is refused");
    snprintf(line, sizeof line, "%s: glcmdSubmit of the same list", what);
    expect(glcmdSubmit(device), GLCMD_OK, line);
    gl.Finish();
    expect_true(is_texture(texture) == 0, "... its delete ran");
    gl.GetIntegerv(GL_VIEWPORT, viewport);
    expect(glcmdLastError(NULL), GLCMD_OK, "... glGetIntegerv(GL_VIEWPORT)");
    expect_true(viewport[0] == x && viewport[1] == 2 && viewport[2] == 3 && viewport[3] == 4, "... its viewport is set");
}

static GLuint new_texture(void)
{
    GLuint t = 0;
    gl.CreateTextures(GL_TEXTURE_2D, 1, &t);
    return t;
}

/* Waits (polling, up to 100 s) for the report that a frame was given up. */
static int wait_abandoned(GlcmdDevice *device)
{
    struct timespec pause = {0, 10 * 1000 * 1000};
    for (int i = 0; i < 10000; i++) {
        GlcmdReport report;
        if (glcmdGetReport(device, &report) != GLCMD_OK)
            return 0;
        if (report.kind == GLCMD_REPORT_ABANDONED_FRAME)
            return 1;
        if (report.kind == GLCMD_REPORT_NONE)
            nanosleep(&pause, NULL);
    }
    return 0;
}

int main(void)
{
    GlcmdDevice *device = NULL;
    GlcmdFrame *frame = NULL, *later = NULL;
    GlcmdDeviceOptions options;
    GLuint t;

    memset(&options, 0, sizeof options);
    options.size = sizeof options;
    options.wait_limit_ms = 300;
    expect(glcmdLoadGL(&gl), GLCMD_OK, "glcmdLoadGL");
    expect(glcmdDeviceCreateHeadless(&options, &device), GLCMD_OK, "glcmdDeviceCreateHeadless");
    expect(glcmdDeviceMakeCurrent(device), GLCMD_OK, "glcmdDeviceMakeCurrent");

    /* A slot out of range: refused; slot 0 then takes the same list. */
    t = new_texture();
    expect(glcmdFrameBegin(device, 1, &frame), GLCMD_OK, "glcmdFrameBegin(1 slot)");
    expect(glcmdListBegin(device), GLCMD_OK, "glcmdListBegin");
    record(t, 1);
    expect(glcmdListSubmit(frame, 1), GLCMD_ERROR_SLOT, "glcmdListSubmit(slot 1 of 1)");
    expect(glcmdListBegin(device), GLCMD_ERROR_LIST_ACTIVE, "slot out of range: the list is still current");
    expect(glcmdListSubmit(frame, 0), GLCMD_OK, "glcmdListSubmit of the same list to slot 0");
    expect(glcmdFrameEnd(frame), GLCMD_OK, "glcmdFrameEnd");
    gl.Finish();
    expect_true(is_texture(t) == 0, "... its delete ran");

    /* A slot taken. */
    t = new_texture();
    expect(glcmdFrameBegin(device, 1, &frame), GLCMD_OK, "glcmdFrameBegin(1 slot)");
    expect(glcmdListBegin(device), GLCMD_OK, "glcmdListBegin");
    expect(glcmdListSubmit(frame, 0), GLCMD_OK, "glcmdListSubmit(slot 0)");
    expect(glcmdListBegin(device), GLCMD_OK, "glcmdListBegin");
    record(t, 2);
    expect(glcmdListSubmit(frame, 0), GLCMD_ERROR_SLOT, "glcmdListSubmit(slot 0 again)");
    expect(glcmdFrameEnd(frame), GLCMD_OK, "glcmdFrameEnd");
    check_resubmit(device, t, 2, "slot taken");

    /* A list claimed for slot 0, submitted to slot 1: refused; its own slot takes it. */
    t = new_texture();
    expect(glcmdFrameBegin(device, 2, &frame), GLCMD_OK, "glcmdFrameBegin(2 slots)");
    expect(glcmdListBeginSlot(frame, 0), GLCMD_OK, "glcmdListBeginSlot(slot 0)");
    record(t, 3);
    expect(glcmdListSubmit(frame, 1), GLCMD_ERROR_SLOT, "glcmdListSubmit(claimed for 0, to slot 1)");
    expect(glcmdListBegin(device), GLCMD_ERROR_LIST_ACTIVE, "claim mismatch: the list is still current");
    expect(glcmdListSubmit(frame, 0), GLCMD_OK, "glcmdListSubmit of the same list to slot 0");
    expect(glcmdListBegin(device), GLCMD_OK, "glcmdListBegin");
    expect(glcmdListSubmit(frame, 1), GLCMD_OK, "glcmdListSubmit(slot 1)");
    expect(glcmdFrameEnd(frame), GLCMD_OK, "glcmdFrameEnd");
    gl.Finish();
    expect_true(is_texture(t) == 0, "... its delete ran");

    /* A frame given up: slot 0 held later work back past the wait limit. */
    t = new_texture();
    expect(glcmdFrameBegin(device, 1, &frame), GLCMD_OK, "glcmdFrameBegin(held open)");
    expect(glcmdFrameBegin(device, 1, &later), GLCMD_OK, "glcmdFrameBegin(later)");
    expect(glcmdListBegin(device), GLCMD_OK, "glcmdListBegin");
    expect(glcmdListSubmit(later, 0), GLCMD_OK, "glcmdListSubmit(later work)");
    expect_true(wait_abandoned(device), "the held frame is given up");
    expect(glcmdListBegin(device), GLCMD_OK, "glcmdListBegin");
    record(t, 4);
    expect(glcmdListSubmit(frame, 0), GLCMD_ERROR_FRAME_ENDED, "glcmdListSubmit to the given-up frame");
    expect(glcmdFrameEnd(frame), GLCMD_OK, "glcmdFrameEnd(given up)");
    expect(glcmdFrameEnd(later), GLCMD_OK, "glcmdFrameEnd(later)");
    check_resubmit(device, t, 4, "frame ended");

    /* A frame handle no longer valid (ended). */
    t = new_texture();
    expect(glcmdListBegin(device), GLCMD_OK, "glcmdListBegin");
    record(t, 5);
    expect(glcmdListSubmit(frame, 0), GLCMD_ERROR_INVALID_HANDLE, "glcmdListSubmit to an ended frame handle");
    check_resubmit(device, t, 5, "invalid handle");

    expect(glcmdDeviceDestroy(device), GLCMD_OK, "glcmdDeviceDestroy");
    printf("refused_submit: %d checks, %d failures\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
