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
 * inner node, else 0 with its value in *v (GameTree._value: the utility where the game ends,
 * the estimate at the cut) */
int od_open(const ODTree *T, const GState *s, int64_t d, int *moves, int *count,
                   double *v) {
    const GameRules *r = T->g.rules;
    if (r->kind(&T->g, s) == GAME_END) {
        *v = r->utility(&T->g, s);
        return 0;
    }
    if (T->limit >= 0 && d >= T->limit) {
        *v = r->estimate(&T->g, s);
        return 0;
    }
    *count = r->moves(&T->g, s, moves);
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
    if (ROOM(F.p, F.len, F.cap) < 0)
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

/* (m, line, leaves, nodes, first, up, depth) from a finished search */
static PyObject *od_result(const ODTree *T, double m, const int64_t *line, size_t line_len,
                           const NodeList *leaves, int64_t nodes) {
    const size_t fresh = T->n - T->n0;
    return Py_BuildValue("(dNNLNNN)", m, line_to_list(line, line_len), nl_to_array(leaves),
                         (long long)nodes, make_array("q", T->first, T->n * sizeof *T->first),
                         make_array("q", T->up, fresh * sizeof *T->up),
                         make_array("q", T->depth, fresh * sizeof *T->depth));
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
    ODTree T;
    memset(&T, 0, sizeof T);
    const int found = od_game(&T.g, name, params);
    if (found <= 0) {
        if (found < 0)
            return NULL;
        Py_RETURN_NONE;
    }
    if (limit >= 0 && !T.g.rules->estimate)
        Py_RETURN_NONE; /* Python's game has no estimate either, and refuses --depth */
    GState root;
    memset(&root, 0, sizeof root);
    PyObject *seq = PySequence_Fast(words, "game_negamax: words must be a sequence");
    if (!seq)
        return NULL;
    const Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < k && i < GSTATE_WORDS; i++) {
        root.w[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (root.w[i] == (uint64_t)-1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
    }
    Py_DECREF(seq);
    Py_buffer fv;
    if (borrow_array(first_obj, &fv, "q", 0, "game_negamax: first must be an array of typecode %s") <
        0)
        return NULL;
    T.limit = limit;
    T.max_nodes = max_nodes;
    T.n = T.n0 = (size_t)(fv.len / 8);
    PyObject *result = NULL;
    Ticker tk;
    NodeList leaves;
    PairLog best = {NULL, 0, 0};
    int64_t *line = NULL;
    size_t line_len = 0;
    nl_init(&leaves, max_nodes > INT32_MAX);
    if (tick_open(&tk, progress) < 0) {
        PyBuffer_Release(&fv);
        return NULL;
    }
    if (T.n0 == 0) {
        PyErr_SetString(PyExc_ValueError, "game_negamax: first holds no root");
        goto out;
    }
    if (reserve(&T.first, &T.cap, T.n, sizeof *T.first) < 0)
        goto out;
    memcpy(T.first, fv.buf, T.n * sizeof *T.first);
    double m;
    int64_t nodes;
    if (od_negamax(&T, &tk, &leaves, &best, &root, &P, &m, &nodes) < 0)
        goto out;
    BestScan scan = {&best, best.len};
    if (pv_walk(best_child, &scan, P.root_max, &line, &line_len) < 0)
        goto out;
    result = od_result(&T, m, line, line_len, &leaves, nodes);
out:
    gt_free(line);
    gt_free(best.p);
    gt_free(T.first);
    gt_free(T.up);
    gt_free(T.depth);
    nl_free(&leaves);
    tick_close(&tk);
    PyBuffer_Release(&fv);
    return result;
}
