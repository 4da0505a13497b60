/*
 * misuse.c MODE -- API misuse that must stop the job with a clear message
 * (checked by tests/scripts/errors.sh).  Each mode's failing line is
 * marked with LINE_<MODE> so the script can check the reported file:line.
 */
#include <upc.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

MUPC_SHARED_ARRAY(cells, long, 4, 4, MUPC_PER_THREAD)

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "named-mismatch")) {
        upc_barrier(MYTHREAD == 1 ? 2 : 1); /* LINE_named-mismatch */
    } else if (!strcmp(mode, "wait-mismatch")) {
        upc_notify(5);
        upc_wait(6); /* LINE_wait-mismatch */
    } else if (!strcmp(mode, "notify-twice")) {
        upc_notify();
        upc_notify(); /* LINE_notify-twice */
    } else if (!strcmp(mode, "wait-alone")) {
        upc_wait(); /* LINE_wait-alone */
    } else if (!strcmp(mode, "barrier-in-phase")) {
        upc_notify();
        upc_barrier(); /* LINE_barrier-in-phase */
    } else if (!strcmp(mode, "out-of-range")) {
        mupc_ptr_t p = mupc_ptr_add(MUPC_BASE(cells), 1 << 30, sizeof(long), 4);
        MUPC_PUT(long, p, 1); /* LINE_out-of-range */
    } else if (!strcmp(mode, "bad-thread")) {
        mupc_ptr_t p = MUPC_BASE(cells);
        p.thread = THREADS + 3;
        (void)MUPC_GET(long, p); /* LINE_bad-thread */
    } else if (!strcmp(mode, "null")) {
        (void)MUPC_GET(int, MUPC_NULL_PTR); /* LINE_null */
    } else if (!strcmp(mode, "bad-handle")) {
        MUPC_SYNC(0x12345678abcdULL); /* LINE_bad-handle */
    } else {
        fprintf(stderr, "misuse: unknown mode '%s'\n", mode);
        return 2;
    }
    upc_barrier();
    return 0;
}
