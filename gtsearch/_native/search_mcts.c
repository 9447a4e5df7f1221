/* MCTS (UCT) in C: gtsearch.algorithms.mcts.iterate, choice for choice.
 *
 * The same numbers (draw(splitmix64(seed), j), j = 0, 1, ...), drawn at the same places, and
 * the same double arithmetic in the same order as the Python reference, so that both cores
 * make the same choices and back up the same sums (docs/algorithms.md, "Monte Carlo Tree
 * Search").  The search tree is a list of entries (a node, its visits, reward sum and square
 * sum), each node's children side by side; the result hands it back whole with the PV by
 * visits (visit_line), and Python finds the value from them, as it does for its own search.
 * Floating-point contraction (a * b + c fused into one rounding) would make the sums differ
 * from Python's: it is turned off. */
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
#include "core.h"

#include <time.h>

/* A node of the game tree that the search reached: its stats, and its children's entries, a
 * block of nk entries from kids (-1 until the node is first selected).  An entry is in the
 * search tree once its node has been expanded (`in`); the others of a block wait, so that
 * selection reads a node's children side by side instead of looking each one up. */
typedef struct {
    node_t node;
    int64_t n;
    double w;
    int32_t kids;     /* the first entry of its children's block, -1 until made */
    uint32_t nk : 30; /* the size of that block */
    uint32_t in : 1;
    uint32_t leaf : 1; /* the node is a leaf (known from its block, without reading the tree) */
} Entry;

typedef struct {
    Entry *e;
    size_t len, cap;
    int64_t in_tree;
    double *sq; /* the sums of squared rewards of the root (sq[0]) and of its children (1 + i) */
} Entries;

/* Ask for the lines that a walk over the children of a node will read, given its first child
 * c, the second's number next and the node's end stop.  The walk follows the siblings one
 * after another (each END gives the next), and on a large tree each step waits for memory;
 * the next siblings are guessed at the first one's spacing (exact on a uniform tree, a wasted
 * request elsewhere: a prefetch changes no result) and asked for at once.  Children that are
 * leaves lie side by side: their values are asked for with them. */
static inline void prefetch_children(const TreeView *t, node_t c, node_t next, node_t stop) {
#if defined(__GNUC__) || defined(__clang__)
    if (!t->e32)
        return;
    if (next == c + 1) { /* leaves: the values the playout will read, and the ends */
        __builtin_prefetch(t->val + c);
        __builtin_prefetch(t->val + stop - 1);
        __builtin_prefetch(t->e32 + stop - 1);
        return;
    }
    node_t step = next - c;
    for (node_t q = next + step, j = 0; q < stop && j < 16; q += step, j++)
        __builtin_prefetch(t->e32 + q);
#else
    (void)t, (void)c, (void)next, (void)stop;
#endif
}

/* the block of n's children, made on first use: -1 with MemoryError */
static int64_t kids_of(const TreeView *t, Entries *es, int64_t i) {
    if (es->e[i].kids >= 0)
        return es->e[i].kids;
    node_t n = es->e[i].node, stop = END(t, n);
    int64_t first = (int64_t)es->len;
    for (node_t c = n + 1, next; c < stop; c = next) {
        if (ROOM(es->e, es->len, es->cap) < 0)
            return -1;
        next = END(t, c);
        if (c == n + 1)
            prefetch_children(t, c, next, stop);
        Entry fresh = {c, 0, 0.0, -1, 0, 0, next == c + 1};
        es->e[es->len++] = fresh;
    }
    if (es->len > INT32_MAX || es->len - (size_t)first >= (1u << 30)) {
        PyErr_NoMemory(); /* 2**31 entries: 64 GB */
        return -1;
    }
    es->e[i].kids = (int32_t)first;
    es->e[i].nk = (uint32_t)((int64_t)es->len - first);
    if (i == 0 && !(es->sq = gt_calloc(1 + es->e[0].nk, sizeof *es->sq))) {
        PyErr_NoMemory();
        return -1;
    }
    return first;
}

typedef struct {
    const unsigned char *chance; /* 1 at a chance node, or NULL */
    const int64_t *wnodes, *woff; /* the chance nodes with weights (sorted) and their ranges */
    const double *wval;
    Py_ssize_t nw;
    uint64_t key, j; /* the generator: draw(key, j) */
} Draws;

static uint64_t next_draw(Draws *d) { return draw_at(d->key, d->j++); }

/* the weights of chance node n (*k of them), or NULL: its outcomes are equally likely */
static const double *weights_of(const Draws *d, node_t n, Py_ssize_t *k) {
    Py_ssize_t lo = 0, hi = d->nw;
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        if (d->wnodes[mid] < n)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == d->nw || d->wnodes[lo] != n)
        return NULL;
    *k = (Py_ssize_t)(d->woff[lo + 1] - d->woff[lo]);
    return d->wval + d->woff[lo];
}

/* The index of a uniform move among the k children of n, or at a chance node of an outcome
 * by its weights (Numbers.uniform and Numbers.weighted of the reference). */
static int64_t draw_index(Draws *d, node_t n, int64_t k) {
    Py_ssize_t nw = 0;
    const double *w = d->chance && d->chance[n] ? weights_of(d, n, &nw) : NULL;
    if (!w)
        return (int64_t)mulhi(next_draw(d), (uint64_t)k);
    double u = (double)(next_draw(d) >> 11) * 0x1p-53;
    double total = 0.0;
    for (Py_ssize_t i = 0; i < nw; i++)
        total += w[i];
    double tt = u * total, acc = 0.0;
    Py_ssize_t last = -1;
    for (Py_ssize_t i = 0; i < nw; i++) {
        acc += w[i];
        if (w[i] > 0) {
            if (tt < acc)
                return i;
            last = i;
        }
    }
    return last;
}

/* Ask for the lines of the whole playout from m (first child m + 1 ending at first_end, m
 * ending at stop) at once, before it is walked level by level (each level waits for memory
 * on a large tree).  Its moves are drawn ahead from the generator (not consumed: the walk
 * draws them again) and the tree is guessed uniform below m, every level's subtrees the size
 * that m's first child's spacing gives: exact on a uniform tree, elsewhere wasted requests
 * that change no result.  Trees without chance nodes (one uniform draw per move). */
static void prefetch_playout(const TreeView *t, const Draws *d, node_t m, node_t stop,
                             node_t first_end) {
#if defined(__GNUC__) || defined(__clang__)
    node_t size = first_end - (m + 1);
    uint64_t j = d->j;
    for (int level = 0; level < 64 && size >= 1; level++) {
        node_t width = stop - m - 1;
        if (width <= 0 || width % size || stop > t->size)
            return;
        node_t k = width / size;
        for (node_t q = 0; q < k && q < 16; q++) /* the siblings the walk will read */
            __builtin_prefetch(t->e32 + m + 1 + q * size);
        node_t c = m + 1 + (node_t)mulhi(draw_at(d->key, j++), (uint64_t)k) * size;
        if (size == 1) { /* the leaf: its value */
            __builtin_prefetch(t->val + c);
            return;
        }
        m = c;
        stop = c + size;
        size = (size - 1) / k;
    }
#else
    (void)t, (void)d, (void)m, (void)stop, (void)first_end;
#endif
}

typedef struct {
    int64_t iterations, seconds_given, playout_depth;
    double seconds, lo, span, c;
} Limits;

typedef struct {
    int64_t done, playouts, visits;
    node_t cut; /* a node where a playout stopped without a static value, or -1 */
} Counts;

/* One iteration after another, as mcts.iterate runs them; 0, or -1 with an exception set. */
static int run(Search *s, Draws *d, const Limits *lim, Entries *es, Counts *out) {
    const TreeView *t = &s->t;
    int64_t *path = NULL; /* entries from the root */
    node_t *kids = NULL;  /* a playout's node's children */
    double *logs = NULL;  /* logs[n] = log(n) */
    size_t cap = 0, kcap = 0, nlogs = 0, lcap = 0;
    double t0 = monotonic_seconds();
    Entry root = {0, 0, 0.0, -1, 0, 1, IS_LEAF(t, 0)};
    if (ROOM(es->e, es->len, es->cap) < 0)
        return -1;
    es->e[es->len++] = root;
    es->in_tree = 1;
    out->cut = -1;
    while (out->done != lim->iterations) {
        if (out->done && lim->seconds_given && monotonic_seconds() - t0 >= lim->seconds)
            break;
        if (search_tick(s) < 0)
            goto fail;
        size_t len = 0;
        if (ROOM(path, len, cap) < 0)
            goto fail;
        path[len++] = 0;
        int64_t p = 0;
        int is_max = t->root_max;
        /* 1. selection, ended by 2. the expansion of one node (or at a leaf in the tree) */
        while (!es->e[p].leaf) {
            int64_t first = kids_of(t, es, p);
            if (first < 0 || ROOM(path, len, cap) < 0)
                goto fail;
            Entry *e = es->e, *pe = e + p;
            if (d->chance && d->chance[pe->node]) {
                int64_t c = first + draw_index(d, pe->node, pe->nk);
                path[len++] = c;
                if (!e[c].in) {
                    e[c].in = 1;
                    es->in_tree++;
                    break;
                }
                p = c;
                continue;
            }
            int64_t best = -1, expand = -1;
            double best_u = -INF, log_n = 0.0;
            for (int64_t c = first; c < first + pe->nk; c++) {
                if (!e[c].in) {
                    expand = c;
                    break;
                }
                if (c == first) { /* log(n) from a table: the same doubles, computed once */
                    while ((int64_t)nlogs <= pe->n) {
                        if (ROOM(logs, nlogs, lcap) < 0)
                            goto fail;
                        logs[nlogs] = log((double)nlogs);
                        nlogs++;
                    }
                    log_n = logs[pe->n];
                }
#if defined(__GNUC__) || defined(__clang__)
                if (e[c].kids >= 0) /* the next level's block, asked for while UCB1 is computed */
                    __builtin_prefetch(e + e[c].kids);
#endif
                double q = e[c].w / (double)e[c].n;
                if (!is_max)
                    q = 1.0 - q;
                double u = q + lim->c * sqrt(log_n / (double)e[c].n);
                if (u > best_u) {
                    best = c;
                    best_u = u;
                }
            }
            if (expand >= 0) {
                e[expand].in = 1;
                es->in_tree++;
                path[len++] = expand;
                break;
            }
            p = best;
            path[len++] = p;
            is_max = !is_max;
        }
        /* 3. the playout */
        node_t m = es->e[path[len - 1]].node;
        int64_t moves = 0;
        if (!es->e[path[len - 1]].leaf) {
            out->playouts++;
            if (t->e32 && t->val && !d->chance && !IS_LEAF(t, m))
                prefetch_playout(t, d, m, END(t, m), END(t, m + 1));
            while (!IS_LEAF(t, m) && moves != lim->playout_depth) {
                size_t k = 0;
                node_t stop = END(t, m);
                for (node_t c = m + 1, next; c < stop; c = next) {
                    if (ROOM(kids, k, kcap) < 0)
                        goto fail;
                    kids[k++] = c;
                    next = END(t, c);
                    if (k == 1)
                        prefetch_children(t, c, next, stop);
                }
                m = kids[draw_index(d, m, (int64_t)k)];
                moves++;
            }
        }
        double v = VAL(t, m);
        if (IS_LEAF(t, m)) {
            if (nl_push(&s->leaves, m) < 0)
                goto fail;
        } else if (v != v) { /* no static value: Python words the error */
            out->cut = m;
            break;
        }
        double r = 0.5;
        if (lim->span != 0.0) {
            r = (v - lim->lo) / lim->span;
            r = r < 0.0 ? 0.0 : r > 1.0 ? 1.0 : r;
        }
        /* 4. the backup */
        for (size_t i = 0; i < len; i++) {
            Entry *e = es->e + path[i];
            e->n += 1;
            e->w += r;
        }
        if (es->sq) { /* the squares, where the value's standard error may need them */
            es->sq[0] += r * r;
            if (len > 1)
                es->sq[1 + path[1] - es->e[0].kids] += r * r;
        }
        out->visits += (int64_t)len + moves;
        out->done++;
    }
    gt_free(path);
    gt_free(kids);
    gt_free(logs);
    return 0;
fail:
    gt_free(path);
    gt_free(kids);
    gt_free(logs);
    return -1;
}

/* mcts.principal_line(): from the root through decision nodes the most visited child (ties:
 * the leftmost), as entries of es, in *line (malloc'd); 0 or -1 (Python would otherwise look
 * each child up in the search tree it is handed: a sixth of the time of 20,000 iterations) */
static int visit_line(const Entries *es, const Draws *d, int64_t **line, size_t *len) {
    size_t cap = 0;
    int64_t i = 0;
    *len = 0;
    for (;;) {
        if (ROOM(*line, *len, cap) < 0)
            return -1;
        (*line)[(*len)++] = i;
        const Entry *e = es->e + i;
        if (e->leaf || (d->chance && d->chance[e->node]) || e->kids < 0)
            return 0;
        int64_t best = -1, most = 0;
        for (int64_t c = e->kids; c < e->kids + e->nk; c++)
            if (es->e[c].in && es->e[c].n > most) {
                best = c;
                most = es->e[c].n;
            }
        if (best < 0)
            return 0;
        i = best;
    }
}

/* (nodes, visits, sums, squares) of the search tree, in the order the nodes were reached (a
 * node's children side by side); the squares of the root and its children only, NaN below.
 * The line's entries (line, len) become their rows in those arrays. */
static PyObject *tree_arrays(const Entries *es, int64_t *line, size_t len) {
    size_t k = es->in_tree ? (size_t)es->in_tree : 1;
    /* one block for the four columns: nodes, visits (int64), sums, squares (double) */
    int64_t *nodes = gt_malloc(k * (2 * sizeof(int64_t) + 2 * sizeof(double)));
    if (!nodes)
        return PyErr_NoMemory();
    int64_t *visits = nodes + k;
    double *sums = (double *)(visits + k), *squares = sums + k;
    int64_t kids = es->e[0].kids, nk = es->e[0].nk;
    k = 0;
    size_t j = 0; /* the line's entries come in increasing order: a block after its parent */
    for (size_t i = 0; i < es->len; i++) {
        const Entry *e = es->e + i;
        if (!e->in)
            continue;
        if (j < len && line[j] == (int64_t)i)
            line[j++] = -1 - (int64_t)k; /* marked: a row, not an entry any more */
        nodes[k] = e->node;
        visits[k] = e->n;
        sums[k] = e->w;
        squares[k] = NAN;
        if (es->sq && i == 0)
            squares[k] = es->sq[0];
        else if (es->sq && (int64_t)i >= kids && (int64_t)i < kids + nk)
            squares[k] = es->sq[1 + (int64_t)i - kids];
        k++;
    }
    /* one array at a time: a failed one stops the rest (no call with an exception set) */
    PyObject *result = PyTuple_New(4);
    const char *codes[4] = {"q", "q", "d", "d"};
    const void *columns[4] = {nodes, visits, sums, squares};
    const size_t items[4] = {sizeof *nodes, sizeof *visits, sizeof *sums, sizeof *squares};
    for (Py_ssize_t i = 0; result && i < 4; i++) {
        PyObject *column = make_array(codes[i], columns[i], k * items[i]);
        if (!column)
            Py_CLEAR(result);
        else
            PyTuple_SET_ITEM(result, i, column);
    }
    gt_free(nodes);
    return result;
}

PyObject *gt_mcts(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *end, *values, *chance, *wnodes, *woff, *wval, *progress;
    int root_max;
    Limits lim;
    unsigned long long seed;
    long long iterations, playout_depth;
    if (!PyArg_ParseTuple(args, "OOpOOOOddLdKdLO", &end, &values, &root_max, &chance, &wnodes,
                          &woff, &wval, &lim.lo, &lim.span, &iterations, &lim.seconds, &seed,
                          &lim.c, &playout_depth, &progress))
        return NULL;
    lim.iterations = iterations;
    lim.seconds_given = lim.seconds >= 0.0;
    lim.playout_depth = playout_depth;
    Py_buffer cv = {0}, nv = {0}, ov = {0}, vv = {0};
    Search s;
    memset(&s, 0, sizeof s);
    Entries es = {NULL, 0, 0, 0, NULL};
    PyObject *result = NULL, *arrays = NULL;
    if (PyObject_GetBuffer(wnodes, &nv, PyBUF_SIMPLE) < 0 ||
        PyObject_GetBuffer(woff, &ov, PyBUF_SIMPLE) < 0 ||
        PyObject_GetBuffer(wval, &vv, PyBUF_SIMPLE) < 0 ||
        (chance != Py_None && PyObject_GetBuffer(chance, &cv, PyBUF_SIMPLE) < 0))
        goto release;
    if (tree_open(&s.t, end, values, root_max) < 0)
        goto release;
    if (cv.obj && cv.len != (Py_ssize_t)s.t.size) {
        PyErr_SetString(PyExc_ValueError, "chance must have a byte per node");
        goto close;
    }
    if (tick_open(&s.tk, progress) < 0)
        goto close;
    nl_init(&s.leaves, s.t.size > INT32_MAX);
    Draws d = {cv.obj ? (const unsigned char *)cv.buf : NULL,
               (const int64_t *)nv.buf,
               (const int64_t *)ov.buf,
               (const double *)vv.buf,
               nv.len / (Py_ssize_t)sizeof(int64_t),
               sm64(seed),
               0};
    Counts counts = {0, 0, 0, -1};
    int64_t *line = NULL;
    size_t distinct = 0, len = 0;
    if (run(&s, &d, &lim, &es, &counts) == 0 && nl_distinct(&s.leaves, &distinct) == 0 &&
        visit_line(&es, &d, &line, &len) == 0) {
        /* the line's nodes, and their rows in the arrays (tree_arrays marks them -1 - row) */
        int64_t *rows = gt_malloc(2 * len * sizeof *rows);
        if (!rows) {
            PyErr_NoMemory();
        } else {
            for (size_t j = 0; j < len; j++)
                rows[len + j] = es.e[line[j]].node;
            if ((arrays = tree_arrays(&es, line, len)) != NULL) {
                for (size_t j = 0; j < len; j++)
                    rows[j] = -1 - line[j];
                PyObject *leaves = nl_to_array(&s.leaves), *nodes = NULL, *at = NULL;
                if (leaves)
                    nodes = line_to_list(rows + len, len);
                if (nodes)
                    at = line_to_list(rows, len);
                if (at)
                    result = Py_BuildValue(
                        "(OOOONLLLLLNN)", PyTuple_GET_ITEM(arrays, 0), PyTuple_GET_ITEM(arrays, 1),
                        PyTuple_GET_ITEM(arrays, 2), PyTuple_GET_ITEM(arrays, 3), leaves,
                        (long long)counts.done, (long long)counts.playouts,
                        (long long)counts.visits, (long long)counts.cut, (long long)distinct,
                        nodes, at);
                else {
                    Py_XDECREF(leaves);
                    Py_XDECREF(nodes);
                }
                Py_DECREF(arrays);
            }
            gt_free(rows);
        }
    }
    gt_free(line);
    gt_free(es.e);
    gt_free(es.sq);
    nl_free(&s.leaves);
    tick_close(&s.tk);
close:
    tree_close(&s.t);
release:
    if (nv.obj)
        PyBuffer_Release(&nv);
    if (ov.obj)
        PyBuffer_Release(&ov);
    if (vv.obj)
        PyBuffer_Release(&vv);
    if (cv.obj)
        PyBuffer_Release(&cv);
    return result;
}
