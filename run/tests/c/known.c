/* Query results and fences a program asks about after their work has run (issue 35 item 5,
 * issue 31: answers without a round trip): mpv's pattern (a ring of queries, each read before it
 * is begun again, `glIsQuery` first; a fence per frame, waited on two frames later and deleted),
 * every getter and pname that glcmd may answer from what its render thread already read, and the
 * calls that must make such an answer stale: a query begun again, deleted, counted; a sync
 * deleted; a buffer bound to GL_QUERY_BUFFER (the output pointer is then an offset). One line per
 * answer with its error; run directly and through glcmd-run (run/tests/unchanged.rs), the two
 * outputs must be equal.
 *
 *   known                  everything
 *   known frames           the mpv-like loop only, a glFinish ending each frame
 *   known frames-unasked   the same without the questions (the difference in round trips
 *                          through glcmd-run is what the questions cost) */
#define PROGRAM "known"
#define GL_GLEXT_PROTOTYPES
#include <GL/glcorearb.h>
#include <stdint.h>
#include <string.h>
#include "egl_pbuffer.h"

static const char *VS = "#version 330 core\n"
                        "void main() {\n"
                        "  vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1));\n"
                        "  gl_Position = vec4(p, 0.0, 1.0);\n"
                        "}\n";
static const char *FS = "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";

static GLuint shader(GLenum type, const char *src) {
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    return s;
}

/* A program that covers the 16x16 pbuffer with one triangle: 256 samples a draw. */
static void draw_setup(void) {
    GLuint p = glCreateProgram();
    glAttachShader(p, shader(GL_VERTEX_SHADER, VS));
    glAttachShader(p, shader(GL_FRAGMENT_SHADER, FS));
    glLinkProgram(p);
    glUseProgram(p);
    GLuint vao;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
}

#define E(what) printf("%s error=0x%x\n", what, glGetError())

/* mpv's timers and swap-chain fences, twelve frames. With `ask` 0, the same calls without the
 * reads, `glIsQuery`, `glIsSync` and waits (for counting what those cost through glcmd-run); with
 * `finish`, a glFinish ends each frame, so that every earlier query and fence has completed
 * whatever the machine's speed. */
static void frames(int ask, int finish) {
    GLuint q[3];
    glGenQueries(3, q);
    GLsync fences[3] = {0, 0, 0};
    for (int frame = 0; frame < 12; frame++) {
        int i = frame % 3;
        if (ask && glIsQuery(q[i])) {
            GLuint64 r = 7;
            glGetQueryObjectui64v(q[i], GL_QUERY_RESULT, &r);
            printf("frame %d: q%d=%llu ", frame, i, (unsigned long long)r);
        }
        E("read");
        glBeginQuery(GL_SAMPLES_PASSED, q[i]);
        glClear(GL_COLOR_BUFFER_BIT);
        glDrawArrays(GL_TRIANGLES, 0, 3 * (1 + frame % 2));
        glEndQuery(GL_SAMPLES_PASSED);
        fences[i] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        glFlush();
        if (frame >= 2) {
            GLsync s = fences[(frame + 1) % 3];
            if (ask) {
                printf("frame %d: is_sync=%d ", frame, glIsSync(s));
                GLenum w = glClientWaitSync(s, GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000);
                printf("wait=%s ", w == GL_ALREADY_SIGNALED || w == GL_CONDITION_SATISFIED ? "signalled" : "other");
            }
            glDeleteSync(s);
            E("fence");
        }
        if (finish) glFinish();
    }
    glFinish();
    for (int i = 0; i < 3; i++) {
        GLuint64 r = 7;
        glGetQueryObjectui64v(q[i], GL_QUERY_RESULT, &r);
        printf("last q%d=%llu ", i, (unsigned long long)r);
        E("read");
    }
    glDeleteQueries(3, q);
}

/* Every getter and pname of a finished query, twice (the second answer can come from what the
 * render thread read after the first). */
static void getters(GLuint q) {
    for (int round = 0; round < 2; round++) {
        GLenum pnames[] = {GL_QUERY_RESULT, GL_QUERY_RESULT_AVAILABLE, GL_QUERY_RESULT_NO_WAIT};
        for (int p = 0; p < 3; p++) {
            GLint iv = -7;
            GLuint uiv = 7;
            GLint64 i64 = -7;
            GLuint64 u64 = 7;
            glGetQueryObjectiv(q, pnames[p], &iv);
            glGetQueryObjectuiv(q, pnames[p], &uiv);
            glGetQueryObjecti64v(q, pnames[p], &i64);
            glGetQueryObjectui64v(q, pnames[p], &u64);
            printf("round %d pname 0x%x: iv=%d uiv=%u i64=%lld u64=%llu ", round, pnames[p], iv, uiv, (long long)i64,
                   (unsigned long long)u64);
            E("getters");
        }
        glFlush();
    }
}

static void finished_query(GLuint q, int draws) {
    glBeginQuery(GL_SAMPLES_PASSED, q);
    for (int d = 0; d < draws; d++) glDrawArrays(GL_TRIANGLES, 0, 3);
    glEndQuery(GL_SAMPLES_PASSED);
    glFinish();
    glFlush();
}

/* glGetQueryObjectuiv(GL_QUERY_RESULT) into a sentinel, then the error: a refused read writes
 * nothing. */
static void read_result(GLuint q, const char *what, const char *error_label) {
    GLuint v = 77;
    glGetQueryObjectuiv(q, GL_QUERY_RESULT, &v);
    printf("%s=%u ", what, v);
    E(error_label);
}

/* Calls after which an earlier answer would be stale. */
static void stale(void) {
    GLuint q;
    glGenQueries(1, &q);
    printf("is_query(generated, never begun)=%d ", glIsQuery(q));
    E("isquery");
    finished_query(q, 2);
    getters(q);

    /* Begun again and still active: the GL refuses the read and writes nothing. */
    glBeginQuery(GL_SAMPLES_PASSED, q);
    read_result(q, "read while active", "active");
    glEndQuery(GL_SAMPLES_PASSED);
    glFinish();
    read_result(q, "read after empty end", "ended");

    /* A failed begin (another query is active on the target) changes nothing. */
    GLuint other;
    glGenQueries(1, &other);
    finished_query(q, 3);
    glBeginQuery(GL_SAMPLES_PASSED, other);
    glBeginQuery(GL_SAMPLES_PASSED, q);
    E("begin while another is active");
    glEndQuery(GL_SAMPLES_PASSED);
    glFinish();
    read_result(q, "after a refused begin", "refused begin");

    /* A counter on a samples query: the GL refuses it (the query's type differs). */
    glQueryCounter(q, GL_TIMESTAMP);
    E("counter on a samples query");
    read_result(q, "after a refused counter", "refused counter");

    /* Deleted: no query object, the read is refused. */
    glDeleteQueries(1, &q);
    printf("is_query(deleted)=%d ", glIsQuery(q));
    read_result(q, "read deleted", "deleted");

    /* A timestamp counter: a query object with a result. */
    GLuint t;
    glGenQueries(1, &t);
    glQueryCounter(t, GL_TIMESTAMP);
    glFinish();
    glFlush();
    GLint available = -1;
    glGetQueryObjectiv(t, GL_QUERY_RESULT_AVAILABLE, &available);
    printf("timestamp is_query=%d available=%d ", glIsQuery(t), available);
    E("timestamp");
    glDeleteQueries(1, &t);
    glDeleteQueries(1, &other);

    /* A query buffer: the output pointer is an offset into it. */
    GLuint b, qb;
    glGenQueries(1, &qb);
    finished_query(qb, 1);
    glGenBuffers(1, &b);
    glBindBuffer(GL_QUERY_BUFFER, b);
    GLuint zeros[4] = {0, 0, 0, 0};
    glBufferData(GL_QUERY_BUFFER, sizeof zeros, zeros, GL_STATIC_READ);
    glGetQueryObjectuiv(qb, GL_QUERY_RESULT, (GLuint *)(uintptr_t)4);
    E("into the query buffer");
    GLuint back[4] = {9, 9, 9, 9};
    glGetBufferSubData(GL_QUERY_BUFFER, 0, sizeof back, back);
    printf("query buffer=%u,%u,%u,%u ", back[0], back[1], back[2], back[3]);
    glBindBuffer(GL_QUERY_BUFFER, 0);
    read_result(qb, "unbound again", "query buffer");
    glDeleteBuffers(1, &b);
    glDeleteQueries(1, &qb);

    /* Syncs: signalled, waited on with flags the GL refuses, deleted. */
    GLsync s = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    glFinish();
    glFlush();
    printf("is_sync=%d ", glIsSync(s));
    printf("wait=0x%x ", glClientWaitSync(s, 0, 0));
    E("wait");
    printf("wait(bad flags)=0x%x ", glClientWaitSync(s, 0x80, 0));
    E("wait bad flags");
    GLint status = -1;
    glGetSynciv(s, GL_SYNC_STATUS, 1, NULL, &status);
    printf("status=0x%x ", status);
    E("status");
    glDeleteSync(s);
    printf("is_sync(deleted)=%d ", glIsSync(s));
    printf("wait(deleted)=0x%x ", glClientWaitSync(s, 0, 0));
    E("deleted sync");
}

int main(int argc, char **argv) {
    make_egl_context();
    while (glGetError() != GL_NO_ERROR) {
    }
    draw_setup();
    const char *mode = argc > 1 ? argv[1] : "all";
    if (strcmp(mode, "frames") == 0) {
        frames(1, 1);
    } else if (strcmp(mode, "frames-unasked") == 0) {
        frames(0, 1);
    } else {
        frames(1, 0);
        stale();
    }
    printf("done=1\n");
    return 0;
}
