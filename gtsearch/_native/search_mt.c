/* MT and the MTD driver: gtsearch.algorithms.mt, step for step.
 *
 * Plaat, Schaeffer, Pijls & de Bruin (1996).  The transposition table is a hash map of
 * the nodes searched (leaves included, as [v, v]), so `nodes` is its size as in Python; or,
 * with --tt (mt_tabled), the bounded table of table.c keyed by position, as tabled.py's
 * TableMemory: each recall a probe, each answer a cut, each bound proved a store, and `nodes`
 * the positions proved.
 */
#include "core.h"

typedef struct {
    node_t n, c, stop;
    double g;
    int is_max;
} MTFrame;

typedef struct {
    Search *S;
    const TreeView *t;
    MTMemory mem;        /* MT's own (by node), or the transposition table (by position) */
    const int64_t *keys; /* the positions of the nodes (NULL: TREE_KEY's) */
    MTFrame *stack;
    size_t cap;
    int64_t passes;
} MT;

/* node n's key in the memory: itself in MT's own, its position in a transposition table */
static inline int64_t mt_key(const MT *s, node_t n) {
    return s->mem.tt ? TREE_KEY(s->t, s->keys, n) : n;
}

/* prove(): node n's value lies in [lo, hi]; -1 on MemoryError */
static int prove(MT *s, node_t n, double lo, double hi) {
    return mtm_prove(&s->mem, mt_key(s, n), lo, hi);
}

static inline int passes(double g, double gamma, int strict) {
    return strict ? g > gamma : g >= gamma;
}

/* probe(): 1 with *out when the table answers for n, 0 when it does not, -1 on error */
static int probe(MT *s, node_t n, double gamma, int strict, double *out) {
    double b[2];
    if (!mtm_recall(&s->mem, mt_key(s, n), b)) {
        if (IS_LEAF(s->t, n)) { /* a leaf: evaluated, remembered as [v, v] */
            if (nl_push(&s->S->leaves, n) < 0)
                return -1;
            double v = VAL(s->t, n);
            if (prove(s, n, v, v) < 0)
                return -1;
            *out = v;
            return 1;
        }
        return 0;
    }
    return mtm_answer(&s->mem, b, gamma, strict, out);
}

/* MTSearch.test(): one MT pass from the root */
static int mt_test(MT *s, double gamma, int strict, double *result) {
    const TreeView *t = s->t;
    s->passes++;
    double known;
    int r = probe(s, 0, gamma, strict, &known);
    if (r < 0)
        return -1;
    if (r) {
        *result = known;
        return 0;
    }
    size_t len = 0;
    node_t n = 0, c = 1, stop = END(t, 0);
    int is_max = t->root_max;
    double g = is_max ? -INF : INF;
    for (;;) {
        int descended = 0;
        while (c < stop) {
            if (search_tick(s->S) < 0)
                return -1;
            double v;
            r = probe(s, c, gamma, strict, &v);
            if (r < 0)
                return -1;
            if (!r) {
                if (ROOM(s->stack, len, s->cap) < 0)
                    return -1;
                s->stack[len++] = (MTFrame){n, c, stop, g, is_max};
                n = c;
                stop = END(t, c);
                is_max = !is_max;
                c = n + 1;
                g = is_max ? -INF : INF;
                descended = 1;
                break;
            }
            if (is_max) {
                if (v > g)
                    g = v;
                if (passes(g, gamma, strict))
                    break;
            } else {
                if (v < g)
                    g = v;
                if (!passes(g, gamma, strict))
                    break;
            }
            c = END(t, c);
        }
        if (descended)
            continue;
        /* node n is finished with g: remember the bound it proved */
        if (passes(g, gamma, strict) ? prove(s, n, g, INF) : prove(s, n, -INF, g))
            return -1;
        if (!len) {
            *result = g;
            return 0;
        }
        double v = g;
        MTFrame *f = &s->stack[--len];
        n = f->n;
        c = f->c;
        stop = f->stop;
        g = f->g;
        is_max = f->is_max;
        if (is_max) {
            if (v > g)
                g = v;
            if (passes(g, gamma, strict)) {
                c = stop;
                continue;
            }
        } else {
            if (v < g)
                g = v;
            if (!passes(g, gamma, strict)) {
                c = stop;
                continue;
            }
        }
        c = END(t, c);
    }
}

/* mtd(): MT passes from a first guess until the bounds meet */
static int mtd(MT *s, double first, double *lower_out) {
    double lower = -INF, upper = INF, g = first;
    while (lower < upper) {
        double gamma = g;
        if (gamma == lower) {
            if (mt_test(s, gamma, 1, &g) < 0)
                return -1;
            if (g > gamma)
                lower = g;
            else
                upper = g;
        } else {
            if (mt_test(s, gamma, 0, &g) < 0)
                return -1;
            if (g >= gamma)
                lower = g;
            else
                upper = g;
        }
    }
    *lower_out = lower;
    return 0;
}

int mt_tabled(Search *S, Table *tt, const int64_t *keys, double first) {
    MT s;
    memset(&s, 0, sizeof s);
    s.S = S;
    s.t = &S->t;
    s.keys = keys;
    int rc = -1;
    if (mtm_init(&s.mem, tt) == 0 && mtd(&s, first, &S->value) == 0) {
        S->counts[0] = (int64_t)s.mem.map.len;
        S->counts[1] = s.passes;
        rc = 0;
    }
    map_free(&s.mem.map);
    gt_free(s.stack);
    return rc;
}

/* the argument (first): the first guess */
static int mtd_search(Search *S, const SearchParams *P) { return mt_tabled(S, NULL, NULL, P->x[0]); }

PyObject *gt_mtd(PyObject *self, PyObject *args) {
    (void)self;
    return search_entry(args, "d", mtd_search, NO_LINE, 2);
}
