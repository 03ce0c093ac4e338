/* A GL program that leaves work queued when it ends, and an exit handler that looks at what is
 * still running: tests/unchanged.rs runs it directly and through glcmd-run and compares.
 *
 * It makes a 4.5 core context (EGL pbuffer on Mesa's surfaceless platform, or the device
 * platform), registers an atexit handler *after* the context is current (as a library that
 * initialises lazily does: LLVM's function-local statics, whose destructors then run before
 * any handler registered earlier), records clears and a read of nothing, and ends with
 * exit(0), or by returning from main with the argument `return`. The handler prints how many
 * of the process's threads are glcmd render threads: through glcmd-run, every device must have
 * finished (its queue replayed, its thread joined) before any exit handler runs, so that no
 * replay can reach a library whose statics are being destroyed. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#include <dirent.h>
#include <string.h>

#define PROGRAM "exit"
#include "egl_pbuffer.h"

/* The number of this process's threads named glcmd-render. */
static int render_threads(void) {
    DIR *tasks = opendir("/proc/self/task");
    if (!tasks) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(tasks))) {
        if (e->d_name[0] == '.') continue;
        char path[300], comm[32] = {0};
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        if (fgets(comm, sizeof comm, f) && strncmp(comm, "glcmd-render", 12) == 0) n++;
        fclose(f);
    }
    closedir(tasks);
    return n;
}

static void at_exit(void) {
    printf("render_threads_at_exit=%d\n", render_threads());
    fflush(stdout);
}

int main(int argc, char **argv) {
    make_egl_context();
    if (atexit(at_exit) != 0) die("atexit");
    for (int i = 0; i < 64; i++) {
        glClearColor(i / 64.0f, 0.5f, 0.25f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
    }
    printf("recorded\n");
    fflush(stdout);
    if (argc > 1 && strcmp(argv[1], "return") == 0) return 0;
    exit(0);
}
