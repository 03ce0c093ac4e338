/* NULL pointer arguments, each followed by the error it raised (and what the GL made of it):
 * one line per call. Run directly and through glcmd-run (run/tests/unchanged.rs), the two
 * outputs must be equal (issue 30 item 4): where the GL takes NULL for "no array" it reaches
 * the GL as NULL or as what the GL makes of it, and where the GL refuses NULL glcmd raises the
 * GL's error. NULL sub-image pixels with a region past the level raise the GL's
 * GL_INVALID_VALUE (piglit's teximage-errors), in every dimension and the DSA forms. */
#define PROGRAM "nulls"
#define GL_GLEXT_PROTOTYPES
#include <GL/glcorearb.h>
#include <string.h>
#include "egl_pbuffer.h"
#define E(name) printf("%s error=0x%x\n", name, glGetError())
int main(void) {
    make_egl_context();
    while (glGetError()) {}
    GLuint sh = glCreateShader(GL_VERTEX_SHADER);
    glShaderSource(4242, 0, NULL, NULL); E("glShaderSource(no shader, 0, NULL)");
    glShaderSource(sh, 0, NULL, NULL); E("glShaderSource(0, NULL)");
    const char *s = "void main(){}";
    glShaderSource(sh, 1, &s, NULL); E("glShaderSource(1, s, NULL)");
    GLuint csp = glCreateShaderProgramv(GL_VERTEX_SHADER, 0, NULL);
    printf("create_shader_program_nonzero=%d ", csp != 0); E("glCreateShaderProgramv(0, NULL)");
    GLint linked = -1; glGetProgramiv(csp, GL_LINK_STATUS, &linked); printf("csp_link_status=%d\n", linked);
    GLint len = 0; glGetShaderiv(sh, GL_SHADER_SOURCE_LENGTH, &len); printf("source_length=%d\n", len);
    GLuint buf; glCreateBuffers(1, &buf);
    glObjectLabel(GL_BUFFER, buf, -1, "hello"); E("glObjectLabel(hello)");
    glObjectLabel(GL_BUFFER, buf, 0, NULL); E("glObjectLabel(0, NULL)");
    char label[32] = "x"; GLsizei ll = -5; glGetObjectLabel(GL_BUFFER, buf, 32, &ll, label); printf("label_len=%d label=%s\n", ll, label);
    glObjectLabel(GL_BUFFER, buf, -1, "hello");
    glObjectLabel(GL_BUFFER, buf, -1, NULL); E("glObjectLabel(-1, NULL)");
    ll = -5; glGetObjectLabel(GL_BUFFER, buf, 32, &ll, label); printf("label_len=%d\n", ll);
    GLuint vao; glGenVertexArrays(1, &vao); glBindVertexArray(vao);
    glBindVertexBuffers(0, 2, NULL, NULL, NULL); E("glBindVertexBuffers(NULL, NULL, NULL)");
    glVertexArrayVertexBuffers(vao, 0, 2, NULL, NULL, NULL); E("glVertexArrayVertexBuffers(NULL...)");
    glBindBuffersRange(GL_UNIFORM_BUFFER, 0, 2, NULL, NULL, NULL); E("glBindBuffersRange(NULL...)");
    glBindBuffersBase(GL_UNIFORM_BUFFER, 0, 2, NULL); E("glBindBuffersBase(NULL)");
    glBindTextures(0, 2, NULL); E("glBindTextures(NULL)");
    glBindSamplers(0, 2, NULL); E("glBindSamplers(NULL)");
    glBindImageTextures(0, 2, NULL); E("glBindImageTextures(NULL)");
    GLuint tex; glGenTextures(1, &tex); glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL); E("glTexImage2D(NULL)");
    /* NULL pixels of a sub-image with no unpack buffer: the GL checks the call, then reads and
     * writes nothing. */
    unsigned char texels[4 * 4 * 4];
    memset(texels, 7, sizeof texels);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, NULL); E("glTexSubImage2D(NULL)");
    glTexSubImage1D(GL_TEXTURE_2D, 0, 0, 4, GL_RGBA, GL_UNSIGNED_BYTE, NULL); E("glTexSubImage1D(GL_TEXTURE_2D, NULL)");
    glTexSubImage2D(GL_TEXTURE_2D, 100, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, NULL); E("glTexSubImage2D(level 100, NULL)");
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_FLOAT_32_UNSIGNED_INT_24_8_REV, NULL); E("glTexSubImage2D(bad type, NULL)");
    glTextureSubImage2D(4242, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, NULL); E("glTextureSubImage2D(no texture, NULL)");
    glTextureSubImage2D(tex, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, NULL); E("glTextureSubImage2D(NULL)");
    {
        /* NULL sub-data: the GL checks it and writes nothing (Mesa); glcmd must not write zeros. */
        GLuint b;
        unsigned char d[8] = {1, 2, 3, 4, 5, 6, 7, 8}, o[8] = {0};
        glGenBuffers(1, &b);
        glBindBuffer(GL_ARRAY_BUFFER, b);
        glBufferData(GL_ARRAY_BUFFER, 8, d, GL_STATIC_DRAW);
        glBufferSubData(GL_ARRAY_BUFFER, 0, 4, NULL); glGetError();
        glNamedBufferSubData(b, 4, 4, NULL); glGetError();
        glGetBufferSubData(GL_ARRAY_BUFFER, 0, 8, o);
        printf("buffer_after_null_sub_data=%d,%d,%d,%d\n", o[0], o[3], o[4], o[7]);
        glDeleteBuffers(1, &b);
    }
    glTexSubImage2D(GL_TEXTURE_2D, 0, 2, 2, 100, 100, GL_RGBA, GL_FLOAT, NULL); E("glTexSubImage2D(past the level, NULL)");
    glTexSubImage2D(GL_TEXTURE_2D, 0, -2, 0, 2, 2, GL_RGBA, GL_FLOAT, NULL); E("glTexSubImage2D(x -2, NULL)");
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 3, 4, 1, GL_RGBA, GL_FLOAT, NULL); E("glTexSubImage2D(last row, NULL)");
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 4, 4, 1, GL_RGBA, GL_FLOAT, NULL); E("glTexSubImage2D(row 4, NULL)");
    glTexSubImage2D(GL_TEXTURE_2D, 1, 0, 0, 2, 2, GL_RGBA, GL_FLOAT, NULL); E("glTexSubImage2D(level 1 missing, NULL)");
    glTextureSubImage2D(tex, 0, 3, 0, 2, 1, GL_RGBA, GL_UNSIGNED_BYTE, NULL); E("glTextureSubImage2D(past the level, NULL)");
    {
        GLuint t3[2];
        glGenTextures(2, t3);
        glBindTexture(GL_TEXTURE_3D, t3[0]);
        glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA8, 2, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
        glTexSubImage3D(GL_TEXTURE_3D, 0, 0, 0, 1, 2, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, NULL); E("glTexSubImage3D(depth past, NULL)");
        glTexSubImage3D(GL_TEXTURE_3D, 0, 0, 0, 0, 2, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, NULL); E("glTexSubImage3D(NULL)");
        glBindTexture(GL_TEXTURE_1D, t3[1]);
        glTexImage1D(GL_TEXTURE_1D, 0, GL_RGBA8, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
        glTexSubImage1D(GL_TEXTURE_1D, 0, 1, 4, GL_RGBA, GL_UNSIGNED_BYTE, NULL); E("glTexSubImage1D(past, NULL)");
        glTextureSubImage1D(t3[1], 0, 0, 4, GL_RGBA, GL_UNSIGNED_BYTE, NULL); E("glTextureSubImage1D(NULL)");
        glDeleteTextures(2, t3);
        glBindTexture(GL_TEXTURE_2D, tex);
    }
    {
        /* A compressed image with NULL data allocates the level (undefined contents), as
         * glTexImage2D with NULL does; a sub-image then fills it. RGTC1: 8 bytes a 4x4 block. */
        GLuint ct;
        unsigned char block[8] = {200, 10, 0, 0, 0, 0, 0, 0}, red[16 * 4];
        glGenTextures(1, &ct);
        glBindTexture(GL_TEXTURE_2D, ct);
        glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 8, 8, 0, 32, NULL);
        E("glCompressedTexImage2D(NULL)");
        GLint w = -1, size = -1;
        glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &w);
        glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_COMPRESSED_IMAGE_SIZE, &size);
        printf("compressed_null_level width=%d size=%d\n", w, size);
        glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 8, 8, 0, 31, NULL);
        E("glCompressedTexImage2D(NULL, wrong size)");
        glCompressedTexImage2D(GL_TEXTURE_2D, 1, GL_COMPRESSED_RED_RGTC1, 4, 4, 0, 8, NULL);
        glCompressedTexSubImage2D(GL_TEXTURE_2D, 1, 0, 0, 4, 4, GL_COMPRESSED_RED_RGTC1, 8, block);
        E("glCompressedTexSubImage2D(after NULL)");
        memset(red, 0, sizeof red);
        glGetTexImage(GL_TEXTURE_2D, 1, GL_RED, GL_UNSIGNED_BYTE, red);
        printf("compressed_after_null=%d,%d\n", red[0], red[15]);
        glCompressedTexImage1D(GL_TEXTURE_1D, 0, GL_COMPRESSED_RED_RGTC1, 4, 0, 8, NULL);
        E("glCompressedTexImage1D(RGTC, NULL)");
        glCompressedTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_COMPRESSED_RED_RGTC1, 4, 4, 2, 0, 16, NULL);
        E("glCompressedTexImage3D(NULL)");
        glDeleteTextures(1, &ct);
        glBindTexture(GL_TEXTURE_2D, tex);
    }
    memset(texels, 0, sizeof texels);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    printf("texel_after_null_uploads=%d,%d\n", texels[0], texels[63]);
    glClearTexImage(tex, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL); E("glClearTexImage(NULL)");
    glNamedBufferData(buf, 16, NULL, GL_STATIC_DRAW); glClearNamedBufferData(buf, GL_R8, GL_RED, GL_UNSIGNED_BYTE, NULL); E("glClearNamedBufferData(NULL)");
    glDrawBuffers(0, NULL); E("glDrawBuffers(0, NULL)");
    glInvalidateFramebuffer(GL_FRAMEBUFFER, 0, NULL); E("glInvalidateFramebuffer(0, NULL)");
    glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, NULL, GL_TRUE); E("glDebugMessageControl(0, NULL)");
    GLuint prog = glCreateProgram();
    glTransformFeedbackVaryings(prog, 0, NULL, GL_INTERLEAVED_ATTRIBS); E("glTransformFeedbackVaryings(0, NULL)");
    glUniform1fv(0, 0, NULL); E("glUniform1fv(0, NULL)");
    glDeleteTextures(0, NULL); E("glDeleteTextures(0, NULL)");
    glGenTextures(0, NULL); E("glGenTextures(0, NULL)");
    printf("done=1\n");
    return 0;
}
