#define _POSIX_C_SOURCE 200809L
/* Two threads and an EGL reusable sync (tests/driver_thread.rs): a second thread waits on it
 * with EGL_FOREVER while the main thread signals it. Directly the wait ends when the signal
 * comes; through glcmd-run both calls go to the one driver thread, so a wait made there would
 * hold the signal behind it for ever. Prints the wait's answer. */
#define PROGRAM "reusable_sync"
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "egl_pbuffer.h"

static EGLDisplay dpy;
static EGLSyncKHR sync_object;
static PFNEGLCLIENTWAITSYNCKHRPROC client_wait;
static EGLint waited;

static void *waiter(void *unused) {
    (void)unused;
    waited = client_wait(dpy, sync_object, 0, EGL_FOREVER_KHR);
    return NULL;
}

int main(void) {
    make_egl_context();
    dpy = eglGetCurrentDisplay();
    const char *extensions = eglQueryString(dpy, EGL_EXTENSIONS);
    if (!extensions || !strstr(extensions, "EGL_KHR_reusable_sync")) {
        printf("no EGL_KHR_reusable_sync\n");
        return 0;
    }
    PFNEGLCREATESYNCKHRPROC create = (PFNEGLCREATESYNCKHRPROC)eglGetProcAddress("eglCreateSyncKHR");
    PFNEGLSIGNALSYNCKHRPROC signal = (PFNEGLSIGNALSYNCKHRPROC)eglGetProcAddress("eglSignalSyncKHR");
    PFNEGLDESTROYSYNCKHRPROC destroy = (PFNEGLDESTROYSYNCKHRPROC)eglGetProcAddress("eglDestroySyncKHR");
    client_wait = (PFNEGLCLIENTWAITSYNCKHRPROC)eglGetProcAddress("eglClientWaitSyncKHR");
    if (!create || !signal || !destroy || !client_wait) die("reusable sync functions");
    sync_object = create(dpy, EGL_SYNC_REUSABLE_KHR, NULL);
    if (sync_object == EGL_NO_SYNC_KHR) die("eglCreateSyncKHR");
    pthread_t t;
    if (pthread_create(&t, NULL, waiter, NULL) != 0) die("pthread_create");
    /* Most likely the waiter waits first (the order the test is about); either order must end. */
    struct timespec pause = {0, 200 * 1000 * 1000};
    nanosleep(&pause, NULL);
    EGLBoolean signalled = signal(dpy, sync_object, EGL_SIGNALED_KHR);
    pthread_join(t, NULL);
    printf("signal %d wait 0x%x\n", signalled, waited);
    destroy(dpy, sync_object);
    return 0;
}
