/*
 * The C example of README.md ("C and C++"): the text between the two README markers is the
 * README's C block, character for character (capi/tests/install.rs checks it, then compiles this
 * file against an installed glcmd with `pkg-config --cflags --libs glcmd` and runs it). Two
 * worker threads clear one half of a 64 x 64 framebuffer each; main prints two pixels.
 */
/* README begin */
#include <GL/glcorearb.h>
#define GLCMD_GL_MACROS   /* glX names call through glcmd_gl (GLEW's way; glad: see below) */
#include <glcmd.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

GlcmdGL glcmd_gl;
static GlcmdFrame *frame;
static GLuint fbo;

static void *worker(void *arg) {                  /* records slot `i` of the frame */
    uint32_t i = (uint32_t)(uintptr_t)arg;
    glcmdListBeginSlot(frame, i);                 /* this thread's list: a claimed slot */
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);       /* recorded, not called */
    glEnable(GL_SCISSOR_TEST);
    glScissor(32 * (GLint)i, 0, 32, 64);          /* slot i clears half i */
    glClearColor(0.25f * (float)i, 1.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glcmdListSubmit(frame, i);
    return NULL;
}

int main(void) {
    GlcmdDevice *dev;  GLuint rb;  pthread_t threads[2];  unsigned char px[2][4];
    if (glcmdDeviceCreateHeadless(NULL, &dev) != GLCMD_OK) return 1; /* render thread + GL 4.5 */
    glcmdDeviceMakeCurrent(dev);                  /* first: loaders query GL_VERSION */
    glcmdLoadGL(&glcmd_gl);                       /* glad 2: gladLoadGL((GLADloadfunc)glcmdGetProcAddress) */
    glCreateFramebuffers(1, &fbo);                /* creates: immediate, real names */
    glCreateRenderbuffers(1, &rb);
    glcmdListBegin(dev);                          /* set-up list of this thread */
    glNamedRenderbufferStorage(rb, GL_RGBA8, 64, 64);
    glNamedFramebufferRenderbuffer(fbo, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    glcmdSubmit(dev);                             /* a frame of its own */
    glcmdFrameBegin(dev, 2, &frame);              /* two slots, replayed in slot order */
    for (uintptr_t i = 0; i < 2; i++) pthread_create(&threads[i], NULL, worker, (void *)i);
    for (int i = 0; i < 2; i++) pthread_join(threads[i], NULL);
    glcmdFrameEnd(frame);                         /* after every worker submitted */
    glReadPixels(8, 8, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px[0]);  /* queries wait for the frame */
    glReadPixels(40, 8, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px[1]);
    printf("PIXELS %d %d %d %d / %d %d %d %d\n", px[0][0], px[0][1], px[0][2], px[0][3],
           px[1][0], px[1][1], px[1][2], px[1][3]);
    glcmdDeviceDestroy(dev);                      /* replays everything submitted first */
    return 0;
}
/* README end */
