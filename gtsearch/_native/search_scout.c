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
    if (st->len == st->cap && grow_array(&st->p, &st->cap, st->item) < 0)
        return NULL;
    return (char *)st->p + st->item * st->len++;
}

/* a call search(n, alpha, beta, s) of n, whose subtree ends at e: its frame, or NULL */
static NSFrame *ns_call(FStack *st, node_t n, node_t e, double alpha, double beta, double s) {
    NSFrame *g = fs_push(st);
    if (!g)
        return NULL;
    g->n = n;
    g->alpha = alpha;
    g->beta = beta;
    g->s = s;
    g->m = -INF;
    g->c = n + 1;
    g->stop = e;
    g->first = 1;
    g->phase = NS_LOOP;
    return g;
}

/* S's value, and the nodes in counts[0]; the root is not a leaf */
static int negascout(Search *S) {
    const TreeView *t = &S->t;
    NodeList *leaves = &S->leaves;
    double sign = t->root_max ? 1.0 : -1.0;
    int64_t nodes = 1;
    FStack st = {NULL, 0, 0, sizeof(NSFrame)};
    NSFrame *f = ns_call(&st, 0, END(t, 0), -INF, INF, sign);
    if (!f)
        return -1;
    double ret = 0.0; /* the value a finished call hands to its caller */
    for (;;) {
        f = (NSFrame *)st.p + (st.len - 1);
        double tval;
        if (f->phase == NS_LOOP) {
            if (f->c >= f->stop)
                goto finished;
            if (search_tick(S) < 0)
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
                if (!ns_call(&st, c, e, ca, cb, -f->s))
                    goto fail;
                continue;
            }
        } else if (f->phase == NS_NULL) {
            tval = -ret;
            f->phase = NS_LOOP;
            if (f->a < tval && tval < f->beta) { /* failed high inside the window */
                nodes++;
                f->t = tval;
                f->phase = NS_RESEARCH;
                if (!ns_call(&st, f->c, f->e, -f->beta, -tval, -f->s))
                    goto fail;
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
    gt_free(st.p);
    S->value = sign * ret;
    S->counts[0] = nodes;
    return 0;
fail:
    gt_free(st.p);
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

/* S's value, and the nodes in counts[0]; the root is not a leaf */
static int scout(Search *S) {
    const TreeView *t = &S->t;
    NodeList *leaves = &S->leaves;
    int64_t nodes = 1;
    FStack st = {NULL, 0, 0, sizeof(SCFrame)};
    if (!sc_call(&st, SC_EVAL, 0, t, 0.0, 0, t->root_max))
        return -1;
    double ret_v = 0.0; /* an EVAL's value handed up */
    int ret_ok = 0;     /* a TEST's answer handed up */
    for (;;) {
        SCFrame *f = (SCFrame *)st.p + (st.len - 1);
        if (search_tick(S) < 0)
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
    gt_free(st.p);
    S->value = ret_v;
    S->counts[0] = nodes;
    return 0;
fail:
    gt_free(st.p);
    return -1;
}

/* a search of the family, fn, and how many different leaves it read, in counts[1]; a root
 * that is a leaf is read once by both, one node */
static int with_distinct(Search *S, int (*fn)(Search *)) {
    const TreeView *t = &S->t;
    if (END(t, 0) == 1) {
        if (nl_push(&S->leaves, 0) < 0)
            return -1;
        S->value = VAL(t, 0);
        S->counts[0] = 1;
    } else if (fn(S) < 0) {
        return -1;
    }
    size_t count;
    if (nl_distinct(&S->leaves, &count) < 0)
        return -1;
    S->counts[1] = (int64_t)count;
    return 0;
}

static int negascout_search(Search *S, const SearchParams *P) {
    (void)P;
    return with_distinct(S, negascout);
}

static int scout_search(Search *S, const SearchParams *P) {
    (void)P;
    return with_distinct(S, scout);
}

PyObject *gt_negascout(PyObject *self, PyObject *args) {
    (void)self;
    return search_entry(args, "", negascout_search, NO_LINE, 2);
}

PyObject *gt_scout(PyObject *self, PyObject *args) {
    (void)self;
    return search_entry(args, "", scout_search, NO_LINE, 2);
}
