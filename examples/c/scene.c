/*
 * A C program that records GL on four worker threads through glcmd's C ABI.
 *
 * It loads GL through glcmdGetProcAddress into a glad-style table, sets up a program, a vertex
 * array, a texture (uploaded with a non-default unpack state) and a framebuffer on the main
 * thread, records a frame of 64 textured, blended quads on four threads (16 each, one slot each),
 * reads the framebuffer back with glReadPixels and writes it as a PNG. The same scene rendered
 * through the Rust API gives identical bytes (capi/tests/c_programs.rs checks it).
 *
 * Build and run (from the repository root; C99 and POSIX threads, no C++):
 *
 *   cargo build --release -p glcmd-capi
 *   cc -std=c99 -O2 -Wall -Wextra -Icapi/include examples/c/scene.c -Ltarget/release \
 *      -lglcmd_capi -Wl,-rpath,"$PWD/target/release" -pthread -o target/scene_c
 *   target/scene_c scene_c.png
 */
#include <GL/glcorearb.h>
#include "glcmd.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "png.h"

#define WIDTH 128
#define HEIGHT 128
#define WORKERS 4
#define PER_WORKER 16

/* A glad-style table: the GL functions this program uses, loaded by name. */
static struct {
    PFNGLATTACHSHADERPROC AttachShader;
    PFNGLBINDFRAMEBUFFERPROC BindFramebuffer;
    PFNGLBINDTEXTUREUNITPROC BindTextureUnit;
    PFNGLBINDVERTEXARRAYPROC BindVertexArray;
    PFNGLBLENDFUNCPROC BlendFunc;
    PFNGLCHECKNAMEDFRAMEBUFFERSTATUSPROC CheckNamedFramebufferStatus;
    PFNGLCLEARPROC Clear;
    PFNGLCLEARCOLORPROC ClearColor;
    PFNGLCOMPILESHADERPROC CompileShader;
    PFNGLCREATEBUFFERSPROC CreateBuffers;
    PFNGLCREATEFRAMEBUFFERSPROC CreateFramebuffers;
    PFNGLCREATEPROGRAMPROC CreateProgram;
    PFNGLCREATERENDERBUFFERSPROC CreateRenderbuffers;
    PFNGLCREATESHADERPROC CreateShader;
    PFNGLCREATETEXTURESPROC CreateTextures;
    PFNGLCREATEVERTEXARRAYSPROC CreateVertexArrays;
    PFNGLDELETESHADERPROC DeleteShader;
    PFNGLDRAWELEMENTSPROC DrawElements;
    PFNGLENABLEPROC Enable;
    PFNGLENABLEVERTEXARRAYATTRIBPROC EnableVertexArrayAttrib;
    PFNGLGETERRORPROC GetError;
    PFNGLGETPROGRAMINFOLOGPROC GetProgramInfoLog;
    PFNGLGETPROGRAMIVPROC GetProgramiv;
    PFNGLGETUNIFORMLOCATIONPROC GetUniformLocation;
    PFNGLLINKPROGRAMPROC LinkProgram;
    PFNGLNAMEDBUFFERSTORAGEPROC NamedBufferStorage;
    PFNGLNAMEDFRAMEBUFFERRENDERBUFFERPROC NamedFramebufferRenderbuffer;
    PFNGLNAMEDRENDERBUFFERSTORAGEPROC NamedRenderbufferStorage;
    PFNGLOBJECTLABELPROC ObjectLabel;
    PFNGLPIXELSTOREIPROC PixelStorei;
    PFNGLREADPIXELSPROC ReadPixels;
    PFNGLSHADERSOURCEPROC ShaderSource;
    PFNGLTEXTUREPARAMETERIPROC TextureParameteri;
    PFNGLTEXTURESTORAGE2DPROC TextureStorage2D;
    PFNGLTEXTURESUBIMAGE2DPROC TextureSubImage2D;
    PFNGLUNIFORM4FPROC Uniform4f;
    PFNGLUSEPROGRAMPROC UseProgram;
    PFNGLVERTEXARRAYATTRIBBINDINGPROC VertexArrayAttribBinding;
    PFNGLVERTEXARRAYATTRIBFORMATPROC VertexArrayAttribFormat;
    PFNGLVERTEXARRAYELEMENTBUFFERPROC VertexArrayElementBuffer;
    PFNGLVERTEXARRAYVERTEXBUFFERPROC VertexArrayVertexBuffer;
    PFNGLVIEWPORTPROC Viewport;
} gl;

/* Loads every entry of `gl`; returns 0 if one is missing. */
static int load_gl(void *(*get_proc)(const char *name))
{
    int ok = 1;
#define LOAD(type, name) ok &= (gl.name = (type)get_proc("gl" #name)) != NULL
    LOAD(PFNGLATTACHSHADERPROC, AttachShader);
    LOAD(PFNGLBINDFRAMEBUFFERPROC, BindFramebuffer);
    LOAD(PFNGLBINDTEXTUREUNITPROC, BindTextureUnit);
    LOAD(PFNGLBINDVERTEXARRAYPROC, BindVertexArray);
    LOAD(PFNGLBLENDFUNCPROC, BlendFunc);
    LOAD(PFNGLCHECKNAMEDFRAMEBUFFERSTATUSPROC, CheckNamedFramebufferStatus);
    LOAD(PFNGLCLEARPROC, Clear);
    LOAD(PFNGLCLEARCOLORPROC, ClearColor);
    LOAD(PFNGLCOMPILESHADERPROC, CompileShader);
    LOAD(PFNGLCREATEBUFFERSPROC, CreateBuffers);
    LOAD(PFNGLCREATEFRAMEBUFFERSPROC, CreateFramebuffers);
    LOAD(PFNGLCREATEPROGRAMPROC, CreateProgram);
    LOAD(PFNGLCREATERENDERBUFFERSPROC, CreateRenderbuffers);
    LOAD(PFNGLCREATESHADERPROC, CreateShader);
    LOAD(PFNGLCREATETEXTURESPROC, CreateTextures);
    LOAD(PFNGLCREATEVERTEXARRAYSPROC, CreateVertexArrays);
    LOAD(PFNGLDELETESHADERPROC, DeleteShader);
    LOAD(PFNGLDRAWELEMENTSPROC, DrawElements);
    LOAD(PFNGLENABLEPROC, Enable);
    LOAD(PFNGLENABLEVERTEXARRAYATTRIBPROC, EnableVertexArrayAttrib);
    LOAD(PFNGLGETERRORPROC, GetError);
    LOAD(PFNGLGETPROGRAMINFOLOGPROC, GetProgramInfoLog);
    LOAD(PFNGLGETPROGRAMIVPROC, GetProgramiv);
    LOAD(PFNGLGETUNIFORMLOCATIONPROC, GetUniformLocation);
    LOAD(PFNGLLINKPROGRAMPROC, LinkProgram);
    LOAD(PFNGLNAMEDBUFFERSTORAGEPROC, NamedBufferStorage);
    LOAD(PFNGLNAMEDFRAMEBUFFERRENDERBUFFERPROC, NamedFramebufferRenderbuffer);
    LOAD(PFNGLNAMEDRENDERBUFFERSTORAGEPROC, NamedRenderbufferStorage);
    LOAD(PFNGLOBJECTLABELPROC, ObjectLabel);
    LOAD(PFNGLPIXELSTOREIPROC, PixelStorei);
    LOAD(PFNGLREADPIXELSPROC, ReadPixels);
    LOAD(PFNGLSHADERSOURCEPROC, ShaderSource);
    LOAD(PFNGLTEXTUREPARAMETERIPROC, TextureParameteri);
    LOAD(PFNGLTEXTURESTORAGE2DPROC, TextureStorage2D);
    LOAD(PFNGLTEXTURESUBIMAGE2DPROC, TextureSubImage2D);
    LOAD(PFNGLUNIFORM4FPROC, Uniform4f);
    LOAD(PFNGLUSEPROGRAMPROC, UseProgram);
    LOAD(PFNGLVERTEXARRAYATTRIBBINDINGPROC, VertexArrayAttribBinding);
    LOAD(PFNGLVERTEXARRAYATTRIBFORMATPROC, VertexArrayAttribFormat);
    LOAD(PFNGLVERTEXARRAYELEMENTBUFFERPROC, VertexArrayElementBuffer);
    LOAD(PFNGLVERTEXARRAYVERTEXBUFFERPROC, VertexArrayVertexBuffer);
    LOAD(PFNGLVIEWPORTPROC, Viewport);
#undef LOAD
    return ok;
}

/* Exits with glcmd's message if a glcmd call failed. */
static void check(GlcmdStatus status, const char *what)
{
    if (status != GLCMD_OK) {
        const char *message = "";
        glcmdLastError(&message);
        fprintf(stderr, "%s: %s: %s\n", what, glcmdStatusName(status), message);
        exit(1);
    }
}

/* Every failure of glcmd, as it happens (a KHR_debug-style callback). */
static void GLCMD_APIENTRY on_error(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                    const GLchar *message, const void *user)
{
    (void)source, (void)type, (void)severity, (void)length, (void)user;
    fprintf(stderr, "glcmd error %s: %s\n", glcmdStatusName((GlcmdStatus)id), message);
}

static const char *vertex_source =
    "#version 450 core\n"
    "layout(location = 0) in vec2 a_pos;\n"
    "uniform vec4 u_rect;\n"
    "out vec2 v_uv;\n"
    "void main() { v_uv = a_pos; gl_Position = vec4(u_rect.xy + a_pos * u_rect.zw, 0.0, 1.0); }\n";
static const char *fragment_source =
    "#version 450 core\n"
    "in vec2 v_uv;\n"
    "uniform vec4 u_color;\n"
    "layout(binding = 0) uniform sampler2D u_tex;\n"
    "out vec4 o_color;\n"
    "void main() { o_color = texture(u_tex, v_uv) * u_color; }\n";

/* What the workers share. */
static struct {
    GlcmdDevice *device;
    GlcmdFrame *frame;
    GLuint program, vao, texture, fbo;
    GLint u_rect, u_color;
} scene;

/* Object k's rectangle and colour: exact binary fractions and one division each, so C and Rust
 * compute the same floats. */
static void object(int k, float rect[4], float color[4])
{
    rect[0] = -1.0f + (float)(k % 8) * 0.25f + 0.03125f;
    rect[1] = -1.0f + (float)(k / 8) * 0.25f + 0.03125f;
    rect[2] = 0.25f; /* overlaps the next object: the order of slots shows */
    rect[3] = 0.125f + (float)(k % 3) * 0.0625f;
    color[0] = (float)((k * 37) % 256) / 255.0f;
    color[1] = (float)((k * 91) % 256) / 255.0f;
    color[2] = (float)((k * 53) % 256) / 255.0f;
    color[3] = 0.75f;
}

/* A worker: records its slot of the frame on its own thread. */
static void *worker(void *arg)
{
    int slot = (int)(intptr_t)arg;
    char label[32];
    check(glcmdListBegin(scene.device), "glcmdListBegin");
    snprintf(label, sizeof label, "worker %d", slot);
    check(glcmdListSetLabel(label), "glcmdListSetLabel");
    gl.BindFramebuffer(GL_FRAMEBUFFER, scene.fbo);
    gl.Viewport(0, 0, WIDTH, HEIGHT);
    if (slot == 0) {
        gl.ClearColor(0.125f, 0.25f, 0.5f, 1.0f);
        gl.Clear(GL_COLOR_BUFFER_BIT);
    }
    gl.Enable(GL_BLEND);
    gl.BlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    gl.UseProgram(scene.program);
    gl.BindVertexArray(scene.vao);
    gl.BindTextureUnit(0, scene.texture);
    for (int i = 0; i < PER_WORKER; i++) {
        float rect[4], color[4];
        object(slot * PER_WORKER + i, rect, color);
        gl.Uniform4f(scene.u_rect, rect[0], rect[1], rect[2], rect[3]);
        gl.Uniform4f(scene.u_color, color[0], color[1], color[2], color[3]);
        gl.DrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, (const void *)0);
    }
    check(glcmdListSubmit(scene.frame, (uint32_t)slot), "glcmdListSubmit");
    return NULL;
}

/* Creates, compiles and links the program (the link status is a query: after the submit). */
static GLuint make_program(void)
{
    GLuint program = gl.CreateProgram();
    GLuint vs = gl.CreateShader(GL_VERTEX_SHADER), fs = gl.CreateShader(GL_FRAGMENT_SHADER);
    gl.ShaderSource(vs, 1, &vertex_source, NULL);
    gl.ShaderSource(fs, 1, &fragment_source, NULL);
    gl.CompileShader(vs);
    gl.CompileShader(fs);
    gl.AttachShader(program, vs);
    gl.AttachShader(program, fs);
    gl.LinkProgram(program);
    gl.DeleteShader(vs);
    gl.DeleteShader(fs);
    gl.ObjectLabel(GL_PROGRAM, program, -1, "scene program");
    return program;
}

int main(int argc, char **argv)
{
    const char *out = argc > 1 ? argv[1] : "scene_c.png";
    static const float quad[8] = {0, 0, 1, 0, 1, 1, 0, 1};
    static const unsigned short indices[6] = {0, 1, 2, 0, 2, 3};
    GLuint buffers[2], renderbuffer;
    GLint linked = 0;
    pthread_t threads[WORKERS];

    if (!load_gl(glcmdGetProcAddress)) {
        fprintf(stderr, "a GL function has no entry point\n");
        return 1;
    }
    glcmdSetErrorCallback(on_error, NULL);
    check(glcmdDeviceCreateHeadless(NULL, &scene.device), "glcmdDeviceCreateHeadless");

    /* Set-up: creates are immediate; the rest is recorded and submitted as a frame of its own. */
    check(glcmdListBegin(scene.device), "glcmdListBegin");
    scene.program = make_program();
    gl.CreateBuffers(2, buffers);
    gl.NamedBufferStorage(buffers[0], sizeof quad, quad, 0);
    gl.NamedBufferStorage(buffers[1], sizeof indices, indices, 0);
    gl.CreateVertexArrays(1, &scene.vao);
    gl.VertexArrayVertexBuffer(scene.vao, 0, buffers[0], 0, 2 * sizeof(float));
    gl.VertexArrayElementBuffer(scene.vao, buffers[1]);
    gl.VertexArrayAttribFormat(scene.vao, 0, 2, GL_FLOAT, GL_FALSE, 0);
    gl.VertexArrayAttribBinding(scene.vao, 0, 0);
    gl.EnableVertexArrayAttrib(scene.vao, 0);
    {
        /* A 4 x 4 RGB texture cut out of a 6 x 5 image: row length 6, one pixel and one row
         * skipped, byte alignment. glcmd computes the 69 bytes the GL reads from this list's
         * pixel-store state; the buffer holds exactly those. */
        const int row_length = 6, skip_pixels = 1, skip_rows = 1;
        size_t needed = (size_t)((skip_rows + 4 - 1) * row_length * 3 + (skip_pixels + 4) * 3);
        unsigned char *image = malloc(needed);
        for (size_t i = 0; i < needed; i++)
            image[i] = (unsigned char)(i * 29 + 7);
        gl.CreateTextures(GL_TEXTURE_2D, 1, &scene.texture);
        gl.TextureStorage2D(scene.texture, 1, GL_RGB8, 4, 4);
        gl.TextureParameteri(scene.texture, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        gl.TextureParameteri(scene.texture, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        gl.PixelStorei(GL_UNPACK_ALIGNMENT, 1);
        gl.PixelStorei(GL_UNPACK_ROW_LENGTH, row_length);
        gl.PixelStorei(GL_UNPACK_SKIP_PIXELS, skip_pixels);
        gl.PixelStorei(GL_UNPACK_SKIP_ROWS, skip_rows);
        gl.TextureSubImage2D(scene.texture, 0, 0, 0, 4, 4, GL_RGB, GL_UNSIGNED_BYTE, image);
        free(image); /* copied into the list: free at once */
    }
    gl.CreateFramebuffers(1, &scene.fbo);
    gl.CreateRenderbuffers(1, &renderbuffer);
    gl.NamedRenderbufferStorage(renderbuffer, GL_RGBA8, WIDTH, HEIGHT);
    gl.NamedFramebufferRenderbuffer(scene.fbo, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, renderbuffer);
    check(glcmdSubmit(scene.device), "glcmdSubmit");

    /* Queries run after everything submitted: the link has run. */
    gl.GetProgramiv(scene.program, GL_LINK_STATUS, &linked);
    if (!linked) {
        char log[1024];
        gl.GetProgramInfoLog(scene.program, sizeof log, NULL, log);
        fprintf(stderr, "link failed: %s\n", log);
        return 1;
    }
    if (gl.CheckNamedFramebufferStatus(scene.fbo, GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "framebuffer incomplete\n");
        return 1;
    }
    scene.u_rect = gl.GetUniformLocation(scene.program, "u_rect");
    scene.u_color = gl.GetUniformLocation(scene.program, "u_color");

    /* The frame: four slots, recorded by four threads, replayed in slot order. */
    check(glcmdFrameBegin(scene.device, WORKERS, &scene.frame), "glcmdFrameBegin");
    for (int i = 0; i < WORKERS; i++)
        pthread_create(&threads[i], NULL, worker, (void *)(intptr_t)i);
    for (int i = 0; i < WORKERS; i++)
        pthread_join(threads[i], NULL);
    check(glcmdFrameEnd(scene.frame), "glcmdFrameEnd");

    /* Read back (a query: after the frame) and write the PNG, top row first. */
    {
        unsigned char *pixels = malloc(WIDTH * HEIGHT * 4);
        GLenum error;
        GlcmdReport report;
        gl.ReadPixels(0, 0, WIDTH, HEIGHT, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
        error = gl.GetError();
        while (glcmdGetReport(scene.device, &report) == GLCMD_OK && report.kind != GLCMD_REPORT_NONE)
            fprintf(stderr, "report: %s\n", report.text);
        check(glcmdDeviceDestroy(scene.device), "glcmdDeviceDestroy");
        if (error != GL_NO_ERROR) {
            fprintf(stderr, "GL error 0x%04x\n", error);
            return 1;
        }
        if (write_png(out, pixels, WIDTH, HEIGHT) != 0) {
            fprintf(stderr, "cannot write %s\n", out);
            return 1;
        }
        free(pixels);
    }
    printf("wrote %s (%d x %d), %d objects recorded by %d threads\n", out, WIDTH, HEIGHT, WORKERS * PER_WORKER,
           WORKERS);
    return 0;
}
