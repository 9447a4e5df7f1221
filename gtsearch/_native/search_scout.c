/* NegaScout / PVS and Pearl's SCOUT: gtsearch.algorithms.scout, step for step.
 *
 * Reinefeld (1983); Marsland & Campbell (1982); Pearl (1980).  The Python version writes
 * each search as nested generators driven by a trampoline; here each call is a frame on an
 * explicit stack that remembers where its caller waits (the phase), with the same exact
 * null windows (nextafter), re-search rule, node counts and leaf readings.
 */
#include "core.h"

/* -- NegaScout -------------------------------------------------------------------------------- */
enum { NS_LOOP, NS_FIRST, NS_NULL, NS_RESEARCH };

typedef struct {
    node_t n, c, stop, e;
    double alpha, beta, s, m, a, t;
    int first, phase;
} NSFrame;

typedef struct {
    void *p;
    size_t len, cap, item;
} FStack;

static void *fs_push(FStack *st) {
    if (st->len == st->cap) {
        size_t cap = st->cap ? st->cap * 2 : 64;
        void *p = realloc(st->p, cap * st->item);
        if (!p) {
            PyErr_NoMemory();
            return NULL;
        }
        st->p = p;
        st->cap = cap;
    }
    return (char *)st->p + st->item * st->len++;
}

static int negascout(const TreeView *t, NodeList *leaves, Ticker *tk, double *value,
                     int64_t *out_nodes) {
    double sign = t->root_max ? 1.0 : -1.0;
    int64_t nodes = 1;
    if (END(t, 0) == 1) {
        if (nl_push(leaves, 0) < 0)
            return -1;
        *value = VAL(t, 0);
        *out_nodes = nodes;
        return 0;
    }
    FStack st = {NULL, 0, 0, sizeof(NSFrame)};
    NSFrame *f = fs_push(&st);
    if (!f)
        return -1;
    /* search(0, -inf, +inf, sign) */
    f->n = 0;
    f->alpha = -INF;
    f->beta = INF;
    f->s = sign;
    f->m = -INF;
    f->c = 1;
    f->stop = END(t, 0);
    f->first = 1;
    f->phase = NS_LOOP;
    double ret = 0.0; /* the value a finished call hands to its caller */
    for (;;) {
        f = (NSFrame *)st.p + (st.len - 1);
        double tval;
        if (f->phase == NS_LOOP) {
            if (f->c >= f->stop)
                goto finished;
            if (tick(tk, (int64_t)leaves->len) < 0)
                goto fail;
            node_t c = f->c, e = END(t, c);
            f->e = e;
            nodes++;
            if (e == c + 1) { /* a leaf is exact: no window, no re-search */
                if (nl_push(leaves, c) < 0)
                    goto fail;
                tval = f->s * VAL(t, c);
            } else {
                double ca, cb;
                if (f->first) {
                    f->phase = NS_FIRST;
                    ca = -f->beta;
                    cb = -f->alpha;
                } else {
                    double a = f->alpha > f->m ? f->alpha : f->m;
                    f->a = a;
                    f->phase = NS_NULL;
                    ca = -nextafter(a, INF);
                    cb = -a;
                }
                double cs = -f->s;
                NSFrame *g = fs_push(&st);
                if (!g)
                    goto fail;
                g->n = c;
                g->alpha = ca;
                g->beta = cb;
                g->s = cs;
                g->m = -INF;
                g->c = c + 1;
                g->stop = e;
                g->first = 1;
                g->phase = NS_LOOP;
                continue;
            }
        } else if (f->phase == NS_NULL) {
            tval = -ret;
            f->phase = NS_LOOP;
            if (f->a < tval && tval < f->beta) { /* failed high inside the window */
                nodes++;
                f->t = tval;
                f->phase = NS_RESEARCH;
                double ca = -f->beta, cb = -tval, cs = -f->s;
                node_t c = f->c, e = f->e;
                NSFrame *g = fs_push(&st);
                if (!g)
                    goto fail;
                g->n = c;
                g->alpha = ca;
                g->beta = cb;
                g->s = cs;
                g->m = -INF;
                g->c = c + 1;
                g->stop = e;
                g->first = 1;
                g->phase = NS_LOOP;
                continue;
            }
        } else { /* NS_FIRST or NS_RESEARCH: the child's value */
            tval = -ret;
            f->phase = NS_LOOP;
        }
        /* the child's value tval is known */
        f->first = 0;
        if (tval > f->m) {
            f->m = tval;
            if (f->m >= f->beta)
                goto finished;
        }
        f->c = f->e;
        continue;
    finished:
        ret = f->m;
        st.len--;
        if (st.len == 0)
            break;
    }
    free(st.p);
    *value = sign * ret;
    *out_nodes = nodes;
    return 0;
fail:
    free(st.p);
    return -1;
}

/* -- SCOUT ------------------------------------------------------------------------------------ */
enum { SC_TEST, SC_EVAL };
enum { EV_LOOP, EV_FIRST, EV_TEST, EV_AGAIN };

typedef struct {
    node_t n, c, stop, e;
    double v;     /* TEST: the value tested against; EVAL: the value so far */
    int kind;     /* SC_TEST or SC_EVAL */
    int greater;  /* TEST: "> v?" (else "< v?") */
    int is_max;   /* MAX to move at n */
    int anyone;   /* TEST: one child answering this decides */
    int first;    /* EVAL */
    int phase;    /* EVAL: what the frame waits for; TEST: 1 while a child test runs */
} SCFrame;

static SCFrame *sc_call(FStack *st, int kind, node_t n, const TreeView *t, double v, int greater,
                        int is_max) {
    SCFrame *g = fs_push(st);
    if (!g)
        return NULL;
    g->kind = kind;
    g->n = n;
    g->c = n + 1;
    g->stop = END(t, n);
    g->e = 0;
    g->v = kind == SC_TEST ? v : 0.0;
    g->greater = greater;
    g->is_max = is_max;
    g->anyone = is_max == greater;
    g->first = 1;
    g->phase = 0;
    return g;
}

static int scout(const TreeView *t, NodeList *leaves, Ticker *tk, double *value,
                 int64_t *out_nodes) {
    int64_t nodes = 1;
    if (END(t, 0) == 1) {
        if (nl_push(leaves, 0) < 0)
            return -1;
        *value = VAL(t, 0);
        *out_nodes = nodes;
        return 0;
    }
    FStack st = {NULL, 0, 0, sizeof(SCFrame)};
    if (!sc_call(&st, SC_EVAL, 0, t, 0.0, 0, t->root_max))
        return -1;
    double ret_v = 0.0; /* an EVAL's value handed up */
    int ret_ok = 0;     /* a TEST's answer handed up */
    for (;;) {
        SCFrame *f = (SCFrame *)st.p + (st.len - 1);
        if (tick(tk, (int64_t)leaves->len) < 0)
            goto fail;
        if (f->kind == SC_TEST) {
            int ok;
            if (f->phase) { /* a child test answered */
                f->phase = 0;
                ok = ret_ok;
            } else {
                if (f->c >= f->stop) {
                    ret_ok = !f->anyone;
                    goto returned;
                }
                node_t c = f->c, e = END(t, c);
                f->e = e;
                nodes++;
                if (e == c + 1) {
                    if (nl_push(leaves, c) < 0)
                        goto fail;
                    double x = VAL(t, c);
                    ok = f->greater ? x > f->v : x < f->v;
                } else {
                    f->phase = 1;
                    double v = f->v;
                    int greater = f->greater, kid_max = !f->is_max;
                    if (!sc_call(&st, SC_TEST, c, t, v, greater, kid_max))
                        goto fail;
                    continue;
                }
            }
            if (ok == f->anyone) {
                ret_ok = ok;
                goto returned;
            }
            f->c = f->e;
            continue;
        }
        /* EVAL */
        if (f->phase == EV_FIRST || f->phase == EV_AGAIN) {
            f->v = ret_v;
            f->phase = EV_LOOP;
        } else if (f->phase == EV_TEST) {
            f->phase = EV_LOOP;
            if (ret_ok) {
                nodes++;
                f->phase = EV_AGAIN;
                node_t c = f->c;
                int kid_max = !f->is_max;
                if (!sc_call(&st, SC_EVAL, c, t, 0.0, 0, kid_max))
                    goto fail;
                continue;
            }
        } else {
            if (f->c >= f->stop) {
                ret_v = f->v;
                goto returned;
            }
            node_t c = f->c, e = END(t, c);
            f->e = e;
            nodes++;
            if (e == c + 1) { /* reading a leaf both tests and evaluates it */
                if (nl_push(leaves, c) < 0)
                    goto fail;
                double x = VAL(t, c);
                if (f->first || (f->is_max ? x > f->v : x < f->v))
                    f->v = x;
            } else if (f->first) {
                f->phase = EV_FIRST;
                int kid_max = !f->is_max;
                if (!sc_call(&st, SC_EVAL, c, t, 0.0, 0, kid_max))
                    goto fail;
                continue;
            } else {
                f->phase = EV_TEST;
                double v = f->v;
                int greater = f->is_max, kid_max = !f->is_max;
                if (!sc_call(&st, SC_TEST, c, t, v, greater, kid_max))
                    goto fail;
                continue;
            }
        }
        /* the child is done */
        f->first = 0;
        f->c = f->e;
        continue;
    returned:
        st.len--;
        if (st.len == 0)
            break;
    }
    free(st.p);
    *value = ret_v;
    *out_nodes = nodes;
    return 0;
fail:
    free(st.p);
    return -1;
}

/* how many different leaves were read */
static int distinct(const NodeList *leaves, int64_t *out) {
    int64_t *u;
    size_t count;
    if (nl_sorted_unique(leaves, &u, &count) < 0)
        return -1;
    free(u);
    *out = (int64_t)count;
    return 0;
}

typedef int (*ScoutFn)(const TreeView *, NodeList *, Ticker *, double *, int64_t *);

static PyObject *run(PyObject *args, ScoutFn fn) {
    PyObject *end, *values, *progress;
    int root_max;
    if (!PyArg_ParseTuple(args, "OOpO", &end, &values, &root_max, &progress))
        return NULL;
    TreeView t;
    if (tree_open(&t, end, values, root_max) < 0)
        return NULL;
    Ticker tk;
    if (tick_open(&tk, progress) < 0) {
        tree_close(&t);
        return NULL;
    }
    NodeList leaves;
    nl_init(&leaves, t.size > INT32_MAX);
    PyObject *result = NULL;
    double value;
    int64_t nodes, count;
    if (fn(&t, &leaves, &tk, &value, &nodes) == 0 && distinct(&leaves, &count) == 0) {
        PyObject *arr = nl_to_array(&leaves);
        if (arr)
            result = Py_BuildValue("dNLL", value, arr, (long long)nodes, (long long)count);
    }
    nl_free(&leaves);
    tick_close(&tk);
    tree_close(&t);
    return result;
}

PyObject *gt_negascout(PyObject *self, PyObject *args) {
    (void)self;
    return run(args, negascout);
}

PyObject *gt_scout(PyObject *self, PyObject *args) {
    (void)self;
    return run(args, scout);
}
