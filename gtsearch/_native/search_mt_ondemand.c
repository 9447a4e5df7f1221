/* The MT family with MT's own table (mt-sss, mt-dual, mtdf) on a game's tree on demand over
 * its C rules (game.h): gtsearch.algorithms.mt.mtd with MTSearch.test and _met_pass, step for
 * step, and the PV as pv._met_principal_variation finds it from the evaluated leaves.
 *
 * The nodes are numbered as OnDemandTree numbers them (game_tree.h's ODTree: a node's children
 * take the next free numbers the first time a pass descends into it).  MT's own table is keyed
 * by node (NodeMemory: [lower, upper] in MAX's terms, never forgotten), so `nodes` is its size.
 * A state is kept only on the path of the pass: one frame a level, the node, its state and
 * moves.  Each step of a pass (a child probed, or a node finished) makes the room it may need
 * before it starts, so that a step cannot fail half-way.
 */
#include "game_tree.h"

/* a frame of a pass: node n, its state and moves, the next child's index, g so far; `done`
 * once g decided the node (Python's c = stop) */
typedef struct {
    GState st;
    node_t n;
    double g;
    int count, i, is_max, done;
    int moves[GAME_MAX_MOVES];
} MFrame;

typedef struct {
    double lo, hi;
} Bounds;

typedef struct {
    ODTree T;
    Ticker tk;
    NodeList leaves;
    MFrame *P; /* the path: P[d] the node at depth d */
    size_t len, cap;
    Map memory; /* node -> Bounds (NodeMemory) */
    int root_max;
    int64_t passes;
} MSearch;

/* room for one step: a frame, a leaf, an entry of the table */
static int step_room(MSearch *S) {
    if (ROOM(S->P, S->len, S->cap) < 0 || (S->leaves.len == S->leaves.cap && nl_grow(&S->leaves) < 0))
        return -1;
    while (2 * (S->memory.len + 1) > S->memory.cap)
        if (map_grow(&S->memory) < 0)
            return -1;
    return 0;
}

/* NodeMemory.prove: node n's value lies in [lo, hi] (room made by step_room()) */
static void prove(MSearch *S, node_t n, double lo, double hi) {
    int fresh;
    Bounds *e = map_put(&S->memory, n, &fresh);
    if (fresh) {
        e->lo = -INF;
        e->hi = INF;
    }
    if (lo > e->lo)
        e->lo = lo;
    if (hi < e->hi)
        e->hi = hi;
}

static inline int passes(double g, double gamma, int strict) {
    return strict ? g > gamma : g >= gamma;
}

/* the frame of node n (state already in g->st) at depth d, its children listed; -1 with an
 * exception (VisitLimit, MemoryError) */
static int enter(MSearch *S, MFrame *g, node_t n, int64_t d) {
    g->n = n;
    g->i = 0;
    g->done = 0;
    g->g = g->is_max ? -INF : INF;
    return od_list(&S->T, n, d, g->count) < 0 ? -1 : 0;
}

/* MTSearch.test(gamma, strict): one pass from the root, its g in *out */
static int mt_pass(MSearch *S, double gamma, int strict, double *out) {
    S->passes++;
    S->len = 1;
    MFrame *f = &S->P[0];
    /* probe(0): the root as the table knows it, or a leaf evaluated */
    const Bounds *e = map_get(&S->memory, 0);
    if (e) {
        if (passes(e->lo, gamma, strict) || !passes(e->hi, gamma, strict)) {
            *out = passes(e->lo, gamma, strict) ? e->lo : e->hi;
            return 0;
        }
    } else {
        double v;
        if (!od_open(&S->T, &f->st, 0, f->moves, &f->count, &v)) {
            nl_push(&S->leaves, 0); /* room: the entry's step_room() */
            prove(S, 0, v, v);
            *out = v;
            return 0;
        }
    }
    f->is_max = S->root_max;
    if (enter(S, f, 0, 0) < 0)
        return -1;
    for (;;) {
        if (tick(&S->tk, (int64_t)S->leaves.len) < 0 || step_room(S) < 0)
            return -1;
        f = &S->P[S->len - 1];
        if (!f->done && f->i < f->count) { /* probe the next child */
            const node_t c = S->T.first[f->n] + f->i;
            const Bounds *b = map_get(&S->memory, c);
            double t;
            if (!b || !(passes(b->lo, gamma, strict) || !passes(b->hi, gamma, strict))) {
                MFrame *g = &S->P[S->len];
                double v;
                S->T.g.rules->play(&S->T.g, &f->st, f->moves[f->i], &g->st);
                if (od_open(&S->T, &g->st, (int64_t)S->len, g->moves, &g->count, &v)) {
                    /* not answered: searched in a frame of its own */
                    g->is_max = !f->is_max;
                    if (enter(S, g, c, (int64_t)S->len) < 0)
                        return -1;
                    S->len++;
                    continue;
                }
                nl_push(&S->leaves, c); /* a leaf (never in the table yet): evaluated */
                prove(S, c, v, v);
                t = v;
            } else {
                t = passes(b->lo, gamma, strict) ? b->lo : b->hi;
            }
            if (f->is_max ? t > f->g : t < f->g)
                f->g = t;
            if (f->is_max == passes(f->g, gamma, strict))
                f->done = 1;
            else
                f->i++;
            continue;
        }
        /* node f->n is finished with g: remember the bound it proved */
        const double g = f->g;
        if (passes(g, gamma, strict))
            prove(S, f->n, g, INF);
        else
            prove(S, f->n, -INF, g);
        if (S->len == 1) {
            *out = g;
            return 0;
        }
        f = &S->P[--S->len - 1];
        if (f->is_max ? g > f->g : g < f->g)
            f->g = g;
        if (f->is_max == passes(f->g, gamma, strict))
            f->done = 1;
        else
            f->i++;
    }
}

/* mtd(first): passes until the bounds meet; the value in *out */
static int mtd(MSearch *S, double first, double *out) {
    double lower = -INF, upper = INF, g = first;
    while (lower < upper) {
        const double gamma = g;
        const int strict = gamma == lower;
        if (mt_pass(S, gamma, strict, &g) < 0)
            return -1;
        if (passes(g, gamma, strict))
            lower = g;
        else
            upper = g;
    }
    *out = lower;
    return 0;
}

/* -- the PV ------------------------------------------------------------------------------------ */
/* the bounds [lo, hi] the evaluated leaves give each node (pv.on_demand_ranges: (-inf, inf)
 * where none lies below), found once a node over the listed tree, the rules playing its
 * states down */
typedef struct {
    const unsigned char *evaluated; /* a bit per node */
    unsigned char *known;           /* a node's bounds found */
    double *lo, *hi;
} Ranges;

typedef struct {
    GState st;
    node_t n;
    double lo, hi;
    int count, i, is_max;
    int moves[GAME_MAX_MOVES];
} RFrame;

/* the bounds of child i of the current node (S->P[S->len - 1]) into R's arrays */
static int ranges(MSearch *S, Ranges *R, int child) {
    struct {
        RFrame *p;
        size_t len, cap;
    } F = {NULL, 0, 0};
    const MFrame *top = &S->P[S->len - 1];
    const int64_t d0 = (int64_t)S->len;
    GState s;
    S->T.g.rules->play(&S->T.g, &top->st, top->moves[child], &s);
    node_t n = S->T.first[top->n] + child;
    double lo, hi;
    for (;;) {
        if (tick(&S->tk, (int64_t)S->leaves.len) < 0) {
            gt_free(F.p);
            return -1;
        }
        int count;
        double x;
        int moves[GAME_MAX_MOVES];
        const int64_t d = d0 + (int64_t)F.len;
        if (R->known[n]) {
            lo = R->lo[n];
            hi = R->hi[n];
        } else if (!od_open(&S->T, &s, d, moves, &count, &x)) {
            const int ev = R->evaluated[n >> 3] >> (n & 7) & 1;
            lo = ev ? x : -INF;
            hi = ev ? x : INF;
        } else if (S->T.first[n] < 0) { /* never listed: no evaluated leaf below */
            lo = -INF;
            hi = INF;
        } else {
            if (ROOM(F.p, F.len, F.cap) < 0) {
                gt_free(F.p);
                return -1;
            }
            RFrame *g = &F.p[F.len++];
            g->st = s;
            g->n = n;
            g->count = count;
            g->i = 0;
            memcpy(g->moves, moves, (size_t)count * sizeof *moves);
            g->is_max = S->root_max == (d % 2 == 0);
            g->lo = g->hi = g->is_max ? -INF : INF;
            S->T.g.rules->play(&S->T.g, &g->st, g->moves[0], &s);
            n = S->T.first[g->n];
            continue;
        }
        R->known[n] = 1;
        R->lo[n] = lo;
        R->hi[n] = hi;
        /* hand the bounds up: the parent takes them, and is finished after its last child */
        for (;;) {
            if (!F.len) {
                gt_free(F.p);
                return 0;
            }
            RFrame *g = &F.p[F.len - 1];
            if (g->is_max ? lo > g->lo : lo < g->lo)
                g->lo = lo;
            if (g->is_max ? hi > g->hi : hi < g->hi)
                g->hi = hi;
            if (++g->i < g->count) {
                S->T.g.rules->play(&S->T.g, &g->st, g->moves[g->i], &s);
                n = S->T.first[g->n] + g->i;
                break;
            }
            lo = g->lo;
            hi = g->hi;
            R->known[g->n] = 1;
            R->lo[g->n] = lo;
            R->hi[g->n] = hi;
            F.len--;
        }
    }
}

/* pv._walk_down for an exact value v: from the root, at a MAX node the first child with lo = v,
 * at a MIN node the first with hi = v (the last child when none is: Python's loop ends there) */
static int walk_down(MSearch *S, double v, int64_t **line, size_t *line_len) {
    size_t cap = 0;
    int rc = -1;
    const size_t nodes = S->T.n;
    Ranges R = {gt_calloc(nodes / 8 + 1, 1), gt_calloc(nodes, 1),
                gt_malloc(nodes * sizeof(double)), gt_malloc(nodes * sizeof(double))};
    *line = NULL;
    *line_len = 0;
    if (!R.evaluated || !R.known || !R.lo || !R.hi) {
        PyErr_NoMemory();
        goto out;
    }
    unsigned char *ev = (unsigned char *)R.evaluated;
    for (size_t i = 0; i < S->leaves.len; i++) {
        const node_t k = nl_get(&S->leaves, i);
        ev[k >> 3] |= (unsigned char)(1u << (k & 7));
    }
    S->len = 1;
    for (;;) {
        if (ROOM(*line, *line_len, cap) < 0)
            goto out;
        MFrame *f = &S->P[S->len - 1];
        (*line)[(*line_len)++] = f->n;
        double x;
        if (!od_open(&S->T, &f->st, (int64_t)S->len - 1, f->moves, &f->count, &x))
            break;
        const int is_max = S->root_max == ((S->len - 1) % 2 == 0);
        int c = 0;
        for (; c + 1 < f->count; c++) {
            if (ranges(S, &R, c) < 0)
                goto out;
            const node_t k = S->T.first[f->n] + c;
            if ((is_max ? R.lo[k] : R.hi[k]) == v)
                break;
        }
        /* the next frame: the room is there (the passes stood one level below this node) */
        MFrame *g = &S->P[S->len];
        S->T.g.rules->play(&S->T.g, &f->st, f->moves[c], &g->st);
        g->n = S->T.first[f->n] + c;
        S->len++;
    }
    rc = 0;
out:
    gt_free((void *)R.evaluated);
    gt_free(R.known);
    gt_free(R.lo);
    gt_free(R.hi);
    if (rc < 0) {
        gt_free(*line);
        *line = NULL;
    }
    return rc;
}

/* -- the module function ---------------------------------------------------------------------- */
/* game_mtd(name, params, words, root_max, limit, max_nodes, first, first_guess, progress) ->
 * (value, line, leaves, nodes, passes, first, up, depth), or None when the core has no rules
 * `name` that hold `params` */
PyObject *gt_game_mtd(PyObject *self, PyObject *args) {
    (void)self;
    const char *name;
    PyObject *params, *words, *first_obj, *progress;
    long long limit, max_nodes;
    double guess;
    int root_max;
    if (!PyArg_ParseTuple(args, "sOOpLLOdO", &name, &params, &words, &root_max, &limit,
                          &max_nodes, &first_obj, &guess, &progress))
        return NULL;
    MSearch S;
    memset(&S, 0, sizeof S);
    S.root_max = root_max;
    const int found = od_game(&S.T.g, name, params);
    if (found <= 0) {
        if (found < 0)
            return NULL;
        Py_RETURN_NONE;
    }
    if (limit >= 0 && !S.T.g.rules->estimate)
        Py_RETURN_NONE; /* Python's game has no estimate either, and refuses --depth */
    GState root;
    if (od_root_state(words, &root) < 0)
        return NULL;
    Py_buffer fv;
    if (borrow_array(first_obj, &fv, "q", 0, "game_mtd: first must be an array of typecode %s") <
        0)
        return NULL;
    PyObject *result = NULL;
    int64_t *line = NULL;
    size_t line_len = 0;
    S.T.limit = limit;
    S.T.max_nodes = max_nodes;
    S.T.n = S.T.n0 = (size_t)(fv.len / 8);
    nl_init(&S.leaves, max_nodes > INT32_MAX);
    if (tick_open(&S.tk, progress) < 0)
        goto release;
    if (S.T.n0 == 0) {
        PyErr_SetString(PyExc_ValueError, "game_mtd: first holds no root");
        goto out;
    }
    S.T.cap = S.T.n;
    S.T.first = gt_malloc(S.T.n * sizeof *S.T.first);
    if (!S.T.first) {
        PyErr_NoMemory();
        goto out;
    }
    memcpy(S.T.first, fv.buf, S.T.n * sizeof *S.T.first);
    if (map_init(&S.memory, sizeof(Bounds)) < 0 || step_room(&S) < 0)
        goto out;
    S.P[0].st = root;
    S.P[0].n = 0;
    S.len = 1;
    double value;
    if (mtd(&S, guess, &value) < 0 || walk_down(&S, value, &line, &line_len) < 0)
        goto out;
    const size_t fresh = S.T.n - S.T.n0;
    /* each object made after the one before it succeeded (none is made with an error set) */
    PyObject *parts[5] = {NULL, NULL, NULL, NULL, NULL};
    if ((parts[0] = line_to_list(line, line_len)) && (parts[1] = nl_to_array(&S.leaves)) &&
        (parts[2] = make_array("q", S.T.first, S.T.n * sizeof *S.T.first)) &&
        (parts[3] = make_array("q", S.T.up, fresh * sizeof *S.T.up)) &&
        (parts[4] = make_array("q", S.T.depth, fresh * sizeof *S.T.depth)))
        result = Py_BuildValue("(dOOLLOOO)", value, parts[0], parts[1], (long long)S.memory.len,
                               (long long)S.passes, parts[2], parts[3], parts[4]);
    for (int i = 0; i < 5; i++)
        Py_XDECREF(parts[i]);
out:
    tick_close(&S.tk);
release:
    gt_free(line);
    gt_free(S.T.first);
    gt_free(S.T.up);
    gt_free(S.T.depth);
    gt_free(S.P);
    map_free(&S.memory);
    nl_free(&S.leaves);
    PyBuffer_Release(&fv);
    return result;
}
