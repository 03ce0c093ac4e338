/*
 * The rules of capi/src/immediate.rs, checked from C:
 *
 * - a query from a thread whose current explicit list holds unsubmitted calls fails at once
 *   (GLCMD_ERROR_LIST_ACTIVE, naming glcmdSubmit and glcmdThreadMakeImmediate) instead of
 *   answering from before those calls; answers that cannot depend on the list (limits,
 *   glGetString, creates) still answer, and so does any query while the list is empty;
 * - an immediate thread sees its own calls, refuses the explicit list functions, and its
 *   glGetError returns the first error of its calls in the GL's order.
 *
 * capi/tests/c_programs.rs compiles and runs it.
 */
#include "glcorearb.h"

#include "glcmd.h"

#include <stdio.h>
#include <string.h>

static GlcmdGL gl;
static int failures, checks;

static void check(int ok, const char *what)
{
    checks++;
    if (!ok)
        failures++;
    printf("%s %s\n", ok ? "ok  " : "FAIL", what);
}

/* The last failure is `want`, its message holding `words` (NULL: any). */
static void expect_last(GlcmdStatus want, const char *word1, const char *word2, const char *what)
{
    const char *message = "";
    GlcmdStatus got = glcmdLastError(&message);
    int ok = got == want && (word1 == NULL || strstr(message, word1)) && (word2 == NULL || strstr(message, word2));
    check(ok, what);
    if (!ok)
        printf("     got %s: %s\n", glcmdStatusName(got), message);
}

static int viewport_is(GLint x, GLint y, GLint w, GLint h)
{
    GLint v[4] = {-1, -1, -1, -1};
    gl.GetIntegerv(GL_VIEWPORT, v);
    return glcmdLastError(NULL) == GLCMD_OK && v[0] == x && v[1] == y && v[2] == w && v[3] == h;
}

int main(void)
{
    GlcmdDevice *device = NULL;
    if (glcmdDeviceCreateHeadless(NULL, &device) != GLCMD_OK || glcmdLoadGL(&gl) != GLCMD_OK)
        return fprintf(stderr, "no device\n"), 2;

    /* Deferred lists. */
    check(glcmdListBegin(device) == GLCMD_OK, "glcmdListBegin");
    check(viewport_is(0, 0, 0, 0), "a query while the list is empty answers");
    gl.Viewport(1, 2, 3, 4);
    GLint v[4] = {-1, -1, -1, -1};
    gl.GetIntegerv(GL_VIEWPORT, v);
    expect_last(GLCMD_ERROR_LIST_ACTIVE, "glcmdSubmit", "glcmdThreadMakeImmediate",
                "a query behind the unsubmitted glViewport fails, naming both ways out");
    check(v[0] == -1, "... and writes nothing");
    check(gl.GetError() == GL_INVALID_OPERATION, "... and raises GL_INVALID_OPERATION");
    GLint max = 0;
    gl.GetIntegerv(GL_MAX_TEXTURE_SIZE, &max);
    expect_last(GLCMD_OK, NULL, NULL, "an implementation limit still answers");
    check(max >= 1024, "... with the limit");
    check(gl.GetString(GL_VERSION) != NULL, "glGetString still answers");
    GLuint buffer = 0;
    gl.GenBuffers(1, &buffer);
    expect_last(GLCMD_OK, NULL, NULL, "a create still answers");
    check(buffer != 0, "... with a name");
    check(glcmdSubmit(device) == GLCMD_OK, "glcmdSubmit");
    check(viewport_is(1, 2, 3, 4), "after the submit, the query sees the list");

    /* Immediate threads. */
    check(glcmdListBegin(device) == GLCMD_OK, "glcmdListBegin");
    gl.Viewport(0, 0, 1, 1);
    check(glcmdThreadMakeImmediate(device) == GLCMD_ERROR_LIST_ACTIVE, "glcmdThreadMakeImmediate with a list current");
    check(glcmdListDiscard() == GLCMD_OK, "glcmdListDiscard");
    check(glcmdThreadMakeImmediate(device) == GLCMD_OK, "glcmdThreadMakeImmediate");
    check(glcmdThreadMakeImmediate(device) == GLCMD_OK, "... again: nothing changes");
    check(glcmdListBegin(device) == GLCMD_ERROR_LIST_ACTIVE, "glcmdListBegin on an immediate thread");
    expect_last(GLCMD_ERROR_LIST_ACTIVE, "immediate", "glcmdThreadMakeImmediate(NULL)", "... names the rule");
    gl.Viewport(5, 6, 7, 8);
    check(glcmdSubmit(device) == GLCMD_ERROR_LIST_ACTIVE, "glcmdSubmit on an immediate thread");
    expect_last(GLCMD_ERROR_LIST_ACTIVE, "immediate", NULL, "... names the rule");
    check(viewport_is(5, 6, 7, 8), "a query sees the thread's own glViewport");
    gl.Viewport(9, 9, 9, 9);
    check(glcmdListDiscard() == GLCMD_OK, "glcmdListDiscard drops the pending glViewport");
    check(viewport_is(5, 6, 7, 8), "... which never ran");

    /* glGetError: the thread's errors in the GL's order, one flag. */
    gl.Enable(0x1234);
    check(gl.GetError() == GL_INVALID_ENUM, "glGetError after glEnable(0x1234): raised at replay");
    check(gl.GetError() == GL_NO_ERROR, "... then no error");
    gl.Enable(0x1234);
    gl.ShaderSource(0, 1, NULL, NULL);
    expect_last(GLCMD_ERROR_NULL_POINTER, NULL, NULL, "glShaderSource(.., NULL, ..) fails at the entry point");
    check(gl.GetError() == GL_INVALID_ENUM, "glGetError: the earlier glEnable's error first");
    check(gl.GetError() == GL_NO_ERROR, "... and only it (one flag)");
    gl.ShaderSource(0, 1, NULL, NULL);
    gl.Enable(0x1234);
    check(gl.GetError() == GL_INVALID_VALUE, "glShaderSource(NULL), then glEnable(0x1234): GL_INVALID_VALUE");
    check(gl.GetError() == GL_NO_ERROR, "... and only it (one flag)");

    check(glcmdThreadMakeImmediate(NULL) == GLCMD_OK, "glcmdThreadMakeImmediate(NULL)");
    check(glcmdListBegin(device) == GLCMD_OK, "glcmdListBegin after leaving immediate mode");
    check(glcmdListDiscard() == GLCMD_OK, "glcmdListDiscard");
    check(glcmdDeviceDestroy(device) == GLCMD_OK, "glcmdDeviceDestroy");
    if (failures) {
        printf("%d of %d checks failed\n", failures, checks);
        return 1;
    }
    printf("%d checks passed\n", checks);
    return 0;
}
