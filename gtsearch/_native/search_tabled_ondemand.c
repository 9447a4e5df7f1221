/* The searches with a transposition table on a game searched on demand over its C rules:
 * gtsearch.algorithms.tabled's alpha-beta, NegaScout and the MT family (`eval -a
 * alphabeta|negascout|mt-sss|mt-dual|mtdf --tt`) on an OnDemandTree, step for step.
 *
 * TableSearch.node() as search_tabled.c runs it, but over game_tree.h's ODTree: the nodes are
 * numbered as OnDemandTree numbers them (od_list), a state is kept only on the path (a frame a
 * level, the state and its moves), and a node's key in the table is its position
 * (docs/algorithms.md, "The key"): the number of its entry in the order the search met the
 * entries (PositionKeys.position_numbers, the entries in the order OnDemandTree.expand met
 * them), twice it plus 1 where MAX moves on a game without player() or --depth; with them
 * (GameTree.general) the number itself, of the state's words and, below a --depth cut, its
 * depth (the entry's key (tag, state, depth): the words say where the tree has a forced pass).
 * The positions' words are handed back in their order, so that OnDemandTree.position answers
 * afterwards as it would have had Python searched (OnDemandTree.numbered_positions).
 *
 * TableSearch.line() is od_tt_line(): each node's last best child (an array by node number,
 * as the Python dict), else the table's move (a draft of TT_FULL), else an uncounted search
 * below the node with a table of its own, on the same tree and positions.
 *
 * The MT family (tabled.mt_family) is game_tree.c's MT passes (od_mt_tabled) over the table,
 * each node keyed by its position here (od_mt_key), then the line of a TableSearch of its own:
 * its best children found by its uncounted searches alone (MT's entries have no move).
 *
 * The same search runs depth-limited with the entry's move first for iterative deepening
 * (`eval --iterative`: iterative.iterate, a node at the horizon worth the game's estimate) and
 * for the generic solver (`gtsearch solve`: solve.solve, its scores W - p kept relative to
 * their position, the positions entered counted), every iteration over one table and one
 * numbering: game_tabled_iterate.
 */
#include "game_tree.h"

/* solve.py's W (a win's score) and DECIDED (scores beyond it are wins or losses) */
#define OD_SOLVE_W 1048576.0
#define OD_SOLVE_DECIDED 524288.0

enum { OD_ALPHABETA = 0, OD_NEGASCOUT = 1, OD_MTD = 2 };
enum { OD_FULL_WINDOW, OD_NULL_WINDOW };
enum { OD_PUSHED = 0, OD_ANSWERED = 1 };

/* -- the search ---------------------------------------------------------------------------- */

/* a node on the path: its state and moves, its key, the window (alpha, beta) for the mover s,
 * the best value m so far from child bc (its index bi), the child c being searched (index i,
 * k searched before it), whether all were exhausted, and the window the child got (phase) */
typedef struct {
    GState st;
    node_t n, c, bc;
    int64_t key;
    double alpha, beta, s, m, a;
    int64_t depth;
    int32_t i, k, bi, first; /* first: the entry's move searched first (> 0), else -1 */
    int count, done, phase;
    int moves[GAME_MAX_MOVES];
} OTFrame;

/* the best child of each node, by number (TableSearch.best: the last one set) */
typedef struct {
    int64_t *p;
    size_t cap;
} BestOf;

typedef struct {
    ODTree *T;
    Ticker *tk;
    Positions *P;
    Table *tt;
    BestOf *best;
    NodeList *leaves; /* the leaves read; NULL in the PV's uncounted searches */
    uint8_t **seen;   /* the positions entered (solve), a byte a key, or NULL */
    size_t *seen_cap;
    int64_t *seen_n;  /* how many */
    int64_t limit;    /* the horizon's depth (iterative deepening), -1: none */
    int order, horizon, solve;
    int scout, general, root_max;
    uint64_t pv_buckets; /* the size of the PV's uncounted searches' tables */
    int64_t entered, expanded;
    OTFrame *st;
    size_t cap;
} OTS;

/* room in B for the nodes 0 .. n, the new ones without a best child (-1); 0 or -1 with
 * MemoryError */
static int best_room(BestOf *B, size_t n) {
    const size_t old = B->cap;
    while (n >= B->cap)
        if (grow_array(&B->p, &B->cap, sizeof *B->p) < 0)
            return -1;
    for (size_t j = old; j < B->cap; j++)
        B->p[j] = -1;
    return 0;
}

static int set_best(BestOf *B, node_t n, node_t c) {
    if (best_room(B, (size_t)n) < 0)
        return -1;
    B->p[n] = c;
    return 0;
}

/* solve.py's _relative(): a score at the root's scale as the score `depth` plies down */
static inline double od_relative(double score, double depth) {
    if (score > OD_SOLVE_DECIDED)
        return score + depth;
    if (score < -OD_SOLVE_DECIDED)
        return score - depth;
    return score;
}

/* _stored(): the mover's bounds at depth as the table keeps them (MAX's terms, relative) */
static void od_stored(const OTS *x, double lo, double hi, double s, int64_t depth, double *tlo,
                      double *thi) {
    if (x->solve) {
        lo = od_relative(lo, (double)depth);
        hi = od_relative(hi, (double)depth);
    }
    *tlo = s > 0 ? lo : -hi;
    *thi = s > 0 ? hi : -lo;
}

/* the position key entered (TableSearch.seen); 0 or -1 with MemoryError */
static int od_see(OTS *x, int64_t key) {
    const size_t old = *x->seen_cap;
    while ((size_t)key >= *x->seen_cap)
        if (grow_array(x->seen, x->seen_cap, 1) < 0)
            return -1;
    memset(*x->seen + old, 0, *x->seen_cap - old);
    *x->seen_n += !(*x->seen)[key];
    (*x->seen)[key] = 1;
    return 0;
}

/* node n's key (state s at depth): PositionKeys.entry_position; -1 with MemoryError */
static int64_t od_key(OTS *x, const GState *s, int64_t depth) {
    return pos_key(x->P, x->T, s, depth, 0, x->general, x->root_max);
}

/* od_key as game_tree.c's MT passes ask for it (ctx: the search) */
static int64_t od_mt_key(void *ctx, const GState *s, int64_t depth) {
    return od_key(ctx, s, depth);
}

/* child i of node n (state s at depth): OnDemandTree.child, its children listed the first
 * time; -1 with an exception */
static node_t od_child(OTS *x, node_t n, const GState *s, int64_t depth, int32_t i) {
    int moves[GAME_MAX_MOVES], count;
    double v;
    od_open(x->T, s, depth, moves, &count, &v);
    const node_t first = od_list(x->T, n, depth, count);
    return first < 0 ? -1 : first + i;
}

/* node n, its state in the frame at *len (with the window (alpha, beta) for the mover s at
 * depth): OD_ANSWERED with *v and *ex (the table's answer, a leaf read), OD_PUSHED (the frame
 * is the stack's top), -1 with an exception */
static int od_enter(OTS *x, size_t *len, node_t n, double alpha, double beta, double s,
                    int64_t depth, double *v, int *ex) {
    OTFrame *f = &x->st[*len];
    const int64_t key = od_key(x, &f->st, depth);
    if (key < 0)
        return -1;
    const TTEntry *e = tt_probe(x->tt, key);
    int32_t first = -1;
    if (e) {
        const int32_t move = e->move;
        if (e->draft >= (x->limit < 0 ? TT_FULL : x->limit - depth)) {
            double lo = s > 0 ? e->lo : -e->hi, hi = s > 0 ? e->hi : -e->lo; /* _recalled() */
            if (x->solve) {
                lo = od_relative(lo, (double)-depth);
                hi = od_relative(hi, (double)-depth);
            }
            if (lo >= beta || hi <= alpha || lo == hi) {
                x->tt->cuts++;
                *v = hi <= alpha ? hi : lo;
                *ex = e->draft == TT_FULL;
                if (move >= 0) {
                    const node_t c = od_child(x, n, &f->st, depth, move);
                    if (c < 0 || set_best(x->best, n, c) < 0)
                        return -1;
                }
                return OD_ANSWERED;
            }
        }
        if (x->order && move >= 0) {
            x->tt->orders++;
            first = move;
        }
    }
    if (x->seen && od_see(x, key) < 0)
        return -1;
    double val, lo, hi;
    if (!od_open(x->T, &f->st, depth, f->moves, &f->count, &val)) { /* a leaf: kept as [v, v] */
        x->entered++;
        if (x->leaves && nl_push(x->leaves, n) < 0)
            return -1;
        val *= s;
        if (x->solve) /* solve.py's _score() */
            val = val > 0 ? OD_SOLVE_W - (double)depth : val < 0 ? (double)depth - OD_SOLVE_W : 0.0;
        od_stored(x, val, val, s, depth, &lo, &hi);
        *v = val;
        *ex = 1;
        tt_store(x->tt, key, lo, hi, TT_FULL, -1);
        return OD_ANSWERED;
    }
    if (x->limit >= 0 && depth >= x->limit) { /* the horizon: its static value, or 0 */
        *ex = 0;
        if (!x->horizon) {
            *v = 0.0;
            return OD_ANSWERED;
        }
        if (x->leaves && nl_push(x->leaves, n) < 0)
            return -1;
        val = s * x->T->g.rules->estimate(&x->T->g, &f->st);
        od_stored(x, val, val, s, depth, &lo, &hi);
        tt_store(x->tt, key, lo, hi, 0, -1);
        *v = val;
        return OD_ANSWERED;
    }
    x->entered++;
    x->expanded++;
    if (od_list(x->T, n, depth, f->count) < 0)
        return -1;
    f->n = n;
    f->c = f->bc = -1;
    f->key = key;
    f->alpha = alpha;
    f->beta = beta;
    f->s = s;
    f->m = -INF;
    f->a = 0.0;
    f->depth = depth;
    f->i = f->k = 0;
    f->bi = -1;
    f->first = first > 0 ? first : -1; /* the entry's move: one of the position's */
    f->done = 1;
    f->phase = OD_FULL_WINDOW;
    ++*len;
    return OD_PUSHED;
}

/* the index of the k-th child f searches: the entry's move first, then the others in order */
static inline int32_t od_nth(const OTFrame *f, int32_t k) {
    if (f->first < 0)
        return k;
    return k == 0 ? f->first : k <= f->first ? k - 1 : k;
}

/* room for the frame at len on the path; 0 or -1 with MemoryError */
static int od_room(OTS *x, size_t len) { return ROOM(x->st, len, x->cap); }

/* whether the state s at depth is a leaf of the tree (end[c] == c + 1) */
static int od_leaf(const ODTree *T, const GState *s, int64_t depth) {
    int moves[GAME_MAX_MOVES];
    const int count = T->g.rules->moves(&T->g, s, moves);
    return !count || (T->limit >= 0 && depth >= T->limit);
}

/* TableSearch.node(n) from state s at depth for the mover sign: its value for that mover in
 * *out, whether it is exhausted (no horizon below it) in *out_ex; 0 or -1 with an exception */
static int od_tt_node(OTS *x, node_t n, const GState *s, int64_t depth, double alpha,
                      double beta, double sign, double *out, int *out_ex) {
    const GameRules *r = x->T->g.rules;
    size_t len = 0;
    double v = 0.0;
    int ex = 0;
    if (od_room(x, 0) < 0)
        return -1;
    x->st[0].st = *s;
    int rc = od_enter(x, &len, n, alpha, beta, sign, depth, &v, &ex);
    while (rc == OD_PUSHED || (rc == OD_ANSWERED && len)) {
        if (od_room(x, len) < 0)
            return -1;
        OTFrame *f = &x->st[len - 1], *g = &x->st[len];
        if (rc == OD_ANSWERED) { /* the child's value for its mover */
            const double tv = -v;
            if (f->phase == OD_NULL_WINDOW && f->a < tv && tv < f->beta) {
                /* failed high inside the window: find the value */
                f->phase = OD_FULL_WINDOW;
                r->play(&x->T->g, &f->st, f->moves[f->i], &g->st);
                rc = od_enter(x, &len, f->c, -f->beta, -tv, -f->s, f->depth + 1, &v, &ex);
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
        if (f->k >= f->count)
            goto finished;
        if (tick(x->tk, (int64_t)(x->leaves ? x->leaves->len : 0)) < 0)
            return -1;
        f->a = f->alpha > f->m ? f->alpha : f->m;
        f->i = od_nth(f, f->k);
        f->c = x->T->first[f->n] + f->i;
        r->play(&x->T->g, &f->st, f->moves[f->i], &g->st);
        if (x->scout && f->k && !od_leaf(x->T, &g->st, f->depth + 1)) {
            f->phase = OD_NULL_WINDOW;
            rc = od_enter(x, &len, f->c, -nextafter(f->a, INF), -f->a, -f->s, f->depth + 1, &v,
                          &ex);
        } else {
            f->phase = OD_FULL_WINDOW;
            rc = od_enter(x, &len, f->c, -f->beta, -f->a, -f->s, f->depth + 1, &v, &ex);
        }
        continue;
    finished:
        if (f->bi >= 0 && set_best(x->best, f->n, f->bc) < 0)
            return -1;
        {
            double lo = -INF, hi = INF, slo, shi;
            if (f->m >= f->beta)
                lo = f->m;
            else if (f->m <= f->alpha)
                hi = f->m;
            else
                lo = hi = f->m;
            /* a horizon FULL or more plies down is kept as FULL - 1, not as searched to the
             * leaves (tabled.py's min(need, FULL - 1)) */
            int64_t draft = x->limit < 0 ? TT_FULL : x->limit - f->depth;
            if (!f->done && draft > TT_FULL - 1)
                draft = TT_FULL - 1;
            od_stored(x, lo, hi, f->s, f->depth, &slo, &shi);
            tt_store(x->tt, f->key, slo, shi, f->done ? TT_FULL : (int32_t)draft, f->bi);
        }
        v = f->m;
        ex = f->done;
        len--;
        rc = OD_ANSWERED;
    }
    if (rc < 0)
        return -1;
    *out = v;
    *out_ex = ex;
    return 0;
}

/* TableSearch.value(n, depth): node n's (state s) value in MAX's terms in (alpha, beta) */
static int od_tt_value(OTS *x, node_t n, const GState *s, int64_t depth, double alpha,
                       double beta, double *out) {
    const double sign = x->root_max == (depth % 2 == 0) ? 1.0 : -1.0;
    double v;
    int ex;
    const int rc = sign > 0 ? od_tt_node(x, n, s, depth, alpha, beta, sign, &v, &ex)
                            : od_tt_node(x, n, s, depth, -beta, -alpha, sign, &v, &ex);
    if (rc == 0)
        *out = sign * v;
    return rc;
}

/* TableSearch.line(0, 0): the line of best children from the root (root state s), in *line
 * (malloc'd); 0 or -1 with an exception */
static int od_tt_line(OTS *x, const GState *root, int64_t **line, size_t *len) {
    ODTree *T = x->T;
    const GameRules *r = T->g.rules;
    GState s = *root;
    node_t n = 0;
    int64_t depth = 0;
    size_t cap = 0;
    int moves[GAME_MAX_MOVES], count;
    double v;
    *len = 0;
    for (;;) {
        if (ROOM(*line, *len, cap) < 0)
            return -1;
        (*line)[(*len)++] = n;
        if (!od_open(T, &s, depth, moves, &count, &v) || (x->limit >= 0 && depth >= x->limit))
            return 0;
        if (best_room(x->best, (size_t)n) < 0)
            return -1;
        node_t c = x->best->p[n];
        if (c < 0) {
            const int64_t key = od_key(x, &s, depth);
            if (key < 0)
                return -1;
            const TTEntry *e = tt_peek(x->tt, key);
            if (e && e->move >= 0 && e->draft == TT_FULL &&
                (c = od_child(x, n, &s, depth, e->move)) < 0)
                return -1;
        }
        if (c < 0) { /* an uncounted search below n, its best children kept */
            Table own;
            if (tt_init(&own, x->pv_buckets) < 0)
                return -1;
            /* to the iteration's horizon, valued as it values it */
            OTS helper = {.T = T, .tk = x->tk, .P = x->P, .tt = &own, .best = x->best,
                          .limit = x->limit, .horizon = x->horizon, .solve = x->solve,
                          .general = x->general, .root_max = x->root_max,
                          .pv_buckets = x->pv_buckets};
            const int rc = od_tt_value(&helper, n, &s, depth, -INF, INF, &v);
            gt_free(helper.st);
            tt_free(&own);
            if (rc < 0)
                return -1;
            c = x->best->p[n]; /* the helper set it: n is an inner node it searched */
        }
        GState next;
        r->play(&T->g, &s, moves[c - T->first[n]], &next);
        s = next;
        n = c;
        depth++;
    }
}

/* game_tabled's items: (value, line, leaves, distinct, entered, expanded, proved, passes,
 * counts, positions) */
typedef struct {
    double value;
    const int64_t *line;
    size_t line_len;
    const NodeList *leaves;
    size_t distinct;
    int64_t figures[4]; /* entered, expanded, proved, passes */
    const Table *tt;
    const Positions *P;
} TabledOut;

static PyObject *tabled_item(int i, const void *ctx) {
    const TabledOut *o = ctx;
    switch (i) {
    case 0:
        return PyFloat_FromDouble(o->value);
    case 1:
        return line_to_list(o->line, o->line_len);
    case 2:
        return nl_to_array(o->leaves);
    case 3:
        return PyLong_FromSize_t(o->distinct);
    case 4:
    case 5:
    case 6:
    case 7:
        return PyLong_FromLongLong((long long)o->figures[i - 4]);
    case 8:
        return tt_counts(o->tt);
    default:
        return make_array("Q", o->P->keys, o->P->n * sizeof *o->P->keys);
    }
}

/* game_tabled(name, params, words, root_max, limit, max_nodes, first, general, buckets,
 * pv_buckets, kind, alpha, beta, progress) -> (value, line, leaves, distinct, entered,
 * expanded, proved, passes, counts, positions, first, up, depth), or None when the core has
 * no rules `name` that hold `params`:
 * kind 0 alpha-beta with the window (alpha, beta) in MAX's terms, 1 NegaScout, 2 MTD(alpha)
 * (the MT family: its positions proved and passes; 0 for the others); positions: an
 * array('Q') of five words a position (its state's four, its depth below a cut), in the order
 * of their numbers; pv_buckets: the size of the tables of the line's uncounted searches */
PyObject *gt_game_tabled(PyObject *self, PyObject *args) {
    (void)self;
    const char *name;
    PyObject *params, *words, *first_obj, *progress;
    long long limit, max_nodes;
    unsigned long long buckets, pv_buckets;
    int root_max, general, kind;
    double alpha, beta;
    if (!PyArg_ParseTuple(args, "sOOpLLOpKKiddO", &name, &params, &words, &root_max, &limit,
                          &max_nodes, &first_obj, &general, &buckets, &pv_buckets, &kind, &alpha,
                          &beta, &progress))
        return NULL;
    if (kind < OD_ALPHABETA || kind > OD_MTD) {
        PyErr_SetString(PyExc_ValueError, "game_tabled: kind must be 0 (alphabeta), 1 or 2");
        return NULL;
    }
    ODRun R;
    const int rc = od_begin(&R, name, params, words, limit, max_nodes, first_obj, progress);
    if (rc <= 0) {
        if (rc < 0)
            return NULL;
        Py_RETURN_NONE;
    }
    PyObject *result = NULL;
    Table tt;
    Positions P = {NULL, 0, 0, NULL, 0};
    BestOf best = {NULL, 0};
    int64_t *line = NULL;
    OTS x = {.T = &R.T, .tk = &R.tk, .P = &P, .tt = &tt, .best = &best, .leaves = &R.leaves,
             .limit = -1, .scout = kind == OD_NEGASCOUT, .general = general, .root_max = root_max,
             .pv_buckets = pv_buckets};
    TabledOut o = {0.0, NULL, 0, &R.leaves, 0, {0, 0, 0, 0}, &tt, &P};
    if (tt_init(&tt, buckets) < 0) {
        od_end(&R);
        return NULL;
    }
    if (kind == OD_NEGASCOUT) {
        alpha = -INF;
        beta = INF;
    }
    /* the MT family's line: its table is the line's search's, to which it is as empty (MT's
     * entries have no move), and that search's own uncounted searches find every child */
    if ((kind == OD_MTD ? od_mt_tabled(&R, root_max, alpha, &tt, od_mt_key, &x, &o.value,
                                       &o.figures[2], &o.figures[3])
                        : od_tt_value(&x, 0, &R.root, 0, alpha, beta, &o.value)) < 0 ||
        od_tt_line(&x, &R.root, &line, &o.line_len) < 0 ||
        nl_distinct(&R.leaves, &o.distinct) < 0)
        goto out;
    o.line = line;
    o.figures[0] = x.entered;
    o.figures[1] = x.expanded;
    result = od_result(&R.T, 10, tabled_item, &o);
out:
    gt_free(line);
    gt_free(x.st);
    gt_free(best.p);
    pos_free(&P);
    tt_free(&tt);
    od_end(&R);
    return result;
}

/* -- iterative deepening and the solver ------------------------------------------------------ */

/* What game_tabled_iterate runs over: the tree, the table, the numbering, the positions seen */
typedef struct {
    ODRun R;
    Table tt;
    Positions P;
    uint8_t *seen;
    size_t seen_cap;
    int64_t seen_n;
    int general, root_max, solve;
    uint64_t pv_buckets;
} ODIterate;

/* One iteration at depth: (value, line, leaves, entered, expanded, exhausted, depth, counts,
 * seconds) (value: MAX's for iterative.py, the score for the player to move at the root for
 * solve.py), *stop set when solve.py stops there, *exhausted when no horizon was met; NULL
 * with an exception. */
static PyObject *od_iteration(ODIterate *I, int64_t depth, int *stop, int *exhausted) {
    ODRun *R = &I->R;
    BestOf best = {NULL, 0};
    R->leaves.len = 0;
    OTS x = {.T = &R->T, .tk = &R->tk, .P = &I->P, .tt = &I->tt, .best = &best,
             .leaves = &R->leaves, .seen = I->solve ? &I->seen : NULL,
             .seen_cap = &I->seen_cap, .seen_n = &I->seen_n, .limit = depth, .order = 1,
             .horizon = !I->solve, .solve = I->solve, .general = I->general,
             .root_max = I->root_max, .pv_buckets = I->pv_buckets};
    const double t0 = monotonic_seconds();
    const double sign = I->root_max ? 1.0 : -1.0;
    double v = 0.0, took = 0.0;
    int64_t *line = NULL;
    size_t line_len = 0;
    int ex = 0;
    PyObject *result = NULL, *pv = NULL, *leaves = NULL, *counts = NULL;
    /* search.root(): the score for the player to move; iterative.py turns it to MAX's */
    int rc = od_tt_node(&x, 0, &R->root, 0, -INF, INF, sign, &v, &ex);
    *exhausted = ex;
    if (rc == 0) {
        took = monotonic_seconds() - t0;
        *stop = I->solve && (ex || v != 0.0);
        rc = od_tt_line(&x, &R->root, &line, &line_len); /* not timed in solve.py */
    }
    if (rc == 0 && (pv = line_to_list(line, line_len)) &&
        (leaves = PyLong_FromSize_t(R->leaves.len)) && (counts = tt_counts(&I->tt)))
        result = Py_BuildValue("(dNNLLiLNd)", I->solve ? v : sign * v, pv, leaves,
                               (long long)x.entered, (long long)x.expanded, ex, (long long)depth,
                               counts, I->solve ? took : monotonic_seconds() - t0);
    else {
        Py_XDECREF(pv);
        Py_XDECREF(leaves);
    }
    gt_free(line);
    gt_free(x.st);
    gt_free(best.p);
    return result;
}

/* game_tabled_iterate's items: (iterations, positions seen, stopped, positions) */
typedef struct {
    PyObject *list;
    int64_t seen;
    int stopped;
    const Positions *P;
} IterateOut;

static PyObject *iterate_item(int i, const void *ctx) {
    const IterateOut *o = ctx;
    switch (i) {
    case 0:
        Py_INCREF(o->list);
        return o->list;
    case 1:
        return PyLong_FromLongLong((long long)o->seen);
    case 2:
        return PyBool_FromLong(o->stopped);
    default:
        return make_array("Q", o->P->keys, o->P->n * sizeof *o->P->keys);
    }
}

/* game_tabled_iterate(name, params, words, root_max, limit, max_nodes, first, general, buckets,
 * pv_buckets, solve, last, seconds, progress) -> (iterations, positions_seen, stopped,
 * positions, first, up, depth), or None when the core has no rules `name` that hold `params`
 * or no estimate (the horizon's static value: the Python search then says what is missing):
 * iterative.iterate on a game on demand (solve 0: depth 1, 2, ... up to `last` (-1: none),
 * until an iteration meets no horizon or, past `seconds` (-1: none), an iteration after the
 * first still running is dropped) or solve.solve's iterations (solve 1: until one is
 * exhausted or decided); each iteration as od_iteration gives it; positions_seen: the distinct
 * positions solve entered; stopped: 1 when --max-nodes ended iterative.py's iterations after
 * the first (the nodes an iteration would number past it; solve's raise VisitLimit);
 * positions as game_tabled's */
PyObject *gt_game_tabled_iterate(PyObject *self, PyObject *args) {
    (void)self;
    const char *name;
    PyObject *params, *words, *first_obj, *progress;
    long long limit, max_nodes, last;
    unsigned long long buckets, pv_buckets;
    double seconds;
    ODIterate I;
    memset(&I, 0, sizeof I);
    if (!PyArg_ParseTuple(args, "sOOpLLOpKKpLdO", &name, &params, &words, &I.root_max, &limit,
                          &max_nodes, &first_obj, &I.general, &buckets, &pv_buckets, &I.solve,
                          &last, &seconds, &progress))
        return NULL;
    I.pv_buckets = pv_buckets;
    const int rc = od_begin(&I.R, name, params, words, limit, max_nodes, first_obj, progress);
    if (rc <= 0) {
        if (rc < 0)
            return NULL;
        Py_RETURN_NONE;
    }
    if (!I.solve && !I.R.T.g.rules->estimate) { /* the horizon's static value */
        od_end(&I.R);
        Py_RETURN_NONE;
    }
    PyObject *list = NULL, *result = NULL;
    if (tt_init(&I.tt, buckets) < 0) {
        od_end(&I.R);
        return NULL;
    }
    int stopped = 0;
    if (!(list = PyList_New(0)))
        goto out;
    const double t0 = monotonic_seconds();
    int stop = 0;
    for (int64_t depth = 1; !stop; depth++) {
        if (depth > 1 && seconds >= 0) /* the first iteration always finishes */
            I.R.tk.deadline = t0 + seconds;
        int exhausted = 0;
        PyObject *it = od_iteration(&I, depth, &stop, &exhausted);
        if (!it) {
            if (I.R.tk.late && PyErr_ExceptionMatches(PyExc_TimeoutError)) {
                PyErr_Clear(); /* --time ran out in this iteration: the ones before it */
                break;
            }
            if (!I.solve && PyList_GET_SIZE(list) && PyErr_ExceptionMatches(VisitLimit)) {
                PyErr_Clear(); /* --max-nodes ends the deepening, as --time does */
                stopped = 1;
                break;
            }
            goto out;
        }
        int appended = PyList_Append(list, it);
        Py_DECREF(it);
        if (appended < 0)
            goto out;
        if (I.solve)
            continue; /* od_iteration said when to stop */
        if (last >= 0 && depth >= (last > 1 ? last : 1))
            break;
        if (seconds >= 0 && monotonic_seconds() - t0 >= seconds)
            break;
        if (exhausted) /* the game searched to its end */
            break;
    }
    {
        IterateOut o = {list, I.seen_n, stopped, &I.P};
        result = od_result(&I.R.T, 4, iterate_item, &o);
    }
out:
    Py_XDECREF(list);
    gt_free(I.seen);
    pos_free(&I.P);
    tt_free(&I.tt);
    od_end(&I.R);
    return result;
}
