/* The PV walk every C search's line comes from, and the PV rule and the Prover of
 * gtsearch.algorithms.pv, over the evaluated leaves.
 *
 * pv_walk() goes down from the root, a rule of the caller's naming each next node (see
 * core.h).  The PV rule and the Prover look only at the explored part of the tree (the nodes
 * above evaluated leaves), found by binary search in the sorted evaluated leaves (or in a bit
 * set of them), and walk it on explicit stacks.
 */
#include "core.h"

/* the index of the first item >= x in the sorted a[0..n) */
static size_t bisect_left(const int64_t *a, size_t n, int64_t x, size_t lo) {
    size_t hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (a[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* the first position >= lo of an item >= x in the sorted a[0..n), searching outwards from lo
 * (cheap when the answer is near, as it is for the children of a node, left to right) */
static size_t gallop(const int64_t *a, size_t n, int64_t x, size_t lo) {
    size_t step = 1, hi = lo;
    while (hi < n && a[hi] < x) {
        lo = hi + 1;
        hi += step;
        step *= 2;
    }
    if (hi > n)
        hi = n;
    return bisect_left(a, hi, x, lo);
}

/* -- the PV walk (see core.h) ----------------------------------------------------------------- */
int pv_walk(PVStep step, void *ctx, int root_max, int64_t **line, size_t *len) {
    int64_t *out = NULL;
    size_t k = 0, cap = 0;
    node_t n = 0;
    int is_max = root_max;
    for (;;) {
        if (ROOM(out, k, cap) < 0) {
            gt_free(out);
            return -1;
        }
        out[k++] = n;
        node_t c = step(ctx, n, is_max);
        if (c == PV_END) {
            *line = out;
            *len = k;
            return 0;
        }
        if (c < 0) {
            gt_free(out);
            return c == PV_NONE ? 1 : -1;
        }
        n = c;
        is_max = !is_max;
    }
}

/* -- principal_variation() ---------------------------------------------------------------- */
typedef struct {
    int64_t n;
    int is_max;
} Item;

typedef struct {
    Item *p;
    size_t len, cap;
} Items;

static int items_push(Items *l, int64_t n, int is_max) {
    if (ROOM(l->p, l->len, l->cap) < 0)
        return -1;
    l->p[l->len].n = n;
    l->p[l->len].is_max = is_max;
    l->len++;
    return 0;
}

/* a node still to visit, and the evaluated leaves ev[lo..hi) below it */
typedef struct {
    int64_t n;
    int is_max;
    size_t lo, hi;
} Visit;

/* _explored(): the nodes above the sorted evaluated leaves ev, in preorder (ascending). */
static int explored(const TreeView *t, const int64_t *ev, size_t count, Items *out) {
    Visit *stack = NULL, *kids = NULL;
    size_t len = 0, cap = 0, nkids = 0, capkids = 0;
    int rc = -1;
    if (!count)
        return 0;
    if (ROOM(stack, len, cap) < 0)
        goto done;
    stack[len++] = (Visit){0, t->root_max, 0, count};
    while (len) {
        Visit v = stack[--len];
        if (items_push(out, v.n, v.is_max) < 0)
            goto done;
        node_t stop = END(t, v.n), c = v.n + 1;
        size_t i = v.lo;
        nkids = 0;
        while (c < stop && i < v.hi) {
            node_t e = END(t, c);
            if (ev[i] < e) { /* an evaluated leaf lies below c */
                size_t j = gallop(ev, v.hi, e, i);
                if (ROOM(kids, nkids, capkids) < 0)
                    goto done;
                kids[nkids++] = (Visit){c, !v.is_max, i, j};
                i = j;
            }
            c = e;
        }
        while (nkids) {
            if (ROOM(stack, len, cap) < 0)
                goto done;
            stack[len++] = kids[--nkids];
        }
    }
    rc = 0;
done:
    gt_free(stack);
    gt_free(kids);
    return rc;
}

/* a finished explored node k's bounds go into its parent's, up (MAX: the greatest of its
 * children's, MIN: the least), and up has one more explored child finished */
static inline void fold(const Items *ex, double *lo, double *hi, size_t *kids, size_t up,
                        size_t k) {
    int mx = ex->p[up].is_max;
    if (mx ? lo[k] > lo[up] : lo[k] < lo[up])
        lo[up] = lo[k];
    if (mx ? hi[k] > hi[up] : hi[k] < hi[up])
        hi[up] = hi[k];
    kids[up]++;
}

/* the line's rule: at each node the first child whose lo (or hi) is the value wanted */
typedef struct {
    const Items *ex;
    const double *lo, *hi;
    const size_t *skip;
    size_t at; /* the line's node among the explored ones: ex->p[at].n */
    double value;
    int bound;
    const TreeView *t;
} BoundsWalk;

static node_t keeps_value(void *ctx, node_t n, int is_max) {
    BoundsWalk *w = ctx;
    if (IS_LEAF(w->t, n))
        return PV_END;
    size_t at = w->at;
    int use_lo = w->bound == BOUND_EXACT ? is_max : w->bound == BOUND_LOWER;
    double want = w->bound == BOUND_EXACT ? w->value : use_lo ? w->lo[at] : w->hi[at];
    size_t c = at + 1;
    while (c < w->skip[at] && (use_lo ? w->lo[c] : w->hi[c]) != want)
        c = w->skip[c];
    if (c >= w->skip[at])
        return PV_NONE; /* no child keeps the value: a bug the Python version reports */
    w->at = c;
    return w->ex->p[c].n;
}

int pv_from_leaves(const TreeView *t, const NodeList *leaves, double value, int bound,
                   int64_t **line, size_t *len) {
    int64_t *ev = NULL;
    size_t count = 0;
    Items ex = {NULL, 0, 0};
    double *lo = NULL, *hi = NULL;
    size_t *skip = NULL, *stack = NULL, *kids = NULL;
    int rc = -1;
    if (nl_sorted_unique(leaves, &ev, &count) < 0)
        return -1;
    if (explored(t, ev, count, &ex) < 0)
        goto done;
    if (!ex.len) {
        rc = 1; /* nothing evaluated proves nothing */
        goto done;
    }
    /* lo/hi of every explored node, bottom-up in one preorder pass with a stack of the open
     * ones; skip[k]: the position after k's explored subtree (k's next explored sibling) */
    size_t m = ex.len;
    lo = gt_malloc(m * sizeof *lo);
    hi = gt_malloc(m * sizeof *hi);
    skip = gt_malloc(m * sizeof *skip);
    stack = gt_malloc(m * sizeof *stack);
    kids = gt_calloc(m, sizeof *kids); /* explored children of each open node */
    if (!lo || !hi || !skip || !stack || !kids) {
        PyErr_NoMemory();
        goto done;
    }
    size_t depth = 0;
    for (size_t k = 0; k <= m; k++) {
        /* finish the open nodes whose subtree ends before node k */
        while (depth && (k == m || END(t, ex.p[stack[depth - 1]].n) <= ex.p[k].n)) {
            size_t f = stack[--depth];
            node_t n = ex.p[f].n;
            size_t all = 0;
            for (node_t c = n + 1; c < END(t, n); c = END(t, c))
                all++;
            if (kids[f] < all) { /* an unevaluated child: (-inf, +inf) */
                if (ex.p[f].is_max)
                    hi[f] = INF;
                else
                    lo[f] = -INF;
            }
            skip[f] = k;
            if (depth)
                fold(&ex, lo, hi, kids, stack[depth - 1], f);
        }
        if (k == m)
            break;
        node_t n = ex.p[k].n;
        if (IS_LEAF(t, n)) { /* explored, so evaluated */
            lo[k] = hi[k] = VAL(t, n);
            skip[k] = k + 1;
            if (depth)
                fold(&ex, lo, hi, kids, stack[depth - 1], k);
        } else {
            lo[k] = hi[k] = ex.p[k].is_max ? -INF : INF;
            stack[depth++] = k;
        }
    }
    double top_lo = lo[0], top_hi = hi[0];
    if ((bound == BOUND_EXACT && !(top_lo == top_hi && top_hi == value)) ||
        (bound == BOUND_LOWER && !(top_lo >= value)) ||
        (bound == BOUND_UPPER && !(top_hi <= value))) {
        rc = 1; /* not proved: the Python version says so */
        goto done;
    }
    BoundsWalk walk = {&ex, lo, hi, skip, 0, value, bound, t};
    rc = pv_walk(keeps_value, &walk, t->root_max, line, len);
done:
    gt_free(ev);
    gt_free(ex.p);
    gt_free(lo);
    gt_free(hi);
    gt_free(skip);
    gt_free(stack);
    gt_free(kids);
    return rc;
}

PyObject *gt_principal_variation(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *end, *values, *leaves_obj;
    int root_max, bound;
    double value;
    if (!PyArg_ParseTuple(args, "OOpOdi", &end, &values, &root_max, &leaves_obj, &value, &bound))
        return NULL;
    TreeView t;
    if (tree_open(&t, end, values, root_max) < 0)
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(leaves_obj, &view, PyBUF_FORMAT | PyBUF_ND) < 0) {
        tree_close(&t);
        return NULL;
    }
    PyObject *result = NULL;
    NodeList leaves;
    nl_init(&leaves, view.itemsize == 8);
    const char *f = view.format ? view.format : "B";
    if ((view.itemsize != 4 && view.itemsize != 8) || !f[0] || !strchr("ilq", f[0]) || f[1]) {
        PyErr_SetString(PyExc_TypeError, "leaves must be an int array");
        goto done;
    }
    /* the buffer is read in place: the list only borrows it */
    leaves.len = leaves.cap = (size_t)(view.len / view.itemsize);
    if (leaves.wide)
        leaves.p64 = view.buf;
    else
        leaves.p32 = view.buf;
    for (size_t i = 0; i < leaves.len; i++) {
        node_t n = nl_get(&leaves, i);
        if (n < 0 || n >= t.size || !IS_LEAF(&t, n)) {
            PyErr_SetString(PyExc_ValueError, "an evaluated node is not a leaf of the tree");
            goto done;
        }
    }
    int64_t *line = NULL;
    size_t len = 0;
    int rc = pv_from_leaves(&t, &leaves, value, bound, &line, &len);
    if (rc == 0) {
        result = line_to_list(line, len);
        gt_free(line);
    } else if (rc == 1) {
        result = Py_NewRef(Py_None);
    }
done:
    PyBuffer_Release(&view);
    tree_close(&t);
    return result;
}

/* -- the Prover ------------------------------------------------------------------------------- */
#define DENSE_KNOWN ((node_t)1 << 27)
#define EV_LEVELS 5 /* 64**5 > DENSE_KNOWN */

struct Prover {
    const TreeView *t;
    /* the evaluated leaves: in a tree of at most DENSE_KNOWN nodes a bit set with a summary
     * level per 64 words (a bit per word of the level below), set leaf by leaf, so that
     * nothing is sorted (ev is NULL); in a larger tree sorted in ev[0..count) */
    uint64_t *evb[EV_LEVELS];
    size_t evw[EV_LEVELS];
    int evl;
    int64_t *ev;
    size_t count;
    double v;
    int lower;
    /* what is known of the nodes asked about: two bits a node (known, proved) in a tree of at
     * most DENSE_KNOWN nodes (zero pages until touched), else a map node -> 1 (not proved) or
     * 2 (proved) */
    uint64_t *kbits;
    Map known;
};

void prover_free(Prover *p) {
    if (!p)
        return;
    for (int l = 0; l < p->evl; l++)
        gt_free(p->evb[l]);
    gt_free(p->ev);
    gt_free(p->kbits);
    map_free(&p->known);
    gt_free(p);
}

Prover *prover_new(const TreeView *t, const NodeList *leaves, double v, int lower) {
    Prover *p = gt_calloc(1, sizeof *p);
    if (!p) {
        PyErr_NoMemory();
        return NULL;
    }
    p->t = t;
    p->v = v;
    p->lower = lower;
    if (t->size <= DENSE_KNOWN) {
        int levels = levels_sizes((size_t)t->size, p->evw);
        for (; p->evl < levels; p->evl++)
            if (!(p->evb[p->evl] = gt_calloc(p->evw[p->evl], sizeof(uint64_t))))
                goto nomem;
        for (size_t k = 0; k < leaves->len; k++) {
            uint64_t x = (uint64_t)nl_get(leaves, k);
            for (int l = 0; l < p->evl; l++, x >>= 6)
                p->evb[l][x >> 6] |= (uint64_t)1 << (x & 63);
        }
        p->kbits = gt_calloc(((size_t)t->size + 31) / 32, sizeof *p->kbits);
        if (!p->kbits)
            goto nomem;
        return p;
    }
    if (nl_sorted_unique(leaves, &p->ev, &p->count) < 0 || map_init(&p->known, 1) < 0) {
        prover_free(p);
        return NULL;
    }
    return p;
nomem:
    prover_free(p);
    PyErr_NoMemory();
    return NULL;
}

static uint64_t ev_word(const void *p, int l, size_t w) {
    return ((const Prover *)p)->evb[l][w];
}

/* The evaluated leaves below [c, e) (c a child, e its end), from position i: with the sorted
 * list, the position after them (i when there are none); with the bit set, i + 1 when there is
 * one and i when there is none, so that in both "i < j" says whether there is one. */
static inline size_t ev_past(const Prover *p, node_t c, node_t e, size_t i, size_t hi) {
    if (!p->ev) {
        if (e == c + 1)
            return i + (p->evb[0][(uint64_t)c >> 6] >> (c & 63) & 1);
        int64_t k = levels_next(p, ev_word, p->evw, p->evl, (uint64_t)c);
        return i + (k >= 0 && k < e);
    }
    return gallop(p->ev, hi, e, i);
}

/* the test of an evaluated leaf's value */
static inline int value_ok(const Prover *p, node_t k) {
    double x = VAL(p->t, k);
    return p->lower ? x >= p->v : x <= p->v;
}

/* a frame of the walk: the node, its next child, its end, the evaluated leaves ev[i..hi) below
 * its children from the next one on, "one child suffices", children MAX? */
typedef struct {
    node_t m, c, stop;
    size_t i, hi;
    int anyone, kid_max;
} PFrame;

static int set_known(Prover *p, node_t n, int ok) {
    if (p->kbits) {
        p->kbits[(uint64_t)n >> 5] |= (uint64_t)(ok ? 3 : 1) << ((n & 31) * 2);
        return 0;
    }
    unsigned char *slot = map_put(&p->known, n, NULL);
    if (!slot)
        return -1;
    *slot = (unsigned char)(ok ? 2 : 1); /* 0 means "not known" in a fresh slot */
    return 0;
}

/* 0 not known, 1 known not proved, 2 known proved */
static inline int get_known(const Prover *p, node_t n) {
    if (p->kbits) {
        int b = (int)(p->kbits[(uint64_t)n >> 5] >> ((n & 31) * 2) & 3);
        return b == 3 ? 2 : b;
    }
    const unsigned char *kn = map_get(&p->known, n);
    return kn ? *kn : 0;
}

int prover_proves(Prover *p, node_t n, int is_max) {
    const TreeView *t = p->t;
    node_t stop = END(t, n);
    size_t i = 0, hi = 0;
    if (p->ev) {
        i = bisect_left(p->ev, p->count, n, 0);
        hi = gallop(p->ev, p->count, stop, i);
    } else {
        hi = ev_past(p, n, stop, 0, 0);
    }
    if (IS_LEAF(t, n))
        return i < hi && value_ok(p, n); /* an unevaluated leaf proves nothing */
    int kn = get_known(p, n);
    if (kn)
        return kn == 2;
    int lower = p->lower, ok = 0;
    PFrame *stack = NULL;
    size_t len = 0, cap = 0;
    PFrame f = {n, n + 1, stop, i, hi, is_max == lower, !is_max}; /* the node asked about */
    for (;;) {
        int decided = 0;
        while (f.c < f.stop) {
            node_t c = f.c, e = END(t, c);
            size_t j = ev_past(p, c, e, f.i, f.hi); /* f.i < j: an evaluated leaf below c */
            if (e == c + 1) {
                ok = f.i < j && value_ok(p, c);
            } else if (f.i == j) { /* no evaluated leaf below c: nothing to remember */
                ok = 0;
            } else if ((kn = get_known(p, c)) != 0) {
                ok = kn == 2;
            } else {
                if (ROOM(stack, len, cap) < 0)
                    goto fail;
                PFrame parent = f;
                parent.i = j; /* it resumes after c, with the leaves past c's */
                stack[len++] = parent;
                f = (PFrame){c, c + 1, e, f.i, j, f.kid_max == lower, !f.kid_max};
                continue;
            }
            if (ok == f.anyone) { /* decided: one success suffices, or one failure sinks */
                decided = 1;
                break;
            }
            f.c = e;
            f.i = j;
        }
        if (!decided)
            ok = !f.anyone; /* every child failed (one would do) or passed (all needed) */
        /* hand the answer up: the parent is decided too, or goes on with its next child */
        for (;;) {
            if (set_known(p, f.m, ok) < 0)
                goto fail;
            if (!len) {
                gt_free(stack);
                return ok;
            }
            f = stack[--len];
            if (ok != f.anyone)
                break;
        }
        f.c = END(t, f.c);
    }
fail:
    gt_free(stack);
    return -1;
}
