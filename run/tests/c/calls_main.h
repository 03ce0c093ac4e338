/* The main function of the generated differential calls (see calls_fixture.h): `calls FROM TO`
 * makes the fixture and runs CALLS[FROM..TO), printing `N name variant:` before each call (and
 * flushing it, so that a crash shows which call it was) and what it returned and raised after
 * it; `calls --count` prints how many calls there are. */
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--count") == 0) {
        printf("%d\n", CALL_COUNT);
        return 0;
    }
    int from = argc > 1 ? atoi(argv[1]) : 0;
    int to = argc > 2 ? atoi(argv[2]) : CALL_COUNT;
    make_fixture();
    for (int i = from; i < to && i < CALL_COUNT; i++) {
        printf("%d %s %s:", i, CALLS[i].name, CALLS[i].variant[0] ? CALLS[i].variant : "base");
        fflush(stdout);
        CALLS[i].run();
    }
    printf("done\n");
    return 0;
}
