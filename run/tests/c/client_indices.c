/* Element draws with their indices in client memory and no element buffer bound (issue 34
 * item 6): Mesa's core profile draws them, so glcmd must too, the same pixels. Each draw
 * clears the 16x16 pbuffer, draws, reads it back and prints the error and a summary of the
 * pixels (lit pixels, byte sum): one line per draw, run directly and through glcmd-run
 * (run/tests/unchanged.rs), the two outputs must be equal. Also: the same draws with an element
 * buffer bound (the pointer is an offset), after unbinding it again, and the errors of draws the
 * GL refuses (a negative count, a mode of no core primitive, no vertex array). */
#define PROGRAM "client_indices"
#define GL_GLEXT_PROTOTYPES
#include <GL/glcorearb.h>
#include <string.h>
#include "egl_pbuffer.h"

static void report(const char *what) {
    GLenum error = glGetError();
    unsigned char px[16 * 16 * 4];
    memset(px, 0, sizeof px);
    glReadPixels(0, 0, 16, 16, GL_RGBA, GL_UNSIGNED_BYTE, px);
    unsigned lit = 0, sum = 0;
    for (int i = 0; i < 16 * 16; i++) {
        lit += px[i * 4] != 0;
        for (int c = 0; c < 4; c++) sum += px[i * 4 + c] * (unsigned)(i % 7 + 1);
    }
    printf("%s error=0x%x lit=%u sum=%u\n", what, error, lit, sum);
    glClear(GL_COLOR_BUFFER_BIT);
}

int main(void) {
    make_egl_context();
    while (glGetError() != GL_NO_ERROR) {
    }
    /* Two quads: the left half (vertices 0-3) and the right half (4-7) of the pbuffer. */
    const float pos[] = {-1, -1, 0, -1, 0, 1, -1, 1, 0, -1, 1, -1, 1, 1, 0, 1};
    const char *vs = "#version 330\nlayout(location=0) in vec2 p;\nflat out int inst;\n"
                     "void main() { gl_Position = vec4(p.x, p.y * (gl_InstanceID == 0 ? 1.0 : 0.5), 0, 1); "
                     "inst = gl_InstanceID; }\n";
    const char *fs = "#version 330\nflat in int inst;\nout vec4 c;\n"
                     "void main() { c = vec4(1.0, 0.5, 0.25 + 0.25 * float(inst), 1.0); }\n";
    GLuint prog = glCreateProgram();
    GLuint v = glCreateShader(GL_VERTEX_SHADER), f = glCreateShader(GL_FRAGMENT_SHADER);
    glShaderSource(v, 1, &vs, NULL);
    glCompileShader(v);
    glShaderSource(f, 1, &fs, NULL);
    glCompileShader(f);
    glAttachShader(prog, v);
    glAttachShader(prog, f);
    glLinkProgram(prog);
    glUseProgram(prog);
    GLuint vao, vbo, ebo;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof pos, pos, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, (void *)0);
    glEnableVertexAttribArray(0);
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT);

    const GLushort left[] = {0, 1, 2, 0, 2, 3};
    const GLushort right[] = {4, 5, 6, 4, 6, 7};
    const GLubyte left8[] = {0, 1, 2, 0, 2, 3};
    const GLuint right32[] = {4, 5, 6, 4, 6, 7};
    glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, left);
    report("glDrawElements(left, client)");
    glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_BYTE, left8);
    report("glDrawElements(left, bytes, client)");
    glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_INT, right32);
    report("glDrawElements(right, one triangle, uints, client)");
    glDrawElementsBaseVertex(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, left, 4);
    report("glDrawElementsBaseVertex(left + 4, client)");
    glDrawElementsInstanced(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, right, 2);
    report("glDrawElementsInstanced(right, 2, client)");
    glDrawElementsInstancedBaseVertexBaseInstance(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, left, 2, 4, 0);
    report("glDrawElementsInstancedBaseVertexBaseInstance(client)");
    glDrawRangeElements(GL_TRIANGLES, 4, 7, 6, GL_UNSIGNED_SHORT, right);
    report("glDrawRangeElements(right, client)");
    glDrawRangeElementsBaseVertex(GL_TRIANGLES, 0, 3, 6, GL_UNSIGNED_SHORT, left, 4);
    report("glDrawRangeElementsBaseVertex(client)");
    const GLsizei counts[] = {6, 3};
    const void *both[] = {left, right};
    glMultiDrawElements(GL_TRIANGLES, counts, GL_UNSIGNED_SHORT, both, 2);
    report("glMultiDrawElements(left, half right, client)");
    const GLint base[] = {4, -4};
    const void *swapped[] = {left, right};
    glMultiDrawElementsBaseVertex(GL_TRIANGLES, counts, GL_UNSIGNED_SHORT, swapped, 2, base);
    report("glMultiDrawElementsBaseVertex(client)");

    /* Errors the GL raises first. */
    glDrawElements(GL_TRIANGLES, -1, GL_UNSIGNED_SHORT, left);
    report("glDrawElements(count -1, client)");
    glDrawElements(GL_QUADS, 6, GL_UNSIGNED_SHORT, left);
    report("glDrawElements(GL_QUADS, client)");
    glDrawElements(GL_TRIANGLES, 6, GL_FLOAT, left);
    report("glDrawElements(GL_FLOAT, client)");

    /* With an element buffer the pointer is an offset. */
    glGenBuffers(1, &ebo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof left + sizeof right, NULL, GL_STATIC_DRAW);
    glBufferSubData(GL_ELEMENT_ARRAY_BUFFER, 0, sizeof left, left);
    glBufferSubData(GL_ELEMENT_ARRAY_BUFFER, sizeof left, sizeof right, right);
    glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, (void *)sizeof left);
    report("glDrawElements(right, element buffer)");
    const void *offsets[] = {(void *)0, (void *)sizeof left};
    glMultiDrawElements(GL_TRIANGLES, counts, GL_UNSIGNED_SHORT, offsets, 2);
    report("glMultiDrawElements(element buffer)");
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
    glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, right);
    report("glDrawElements(right, client, after unbinding)");
    glVertexArrayElementBuffer(vao, ebo);
    glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, (void *)0);
    report("glDrawElements(left, glVertexArrayElementBuffer)");
    glVertexArrayElementBuffer(vao, 0);
    glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_SHORT, left);
    report("glDrawElements(one triangle, client, after glVertexArrayElementBuffer(0))");

    /* A second vertex array, created with DSA. */
    GLuint vao2;
    glCreateVertexArrays(1, &vao2);
    glVertexArrayVertexBuffer(vao2, 0, vbo, 0, 8);
    glVertexArrayAttribFormat(vao2, 0, 2, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribBinding(vao2, 0, 0);
    glEnableVertexArrayAttrib(vao2, 0);
    glBindVertexArray(vao2);
    glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, right);
    report("glDrawElements(right, client, created vertex array)");

    /* No vertex array: the GL refuses the draw. */
    glDeleteVertexArrays(1, &vao2);
    glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, right);
    report("glDrawElements(client, no vertex array)");
    printf("done=1\n");
    return 0;
}
