/* The limit: a plain C alpha-beta over gtsearch's flat arrays, nothing else.
 *
 * benchmarks/bench.py compiles this file with gcc -O2 at run time and calls it through
 * ctypes on the very arrays of a loaded tree, to show how far each of gtsearch's searches
 * is from what the machine can do.  Fail-soft negamax (Knuth & Moore's F2), recursive, no
 * principal variation, no leaf order, no bookkeeping: the leaves it evaluates are those of
 * `gtsearch eval -a alphabeta`, and bench.py checks that they are as many.
 */
#include <math.h>
#include <stdint.h>

static int64_t leaves;

static double negamax(const int32_t *end, const double *val, int32_t n, double alpha,
                      double beta, double sign) {
    int32_t stop = end[n];
    if (stop == n + 1) {
        leaves++;
        return sign * val[n];
    }
    double m = -INFINITY;
    for (int32_t c = n + 1; c < stop; c = end[c]) {
        double t = -negamax(end, val, c, -beta, -(alpha > m ? alpha : m), -sign);
        if (t > m) {
            m = t;
            if (m >= beta)
                break;
        }
    }
    return m;
}

/* The value of the tree (MAX's terms); *count: the leaves evaluated. */
double alphabeta(const int32_t *end, const double *val, int root_max, int64_t *count) {
    double sign = root_max ? 1.0 : -1.0;
    leaves = 0;
    double v = sign * negamax(end, val, 0, -INFINITY, INFINITY, sign);
    *count = leaves;
    return v;
}
