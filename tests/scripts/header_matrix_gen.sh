#!/bin/bash
# SPDX-License-Identifier: MIT
# header_matrix_gen.sh -- one program of the header matrix (header_matrix.sh):
#
#   header_matrix_gen.sh list                 the headers, one per line
#   header_matrix_gen.sh flags HEADER         mupcc's flags for HEADER's program
#   header_matrix_gen.sh HEADER [PLACE]       the UPC program on stdout
#
# Each row below is a header of C17 or one HPC codes use, the flags its
# program needs, the type T of a use of its typical macros and functions,
# file-scope declarations it needs, the use as an expression of @ (a T),
# an input and the value C defines for the use of that input.  The program
# tests the condition in #if, and makes the use in every PLACE (or in the
# one given; `if` is the #if): at file scope (a
# function defined there), in main on a private value, on values read from
# and written to shared objects, and in a upc_forall body; each prints
# "ok PLACE" or "FAIL PLACE: got G, want W".  To re-run one case:
#   tests/scripts/header_matrix_gen.sh tgmath.h shared > t.upc
#   tools/mupcc $(tests/scripts/header_matrix_gen.sh flags tgmath.h) -o t t.upc && tools/mupcrun -n 2 ./t
set -u

# name | flags | T | file-scope declarations | use of X | input | C's value |
#   a condition on the header's macros that C's #if takes as true
table() {
    cat <<'TABLE'
assert.h||int||(assert(@ == 7), @ + 1)|7|8|defined(assert)
complex.h||double||cimag(CMPLX(@, 2.0) * I) + creal(conj(CMPLX(@, 2.0)))|7|14|defined(I) && defined(complex)
ctype.h||int||toupper(@) + isdigit('5') * 0|97|65|EOF < 0
errno.h||int||(errno = @, errno + 1)|7|8|EDOM > 0 && ERANGE > 0
fenv.h||int||(fesetround(FE_DOWNWARD) == 0 && fegetround() == FE_DOWNWARD && fesetround(FE_TONEAREST) == 0 ? @ : -1)|7|7|defined(FE_DOWNWARD) && FE_TONEAREST >= 0
float.h||double||@ * DBL_EPSILON / DBL_EPSILON + (FLT_RADIX - 2)|7|7|FLT_RADIX == 2 && DBL_MANT_DIG == 53 && FLT_EVAL_METHOD >= 0 && DBL_DIG >= 15
inttypes.h||int||(int)imaxabs(-(intmax_t)@) + (int)strtoimax("1", NULL, 10) + (PRId64[0] == 'l')|7|9|INTMAX_MAX > 0 && defined(PRId64)
iso646.h||int||(@ and 1) + (@ bitand 3) + (not @)|7|4|1 and not 0
limits.h||int||@ + (INT_MAX > 0) + (CHAR_BIT - 8) + (LONG_MAX > INT_MAX)|7|9|LONG_MAX > INT_MAX && CHAR_BIT == 8 && INT_MIN < 0 && LLONG_MAX >= LONG_MAX
locale.h||int||(setlocale(LC_ALL, "C") != NULL) + @ + (localeconv() != NULL)|7|9|defined(LC_ALL)
math.h||double||sqrt(@ * @) + fmax(@, 0.0) - @ + isnan(@) + isfinite(@) + (fpclassify(@) == FP_NORMAL) + floor(M_PI)|7|12|defined(FP_NORMAL) && defined(M_PI)
setjmp.h||int|static jmp_buf hm_jb;|({ volatile int hm_r = @; if (setjmp(hm_jb) == 0) longjmp(hm_jb, 1); hm_r; })|7|7|defined(setjmp)
signal.h||int|static volatile sig_atomic_t hm_seen;|(signal(SIGUSR1, SIG_IGN) != SIG_ERR && raise(SIGUSR1) == 0 ? @ + (int)hm_seen : -1)|7|7|SIGUSR1 > 0
stdalign.h||int|static alignas(16) char hm_buf[16];|@ + (int)alignof(double) - 8 + (int)((unsigned long)hm_buf % 16)|7|7|__alignas_is_defined == 1 && __alignof_is_defined == 1
stdarg.h||int|static int hm_sum(int n, ...) { va_list ap, aq; va_start(ap, n); va_copy(aq, ap); int s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, int) + va_arg(aq, int); va_end(aq); va_end(ap); return s; }|hm_sum(2, @, 1)|7|16|defined(va_arg)
stdatomic.h||int|static atomic_int hm_count = ATOMIC_VAR_INIT(1);|({ atomic_int hm_a = @; atomic_fetch_add(&hm_a, 1); atomic_fetch_add_explicit(&hm_a, atomic_load(&hm_count), memory_order_relaxed); atomic_thread_fence(memory_order_seq_cst); atomic_load(&hm_a) + atomic_is_lock_free(&hm_a) * 0; })|7|9|ATOMIC_INT_LOCK_FREE == 2 && ATOMIC_POINTER_LOCK_FREE == 2 && ATOMIC_LLONG_LOCK_FREE >= 1
stdbool.h||int||(bool)@ + true + (false ? 5 : 0)|7|2|__bool_true_false_are_defined && true == 1 && false == 0
stddef.h||int|struct hm_pair { int a; int b; };|@ + (int)offsetof(struct hm_pair, b) - 4 + (int)(sizeof(max_align_t) >= 8) + (NULL == (void *)0)|7|9|defined(offsetof)
stdint.h||int||(int)(INT64_C(1) + @ + (int32_t)UINT8_C(2)) + (INT32_MAX > 0)|7|11|INT64_C(1) == 1 && UINTPTR_MAX >= UINT32_MAX && SIZE_MAX > 0 && INT32_MAX == 2147483647
stdio.h||int||snprintf(NULL, 0, "%d", @ * 100) + (EOF < 0)|7|4|EOF < 0 && BUFSIZ > 0
stdlib.h||int||abs(-@) + (int)strtol("1", NULL, 10) + (EXIT_SUCCESS == 0) + (RAND_MAX > 0)|7|10|EXIT_FAILURE == 1 && RAND_MAX > 0
stdnoreturn.h||int|noreturn static void hm_never(void) { exit(3); }|(@ > 100 ? (hm_never(), 0) : @)|7|7|defined(noreturn)
string.h||int||(int)strlen("abc") + @ + (memcmp("a", "a", 1) == 0)|7|11|defined(NULL)
tgmath.h||double||sqrt(@ * @) + (double)sizeof(sqrt((float)@)) + fabs(-@) + creal(sqrt(@ * @ + 0 * I))|7|25|defined(sqrt) && defined(M_PI)
threads.h||int|static int hm_thr(void *p) { return *(int *)p + 1; }|({ thrd_t hm_t; int hm_v = @, hm_r = 0; thrd_create(&hm_t, hm_thr, &hm_v) == thrd_success && thrd_join(hm_t, &hm_r) == thrd_success ? hm_r : -1; })|7|8|defined(ONCE_FLAG_INIT)
time.h||int||@ + (time(NULL) > 0) + (CLOCKS_PER_SEC > 0)|7|9|defined(CLOCKS_PER_SEC) && TIME_UTC > 0
uchar.h||int||({ char16_t hm_c = u'a'; char32_t hm_d = U'b'; (int)hm_c - 97 + (int)hm_d - 98 + @; })|7|7|defined(NULL)
wchar.h||int||(int)wcslen(L"ab") + @ + (WEOF != 0)|7|10|WCHAR_MAX > 0 && defined(WEOF)
wctype.h||int||(int)towupper(L'a') - 65 + @ + (iswdigit(L'5') != 0)|7|8|defined(WEOF)
omp.h|-fopenmp|int||({ int hm_s = 0; _Pragma("omp parallel for reduction(+:hm_s)") for (int hm_i = 0; hm_i < 4; hm_i++) hm_s += @; hm_s + (omp_get_max_threads() > 0); })|7|29|_OPENMP >= 201107
quadmath.h|-lquadmath|double||(double)sqrtq((__float128)@ * @) + (double)fabsq(-1.5Q) * 2 + (M_PIq > 3.14Q)|7|11|FLT128_MANT_DIG == 113
immintrin.h||double||({ __m128d hm_v = _mm_set1_pd(@); hm_v = _mm_add_pd(hm_v, _mm_shuffle_pd(hm_v, hm_v, 1)); _mm_cvtsd_f64(hm_v); })|7|14|defined(_MM_SHUFFLE) && _MM_HINT_T0 >= 0
pthread.h||int|static void *hm_pt(void *p) { *(int *)p += 1; return p; }|({ pthread_t hm_t; int hm_v = @; pthread_create(&hm_t, NULL, hm_pt, &hm_v) == 0 && pthread_join(hm_t, NULL) == 0 ? hm_v : -1; })|7|8|defined(PTHREAD_MUTEX_INITIALIZER)
mpi.h||int||({ int hm_init = 0; MPI_Initialized(&hm_init); hm_init ? @ : -1; })|7|7|MPI_VERSION >= 3
math-fast-math|-ffast-math|double||sqrt(@ * @) + floor(@ / 2) + fma(@, 2.0, 1.0)|7|25|defined(__FAST_MATH__) && defined(M_PI)
TABLE
}

row() { table | awk -F'|' -v h="$1" '$1 == h'; }

case "${1:-}" in
list) table | cut -d'|' -f1; exit 0 ;;
flags) r=$(row "${2:-}"); [ -n "$r" ] || { echo "header_matrix_gen.sh: no header '${2:-}'" >&2; exit 2; }
       echo "$r" | cut -d'|' -f2; exit 0 ;;
'') echo "usage: header_matrix_gen.sh list | flags HEADER | HEADER [if|file|function|shared|forall]" >&2; exit 2 ;;
esac
r=$(row "$1")
[ -n "$r" ] || { echo "header_matrix_gen.sh: no header '$1' (header_matrix_gen.sh list)" >&2; exit 2; }
IFS='|' read -r name flags type decls use input want cond <<<"$r"
places=${2:-if file function shared forall}
header=$name; [ "$name" = math-fast-math ] && header=math.h
fmt=%d; [ "$type" = double ] && fmt=%g
# the use of an expression E: @ replaced by (E)
use_of() { local e=$1; echo "${use//@/($e)}"; }

cat <<EOF
/* header matrix: <$header> ($name), $places */
#include <upc.h>
#include <$header>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
$(case " $places " in *" if "*) printf '#if %s\n#define HM_IF 1\n#else\n#define HM_IF 0\n#endif\n' "$cond" ;; esac)
$decls
shared $type hm_in[THREADS], hm_out[THREADS];
shared $type hm_all[4 * THREADS], hm_res[4 * THREADS];
static int hm_failed;
static void hm_check(const char *place, $type got)
{
    if (got == ($type)$want)
        return;
    printf("FAIL %s: thread %d got $fmt, want $fmt\n", place, MYTHREAD, got, ($type)$want);
    hm_failed = 1;
}
EOF
for p in $places; do
    case $p in
    file) echo "static $type hm_file_use($type x) { return $(use_of x); }" ;;
    esac
done
cat <<EOF
int main(void)
{
    $type x = $input;
    hm_in[MYTHREAD] = x;
    for (int i = MYTHREAD; i < 4 * THREADS; i += THREADS)
        hm_all[i] = x;
    upc_barrier;
EOF
for p in $places; do
    case $p in
    if) echo "    if (!HM_IF) printf(\"FAIL if: thread %d: #if $cond is false\\n\", MYTHREAD), hm_failed = 1;" ;;
    file) echo "    hm_check(\"file\", hm_file_use(x));" ;;
    function) echo "    { $type r = $(use_of x); hm_check(\"function\", r); }" ;;
    shared) cat <<EOF
    { $type r = $(use_of "hm_in[(MYTHREAD + 1) % THREADS]"); hm_check("shared (read)", r); }
    hm_out[MYTHREAD] = $(use_of x);
    upc_barrier;
    hm_check("shared (written)", hm_out[(MYTHREAD + THREADS - 1) % THREADS]);
EOF
        ;;
    forall) cat <<EOF
    upc_forall (int i = 0; i < 4 * THREADS; i++; &hm_all[i])
        hm_res[i] = $(use_of "hm_all[i]");
    upc_barrier;
    for (int i = 0; i < 4 * THREADS; i++)
        hm_check("forall", hm_res[i]);
EOF
        ;;
    *) echo "header_matrix_gen.sh: no place '$p' (if, file, function, shared, forall)" >&2; exit 2 ;;
    esac
done
cat <<EOF
    upc_barrier;
    if (!hm_failed)
        printf("ok thread %d: $places\n", MYTHREAD);
    return hm_failed;
}
EOF
