/* A GL program with calls glcmd refuses and calls the GL refuses: tests/reports.rs runs it
 * directly and through glcmd-run and compares stdout, and reads what glcmd-run says on stderr.
 *
 * In a 4.5 core context (EGL pbuffer, egl_pbuffer.h), with a vertex array bound and no element
 * buffer, it calls glDrawElements with an index offset 1000 times: glcmd never passes an offset
 * to the GL without a buffer to apply it to (the GL would read client memory at that address),
 * and raises GL_INVALID_OPERATION as the core profile does. Then glEnable of an enum that is no
 * capability, three times (the GL raises GL_INVALID_ENUM; glcmd attributes it to the call when
 * its diagnostics are on). It prints the errors it sees and the counts. With the argument
 * `nodraw` it leaves the draws out (run directly, Mesa reads memory at the offset and crashes). */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#include <stdint.h>
#include <string.h>

#define PROGRAM "refuse"
#include "egl_pbuffer.h"

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    make_egl_context();
    GLuint vao = 0;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    int refused = 0;
    /* With `nodraw`, for the direct run: Mesa reads client memory at the offset (a crash). */
    int draws = argc > 1 && strcmp(argv[1], "nodraw") == 0 ? 0 : 1000;
    for (int i = 0; i < draws; i++) {
        glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_INT, (const void *)(uintptr_t)(16 + 4 * (i % 7)));
        if (glGetError() == GL_INVALID_OPERATION) refused++;
    }
    printf("draws refused: %d\n", refused);
    for (int i = 0; i < 3; i++) {
        glEnable(0x1234);
        printf("enable error: %#x\n", glGetError());
    }
    glFinish();
    printf("done\n");
    return 0;
}
