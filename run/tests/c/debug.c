/* KHR_debug output as a program sees it: run directly and through glcmd-run by
 * tests/unchanged.rs, which compares the two outputs line by line.
 *
 * With GL_DEBUG_OUTPUT and GL_DEBUG_OUTPUT_SYNCHRONOUS enabled, the callback must run on the
 * thread that made the call, before the call returns: a flag the callback sets is seen right
 * after the call (a refused bind, a message the program inserts, a refused query). Before the
 * program enables GL_DEBUG_OUTPUT (a context without the debug flag starts with it off) no
 * message arrives. glGetPointerv answers the program's own callback and user pointer, and
 * glGetBufferPointerv the pointer glMapBufferRange returned. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#include <pthread.h>
#include <string.h>

#define PROGRAM "debug"
#include "egl_pbuffer.h"

static int token;
static volatile int calls, flag, same_thread, last_id;
static char last_text[64];
static pthread_t caller;

static void APIENTRY callback(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                              const GLchar *message, const void *user) {
    (void)source, (void)type, (void)severity, (void)length;
    calls++;
    flag = 1;
    same_thread = pthread_equal(pthread_self(), caller) && user == &token;
    last_id = (int)id;
    snprintf(last_text, sizeof last_text, "%s", message);
}

static void pointers(const char *when) {
    void *function = (void *)1, *user = (void *)1;
    glGetPointerv(GL_DEBUG_CALLBACK_FUNCTION, &function);
    glGetPointerv(GL_DEBUG_CALLBACK_USER_PARAM, &user);
    printf("%s_callback_is_program's=%d\n", when, function == (void *)callback);
    printf("%s_user_is_program's=%d\n", when, user == (void *)&token);
    printf("%s_callback_null=%d user_null=%d\n", when, function == NULL, user == NULL);
}

/* After a call that raises a message: whether the callback ran, on this thread, before it returned. */
static void seen(const char *what) {
    printf("%s: flag=%d same_thread=%d\n", what, flag, same_thread);
    flag = 0;
    same_thread = 0;
}

int main(void) {
    caller = pthread_self();
    make_egl_context();
    pointers("before");
    glDebugMessageCallback(callback, &token);
    pointers("set");

    glBindBuffer(0x1234, 0);
    printf("output_off: error=0x%X calls=%d\n", glGetError(), calls);
    GLint on = -1;
    glGetIntegerv(GL_DEBUG_OUTPUT_SYNCHRONOUS, &on);
    printf("synchronous_before=%d\n", on);

    glEnable(GL_DEBUG_OUTPUT);
    glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
    glBindBuffer(0x1234, 0);
    seen("refused_bind");
    printf("error=0x%X\n", glGetError());
    glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, 42, GL_DEBUG_SEVERITY_NOTIFICATION, -1,
                         "hello from the program");
    seen("insert");
    printf("insert: id=%d text=%s\n", last_id, last_text);
    glBlendFunc(0x1234, GL_ONE);
    seen("refused_blend");
    printf("error=0x%X\n", glGetError());
    GLint value = 0;
    glGetTexParameteriv(GL_TEXTURE_2D, 0x1234, &value);
    seen("refused_query");
    printf("error=0x%X\n", glGetError());

    /* The callback stays the program's after output is turned off and on again. */
    glDisable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
    glBindBuffer(0x1234, 0);
    glFinish();
    printf("asynchronous_delivered_by_finish=%d error=0x%X\n", flag, glGetError());
    flag = 0;
    glDisable(GL_DEBUG_OUTPUT);
    int before = calls;
    glBindBuffer(0x1234, 0);
    glFinish();
    printf("output_off_again: calls=%d error=0x%X\n", calls - before, glGetError());

    glDebugMessageCallback(NULL, NULL);
    pointers("cleared");

    /* A mapped buffer's pointer is the one the map returned. */
    GLuint buffer = 0;
    glGenBuffers(1, &buffer);
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    glBufferData(GL_ARRAY_BUFFER, 256, NULL, GL_STATIC_DRAW);
    void *mapped = glMapBufferRange(GL_ARRAY_BUFFER, 64, 128, GL_MAP_WRITE_BIT);
    void *asked = NULL, *named = NULL;
    glGetBufferPointerv(GL_ARRAY_BUFFER, GL_BUFFER_MAP_POINTER, &asked);
    glGetNamedBufferPointerv(buffer, GL_BUFFER_MAP_POINTER, &named);
    printf("map_pointer_matches=%d named=%d nonnull=%d\n", asked == mapped, named == mapped, mapped != NULL);
    glUnmapBuffer(GL_ARRAY_BUFFER);
    glGetBufferPointerv(GL_ARRAY_BUFFER, GL_BUFFER_MAP_POINTER, &asked);
    printf("unmapped_pointer_null=%d\n", asked == NULL);
    printf("error_end=0x%X\n", glGetError());
    printf("done=1\n");
    return 0;
}
