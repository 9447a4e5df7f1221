/* The searches with a transposition table (--tt): gtsearch.algorithms.tabled, step for step.
 *
 * Plaat, Schaeffer, Pijls & de Bruin (1996).  TableSearch.node(), the fail-soft negamax that
 * probes every node it enters, answers a node from an entry whose bounds decide it for its
 * window and stores what it proved, runs here on an explicit stack of frames (the Python
 * version is nested generators), with NegaScout's null windows and re-searches (`scout`),
 * the depth limit and the entry's move first of iterative deepening (`limit`, `order`,
 * `horizon`: iterative.py) and the scores of solve.py (`solve`: W - p for a win p plies down,
 * kept relative to their position).  TableSearch.line() is ts_line(): each node's best child
 * (a map, as the Python dict), else the table's move, else an uncounted search with a table
 * of its own below the node.  The MT family runs search_mt.c's passes over the same table
 * (mt_tabled).  Keys are positions: the node itself, the game's position numbers
 * (GameTree.position_keys) in `keys`, or a game's graph's (TREE_KEY).
 */
#include "core.h"

#include <time.h>

/* the size of the table of the PV's uncounted searches: PV_TABLE_MIB (16) MiB */
#define PV_BUCKETS (16 * 16384)
/* solve.py's W (a win's score) and DECIDED (scores beyond it are wins or losses) */
#define SOLVE_W 1048576.0
#define SOLVE_DECIDED 524288.0

enum { KIND_ALPHABETA = 0, KIND_NEGASCOUT = 1, KIND_MTD = 2 };
enum { PH_FULL, PH_NULL };
/* what enter() did: answered the node at once, pushed its frame, or met a node at the horizon
 * without a static value (iterative.py's static() then words the error) */
enum { ANSWERED = 1, PUSHED = 0, BAD_HORIZON = 2 };

typedef struct {
    node_t n, stop;
    node_t c, bc;  /* the child being searched, the best child so far */
    node_t sc;     /* the next child in file order */
    int64_t key;
    double alpha, beta, s, m, a;
    int32_t depth, i, si, skip, k, bi;
    int done, phase, ready;
} TFrame;

typedef struct {
    Search *S;         /* the tree, the ticker */
    const int64_t *keys;
    Table *tt;
    PairLog *best;     /* (node, its best child) as nodes finish: self.best, the last pair */
    NodeList *leaves;  /* the leaves evaluated; NULL in the PV's uncounted searches */
    Map *seen;         /* the positions entered (solve), or NULL */
    int scout, order, horizon, solve;
    int32_t limit; /* the horizon's depth, -1: none */
    int64_t entered, expanded;
    node_t bad;
    TFrame *st;
    size_t cap;
} TS;

static inline int64_t KEY(const TS *x, node_t n) { return TREE_KEY(&x->S->t, x->keys, n); }

/* child i of n, or -1 */
static node_t child_at(const TreeView *t, node_t n, int32_t i) {
    node_t stop = END(t, n), c = n + 1;
    for (; c < stop && i > 0; i--)
        c = END(t, c);
    return c < stop ? c : -1;
}

/* solve.py's _relative(): a score at the root's scale as the score `depth` plies down */
static inline double relative(double score, double depth) {
    if (score > SOLVE_DECIDED)
        return score + depth;
    if (score < -SOLVE_DECIDED)
        return score - depth;
    return score;
}

/* _stored(): the mover's bounds at depth as the table keeps them (MAX's terms, relative) */
static inline void stored(const TS *x, double lo, double hi, double s, int32_t depth, double *tlo,
                          double *thi) {
    if (x->solve) {
        lo = relative(lo, depth);
        hi = relative(hi, depth);
    }
    *tlo = s > 0 ? lo : -hi;
    *thi = s > 0 ? hi : -lo;
}

static inline int put_best(TS *x, node_t n, node_t c) { return log_pair(x->best, n, c); }

/* what the table knows of n (key) in the window (alpha, beta) for the mover s at depth:
 * ANSWERED with *v and *ex when its entry decides n (a cut), else 0 with the entry's move to
 * search first in *first (-1: none); -1 on error.  `plain`: x has no horizon, solving or move
 * ordering (ab_plain's searches; a constant, so that the tests go at compile time). */
static inline int recall(TS *x, node_t n, int64_t key, double alpha, double beta, double s,
                         int32_t depth, double *v, int *ex, int32_t *first, const int plain) {
    Table *tt = x->tt;
    const TTEntry *e = tt_probe(tt, key);
    *first = -1;
    if (!e)
        return 0;
    const int32_t move = e->move;
    if (e->draft >= (plain || x->limit < 0 ? TT_FULL : x->limit - depth)) {
        double lo = e->lo, hi = e->hi; /* _recalled() */
        if (s < 0) {
            lo = -e->hi;
            hi = -e->lo;
        }
        if (!plain && x->solve) {
            lo = relative(lo, -depth);
            hi = relative(hi, -depth);
        }
        if (lo >= beta || hi <= alpha || lo == hi) {
            tt->cuts++;
            *v = hi <= alpha ? hi : lo;
            *ex = e->draft == TT_FULL;
            node_t c = move >= 0 ? child_at(&x->S->t, n, move) : -1;
            return c >= 0 && put_best(x, n, c) < 0 ? -1 : ANSWERED;
        }
    }
    if (!plain && x->order && move >= 0) {
        tt->orders++;
        *first = move;
    }
    return 0;
}

/* leaf n (key) read for the mover s at depth, its value in *v and kept as [v, v]; 0 or -1
 * (plain: as recall's) */
static inline int read_leaf(TS *x, node_t n, int64_t key, double s, int32_t depth, double *v,
                            const int plain, const double *vals) {
    double lo, hi, val = s * VALS(vals, &x->S->t, n);
    if (!plain) /* ab_plain counts its own */
        x->entered++;
    if (x->leaves && nl_push(x->leaves, n) < 0)
        return -1;
    if (!plain && x->solve) /* solve.py's _score() */
        val = val > 0 ? SOLVE_W - depth : val < 0 ? depth - SOLVE_W : 0.0;
    if (plain) {
        lo = hi = s * val;
    } else {
        stored(x, val, val, s, depth, &lo, &hi);
    }
    *v = val;
    tt_store(x->tt, key, lo, hi, TT_FULL, -1);
    return 0;
}

/* node n entered with the window (alpha, beta) for the mover s at depth: ANSWERED with *v and
 * *ex (the table's answer, a leaf, the horizon), PUSHED (its frame is on the stack), BAD_HORIZON,
 * or -1 on error */
static int enter(TS *x, size_t *len, node_t n, double alpha, double beta, double s, int32_t depth,
                 double *v, int *ex) {
    const TreeView *t = &x->S->t;
    const int64_t key = KEY(x, n);
    int32_t first;
    int r = recall(x, n, key, alpha, beta, s, depth, v, ex, &first, 0);
    if (r)
        return r;
    if (x->seen && !map_put(x->seen, key, NULL))
        return -1;
    const node_t stop = END(t, n);
    double lo, hi;
    if (stop == n + 1) { /* a leaf: read, and kept as [v, v] */
        *ex = 1;
        return read_leaf(x, n, key, s, depth, v, 0, t->val) < 0 ? -1 : ANSWERED;
    }
    if (x->limit >= 0 && depth >= x->limit) { /* the horizon: its static value, or 0 */
        *ex = 0;
        Table *tt = x->tt;
        if (!x->horizon) {
            *v = 0.0;
            return ANSWERED;
        }
        double h = VAL(t, n);
        if (isnan(h)) {
            x->bad = n;
            return BAD_HORIZON;
        }
        if (x->leaves && nl_push(x->leaves, n) < 0)
            return -1;
        double val = s * h;
        stored(x, val, val, s, depth, &lo, &hi);
        tt_store(tt, key, lo, hi, 0, -1);
        *v = val;
        return ANSWERED;
    }
    x->entered++;
    x->expanded++;
    if (ROOM(x->st, *len, x->cap) < 0)
        return -1;
    TFrame *f = &x->st[(*len)++];
    /* field by field: a compound literal zeroes the whole frame first (rep stos), which cost
     * a fifth of a search of the b=4 d=10 tree */
    f->n = n;
    f->stop = stop;
    f->c = f->bc = -1;
    f->sc = n + 1;
    f->key = key;
    f->alpha = alpha;
    f->beta = beta;
    f->s = s;
    f->m = -INF;
    f->a = 0.0;
    f->depth = depth;
    f->i = f->si = f->k = 0;
    f->bi = f->skip = -1;
    f->done = 1;
    f->phase = f->ready = 0;
    if (first > 0) { /* the entry's move first, then the others in file order */
        node_t c = child_at(t, n, first);
        if (c >= 0) {
            f->c = c;
            f->i = f->skip = first;
            f->ready = 1;
        }
    }
    return PUSHED;
}

/* the next child of f to search (f->c, f->i); 0 when there is none */
static int next_child(const TreeView *t, TFrame *f) {
    if (f->ready) {
        f->ready = 0;
        return 1;
    }
    if (f->si == f->skip && f->sc < f->stop) {
        f->sc = END(t, f->sc);
        f->si++;
    }
    if (f->sc >= f->stop)
        return 0;
    f->c = f->sc;
    f->i = f->si++;
    f->sc = END(t, f->sc);
    return 1;
}

/* what a finished node (key) proved, its value m in the window (alpha, beta) for the mover s at
 * depth, to the table with its draft and best move bi */
static inline void keep(TS *x, int64_t key, double m, double alpha, double beta, double s,
                        int32_t depth, int32_t draft, int32_t bi, const int plain) {
    double lo = -INF, hi = INF, slo, shi;
    if (m >= beta)
        lo = m;
    else if (m <= alpha)
        hi = m;
    else
        lo = hi = m;
    if (plain) { /* stored() without solving */
        slo = s > 0 ? lo : -hi;
        shi = s > 0 ? hi : -lo;
    } else {
        stored(x, lo, hi, s, depth, &slo, &shi);
    }
    tt_store(x->tt, key, slo, shi, draft, bi);
}

/* ts_node() for plain alpha-beta (no null windows, horizon, move ordering, solving or
 * positions kept: `eval -a alphabeta --tt`), step for step, with the same counts, pairs and
 * stores in the same order, but with the node being searched in registers, a small frame for
 * each of its ancestors and the children that are leaves read in place, as
 * search_depthfirst.c's negamax does: on the b=4 d=10 tree, ts_node() with its table's probes
 * and stores left out took five times negamax's time, its 128-byte frames zeroed at every
 * node among the causes (benchmarks/README.md). */
typedef struct {
    node_t n, c, stop, bc;
    int64_t key;
    double m, alpha, beta, s;
    int32_t i, bi;
} PFrame;

/* node n (key; a leaf or not) entered by plain alpha-beta for the mover s in the window
 * (alpha, beta): ANSWERED with *v when the table decides it or it is a leaf (read), 0 when it
 * is to be searched, -1 on error */
static inline int ab_enter(TS *x, node_t n, int64_t key, int leaf, double alpha, double beta,
                           double s, double *v, const double *vals, int64_t *read) {
    int ex;
    int32_t first;
    int r = recall(x, n, key, alpha, beta, s, 0, v, &ex, &first, 1);
    if (!r && leaf) {
        ++*read;
        r = read_leaf(x, n, key, s, 0, v, 1, vals) < 0 ? -1 : ANSWERED;
    }
    return r;
}

/* child c (number i) of value v raises its parent's value m, and is its best child (bc, bi);
 * 1 when that cuts the parent off (m >= beta): negamax's raises() */
static inline int ab_raises(double v, node_t c, int32_t i, double *m, node_t *bc, int32_t *bi,
                            double beta) {
    if (!(v > *m))
        return 0;
    *m = v;
    *bc = c;
    *bi = i;
    return *m >= beta;
}

/* ab_plain's loop, compiled twice (always inlined, `graph` a constant NULL in one): a tree
 * in arrays pays nothing for the keys of a game's graph */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline int ab_plain_on(TS *x, node_t root, double alpha, double beta, double s,
                              double *out, Graph *const graph) {
    const TreeView *t = &x->S->t;
    const double *vals = t->val; /* held in locals, as in negamax */
    const int32_t *e32 = t->e32;
    const int64_t *keys = x->keys;
    const Table *tt = x->tt;
#define PKEY(n) (keys ? keys[n] : graph ? graph_key(graph, n) : (n))
    struct {
        PFrame *p;
        size_t len, cap;
    } st = {NULL, 0, 0};
    double v = 0.0;
    int64_t key = KEY(x, root), read = 0, expanded = 1; /* x's counts, added at the end */
    int r = ab_enter(x, root, key, END(t, root) == root + 1, alpha, beta, s, &v, vals, &read);
    if (r) {
        x->entered += read;
        *out = v;
        return r < 0 ? -1 : 0;
    }
    node_t n = root, c = root + 1, stop = END(t, root), bc = -1;
    int32_t i = 0, bi = -1;
    double m = -INF;
    for (;;) {
        while (c < stop) { /* the children of n, from c (child i) */
            if (tick(&x->S->tk, (int64_t)x->S->leaves.len) < 0)
                goto fail;
            const double ca = -beta, cb = -(alpha > m ? alpha : m);
            const int64_t ckey = PKEY(c);
            const node_t e = ENDS(e32, t, c);
            r = ab_enter(x, c, ckey, e == c + 1, ca, cb, -s, &v, vals, &read);
            if (r < 0)
                goto fail;
            if (!r) { /* c is searched: its children in place while they are leaves (with no
                       * tick of their own, as in negamax) */
#if defined(__GNUC__) || defined(__clang__)
                if (e < stop && !graph) /* the next sibling's entry, read once c is done
                                         * (a graph's key would move its cursor there) */
                    __builtin_prefetch(tt->slots + 2 * tt_bucket(tt, PKEY(e)));
#endif
                expanded++;
                node_t k = c + 1, kbc = -1;
                int32_t ki = 0, kbi = -1;
                double km = -INF, kv;
                while (k < e) {
                    const node_t ek = ENDS(e32, t, k);
                    if (ek != k + 1)
                        break;
                    if (ab_enter(x, k, PKEY(k), 1, -cb, -(ca > km ? ca : km), s, &kv, vals,
                                 &read) < 0)
                        goto fail;
                    if (ab_raises(-kv, k, ki, &km, &kbc, &kbi, cb)) {
                        k = e;
                        break;
                    }
                    k = ek;
                    ki++;
                }
                /* (the push and the descent are negamax's, search_depthfirst.c, on a frame
                 * that also holds the key, the move's index and the best move: apart, so
                 * that the plain searches carry none of it; docs/development.md) */
                if (k < e) { /* a child of c that is not a leaf: n waits on the stack */
                    if (ROOM(st.p, st.len, st.cap) < 0)
                        goto fail;
                    st.p[st.len++] = (PFrame){n, c, stop, bc, key, m, alpha, beta, s, i, bi};
                    n = c;
                    key = ckey;
                    stop = e;
                    c = k;
                    bc = kbc;
                    i = ki;
                    bi = kbi;
                    m = km;
                    alpha = ca;
                    beta = cb;
                    s = -s;
                    continue;
                }
                /* c is finished */
                if (kbi >= 0 && put_best(x, c, kbc) < 0)
                    goto fail;
                keep(x, ckey, km, ca, cb, -s, 0, TT_FULL, kbi, 1);
                v = km;
            }
            if (ab_raises(-v, c, i, &m, &bc, &bi, beta))
                break;
            c = e;
            i++;
        }
        for (;;) { /* n is finished: kept, and its value goes to its parent */
            if (bi >= 0 && put_best(x, n, bc) < 0)
                goto fail;
            keep(x, key, m, alpha, beta, s, 0, TT_FULL, bi, 1);
            if (!st.len) {
                gt_free(st.p);
                x->entered += expanded + read;
                x->expanded += expanded;
                *out = m;
                return 0;
            }
            v = m;
            const PFrame *f = &st.p[--st.len];
            n = f->n;
            c = f->c;
            stop = f->stop;
            bc = f->bc;
            key = f->key;
            m = f->m;
            alpha = f->alpha;
            beta = f->beta;
            s = f->s;
            i = f->i;
            bi = f->bi;
            if (ab_raises(-v, c, i, &m, &bc, &bi, beta))
                continue;
            c = END(t, c);
            i++;
            break;
        }
    }
fail:
    gt_free(st.p);
    x->entered += expanded + read;
    x->expanded += expanded;
    return -1;
}
#undef PKEY

static int ab_plain(TS *x, node_t root, double alpha, double beta, double s, double *out) {
    Graph *const graph = x->S->t.graph;
    return graph ? ab_plain_on(x, root, alpha, beta, s, out, graph)
                 : ab_plain_on(x, root, alpha, beta, s, out, NULL);
}

/* TableSearch.node(n, alpha, beta, s, depth): *out and *out_ex; 0, -1 or BAD_HORIZON */
static int ts_node(TS *x, node_t n, double alpha, double beta, double s, int32_t depth,
                   double *out, int *out_ex) {
    const TreeView *t = &x->S->t;
    size_t len = 0;
    double v = 0.0;
    int ex = 0;
    int r = enter(x, &len, n, alpha, beta, s, depth, &v, &ex);
    while (r == PUSHED || (r == ANSWERED && len)) {
        TFrame *f = &x->st[len - 1];
        if (r == ANSWERED) { /* the child's value for its mover */
            double tv = -v;
            if (f->phase == PH_NULL && f->a < tv && tv < f->beta) {
                /* failed high inside the window: find the value */
                f->phase = PH_FULL;
                r = enter(x, &len, f->c, -f->beta, -tv, -f->s, f->depth + 1, &v, &ex);
                continue;
            }
            f->done = f->done && ex;
            if (tv > f->m) {
                f->m = tv;
                f->bi = f->i;
                f->bc = f->c;
                if (f->m >= f->beta)
                    goto finished;
            }
            f->k++;
        }
        if (!next_child(t, f))
            goto finished;
        if (tick(&x->S->tk, (int64_t)x->S->leaves.len) < 0)
            return -1;
        f->a = f->alpha > f->m ? f->alpha : f->m;
        node_t c = f->c;
        if (x->scout && f->k && END(t, c) != c + 1) {
            f->phase = PH_NULL;
            r = enter(x, &len, c, -nextafter(f->a, INF), -f->a, -f->s, f->depth + 1, &v, &ex);
        } else {
            f->phase = PH_FULL;
            r = enter(x, &len, c, -f->beta, -f->a, -f->s, f->depth + 1, &v, &ex);
        }
        continue;
    finished:
        if (f->bi >= 0 && put_best(x, f->n, f->bc) < 0)
            return -1;
        int32_t draft = TT_FULL; /* searched to the leaves */
        if (!f->done && x->limit >= 0) {
            /* the horizon's distance; FULL or more plies down is stored as FULL - 1, not as
             * searched to the leaves (tabled.py's min(need, FULL - 1)) */
            draft = x->limit - f->depth;
            if (draft > TT_FULL - 1)
                draft = TT_FULL - 1;
        }
        keep(x, f->key, f->m, f->alpha, f->beta, f->s, f->depth, draft, f->bi, 0);
        v = f->m;
        ex = f->done;
        len--;
        r = ANSWERED;
    }
    if (r != ANSWERED)
        return r;
    *out = v;
    *out_ex = ex;
    return 0;
}

/* TableSearch.value(n, depth): node n's value in MAX's terms with the window (alpha, beta) */
static int ts_value(TS *x, node_t n, int32_t depth, double alpha, double beta, double *out) {
    double s = x->S->t.root_max == (depth % 2 == 0) ? 1.0 : -1.0, v;
    int ex;
    int r;
    if (depth == 0 && !x->scout && x->limit < 0 && !x->order && !x->solve && !x->seen)
        r = s > 0 ? ab_plain(x, n, alpha, beta, s, &v) : ab_plain(x, n, -beta, -alpha, s, &v);
    else
        r = s > 0 ? ts_node(x, n, alpha, beta, s, depth, &v, &ex)
                  : ts_node(x, n, -beta, -alpha, s, depth, &v, &ex);
    if (r == 0)
        *out = s * v;
    return r;
}

/* a search with a table and maps of its own (the PV's uncounted searches, MT's line) */
typedef struct {
    Table tt;
    PairLog best;
} Own;

static int own_open(Own *o) {
    memset(o, 0, sizeof *o);
    return tt_init(&o->tt, PV_BUCKETS);
}

static void own_close(Own *o) {
    tt_free(&o->tt);
    gt_free(o->best.p);
}

/* TableSearch.line(n, depth): the line of best children from n, in *line (malloc'd); 0, -1
 * or BAD_HORIZON (an uncounted search met a node at the horizon without a static value) */
static int ts_line(TS *x, node_t n, int32_t depth, int64_t **line, size_t *len) {
    const TreeView *t = &x->S->t;
    size_t cap = 0, at = x->best->len;
    *len = 0;
    for (;;) {
        if (ROOM(*line, *len, cap) < 0)
            return -1;
        (*line)[(*len)++] = n;
        if (END(t, n) == n + 1 || (x->limit >= 0 && depth >= x->limit))
            return 0;
        /* n's last pair: before the pair of its parent, found last (a node finishes after
         * its descendants), else, when there is none there, anywhere */
        size_t found = at;
        node_t c = log_last(x->best, &found, n);
        if (c < 0 && at < x->best->len) { /* the part after the parent's pair, not yet read */
            found = x->best->len;
            c = log_last(x->best, &found, n);
        }
        if (c >= 0)
            at = found;
        if (c < 0) {
            const TTEntry *e = tt_peek(x->tt, KEY(x, n));
            if (e && e->move >= 0 && e->draft == TT_FULL)
                c = child_at(t, n, e->move);
        }
        if (c < 0) { /* an uncounted search below n, its best children kept */
            Table own;
            if (tt_init(&own, PV_BUCKETS) < 0)
                return -1;
            /* to the iteration's horizon, valued as it values it */
            TS helper = {.S = x->S, .keys = x->keys, .tt = &own, .best = x->best,
                         .horizon = x->horizon, .solve = x->solve, .limit = x->limit,
                         .bad = -1};
            double v;
            int r = ts_value(&helper, n, depth, -INF, INF, &v);
            gt_free(helper.st);
            tt_free(&own);
            if (r == BAD_HORIZON)
                x->bad = helper.bad;
            if (r != 0)
                return r;
            at = x->best->len; /* n finished last */
            c = log_last(x->best, &at, n);
        }
        n = c;
        depth++;
    }
}

/* the line of a fresh search from the root with a table of its own (mt_family's PV) */
static int fresh_line(Search *S, const int64_t *keys, int64_t **line, size_t *len) {
    Own o;
    if (own_open(&o) < 0)
        return -1;
    TS x = {.S = S, .keys = keys, .tt = &o.tt, .best = &o.best, .limit = -1};
    int r = ts_line(&x, 0, 0, line, len);
    own_close(&o);
    return r;
}

/* keys: None, or an array('q') of one position per node; *buf released by the caller */
static int open_keys(PyObject *obj, Py_buffer *buf, node_t size, const int64_t **keys) {
    *keys = NULL;
    if (obj == Py_None)
        return 0;
    static const char *const wrong = "keys must be an array('q') of one key per node";
    if (borrow_array(obj, buf, "q", 0, wrong) < 0)
        return -1;
    if (buf->len / 8 != size) {
        PyErr_SetString(PyExc_TypeError, wrong);
        return -1;
    }
    *keys = buf->buf;
    return 0;
}

/* What every entry opens: the tree, the ticker, the leaves, the keys and the table. */
typedef struct {
    Search S;
    Py_buffer kbuf;
    const int64_t *keys;
    Table tt;
} Run;

static int run_open(Run *R, PyObject *end, PyObject *values, int root_max, PyObject *keys,
                    unsigned long long buckets, PyObject *progress) {
    memset(R, 0, sizeof *R);
    if (tree_open(&R->S.t, end, values, root_max) < 0)
        return -1;
    nl_init(&R->S.leaves, R->S.t.size > INT32_MAX);
    if (tick_open(&R->S.tk, progress) < 0)
        return -1;
    if (open_keys(keys, &R->kbuf, R->S.t.size, &R->keys) < 0)
        return -1;
    return tt_init(&R->tt, buckets);
}

static void run_close(Run *R) {
    tt_free(&R->tt);
    if (R->kbuf.obj)
        PyBuffer_Release(&R->kbuf);
    gt_free(R->S.line);
    nl_free(&R->S.leaves);
    tick_close(&R->S.tk);
    tree_close(&R->S.t);
}

/* the line as a list, or None */
static PyObject *line_or_none(const Search *S, int want) {
    if (!want)
        Py_RETURN_NONE;
    return line_to_list(S->line, S->line_len);
}

/* (value, line, leaves, distinct, a, b, c, d, counts) with the leaves (with_leaves 1:
 * distinct, how many different ones; 2: all of them, a search that reads none twice), else
 * (value, line, leaves, a, b, c, d, counts) with their number; or NULL: each object made only
 * once the one before was (a call made with an exception set is CPython's SystemError) */
static PyObject *outcome(const Search *S, int want_line, int with_leaves, int64_t a, int64_t b,
                         int64_t c, int64_t d, const Table *tt) {
    size_t distinct = S->leaves.len;
    if (with_leaves == 1 && nl_distinct(&S->leaves, &distinct) < 0)
        return NULL;
    PyObject *line = line_or_none(S, want_line), *leaves = NULL, *counts = NULL;
    if (line)
        leaves = with_leaves ? nl_to_array(&S->leaves) : PyLong_FromSize_t(S->leaves.len);
    if (leaves)
        counts = tt_counts(tt);
    if (!counts) {
        Py_XDECREF(line);
        Py_XDECREF(leaves);
        return NULL;
    }
    if (with_leaves)
        return Py_BuildValue("(dNNnLLLLN)", S->value, line, leaves, (Py_ssize_t)distinct,
                             (long long)a, (long long)b, (long long)c, (long long)d, counts);
    return Py_BuildValue("(dNNLLLLN)", S->value, line, leaves, (long long)a, (long long)b,
                         (long long)c, (long long)d, counts);
}

/* tabled(end, values, root_max, keys, buckets, kind, x, y, line, progress) -> (value, line,
 * leaves, distinct, entered, expanded, nodes, passes, counts): kind 0 alphabeta with the window (x, y),
 * 1 negascout, 2 MTD(x) */
PyObject *gt_tabled(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *end, *values, *keys, *progress;
    int root_max, kind, want_line;
    unsigned long long buckets;
    double xa, yb;
    if (!PyArg_ParseTuple(args, "OOpOKiddpO", &end, &values, &root_max, &keys, &buckets, &kind,
                          &xa, &yb, &want_line, &progress))
        return NULL;
    Run R;
    PairLog best = {NULL, 0, 0};
    PyObject *result = NULL;
    int rc = run_open(&R, end, values, root_max, keys, buckets, progress);
    Search *S = &R.S;
    TS x = {.S = S, .keys = R.keys, .tt = &R.tt, .best = &best, .leaves = &S->leaves,
            .scout = kind == KIND_NEGASCOUT, .limit = -1};
    if (rc < 0)
        goto done;
    if (kind == KIND_MTD) {
        if (mt_tabled(S, &R.tt, R.keys, xa) < 0 ||
            (want_line && fresh_line(S, R.keys, &S->line, &S->line_len) < 0))
            goto done;
    } else {
        if (ts_value(&x, 0, 0, kind == KIND_ALPHABETA ? xa : -INF,
                     kind == KIND_ALPHABETA ? yb : INF, &S->value) < 0 ||
            (want_line && ts_line(&x, 0, 0, &S->line, &S->line_len) < 0))
            goto done;
    }
    /* alpha-beta is one depth-first pass: its leaves come in preorder, none twice */
    result = outcome(S, want_line, kind == KIND_ALPHABETA ? 2 : 1, x.entered, x.expanded,
                     S->counts[0], S->counts[1], &R.tt);
done:
    gt_free(x.st);
    gt_free(best.p);
    run_close(&R);
    return result;
}


/* One iteration of iterative.py (solve 0) or solve.py (solve 1) at depth: ((value, line,
 * leaves, entered, expanded, exhausted, depth, counts), seconds), or NULL (an exception set,
 * or BAD_HORIZON in *bad). */
static PyObject *iteration(Run *R, Map *seen, int solve, int32_t depth, int32_t last, int *stop,
                           node_t *bad) {
    Search *S = &R->S;
    PairLog best = {NULL, 0, 0};
    S->leaves.len = 0;
    TS x = {.S = S, .keys = R->keys, .tt = &R->tt, .best = &best, .leaves = &S->leaves,
            .seen = seen, .order = 1, .horizon = !solve, .solve = solve, .limit = depth,
            .bad = -1};
    double t0 = monotonic_seconds(), v = 0.0;
    int ex = 0, r;
    if (solve) /* search.root(): the score for the player to move */
        r = ts_node(&x, 0, -INF, INF, S->t.root_max ? 1.0 : -1.0, 0, &v, &ex);
    else
        r = ts_value(&x, 0, 0, -INF, INF, &v);
    PyObject *result = NULL;
    gt_free(S->line);
    S->line = NULL;
    S->line_len = 0;
    double took = monotonic_seconds() - t0;
    if (r == 0) /* solve.py stops when the iteration is exhausted, decided, or at the height */
        *stop = solve && (ex || v != 0.0 || depth >= last);
    if (r == 0) /* every iteration's line (solve.py's searches for it not timed) */
        r = ts_line(&x, 0, 0, &S->line, &S->line_len);
    if (r == BAD_HORIZON)
        *bad = x.bad;
    if (r == 0) {
        S->value = v;
        PyObject *it = outcome(S, 1, 0, x.entered, x.expanded, ex, depth, &R->tt);
        result = it ? Py_BuildValue("(Nd)", it, solve ? took : monotonic_seconds() - t0) : NULL;
    }
    gt_free(x.st);
    gt_free(best.p);
    return result;
}

/* tabled_iterate(end, values, root_max, keys, buckets, solve, last, seconds, progress) ->
 * (iterations, positions, bad): each iteration's ((value, line, leaves, entered, expanded,
 * exhausted, depth, counts), seconds), depth 1, 2, ... up to max(last, 1), one table kept throughout:
 * iterative.iterate (seconds < 0: no limit; past them an iteration after the first still
 * running is dropped, at its next tick) or, with solve, solve.solve (positions: the
 * distinct positions entered); bad: a node at an iteration's
 * horizon without a static value (the iterations stop there), or -1 */
PyObject *gt_tabled_iterate(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *end, *values, *keys, *progress;
    int root_max, solve;
    unsigned long long buckets;
    int last;
    double seconds;
    if (!PyArg_ParseTuple(args, "OOpOKpidO", &end, &values, &root_max, &keys, &buckets, &solve,
                          &last, &seconds, &progress))
        return NULL;
    Run R;
    Map seen = {0};
    PyObject *list = NULL, *result = NULL;
    node_t bad = -1;
    if (run_open(&R, end, values, root_max, keys, buckets, progress) < 0 ||
        map_init(&seen, 0) < 0 || !(list = PyList_New(0)))
        goto done;
    double t0 = monotonic_seconds();
    int stop = 0;
    for (int32_t depth = 1; depth <= (last > 1 ? last : 1) && !stop; depth++) {
        if (depth > 1 && seconds >= 0) /* the first iteration always finishes */
            R.S.tk.deadline = t0 + seconds;
        PyObject *it = iteration(&R, solve ? &seen : NULL, solve, depth, last, &stop, &bad);
        if (!it) {
            if (bad >= 0)
                break;
            if (R.S.tk.late && PyErr_ExceptionMatches(PyExc_TimeoutError)) {
                PyErr_Clear(); /* --time ran out in this iteration: the ones before it */
                break;
            }
            goto done;
        }
        int appended = PyList_Append(list, it);
        Py_DECREF(it);
        if (appended < 0)
            goto done;
        if (seconds >= 0 && monotonic_seconds() - t0 >= seconds)
            break;
    }
    result = Py_BuildValue("(OnL)", list, (Py_ssize_t)seen.len, (long long)bad);
done:
    Py_XDECREF(list);
    map_free(&seen);
    run_close(&R);
    return result;
}
