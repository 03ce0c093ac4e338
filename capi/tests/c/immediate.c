/*
 * Plain single-threaded GL, as an unmodified program writes it: compile and link status checks,
 * uniform and block lookups after the link, bind-then-map-then-write, glReadPixels after draws,
 * glGetError after erroneous calls, fences, deletes, pixel-store state across glFlush. Every
 * query answer is printed, one per line.
 *
 *   immediate direct   runs it on a GL 4.5 core context it makes itself (EGL, surfaceless);
 *   immediate glcmd    runs it through glcmd: a headless device, the entry points of
 *                      glcmdLoadGL, and glcmdThreadMakeImmediate on the calling thread.
 *
 * capi/tests/c_programs.rs runs both and compares the outputs line by line (differential): the
 * GL calls are the same; only where they go differs. Both render into a framebuffer object.
 */
#include "glcorearb.h"

#include "glcmd.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static GlcmdGL gl;

#define SIZE 32

static const char *VS = "#version 450 core\n"
                        "layout(location = 0) in vec2 pos;\n"
                        "void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
static const char *FS = "#version 450 core\n"
                        "layout(std140) uniform Block { vec4 tint; };\n"
                        "uniform vec4 u_color;\n"
                        "out vec4 frag;\n"
                        "void main() { frag = u_color * tint; }\n";
static const char *BAD = "#version 450 core\nvoid main() { this is not glsl; }\n";

/* FNV-1a of bytes. */
static unsigned long long hash(const unsigned char *p, size_t n)
{
    unsigned long long h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

static void print_bytes(const char *key, const unsigned char *p, size_t n)
{
    printf("%s:", key);
    for (size_t i = 0; i < n; i++)
        printf(" %u", p[i]);
    printf("\n");
}

static void print_error(const char *after)
{
    printf("glGetError after %s: 0x%04x\n", after, gl.GetError());
}

static GLuint shader(GLenum type, const char *source, const char *what)
{
    GLint status = -1, log_length = -1;
    GLuint s = gl.CreateShader(type);
    gl.ShaderSource(s, 1, &source, NULL);
    gl.CompileShader(s);
    gl.GetShaderiv(s, GL_COMPILE_STATUS, &status);
    gl.GetShaderiv(s, GL_INFO_LOG_LENGTH, &log_length);
    printf("%s compile status: %d, has a log: %d\n", what, status, log_length > 1);
    return s;
}

/* The direct run: an EGL context of its own, and the GL's own entry points in the table. */
static int make_direct_context(void)
{
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (get_display == NULL)
        return fprintf(stderr, "no eglGetPlatformDisplayEXT\n"), 0;
    EGLDisplay display = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    EGLint major, minor;
    if (display == EGL_NO_DISPLAY || !eglInitialize(display, &major, &minor) || !eglBindAPI(EGL_OPENGL_API))
        return fprintf(stderr, "no surfaceless EGL display\n"), 0;
    const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                                 EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext context = eglCreateContext(display, (EGLConfig)0, EGL_NO_CONTEXT, attributes);
    if (context == EGL_NO_CONTEXT || !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context))
        return fprintf(stderr, "no GL 4.5 core context (0x%x)\n", eglGetError()), 0;
    void **table = (void **)&gl;
    for (uint32_t i = 0; i < glcmdFunctionCount(); i++) {
        const char *name = NULL;
        glcmdFunctionInfo(i, &name, NULL, NULL);
        void (*f)(void) = eglGetProcAddress(name);
        memcpy(&table[i], &f, sizeof f);
    }
    return 1;
}

/* The program: plain GL from here on. */
static void run(void)
{
    GLint value = -1;

    /* Shaders and program: status checks and lookups after the link. */
    GLuint vs = shader(GL_VERTEX_SHADER, VS, "vertex shader");
    GLuint fs = shader(GL_FRAGMENT_SHADER, FS, "fragment shader");
    GLuint bad = shader(GL_FRAGMENT_SHADER, BAD, "bad shader");
    GLuint program = gl.CreateProgram();
    gl.AttachShader(program, vs);
    gl.AttachShader(program, fs);
    gl.LinkProgram(program);
    gl.GetProgramiv(program, GL_LINK_STATUS, &value);
    printf("link status: %d\n", value);
    GLint u_color = gl.GetUniformLocation(program, "u_color");
    GLuint block = gl.GetUniformBlockIndex(program, "Block");
    printf("uniform u_color: %d, block Block: %u, attribute pos: %d, missing uniform: %d\n", u_color, block,
           gl.GetAttribLocation(program, "pos"), gl.GetUniformLocation(program, "missing"));
    gl.DeleteShader(bad);
    gl.GetIntegerv(GL_MAX_TEXTURE_SIZE, &value);
    printf("max texture size: %d\n", value);

    /* Bind, then map the target: the buffer bound just before is the one mapped. */
    static const float triangle[6] = {-1.0f, -1.0f, 1.0f, -1.0f, -1.0f, 1.0f};
    static const float zeros[6] = {0};
    GLuint buffers[2];
    gl.GenBuffers(2, buffers);
    gl.BindBuffer(GL_ARRAY_BUFFER, buffers[0]);
    gl.BufferData(GL_ARRAY_BUFFER, sizeof zeros, zeros, GL_STATIC_DRAW);
    gl.BindBuffer(GL_ARRAY_BUFFER, buffers[1]);
    gl.BufferData(GL_ARRAY_BUFFER, sizeof triangle, NULL, GL_DYNAMIC_DRAW);
    void *mapped = gl.MapBufferRange(GL_ARRAY_BUFFER, 0, sizeof triangle, GL_MAP_WRITE_BIT);
    printf("mapped: %d\n", mapped != NULL);
    if (mapped)
        memcpy(mapped, triangle, sizeof triangle);
    printf("unmapped: %d\n", gl.UnmapBuffer(GL_ARRAY_BUFFER));
    float readback[2][6];
    gl.GetNamedBufferSubData(buffers[0], 0, sizeof readback[0], readback[0]);
    gl.GetNamedBufferSubData(buffers[1], 0, sizeof readback[1], readback[1]);
    printf("buffer 0: %g %g %g, buffer 1: %g %g %g\n", readback[0][0], readback[0][2], readback[0][5],
           readback[1][0], readback[1][2], readback[1][5]);

    /* A uniform block and a framebuffer object, then a draw and glReadPixels. */
    static const float tint[4] = {1.0f, 0.5f, 1.0f, 1.0f};
    GLuint ubo, vao, target, fbo;
    gl.GenBuffers(1, &ubo);
    gl.BindBuffer(GL_UNIFORM_BUFFER, ubo);
    gl.BufferData(GL_UNIFORM_BUFFER, sizeof tint, tint, GL_STATIC_DRAW);
    gl.BindBufferBase(GL_UNIFORM_BUFFER, 0, ubo);
    gl.UniformBlockBinding(program, block, 0);
    gl.GenTextures(1, &target);
    gl.BindTexture(GL_TEXTURE_2D, target);
    gl.TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, SIZE, SIZE);
    gl.GenFramebuffers(1, &fbo);
    gl.BindFramebuffer(GL_FRAMEBUFFER, fbo);
    gl.FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target, 0);
    printf("framebuffer status: 0x%04x\n", gl.CheckFramebufferStatus(GL_FRAMEBUFFER));
    gl.Viewport(0, 0, SIZE, SIZE);
    gl.ClearColor(0.0f, 0.0f, 0.25f, 1.0f);
    gl.Clear(GL_COLOR_BUFFER_BIT);
    gl.GenVertexArrays(1, &vao);
    gl.BindVertexArray(vao);
    gl.EnableVertexAttribArray(0);
    gl.VertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, (const void *)0);
    gl.UseProgram(program);
    gl.Uniform4f(u_color, 1.0f, 0.8f, 0.2f, 1.0f);
    gl.DrawArrays(GL_TRIANGLES, 0, 3);
    static unsigned char pixels[SIZE * SIZE * 4];
    gl.ReadPixels(0, 0, SIZE, SIZE, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    print_bytes("pixel (2, 2)", &pixels[(2 * SIZE + 2) * 4], 4);
    print_bytes("pixel (30, 30)", &pixels[(30 * SIZE + 30) * 4], 4);
    printf("pixels hash: %016llx\n", hash(pixels, sizeof pixels));
    print_error("the draw");

    /* Errors, and what the GL accepted after a refused call. */
    gl.Enable(0x1234);
    print_error("glEnable(0x1234)");
    print_error("nothing");
    gl.UseProgram(987654);
    print_error("glUseProgram(987654)");
    gl.GetIntegerv(GL_CURRENT_PROGRAM, &value);
    printf("current program is the program: %d\n", (GLuint)value == program);
    gl.BindBuffer(GL_ARRAY_BUFFER, buffers[1]);
    gl.BindBuffer(GL_ARRAY_BUFFER, 987654);
    print_error("glBindBuffer(GL_ARRAY_BUFFER, 987654)");
    gl.GetIntegerv(GL_ARRAY_BUFFER_BINDING, &value);
    printf("array buffer binding is buffer 1: %d\n", (GLuint)value == buffers[1]);
    gl.Enable(0x1234);
    gl.UseProgram(987654);
    gl.BindBuffer(GL_ARRAY_BUFFER, 987654);
    print_error("glEnable(0x1234), glUseProgram(987654), glBindBuffer(.., 987654)");
    print_error("nothing");
    gl.UseProgram(987654);
    gl.Enable(0x1234);
    print_error("glUseProgram(987654), glEnable(0x1234)");
    print_error("nothing");
    gl.Enable(0x1234);
    gl.ShaderSource(vs, 1, NULL, NULL);
    print_error("glEnable(0x1234), glShaderSource(.., NULL, ..)");
    print_error("nothing");

    /* A fence, waited for. */
    GLsync sync = gl.FenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    GLenum waited = gl.ClientWaitSync(sync, GL_SYNC_FLUSH_COMMANDS_BIT, 5000000000ull);
    printf("fence signaled: %d\n", waited == GL_ALREADY_SIGNALED || waited == GL_CONDITION_SATISFIED);
    GLsizei length = 0;
    gl.GetSynciv(sync, GL_SYNC_STATUS, 1, &length, &value);
    printf("fence status: 0x%04x\n", value);
    gl.DeleteSync(sync);

    /* Unpack state set before a glFlush applies to an upload after it. */
    static const unsigned char rgb[2 * 5 * 3] = {
        10, 11, 12, 20, 21, 22, 30, 31, 32, 99, 99, 99, 99, 99, 99,
        40, 41, 42, 50, 51, 52, 60, 61, 62, 99, 99, 99, 99, 99, 99,
    };
    GLuint textures[2];
    gl.GenTextures(2, textures);
    gl.BindTexture(GL_TEXTURE_2D, textures[0]);
    gl.TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 3, 2);
    gl.PixelStorei(GL_UNPACK_ALIGNMENT, 1);
    gl.PixelStorei(GL_UNPACK_ROW_LENGTH, 5);
    gl.Flush();
    gl.TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 3, 2, GL_RGB, GL_UNSIGNED_BYTE, rgb);
    gl.PixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    unsigned char texels[3 * 2 * 4];
    gl.GetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    print_bytes("texture after glPixelStorei, glFlush, glTexSubImage2D", texels, sizeof texels);

    /* A pixel-unpack buffer bound before a glFlush: the pointer after it is an offset. */
    static unsigned char rgba[3 * 2 * 4];
    for (size_t i = 0; i < sizeof rgba; i++)
        rgba[i] = (unsigned char)(200 - i);
    GLuint pbo;
    gl.GenBuffers(1, &pbo);
    gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo);
    gl.BufferData(GL_PIXEL_UNPACK_BUFFER, sizeof rgba, rgba, GL_STATIC_DRAW);
    gl.BindTexture(GL_TEXTURE_2D, textures[1]);
    gl.TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 3, 2);
    gl.Flush();
    gl.TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 3, 2, GL_RGBA, GL_UNSIGNED_BYTE, (const void *)0);
    gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    memset(texels, 0, sizeof texels);
    gl.GetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    print_bytes("texture from the unpack buffer", texels, sizeof texels);
    print_error("the uploads");

    /* Deletes, with nothing but the calls. */
    gl.DeleteBuffers(1, &buffers[0]);
    gl.DeleteTextures(1, &textures[0]);
    gl.DeleteProgram(program);
    gl.DeleteShader(vs);
    printf("after the deletes: buffer %d, texture %d, buffer 1 %d\n", gl.IsBuffer(buffers[0]),
           gl.IsTexture(textures[0]), gl.IsBuffer(buffers[1]));
    gl.GetProgramiv(program, GL_DELETE_STATUS, &value);
    print_error("glGetProgramiv of a deleted program in use");
    printf("program delete status: %d\n", value);
    gl.Finish();
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    GlcmdDevice *device = NULL;
    if (strcmp(mode, "direct") == 0) {
        if (!make_direct_context())
            return 2;
    } else if (strcmp(mode, "glcmd") == 0) {
        if (glcmdDeviceCreateHeadless(NULL, &device) != GLCMD_OK || glcmdLoadGL(&gl) != GLCMD_OK ||
            glcmdThreadMakeImmediate(device) != GLCMD_OK) {
            const char *message = "";
            glcmdLastError(&message);
            return fprintf(stderr, "glcmd: %s\n", message), 2;
        }
    } else {
        return fprintf(stderr, "usage: immediate direct|glcmd\n"), 2;
    }
    run();
    if (device) {
        const char *message = "";
        GlcmdStatus last = glcmdLastError(&message);
        if (glcmdThreadMakeImmediate(NULL) != GLCMD_OK || glcmdDeviceDestroy(device) != GLCMD_OK)
            return fprintf(stderr, "glcmd: cannot end\n"), 3;
        fprintf(stderr, "last glcmd failure: %s %s\n", glcmdStatusName(last), message);
    }
    return 0;
}
