/* GL_OES_EGL_image through glcmd-run: a texture's image (EGL_KHR_gl_texture_2D_image) made right
 * after the texture's upload, with no query in between (its calls must reach the driver before
 * eglCreateImageKHR reads the texture), given to a second texture and to a renderbuffer with
 * glEGLImageTargetTexture2DOES / glEGLImageTargetRenderbufferStorageOES; the texels read back,
 * and the errors of an image that is none. One line per step; run directly and through
 * glcmd-run (run/tests/unchanged.rs), the outputs must be equal. */
#define PROGRAM "egl_image"
#define GL_GLEXT_PROTOTYPES
#include <GL/glcorearb.h>
#include <stdint.h>
#include <string.h>
#include "egl_pbuffer.h"

typedef void *GLeglImage;
typedef void (*TargetFn)(GLenum, GLeglImage);
typedef EGLImageKHR (*CreateFn)(EGLDisplay, EGLContext, EGLenum, EGLClientBuffer, const EGLint *);
typedef EGLBoolean (*DestroyFn)(EGLDisplay, EGLImageKHR);

int main(void) {
    make_egl_context();
    const char *ext = (const char *)glGetString(GL_VERSION);
    (void)ext;
    GLint n = 0, has = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &n);
    for (GLint i = 0; i < n; i++)
        if (strcmp((const char *)glGetStringi(GL_EXTENSIONS, i), "GL_OES_EGL_image") == 0) has = 1;
    printf("GL_OES_EGL_image listed=%d\n", has);
    TargetFn target_tex = (TargetFn)eglGetProcAddress("glEGLImageTargetTexture2DOES");
    TargetFn target_rb = (TargetFn)eglGetProcAddress("glEGLImageTargetRenderbufferStorageOES");
    CreateFn create = (CreateFn)eglGetProcAddress("eglCreateImageKHR");
    DestroyFn destroy = (DestroyFn)eglGetProcAddress("eglDestroyImageKHR");
    if (!has || !target_tex || !target_rb || !create || !destroy) die("no GL_OES_EGL_image or EGL_KHR_image_base");

    unsigned char texels[4 * 4 * 4];
    for (int i = 0; i < (int)sizeof texels; i++) texels[i] = (unsigned char)(i * 7 + 1);
    GLuint src, dst, rb, fb;
    glGenTextures(1, &src);
    glBindTexture(GL_TEXTURE_2D, src);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    /* No query since the upload: the image must see it. */
    EGLImageKHR image = create(eglGetCurrentDisplay(), eglGetCurrentContext(), EGL_GL_TEXTURE_2D_KHR,
                               (EGLClientBuffer)(uintptr_t)src, NULL);
    printf("image_nonnull=%d egl_error=0x%x\n", image != EGL_NO_IMAGE_KHR, eglGetError());

    glGenTextures(1, &dst);
    glBindTexture(GL_TEXTURE_2D, dst);
    target_tex(GL_TEXTURE_2D, image);
    printf("glEGLImageTargetTexture2DOES error=0x%x\n", glGetError());
    unsigned char back[sizeof texels];
    memset(back, 0, sizeof back);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, back);
    printf("texels_equal=%d first=%d last=%d error=0x%x\n", memcmp(back, texels, sizeof back) == 0, back[0], back[63],
           glGetError());

    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    target_rb(GL_RENDERBUFFER, image);
    GLint w = 0;
    glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_WIDTH, &w);
    printf("glEGLImageTargetRenderbufferStorageOES error=0x%x width=%d\n", glGetError(), w);
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    unsigned char pixel[4] = {0};
    glReadPixels(1, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
    printf("renderbuffer_pixel=%d,%d,%d,%d status=0x%x\n", pixel[0], pixel[1], pixel[2], pixel[3],
           glCheckFramebufferStatus(GL_FRAMEBUFFER));

    target_tex(0x1234, image);
    printf("bad target error=0x%x\n", glGetError());
    destroy(eglGetCurrentDisplay(), image);
    printf("done=1\n");
    return 0;
}
