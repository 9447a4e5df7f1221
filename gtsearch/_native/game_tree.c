/* A game's tree on demand over its C rules (game.h), and minimax, F1 and alpha-beta on it:
 * gtsearch.sources.ondemand.OnDemandTree and gtsearch.algorithms.depthfirst._negamax_on_demand,
 * step for step.
 *
 * The nodes are numbered as OnDemandTree numbers them: the root is 0, and the first time a
 * node's children are listed they take the next free numbers, left to right.  Of every node
 * numbered the tree keeps what OnDemandTree keeps once it has released the node's entry: its
 * first child's number (-1 before its children are listed), and of the nodes this search
 * numbers their parent and depth (24 bytes a node in all, handed back to Python, which answers
 * path_of, name_at and position from them as for its own released nodes).  A state is kept
 * only on the path the search stands on: one frame a level, the state and its moves.  A node
 * at the --depth cut is a leaf valued by the estimate (GameTree's CUT entries), a node where
 * the game ends one valued by the utility; listing more than --max-nodes nodes raises
 * VisitLimit (OnDemandTree.limit_error's), and Ctrl-C raises KeyboardInterrupt at a tick.
 *
 * Nodes numbered before the search (Python's OnDemandTree searched before on the same tree)
 * keep their numbers: `first` comes in as the tree's and goes out grown.
 */
#include "game_tree.h"

/* room for `need` items in the array *arr of capacity *cap; 0, or -1 with MemoryError */
static int reserve(void *arr, size_t *cap, size_t need, size_t item) {
    while (*cap < need)
        if (grow_array(arr, cap, item) < 0)
            return -1;
    return 0;
}

/* List node c's `count` children (c at depth d): their numbers from the next free one, the
 * first time only (OnDemandTree._list); c's first child, or -1 with VisitLimit or MemoryError */
node_t od_list(ODTree *T, node_t c, int64_t d, int count) {
    if (T->first[c] >= 0)
        return T->first[c];
    const size_t first = T->n, need = first + (size_t)count;
    if ((int64_t)need > T->max_nodes) {
        PyErr_SetString(VisitLimit, "the search listed more nodes than allowed");
        return -1;
    }
    if (reserve(&T->first, &T->cap, need, sizeof *T->first) < 0 ||
        reserve(&T->up, &T->capup, need - T->n0, sizeof *T->up) < 0 ||
        reserve(&T->depth, &T->capdepth, need - T->n0, sizeof *T->depth) < 0)
        return -1;
    for (size_t j = first; j < need; j++) {
        T->first[j] = -1;
        T->up[j - T->n0] = c;
        T->depth[j - T->n0] = d + 1;
    }
    T->n = need;
    T->first[c] = (node_t)first;
    return (node_t)first;
}

/* Open the node of state s at depth d: 1 with its moves (how many in *count) when it is an
 * inner node, else 0 with its value in *v (GameTree._expand and _value: a state without moves
 * is the end of the game, valued by the utility, even at the cut; one at the cut with moves is
 * valued by the estimate) */
int od_open(const ODTree *T, const GState *s, int64_t d, int *moves, int *count,
                   double *v) {
    const GameRules *r = T->g.rules;
    *count = r->moves(&T->g, s, moves);
    if (!*count) {
        *v = r->utility(&T->g, s);
        return 0;
    }
    if (T->limit >= 0 && d >= T->limit) {
        *v = r->estimate(&T->g, s);
        return 0;
    }
    return 1;
}

/* the path's frames: a node, its state and moves, the next child's index, and the negamax's
 * best value m so far, the child bc that gave it, the window (a, b), s = +1 where MAX moves */
typedef struct {
    GState st;
    node_t n, bc;
    double m, a, b, s;
    int count, i;
    int moves[GAME_MAX_MOVES];
} ODFrame;

typedef struct {
    double alpha, beta;
    int deep, prune, hard, root_max;
} ODParams;

/* _negamax_on_demand from the root state: its value in *value and the nodes entered in *nodes
 * (the inner nodes and the leaves read); each finished inner node's best child to `best` */
static int od_negamax(ODTree *T, Ticker *tk, NodeList *leaves, PairLog *best, const GState *root,
                      const ODParams *P, double *value, int64_t *nodes_out) {
    const GameRules *r = T->g.rules;
    struct {
        ODFrame *p;
        size_t len, cap;
    } F = {NULL, 0, 0};
    if (grow_array(&F.p, &F.cap, sizeof *F.p) < 0)
        return -1;
    ODFrame *f = &F.p[0];
    double v;
    const double sign = P->root_max ? 1.0 : -1.0;
    f->st = *root;
    if (!od_open(T, &f->st, 0, f->moves, &f->count, &v)) { /* the root is a leaf */
        gt_free(F.p);
        if (nl_push(leaves, 0) < 0)
            return -1;
        *value = sign * v;
        *nodes_out = 1;
        return 0;
    }
    if (od_list(T, 0, 0, f->count) < 0)
        goto fail;
    int64_t nodes = 1;
    f->n = 0;
    f->i = 0;
    f->bc = -1;
    f->m = P->hard ? P->alpha : -INF;
    f->a = P->alpha;
    f->b = P->beta;
    f->s = sign;
    F.len = 1;
    for (;;) {
        int entered = 0;
        while (f->i < f->count) {
            if (tick(tk, (int64_t)leaves->len) < 0)
                goto fail;
            if (ROOM(F.p, F.len, F.cap) < 0)
                goto fail;
            f = &F.p[F.len - 1];
            ODFrame *g = &F.p[F.len];
            const node_t c = T->first[f->n] + f->i;
            r->play(&T->g, &f->st, f->moves[f->i++], &g->st);
            if (od_open(T, &g->st, (int64_t)F.len, g->moves, &g->count, &v)) {
                /* an inner child: searched in a frame of its own */
                if (od_list(T, c, (int64_t)F.len, g->count) < 0)
                    goto fail;
                nodes++;
                double child_a, child_b;
                if (P->prune) {
                    child_b = -(f->a > f->m ? f->a : f->m);
                    child_a = P->deep ? -f->b : -INF;
                } else {
                    child_a = -INF;
                    child_b = INF;
                }
                g->n = c;
                g->i = 0;
                g->bc = -1;
                g->a = child_a;
                g->b = child_b;
                g->s = -f->s;
                g->m = P->hard ? child_a : -INF;
                F.len++;
                f = g;
                entered = 1;
                break;
            }
            if (nl_push(leaves, c) < 0)
                goto fail;
            const double t = f->s * v;
            if (t > f->m) {
                f->m = t;
                f->bc = c;
                if (f->m >= f->b)
                    break;
            }
        }
        if (entered)
            continue;
        /* node f->n is finished with value f->m: its parent takes it, and is finished too when
         * it cuts the parent off; else the parent goes on with its next child */
        for (;;) {
            if (log_pair(best, f->n, f->bc) < 0)
                goto fail;
            if (F.len == 1)
                goto done;
            const double t = -f->m;
            const node_t child = f->n;
            f = &F.p[--F.len - 1];
            if (!(t > f->m))
                break;
            f->m = t;
            f->bc = child;
            if (!(f->m >= f->b))
                break;
        }
    }
done:
    *value = f->m;
    *nodes_out = nodes + (int64_t)leaves->len;
    gt_free(F.p);
    return 0;
fail:
    gt_free(F.p);
    return -1;
}

/* the line's rule: each node's best child, scanning the log back (search_depthfirst.c's) */
typedef struct {
    const PairLog *best;
    size_t at;
} BestScan;

static node_t best_child(void *ctx, node_t n, int is_max) {
    (void)is_max;
    BestScan *scan = ctx;
    node_t c = log_last(scan->best, &scan->at, n);
    return c >= 0 ? c : PV_END;
}

/* A search's result: its `n` own items (made here in turn: `make(i, ctx)` makes item i, NULL
 * with an exception), then the tree's arrays first, up and depth; each item made only while
 * the ones before it were */
PyObject *od_result(const ODTree *T, int n, PyObject *(*make)(int, const void *),
                           const void *ctx) {
    const size_t fresh = T->n - T->n0;
    PyObject *items[OD_MOST_ITEMS] = {NULL};
    PyObject *result = NULL;
    int k = 0;
    for (; k < n; k++)
        if (!(items[k] = make(k, ctx)))
            goto done;
    if (!(items[k++] = make_array("q", T->first, T->n * sizeof *T->first)) ||
        !(items[k++] = make_array("q", T->up, fresh * sizeof *T->up)) ||
        !(items[k++] = make_array("q", T->depth, fresh * sizeof *T->depth)))
        goto done;
    if ((result = PyTuple_New(k)))
        for (int i = 0; i < k; i++) {
            PyTuple_SET_ITEM(result, i, items[i]);
            items[i] = NULL;
        }
done:
    for (int i = 0; i < OD_MOST_ITEMS; i++)
        Py_XDECREF(items[i]);
    return result;
}

/* the game's rules called `name`, opened with the parameters in the sequence `params`: 1, 0
 * when there are none such or they do not hold the parameters, -1 with an exception */
int od_game(Game *g, const char *name, PyObject *params) {
    const GameRules *r = game_rules(name);
    PyObject *seq = PySequence_Fast(params, "game_negamax: params must be a sequence");
    if (!seq)
        return -1;
    const Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    int64_t values[GAME_MAX_PARAMS];
    int rc = r != NULL && k <= GAME_MAX_PARAMS;
    for (Py_ssize_t i = 0; rc == 1 && i < k; i++) {
        values[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (values[i] == -1 && PyErr_Occurred())
            rc = -1;
    }
    Py_DECREF(seq);
    if (rc == 1) {
        memset(g, 0, sizeof *g);
        g->rules = r;
        rc = r->open(g, values, (int)k) == 0;
    }
    return rc;
}

/* -- NegaScout on demand: scout._met's search, step for step ---------------------------------
 * Reinefeld's NegaScout (search_scout.c's, over the tree on demand): the first child with the
 * window, the others with the exact null window above the best value so far, a child that
 * fails high inside the window searched again with (t, beta).  Each call is a frame of the
 * path (the frame of a node's re-search takes the place of its first search's), so a frame's
 * place is its node's depth. */
enum { NS_LOOP, NS_FIRST, NS_NULL, NS_RESEARCH };

typedef struct {
    GState st;
    node_t n;
    double alpha, beta, s, m, a;
    int count, i, first, phase;
    int kind, greater, anyone; /* SCOUT's (below): TEST or EVAL, TEST's question */
    int moves[GAME_MAX_MOVES];
} NSFrame;

typedef struct {
    NSFrame *p;
    size_t len, cap;
} NSStack;

/* The call search(c, alpha, beta, s) of the child i of the top frame (c its number): 1 with
 * c's frame pushed when c is an inner node, 0 with its value in *v when it is a leaf, -1 with
 * an exception */
static int ns_call(ODTree *T, NSStack *F, int i, double alpha, double beta, double s,
                   double *v) {
    if (ROOM(F->p, F->len, F->cap) < 0)
        return -1;
    const NSFrame *f = &F->p[F->len - 1];
    NSFrame *g = &F->p[F->len];
    const node_t c = T->first[f->n] + i;
    T->g.rules->play(&T->g, &f->st, f->moves[i], &g->st);
    if (!od_open(T, &g->st, (int64_t)F->len, g->moves, &g->count, v))
        return 0;
    if (od_list(T, c, (int64_t)F->len, g->count) < 0)
        return -1;
    g->n = c;
    g->alpha = alpha;
    g->beta = beta;
    g->s = s;
    g->m = -INF;
    g->i = 0;
    g->first = 1;
    g->phase = NS_LOOP;
    F->len++;
    return 1;
}

/* the values of the leaves read, in MAX's terms, in the order read (the PV's, below) */
typedef struct {
    double *p;
    size_t len, cap;
} Values;

static int read_leaf(NodeList *leaves, Values *vals, node_t n, double v) {
    if (nl_push(leaves, n) < 0)
        return -1;
    if (!vals) /* not kept: no PV is found from them */
        return 0;
    if (ROOM(vals->p, vals->len, vals->cap) < 0)
        return -1;
    vals->p[vals->len++] = v;
    return 0;
}

/* The root's frame of NegaScout or SCOUT: 1 with it pushed (its node, moves and children
 * listed, at its first child), 0 when the root is a leaf (read: its value in *value, one node
 * in *nodes_out), -1 with an exception; the stack freed but when 1 */
static int ns_root(ODTree *T, NSStack *F, NodeList *leaves, Values *vals, const GState *root,
                   double *value, int64_t *nodes_out) {
    if (grow_array(&F->p, &F->cap, sizeof *F->p) < 0)
        return -1;
    NSFrame *f = &F->p[0];
    double v;
    f->st = *root;
    if (!od_open(T, &f->st, 0, f->moves, &f->count, &v)) { /* the root is a leaf */
        gt_free(F->p);
        if (read_leaf(leaves, vals, 0, v) < 0)
            return -1;
        *value = v;
        *nodes_out = 1;
        return 0;
    }
    if (od_list(T, 0, 0, f->count) < 0) {
        gt_free(F->p);
        return -1;
    }
    f->n = 0;
    f->i = 0;
    f->first = 1;
    f->phase = NS_LOOP;
    F->len = 1;
    return 1;
}

/* scout._met's NegaScout from the root state: its value in MAX's terms in *value, the nodes
 * visited in *nodes_out; each leaf read and its value to `leaves` and `vals` */
static int od_negascout(ODTree *T, Ticker *tk, NodeList *leaves, Values *vals, const GState *root,
                        int root_max, double *value, int64_t *nodes_out) {
    NSStack F = {NULL, 0, 0};
    const int rc = ns_root(T, &F, leaves, vals, root, value, nodes_out);
    if (rc <= 0)
        return rc;
    NSFrame *f = &F.p[0];
    double v;
    const double sign = root_max ? 1.0 : -1.0;
    f->alpha = -INF;
    f->beta = INF;
    f->s = sign;
    f->m = -INF;
    int64_t nodes = 1;
    double ret = 0.0; /* the value a finished call hands to its caller */
    for (;;) {
        f = &F.p[F.len - 1];
        double t;
        if (f->phase == NS_LOOP) {
            if (f->i >= f->count)
                goto finished;
            if (tick(tk, (int64_t)leaves->len) < 0)
                goto fail;
            nodes++;
            double ca, cb;
            int phase;
            if (f->first) {
                phase = NS_FIRST;
                ca = -f->beta;
                cb = -f->alpha;
            } else {
                f->a = f->alpha > f->m ? f->alpha : f->m;
                phase = NS_NULL;
                ca = -nextafter(f->a, INF);
                cb = -f->a;
            }
            const int i = f->i++;
            f->phase = phase;
            const int inner = ns_call(T, &F, i, ca, cb, -f->s, &v);
            if (inner < 0)
                goto fail;
            if (inner)
                continue;
            f = &F.p[F.len - 1]; /* a leaf is exact: no window, no re-search */
            f->phase = NS_LOOP;
            if (read_leaf(leaves, vals, T->first[f->n] + i, v) < 0)
                goto fail;
            t = f->s * v;
        } else if (f->phase == NS_NULL) {
            t = -ret;
            f->phase = NS_LOOP;
            if (f->a < t && t < f->beta) { /* failed high inside the window: find the value */
                nodes++;
                f->phase = NS_RESEARCH;
                if (ns_call(T, &F, f->i - 1, -f->beta, -t, -f->s, &v) < 0)
                    goto fail;
                continue;
            }
        } else { /* NS_FIRST or NS_RESEARCH: the child's value */
            t = -ret;
            f->phase = NS_LOOP;
        }
        f->first = 0;
        if (t > f->m) {
            f->m = t;
            if (f->m >= f->beta)
                goto finished;
        }
        continue;
    finished:
        ret = f->m;
        if (--F.len == 0)
            break;
    }
    gt_free(F.p);
    *value = sign * ret;
    *nodes_out = nodes;
    return 0;
fail:
    gt_free(F.p);
    return -1;
}

/* -- SCOUT on demand: scout._met's test and evaluate, step for step ---------------------------
 * Pearl's SCOUT over the tree on demand (search_scout.c's scout over the preorder arrays): EVAL
 * a node's first child, TEST every later one against the value so far and EVAL it again where
 * it can beat it.  The frames are NegaScout's (ns_call pushes them): in a frame `m` is EVAL's
 * value so far, or the value TEST compares with; `s` +1 where MAX moves.  A child's EVAL after
 * its TEST takes the TEST's frame's place, so a frame's place is its node's depth. */
enum { SC_TEST, SC_EVAL };
enum { SC_FIRST = NS_RESEARCH + 1, SC_TESTED, SC_AGAIN, SC_CHILD };

/* The call test(c, v, greater, is_max) or evaluate(c, is_max) (`kind`) of the top frame's
 * child i, as ns_call: 1 with c's frame pushed, 0 with a leaf's value in *x, -1 */
static int sc_call(ODTree *T, NSStack *F, int i, int kind, double v, int greater, int is_max,
                   double *x) {
    const int inner = ns_call(T, F, i, 0.0, 0.0, is_max ? 1.0 : -1.0, x);
    if (inner > 0) {
        NSFrame *g = &F->p[F->len - 1];
        g->kind = kind;
        g->m = kind == SC_TEST ? v : 0.0;
        g->greater = greater;
        g->anyone = is_max == greater;
    }
    return inner;
}

/* scout._met's SCOUT from the root state: its value (MAX's terms) in *value, the nodes
 * visited in *nodes_out; each leaf read and its value to `leaves` and `vals` */
static int od_scout(ODTree *T, Ticker *tk, NodeList *leaves, Values *vals, const GState *root,
                    int root_max, double *value, int64_t *nodes_out) {
    NSStack F = {NULL, 0, 0};
    const int rc = ns_root(T, &F, leaves, vals, root, value, nodes_out);
    if (rc <= 0)
        return rc;
    NSFrame *f = &F.p[0];
    double x;
    f->s = root_max ? 1.0 : -1.0;
    f->m = 0.0;
    f->kind = SC_EVAL;
    int64_t nodes = 1;
    double ret_v = 0.0; /* an EVAL's value handed up */
    int ret_ok = 0;     /* a TEST's answer handed up */
    for (;;) {
        f = &F.p[F.len - 1];
        const int is_max = f->s > 0;
        if (f->kind == SC_TEST) {
            int ok;
            if (f->phase == SC_CHILD) { /* a child's TEST answered */
                f->phase = NS_LOOP;
                ok = ret_ok;
            } else {
                if (f->i >= f->count) {
                    ret_ok = !f->anyone;
                    goto returned;
                }
                if (tick(tk, (int64_t)leaves->len) < 0)
                    goto fail;
                nodes++;
                const int i = f->i++;
                f->phase = SC_CHILD;
                const int inner = sc_call(T, &F, i, SC_TEST, f->m, f->greater, !is_max, &x);
                if (inner < 0)
                    goto fail;
                if (inner)
                    continue;
                f = &F.p[F.len - 1];
                f->phase = NS_LOOP;
                if (read_leaf(leaves, vals, T->first[f->n] + i, x) < 0)
                    goto fail;
                ok = f->greater ? x > f->m : x < f->m;
            }
            if (ok == f->anyone) {
                ret_ok = ok;
                goto returned;
            }
            continue;
        }
        /* EVAL */
        if (f->phase == SC_FIRST || f->phase == SC_AGAIN) {
            f->m = ret_v;
            f->phase = NS_LOOP;
        } else if (f->phase == SC_TESTED) {
            f->phase = NS_LOOP;
            if (ret_ok) { /* the child can beat the value so far: EVAL it */
                nodes++;
                f->phase = SC_AGAIN;
                if (sc_call(T, &F, f->i - 1, SC_EVAL, 0.0, 0, !is_max, &x) < 0)
                    goto fail;
                continue;
            }
        } else {
            if (f->i >= f->count) {
                ret_v = f->m;
                goto returned;
            }
            if (tick(tk, (int64_t)leaves->len) < 0)
                goto fail;
            nodes++;
            const int i = f->i++, kind = f->first ? SC_EVAL : SC_TEST;
            f->phase = f->first ? SC_FIRST : SC_TESTED;
            const int inner = sc_call(T, &F, i, kind, f->m, is_max, !is_max, &x);
            if (inner < 0)
                goto fail;
            if (inner)
                continue;
            f = &F.p[F.len - 1]; /* reading a leaf both tests and evaluates it */
            f->phase = NS_LOOP;
            if (read_leaf(leaves, vals, T->first[f->n] + i, x) < 0)
                goto fail;
            if (f->first || (is_max ? x > f->m : x < f->m))
                f->m = x;
        }
        f->first = 0;
        continue;
    returned:
        if (--F.len == 0)
            break;
    }
    gt_free(F.p);
    *value = ret_v;
    *nodes_out = nodes;
    return 0;
fail:
    gt_free(F.p);
    return -1;
}

/* -- MTD on demand: mt.mtd and MTSearch._met_pass, step for step ---------------------------------
 * Plaat et al.'s MT passes driven by MTD from a first guess, with MT's own table (NodeMemory:
 * every node searched, keyed by its number, which a node keeps for the whole search, never
 * forgotten) or a transposition table keyed by position (tabled.py's TableMemory, `eval -a
 * mt-sss|mt-dual|mtdf --tt`: od_mt_tabled, its positions numbered by search_tabled_ondemand.c):
 * MTMemory either way (core.h).  A pass's frames are the path's, each with its node's key. */
typedef struct {
    GState st;
    node_t n;
    int64_t key;
    double g;
    int is_max, count, i;
    int moves[GAME_MAX_MOVES];
} MTFrame;

typedef struct {
    ODTree *T;
    Ticker *tk;
    NodeList *leaves;
    Values *vals;  /* the leaves' values (MT's own table's PV), or NULL */
    MTMemory mem;
    ODKey key;     /* a node's position (with a transposition table), or NULL: its number */
    void *key_ctx;
    struct {
        MTFrame *p;
        size_t len, cap;
    } F;
    double gamma;
    int strict;
} MTRun;

static inline int mt_passes(const MTRun *M, double g) {
    return M->strict ? g > M->gamma : g >= M->gamma;
}

/* MTSearch.test's probe of node c, the state st at depth d: 1 with the answer in *t, 0 when
 * the table does not answer it (an inner node: its moves in moves and *count), -1; c's key
 * in the memory in *key */
static int mt_probe(MTRun *M, node_t c, const GState *st, int64_t d, int *moves, int *count,
                    double *t, int64_t *key) {
    if ((*key = M->key ? M->key(M->key_ctx, st, d) : c) < 0)
        return -1;
    double b[2], v;
    if (!mtm_recall(&M->mem, *key, b)) {
        if (od_open(M->T, st, d, moves, count, &v))
            return 0;
        if (read_leaf(M->leaves, M->vals, c, v) < 0 || mtm_prove(&M->mem, *key, v, v) < 0)
            return -1; /* a leaf: evaluated, remembered as [v, v] */
        *t = v;
        return 1;
    }
    if (mtm_answer(&M->mem, b, M->gamma, M->strict, t))
        return 1;
    if (od_open(M->T, st, d, moves, count, &v) != 1) { /* a leaf is [v, v]: answered above */
        PyErr_SetString(PyExc_SystemError, "bug: a leaf the table does not answer");
        return -1;
    }
    return 0;
}

/* the frame of inner node n (its state and moves in place at the top) entered: g's start */
static void mt_enter(MTFrame *f, node_t n, int64_t key, int is_max) {
    f->n = n;
    f->key = key;
    f->is_max = is_max;
    f->g = is_max ? -INF : INF;
    f->i = 0;
}

/* One MT pass from the root (MTSearch.test on a tree numbered as met): g in *out */
static int mt_test(MTRun *M, const GState *root, int root_max, double *out) {
    ODTree *T = M->T;
    if (M->F.cap == 0 && grow_array(&M->F.p, &M->F.cap, sizeof *M->F.p) < 0)
        return -1;
    MTFrame *f = &M->F.p[0];
    f->st = *root;
    int64_t key;
    int rc = mt_probe(M, 0, &f->st, 0, f->moves, &f->count, out, &key);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    if (od_list(T, 0, 0, f->count) < 0)
        return -1;
    mt_enter(f, 0, key, root_max);
    M->F.len = 1;
    for (;;) {
        f = &M->F.p[M->F.len - 1];
        int descended = 0;
        while (f->i < f->count) {
            if (tick(M->tk, (int64_t)M->leaves->len) < 0)
                return -1;
            if (ROOM(M->F.p, M->F.len, M->F.cap) < 0)
                return -1;
            f = &M->F.p[M->F.len - 1];
            MTFrame *g = &M->F.p[M->F.len];
            const node_t c = T->first[f->n] + f->i;
            T->g.rules->play(&T->g, &f->st, f->moves[f->i], &g->st);
            double t;
            rc = mt_probe(M, c, &g->st, (int64_t)M->F.len, g->moves, &g->count, &t, &key);
            if (rc < 0)
                return -1;
            if (rc == 0) {
                if (od_list(T, c, (int64_t)M->F.len, g->count) < 0)
                    return -1;
                mt_enter(g, c, key, !f->is_max);
                M->F.len++;
                descended = 1;
                break;
            }
            if (f->is_max) {
                if (t > f->g)
                    f->g = t;
                if (mt_passes(M, f->g))
                    break;
            } else {
                if (t < f->g)
                    f->g = t;
                if (!mt_passes(M, f->g))
                    break;
            }
            f->i++;
        }
        if (descended)
            continue;
        /* node f->n is finished with g: remember the bound it proved; its parent takes it */
        for (;;) {
            const int passed = mt_passes(M, f->g);
            if (mtm_prove(&M->mem, f->key, passed ? f->g : -INF, passed ? INF : f->g) < 0)
                return -1;
            if (M->F.len == 1) {
                *out = f->g;
                return 0;
            }
            const double t = f->g;
            f = &M->F.p[--M->F.len - 1];
            int cut;
            if (f->is_max) {
                if (t > f->g)
                    f->g = t;
                cut = mt_passes(M, f->g);
            } else {
                if (t < f->g)
                    f->g = t;
                cut = !mt_passes(M, f->g);
            }
            if (!cut) {
                f->i++;
                break;
            }
        }
    }
}

/* mt.mtd from the first guess: the value in *value, MT's table's size in *size, the passes */
static int od_mtd(MTRun *M, const GState *root, int root_max, double first, double *value,
                  int64_t *size, int64_t *passes) {
    double lower = -INF, upper = INF, g = first;
    *passes = 0;
    while (lower < upper) {
        M->gamma = g;
        M->strict = g == lower;
        ++*passes;
        if (mt_test(M, root, root_max, &g) < 0)
            return -1;
        if (mt_passes(M, g))
            lower = g;
        else
            upper = g;
    }
    *value = lower;
    *size = (int64_t)M->mem.map.len;
    return 0;
}

/* od_mtd over R's tree with MT's own table (tt NULL: a node keyed by its number, the leaves'
 * values kept in vals for the PV) or the transposition table tt (a node keyed by
 * key(key_ctx, ...), vals NULL); 0, or -1 with an exception */
static int od_mt(ODRun *R, Values *vals, Table *tt, ODKey key, void *key_ctx, int root_max,
                 double first, double *value, int64_t *proved, int64_t *passes) {
    MTRun M;
    memset(&M, 0, sizeof M);
    M.T = &R->T;
    M.tk = &R->tk;
    M.leaves = &R->leaves;
    M.vals = vals;
    M.key = key;
    M.key_ctx = key_ctx;
    int rc = mtm_init(&M.mem, tt);
    if (rc == 0)
        rc = od_mtd(&M, &R->root, root_max, first, value, proved, passes);
    map_free(&M.mem.map);
    gt_free(M.F.p);
    return rc;
}

int od_mt_tabled(ODRun *R, int root_max, double first, Table *tt, ODKey key, void *key_ctx,
                 double *value, int64_t *proved, int64_t *passes) {
    return od_mt(R, NULL, tt, key, key_ctx, root_max, first, value, proved, passes);
}

/* -- the PV of an exact value from the leaves read: pv._met_principal_variation ------------------
 * The bounds [lo, hi] the leaves read prove for each node (on_demand_ranges): one pass up, in
 * descending numbers (a node's children are numbered after it), over every node listed (a
 * node above no leaf read gets (-inf, +inf), as the Python pass's absent entries); then the
 * walk down from the root, at a MAX node the first child whose lo is the value, at a MIN node
 * the first whose hi is.  A node's children are its block of numbers, up to the next block
 * listed (the blocks are numbered one after another); its player, the root's at even depths.
 * 0 with the line, 1 when the leaves do not prove the value (Python then says so), -1. */
static int od_exact_pv(const ODTree *T, const NodeList *leaves, const Values *vals, int root_max,
                       double v, int64_t **line, size_t *len) {
    const size_t n = T->n;
    double *lo = gt_malloc(n * sizeof *lo), *hi = gt_malloc(n * sizeof *hi);
    unsigned char *flag = gt_calloc(n, 1); /* 1: a block starts here; 2: MIN moves there */
    int64_t *out = NULL;
    size_t k = 0, cap = 0;
    int rc = -1;
    if (!lo || !hi || !flag) {
        PyErr_NoMemory();
        goto done;
    }
    for (size_t m = 0; m < n; m++) {
        lo[m] = -INF;
        hi[m] = INF;
        if (T->first[m] >= 0)
            flag[T->first[m]] |= 1;
    }
    if (!root_max)
        flag[0] |= 2;
    for (size_t m = 0; m < n; m++) /* the players, top-down */
        if (T->first[m] >= 0) {
            const unsigned char kid = (flag[m] & 2) ^ 2;
            size_t c = (size_t)T->first[m];
            do
                flag[c] = (unsigned char)((flag[c] & 1) | kid);
            while (++c < n && !(flag[c] & 1));
        }
    for (size_t i = 0; i < leaves->len; i++) {
        const node_t leaf = nl_get(leaves, i);
        lo[leaf] = hi[leaf] = vals->p[i];
    }
    for (size_t m = n; m-- > 0;) {
        if (T->first[m] < 0)
            continue;
        const int is_max = !(flag[m] & 2);
        double low = is_max ? -INF : INF, high = low;
        size_t c = (size_t)T->first[m];
        do {
            if (is_max ? lo[c] > low : lo[c] < low)
                low = lo[c];
            if (is_max ? hi[c] > high : hi[c] < high)
                high = hi[c];
        } while (++c < n && !(flag[c] & 1));
        lo[m] = low;
        hi[m] = high;
    }
    if (!(lo[0] == v && hi[0] == v)) {
        rc = 1;
        goto done;
    }
    size_t m = 0;
    for (;;) {
        if (ROOM(out, k, cap) < 0)
            goto done;
        out[k++] = (int64_t)m;
        if (T->first[m] < 0)
            break;
        const double *table = flag[m] & 2 ? hi : lo;
        size_t c = (size_t)T->first[m];
        while (table[c] != v && c + 1 < n && !(flag[c + 1] & 1))
            c++;
        m = c;
    }
    *line = out;
    *len = k;
    out = NULL;
    rc = 0;
done:
    gt_free(out);
    gt_free(lo);
    gt_free(hi);
    gt_free(flag);
    return rc;
}

/* What every search of a game on demand opens: the rules `name` opened with `params`, the
 * root's state from `words`, the tree's nodes numbered so far (`first`), the ticker and the
 * list of leaves.  1, 0 when the core has no rules `name` that hold `params` (nothing held),
 * -1 with an exception (nothing held). */
int od_begin(ODRun *R, const char *name, PyObject *params, PyObject *words,
                    long long limit, long long max_nodes, PyObject *first_obj,
                    PyObject *progress) {
    memset(R, 0, sizeof *R);
    ODTree *T = &R->T;
    const int found = od_game(&T->g, name, params);
    if (found <= 0)
        return found;
    if (limit >= 0 && !T->g.rules->estimate)
        return 0; /* Python's game has no estimate either, and refuses --depth */
    PyObject *seq = PySequence_Fast(words, "game search: words must be a sequence");
    if (!seq)
        return -1;
    const Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    if (k > GSTATE_WORDS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "game search: more words than a state has");
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        R->root.w[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (R->root.w[i] == (uint64_t)-1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    Py_buffer fv;
    if (borrow_array(first_obj, &fv, "q", 0, "game search: first must be an array of typecode %s") <
        0)
        return -1;
    T->limit = limit;
    T->max_nodes = max_nodes;
    T->n = T->n0 = (size_t)(fv.len / 8);
    int rc = -1;
    if (T->n0 == 0)
        PyErr_SetString(PyExc_ValueError, "game search: first holds no root");
    else if (reserve(&T->first, &T->cap, T->n, sizeof *T->first) == 0) {
        memcpy(T->first, fv.buf, T->n * sizeof *T->first);
        if (tick_open(&R->tk, progress) == 0) {
            nl_init(&R->leaves, max_nodes > INT32_MAX);
            rc = 1;
        }
    }
    PyBuffer_Release(&fv);
    if (rc < 0)
        gt_free(T->first);
    return rc;
}

void od_end(ODRun *R) {
    gt_free(R->T.first);
    gt_free(R->T.up);
    gt_free(R->T.depth);
    nl_free(&R->leaves);
    tick_close(&R->tk);
}

/* negamax's items: (m, line, leaves, nodes) */
typedef struct {
    double m;
    const int64_t *line;
    size_t line_len;
    const NodeList *leaves;
    int64_t nodes;
} NegamaxOut;

static PyObject *negamax_item(int i, const void *ctx) {
    const NegamaxOut *o = ctx;
    switch (i) {
    case 0:
        return PyFloat_FromDouble(o->m);
    case 1:
        return line_to_list(o->line, o->line_len);
    case 2:
        return nl_to_array(o->leaves);
    default:
        return PyLong_FromLongLong((long long)o->nodes);
    }
}

/* game_negamax(name, params, words, root_max, limit, max_nodes, first, alpha, beta, deep,
 * prune, hard, progress) -> (m, line, leaves, nodes, first, up, depth), or None when the core
 * has no rules `name` that hold `params` */
PyObject *gt_game_negamax(PyObject *self, PyObject *args) {
    (void)self;
    const char *name;
    PyObject *params, *words, *first_obj, *progress;
    long long limit, max_nodes;
    ODParams P;
    if (!PyArg_ParseTuple(args, "sOOpLLOddpppO", &name, &params, &words, &P.root_max, &limit,
                          &max_nodes, &first_obj, &P.alpha, &P.beta, &P.deep, &P.prune, &P.hard,
                          &progress))
        return NULL;
    ODRun R;
    const int rc = od_begin(&R, name, params, words, limit, max_nodes, first_obj, progress);
    if (rc <= 0) {
        if (rc < 0)
            return NULL;
        Py_RETURN_NONE;
    }
    PyObject *result = NULL;
    PairLog best = {NULL, 0, 0};
    NegamaxOut o = {0.0, NULL, 0, &R.leaves, 0};
    int64_t *line = NULL;
    if (od_negamax(&R.T, &R.tk, &R.leaves, &best, &R.root, &P, &o.m, &o.nodes) < 0)
        goto out;
    BestScan scan = {&best, best.len};
    if (pv_walk(best_child, &scan, P.root_max, &line, &o.line_len) < 0)
        goto out;
    o.line = line;
    result = od_result(&R.T, 4, negamax_item, &o);
out:
    gt_free(line);
    gt_free(best.p);
    od_end(&R);
    return result;
}

/* NegaScout's and MTD's items: (value, line or None, leaves, nodes, then NegaScout's distinct
 * leaves or MTD's passes) */
typedef struct {
    double value;
    const int64_t *line; /* NULL: none */
    size_t line_len;
    const NodeList *leaves;
    int64_t nodes, extra;
} ProvedOut;

static PyObject *proved_item(int i, const void *ctx) {
    const ProvedOut *o = ctx;
    switch (i) {
    case 0:
        return PyFloat_FromDouble(o->value);
    case 1:
        if (!o->line)
            Py_RETURN_NONE;
        return line_to_list(o->line, o->line_len);
    case 2:
        return nl_to_array(o->leaves);
    case 3:
        return PyLong_FromLongLong((long long)o->nodes);
    default:
        return PyLong_FromLongLong((long long)o->extra);
    }
}

/* The result of a search that proves its value (NegaScout, SCOUT, MTD): `o`'s figures and,
 * when `want_line`, the line its leaves prove (None where they prove none: the Python walk
 * says so), with the nodes numbered; NULL on an error */
static PyObject *proved_result(ODRun *R, const Values *vals, int root_max, int want_line,
                               ProvedOut *o) {
    int64_t *line = NULL;
    if (want_line) {
        if (od_exact_pv(&R->T, &R->leaves, vals, root_max, o->value, &line, &o->line_len) < 0)
            return NULL;
        o->line = line;
    }
    PyObject *result = od_result(&R->T, 5, proved_item, o);
    gt_free(line);
    return result;
}

/* NegaScout's or SCOUT's (`pearl`) entry: (value, line, leaves, nodes, distinct, first, up,
 * depth), or None (as game_negamax); the line (the PV the leaves read prove) when `line`, else
 * None */
static PyObject *scout_entry(PyObject *args, const char *format, int pearl) {
    const char *name;
    PyObject *params, *words, *first_obj, *progress;
    long long limit, max_nodes;
    int root_max, want_line;
    if (!PyArg_ParseTuple(args, format, &name, &params, &words, &root_max, &limit, &max_nodes,
                          &first_obj, &want_line, &progress))
        return NULL;
    ODRun R;
    const int rc = od_begin(&R, name, params, words, limit, max_nodes, first_obj, progress);
    if (rc <= 0) {
        if (rc < 0)
            return NULL;
        Py_RETURN_NONE;
    }
    PyObject *result = NULL;
    Values vals = {NULL, 0, 0};
    ProvedOut o = {0.0, NULL, 0, &R.leaves, 0, 0};
    size_t distinct = 0;
    if ((pearl ? od_scout : od_negascout)(&R.T, &R.tk, &R.leaves, &vals, &R.root, root_max,
                                           &o.value, &o.nodes) < 0 ||
        nl_distinct(&R.leaves, &distinct) < 0)
        goto out;
    o.extra = (int64_t)distinct;
    result = proved_result(&R, &vals, root_max, want_line, &o);
out:
    gt_free(vals.p);
    od_end(&R);
    return result;
}

/* game_negascout(name, params, words, root_max, limit, max_nodes, first, line, progress):
 * scout_entry's, NegaScout */
PyObject *gt_game_negascout(PyObject *self, PyObject *args) {
    (void)self;
    return scout_entry(args, "sOOpLLOpO:game_negascout", 0);
}

/* game_scout(...): as game_negascout, Pearl's SCOUT */
PyObject *gt_game_scout(PyObject *self, PyObject *args) {
    (void)self;
    return scout_entry(args, "sOOpLLOpO:game_scout", 1);
}

/* game_mtd(name, params, words, root_max, limit, max_nodes, first, guess, line, progress) ->
 * (lower, line, leaves, nodes, passes, first, up, depth), or None (as game_negamax): MTD(guess)
 * with MT's own table, and its PV from the leaves read when `line` */
PyObject *gt_game_mtd(PyObject *self, PyObject *args) {
    (void)self;
    const char *name;
    PyObject *params, *words, *first_obj, *progress;
    long long limit, max_nodes;
    int root_max, want_line;
    double guess;
    if (!PyArg_ParseTuple(args, "sOOpLLOdpO", &name, &params, &words, &root_max, &limit,
                          &max_nodes, &first_obj, &guess, &want_line, &progress))
        return NULL;
    ODRun R;
    const int rc = od_begin(&R, name, params, words, limit, max_nodes, first_obj, progress);
    if (rc <= 0) {
        if (rc < 0)
            return NULL;
        Py_RETURN_NONE;
    }
    PyObject *result = NULL;
    Values vals = {NULL, 0, 0};
    ProvedOut o = {0.0, NULL, 0, &R.leaves, 0, 0};
    if (od_mt(&R, &vals, NULL, NULL, NULL, root_max, guess, &o.value, &o.nodes, &o.extra) == 0)
        result = proved_result(&R, &vals, root_max, want_line, &o);
    gt_free(vals.p);
    od_end(&R);
    return result;
}

/* -- the positions (game_tree.h) ------------------------------------------------------------ */
static uint64_t pos_hash(const PosKey *k) {
    uint64_t z = gstate_hash(&k->s) ^ ((uint64_t)k->depth * 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 31)) * 0xBF58476D1CE4E5B9ULL;
    return z ^ (z >> 29);
}

static int pos_same(const PosKey *a, const PosKey *b) {
    return a->depth == b->depth && gstate_eq(&a->s, &b->s);
}

/* the slots doubled (at least 1024), every position placed again; 0 or -1 with MemoryError */
static int pos_rehash(Positions *P) {
    const size_t size = P->mask ? 2 * (P->mask + 1) : 1024;
    int64_t *slots = gt_calloc(size, sizeof *slots);
    if (!slots) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < P->n; i++) {
        size_t at = pos_hash(&P->keys[i]) & (size - 1);
        while (slots[at])
            at = (at + 1) & (size - 1);
        slots[at] = (int64_t)i + 1;
    }
    gt_free(P->slots);
    P->slots = slots;
    P->mask = size - 1;
    return 0;
}

/* the number of the entry of state s at depth (depth: the node's below a cut, else 0): the
 * next one the first time it is met; -1 with MemoryError */
int64_t pos_number(Positions *P, const GState *s, int64_t depth) {
    if (2 * (P->n + 1) > P->mask + 1 && pos_rehash(P) < 0)
        return -1;
    const PosKey k = {*s, depth};
    size_t at = pos_hash(&k) & P->mask;
    for (int64_t i; (i = P->slots[at]); at = (at + 1) & P->mask)
        if (pos_same(&P->keys[i - 1], &k))
            return i - 1;
    if (ROOM(P->keys, P->n, P->cap) < 0)
        return -1;
    P->keys[P->n] = k;
    P->slots[at] = (int64_t)P->n + 1;
    return (int64_t)P->n++;
}

int64_t pos_key(Positions *P, const ODTree *T, const GState *s, int64_t d, int64_t tag,
                int general, int root_max) {
    const int64_t number = pos_number(P, s, (T->limit >= 0 ? d : 0) | tag << POS_TAG_SHIFT);
    if (number < 0 || general)
        return number;
    return 2 * number + (root_max == (d % 2 == 0));
}

void pos_free(Positions *P) {
    gt_free(P->keys);
    gt_free(P->slots);
}
