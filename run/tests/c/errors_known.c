/* glGetError after every object, as a GL_CHECK macro does (issue 31: glGetError without a round
 * trip where glcmd knows the answer). The same object is drawn again and again, so glcmd learns
 * that its calls raise nothing; then each step changes one thing the GL's errors depend on (an
 * argument, a sampler's unit, a deleted or relinked object, a texture's target, a mapped buffer,
 * a framebuffer, another thread's call) and draws the object again. One line per glGetError; run
 * directly and through glcmd-run (run/tests/known_errors.rs), the outputs must be equal.
 *
 *   errors_known           every step
 *   errors_known objects   the plain object loop only (for counting the answers given without a
 *                          round trip) */
#define PROGRAM "errors_known"
#define GL_GLEXT_PROTOTYPES
#include <GL/glcorearb.h>
#include <pthread.h>
#include <string.h>
#include "egl_pbuffer.h"

static const char *VS = "#version 330 core\n"
                        "uniform mat4 m;\n"
                        "layout(location = 0) in vec2 p;\n"
                        "void main() { gl_Position = m * vec4(p, 0.0, 1.0); }\n";
static const char *FS = "#version 430 core\n"
                        "uniform sampler2D tex;\n"
                        "layout(location = 5) uniform vec4 color;\n"
                        "uniform int scale[2];\n"
                        "out vec4 c;\n"
                        "void main() { c = color * texture(tex, vec2(0.5)) * float(scale[0] + scale[1]); }\n";
/* Two samplers of different types: on one unit, a draw is GL_INVALID_OPERATION. */
static const char *FS_TWO = "#version 430 core\n"
                            "layout(location = 5) uniform sampler2D flat_tex;\n"
                            "uniform samplerCube cube_tex;\n"
                            "out vec4 c;\n"
                            "void main() { c = texture(flat_tex, vec2(0.5)) + texture(cube_tex, vec3(1.0)); }\n";
static const char *FS_BROKEN = "#version 330 core\nout vec4 c;\nvoid main() { c = undefined_name; }\n";

static GLuint program, two, vao, bare_vao, texture, cube, elements;
static GLint u_m, u_color, u_tex, u_scale, u_flat, u_cube;
static float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
static const float color[4] = {1, 0.5f, 0.25f, 1};
static int step;

#define E(what) printf("%d %s error=0x%x\n", step++, what, glGetError())

static GLuint shader(GLenum type, const char *src) {
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    return s;
}

static GLuint link(const char *vs, const char *fs) {
    GLuint p = glCreateProgram();
    glAttachShader(p, shader(GL_VERTEX_SHADER, vs));
    glAttachShader(p, shader(GL_FRAGMENT_SHADER, fs));
    glLinkProgram(p);
    return p;
}

static GLuint quad_vao(int with_elements) {
    static const float quad[8] = {-1, -1, 1, -1, 1, 1, -1, 1};
    static const GLuint indices[6] = {0, 1, 2, 0, 2, 3};
    GLuint a, b;
    glGenVertexArrays(1, &a);
    glBindVertexArray(a);
    glGenBuffers(1, &b);
    glBindBuffer(GL_ARRAY_BUFFER, b);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glEnableVertexAttribArray(0);
    if (with_elements) {
        glGenBuffers(1, &elements);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, elements);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof indices, indices, GL_STATIC_DRAW);
    }
    return a;
}

static void setup(void) {
    program = link(VS, FS);
    two = link(VS, FS_TWO);
    u_m = glGetUniformLocation(program, "m");
    u_color = glGetUniformLocation(program, "color");
    u_tex = glGetUniformLocation(program, "tex");
    u_scale = glGetUniformLocation(program, "scale");
    u_flat = glGetUniformLocation(two, "flat_tex");
    u_cube = glGetUniformLocation(two, "cube_tex");
    vao = quad_vao(1);
    bare_vao = quad_vao(0);
    const GLubyte white[4] = {255, 255, 255, 255};
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, white);
    glGenTextures(1, &cube);
    glBindTexture(GL_TEXTURE_CUBE_MAP, cube);
    E("setup");
}

/* The object: what a tutorial's draw call does, every call a kind glcmd can know. */
static void object(GLuint p, GLuint a, GLuint t) {
    glUseProgram(p);
    glUniformMatrix4fv(u_m, 1, GL_FALSE, identity);
    glUniform4fv(u_color, 1, color);
    glUniform1i(u_tex, 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, t);
    glBindVertexArray(a);
    glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_INT, 0);
}

static void objects(const char *what, int n) {
    for (int i = 0; i < n; i++) {
        object(program, vao, texture);
        E(what);
    }
}

static EGLDisplay dpy;
static EGLSurface surface;
static EGLContext context;

/* The context on another thread, which deletes the vertex array the object draws with. */
static void *other_thread(void *arg) {
    (void)arg;
    if (!eglMakeCurrent(dpy, surface, surface, context)) die("eglMakeCurrent on the other thread");
    glDeleteVertexArrays(1, &vao);
    glFinish();
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    return NULL;
}

static void steps(void) {
    static const GLint scale[2] = {1, 1};
    glUseProgram(program);
    glUniform1iv(u_scale, 2, scale);
    objects("learn", 4);
    /* Arguments that differ from what was learned. */
    glUniform1i(u_tex, 100000);
    E("sampler unit out of range");
    object(program, vao, texture);
    glUniform4fv(u_color, 2, color);
    E("count 2 on a vec4");
    glUniformMatrix4fv(u_color, 1, GL_FALSE, identity);
    E("matrix into a vec4");
    glActiveTexture(GL_TEXTURE0 + 100000);
    E("texture unit out of range");
    glBindTexture(GL_TEXTURE_CUBE_MAP, texture);
    E("2D texture as a cube map");
    glDrawElements(GL_TRIANGLES, -1, GL_UNSIGNED_INT, 0);
    E("negative count");
    glDrawElements(GL_TRIANGLES, 6, GL_FLOAT, 0);
    E("float indices");
    glViewport(0, 0, -1, 16);
    E("negative viewport");
    glEnable(0x1234);
    E("enable of no capability");
    objects("after the refusals", 3);
    /* An integer array set with the object: known only once nothing changes. */
    for (int i = 0; i < 3; i++) {
        object(program, vao, texture);
        glUniform1iv(u_scale, 2, scale);
        E("an integer array");
    }
    glUniform1iv(u_scale, 3, scale);
    E("an array of three into two");
    glUniform1i(u_scale + 1, 2);
    object(program, vao, texture);
    E("an element of the array");
    /* The program with two sampler types: fine on two units, then both on unit 0. */
    for (int i = 0; i < 3; i++) {
        glUseProgram(two);
        glUniform1i(u_flat, 0);
        glUniform1i(u_cube, 1);
        glBindVertexArray(vao);
        glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_INT, 0);
        E("two samplers, two units");
    }
    glUseProgram(two);
    glUniform1i(u_flat, 0);
    glUniform1i(u_cube, 0);
    glBindVertexArray(vao);
    glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_INT, 0);
    E("two samplers, one unit");
    glUniform1i(u_cube, 1);
    glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_INT, 0);
    E("two units again");
    /* A sampler's unit changed in one stretch, the draw in the next (an error forgets what
     * was learned: the first pair learns again). */
    for (int i = 0; i < 2; i++) {
        glUseProgram(two);
        glUniform1i(u_cube, 1);
        glBindVertexArray(vao);
        E("two units, set");
        glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_INT, 0);
        E("two units, drawn");
    }
    glUniform1i(u_cube, 0);
    E("one unit, set");
    glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_INT, 0);
    E("one unit, drawn");
    glUniform1i(u_cube, 1);
    E("two units, set again");
    /* Uniform buffer ranges and texture units bound with the object. */
    GLuint ubo;
    glGenBuffers(1, &ubo);
    glBindBuffer(GL_UNIFORM_BUFFER, ubo);
    glBufferData(GL_UNIFORM_BUFFER, 256, NULL, GL_STATIC_DRAW);
    for (int i = 0; i < 3; i++) {
        object(program, vao, texture);
        glBindBufferRange(GL_UNIFORM_BUFFER, 0, ubo, 0, 64);
        glBindTextureUnit(1, texture);
        E("a uniform buffer range and a texture unit");
    }
    glBindBufferRange(GL_UNIFORM_BUFFER, 0, ubo, 1, 64);
    E("an unaligned uniform buffer offset");
    glBindBufferRange(GL_UNIFORM_BUFFER, 100000, ubo, 0, 64);
    E("a uniform buffer index out of range");
    glBindTextureUnit(1, 424242);
    E("a texture unit bound to no texture");
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, ubo);
    E("a transform feedback buffer");
    /* No vertex array, in its own stretch, then the learned draw. */
    objects("back to the object", 2);
    glBindVertexArray(0);
    E("no vertex array");
    glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_INT, 0);
    E("a draw with no vertex array");
    /* The same location in two programs: a vec4 in one, a sampler in the other. */
    objects("back to the object", 3);
    glUseProgram(program);
    E("the program");
    glUniform4fv(u_color, 1, color);
    E("a colour into the program");
    glUseProgram(two);
    E("the two-sampler program");
    glUniform4fv(u_color, 1, color);
    E("a colour into the other program's sampler");
    objects("back to the object", 3);
    /* State the learned calls depend on, changed by other calls. */
    /* (A draw of indices from a vertex array with no element buffer is not made: Mesa reads
     * address 0 then, where glcmd raises GL_INVALID_OPERATION.) */
    glBindVertexArray(bare_vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    E("arrays from the other vertex array");
    objects("object", 2);
    glMapBuffer(GL_ELEMENT_ARRAY_BUFFER, GL_READ_ONLY);
    object(program, vao, texture);
    E("element buffer mapped");
    glUnmapBuffer(GL_ELEMENT_ARRAY_BUFFER);
    objects("unmapped", 3);
    GLuint fb;
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    object(program, vao, texture);
    E("incomplete framebuffer");
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    objects("default framebuffer", 3);
    dpy = eglGetCurrentDisplay();
    surface = eglGetCurrentSurface(EGL_DRAW);
    context = eglGetCurrentContext();
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    pthread_t thread;
    pthread_create(&thread, NULL, other_thread, NULL);
    pthread_join(thread, NULL);
    if (!eglMakeCurrent(dpy, surface, surface, context)) die("eglMakeCurrent again");
    object(program, vao, texture);
    E("vertex array deleted by another thread");
    vao = quad_vao(1);
    objects("vertex array made again", 3);
    /* Objects the learned calls name, deleted or relinked. */
    glDeleteTextures(1, &texture);
    object(program, vao, texture);
    E("deleted texture");
    glGenTextures(1, &texture);
    objects("texture made again", 3);
    GLuint old_vao = vao;
    glDeleteVertexArrays(1, &vao);
    object(program, old_vao, texture);
    E("deleted vertex array");
    vao = quad_vao(1);
    objects("vertex array made again", 3);
    glAttachShader(program, shader(GL_FRAGMENT_SHADER, FS_BROKEN));
    glLinkProgram(program);
    object(program, vao, texture);
    E("program whose relink failed");
    object(program, vao, texture);
    E("still failed");
    glDeleteProgram(two);
    glUseProgram(two);
    E("deleted program");
    program = link(VS, FS);
    objects("program linked again", 3);
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IONBF, 0);
    make_egl_context();
    setup();
    if (argc > 1 && strcmp(argv[1], "objects") == 0) {
        objects("object", 50);
    } else {
        steps();
    }
    printf("done=1\n");
    return 0;
}
