/* A share group under glcmd-run (issue 35, item 3): a core context that glcmd adopts at its first
 * make-current, then a second context created sharing its objects. The group must not be split
 * between glcmd's deferred stream and direct calls: glcmd hands the first context back at the
 * create, and both run directly from then on. The program checks what sharing promises, in both
 * directions: a buffer filled in one context reads back in the other after a glFinish, a texture
 * made in the other draws in the first, and what the first drew before the create is still in
 * its framebuffer. Printed values are compared with the program run directly.
 *
 *   share_group MODE      MODE: current (the first context current on this thread at the
 *                         create, as engines make an upload context) or released (current on
 *                         no thread at the create) */
#define GL_GLEXT_PROTOTYPES 1
#define PROGRAM "share_group"
#include "egl_pbuffer.h"
#include <GL/glcorearb.h>
#include <string.h>

static void pixel(const char *what) {
    unsigned char p[4] = {0, 0, 0, 0};
    glReadPixels(8, 8, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, p);
    printf("%s: pixel %u,%u,%u,%u error %u\n", what, p[0], p[1], p[2], p[3], glGetError());
}

int main(int argc, char **argv) {
    if (argc != 2 || (strcmp(argv[1], "current") && strcmp(argv[1], "released"))) die("usage: share_group current|released");
    make_egl_context();
    EGLDisplay dpy = eglGetCurrentDisplay();
    EGLSurface surface = eglGetCurrentSurface(EGL_DRAW);
    EGLContext first = eglGetCurrentContext();
    EGLConfig config;
    EGLint id = 0, count = 0;
    eglQueryContext(dpy, first, EGL_CONFIG_ID, &id);
    const EGLint by_id[] = {EGL_CONFIG_ID, id, EGL_NONE};
    if (!eglChooseConfig(dpy, by_id, &config, 1, &count) || count != 1) die("eglChooseConfig");
    /* Work in the first context before the second exists: a clear left pending, a buffer. */
    glClearColor(1.0f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    GLuint buffer;
    glCreateBuffers(1, &buffer);
    const unsigned words[4] = {0x11223344u, 0x55667788u, 0x99aabbccu, 0xddeeff00u};
    glNamedBufferData(buffer, sizeof words, words, GL_STATIC_DRAW);
    glFinish();
    if (strcmp(argv[1], "released") == 0 && !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT))
        die("release");
    const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                              EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext second = eglCreateContext(dpy, config, first, attribs);
    if (second == EGL_NO_CONTEXT) die("eglCreateContext with a share context");
    printf("current after the create: %s\n", eglGetCurrentContext() == first ? "first" : "none");
    if (strcmp(argv[1], "released") == 0 && !eglMakeCurrent(dpy, surface, surface, first)) die("make first current");
    pixel("first, its own clear");
    /* The second context reads the first's buffer and makes a texture. */
    if (!eglMakeCurrent(dpy, surface, surface, second)) die("make second current");
    unsigned got[4] = {0, 0, 0, 0};
    glGetNamedBufferSubData(buffer, 0, sizeof got, got);
    printf("second reads the first's buffer: %08x %08x %08x %08x error %u\n", got[0], got[1], got[2], got[3],
           glGetError());
    GLuint texture;
    glCreateTextures(GL_TEXTURE_2D, 1, &texture);
    glTextureStorage2D(texture, 1, GL_RGBA8, 1, 1);
    const unsigned char green[4] = {0, 255, 0, 255};
    glTextureSubImage2D(texture, 0, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, green);
    glFinish();
    /* The first context draws with the second's texture (as a framebuffer's read source). */
    if (!eglMakeCurrent(dpy, surface, surface, first)) die("make first current again");
    GLuint fbo;
    glCreateFramebuffers(1, &fbo);
    glNamedFramebufferTexture(fbo, GL_COLOR_ATTACHMENT0, texture, 0);
    unsigned char p[4] = {0, 0, 0, 0};
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, p);
    printf("first reads the second's texture: %u,%u,%u,%u status %x error %u\n", p[0], p[1], p[2], p[3],
           glCheckNamedFramebufferStatus(fbo, GL_READ_FRAMEBUFFER), glGetError());
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    pixel("first, its clear still there");
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, second);
    eglDestroyContext(dpy, first);
    printf("done\n");
    return 0;
}
