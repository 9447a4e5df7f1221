/* A game's tree read from the graph of its entries, without writing the tree out.
 *
 * gtsearch.sources.games counts every distinct entry of a game once and keeps the graph of
 * them: for entry s, its children's numbers kids[first[s]:first[s+1]] in the order of its
 * moves, its subtree's size sizes[s] and its value values[s].  The tree those entries stand
 * for is numbered in preorder: the root, entry `root`, is node 0, and child j of a node m of
 * entry s is node m + 1 + the sizes of the children before it.  expand_states (game_source.c)
 * writes that tree out into flat arrays; the Graph here answers end[n], values[n] and n's
 * position (the transposition table's key) on demand, through a cursor that keeps its last
 * path, as random_source.c does for random: sources and GameTree.locate does in Python: a
 * depth-first walk moves one step at a time, and tic-tac-toe's 549,946 nodes are never
 * written (5,478 entries are read instead).
 *
 * Every array is checked first (graph_check: numbers in range, every size 1 + its children's
 * sizes), so the cursor stays inside the arrays; a child's size is less than its parent's, so
 * a path has at most min(entries, the root's size) nodes, and the path is allocated once. */
#include "core.h"

const char *graph_check(const int64_t *first, int64_t n_states, const int64_t *kids,
                        int64_t n_kids, const int64_t *sizes, int64_t limit, int64_t *offs) {
    if (first[0] != 0 || first[n_states] != n_kids)
        return "the arrays do not fit one another";
    for (int64_t s = 0; s < n_states; s++) {
        if (first[s + 1] < first[s] || sizes[s] < 1 || sizes[s] > limit)
            return "a state's children or size are out of range";
        int64_t total = 1;
        for (int64_t j = first[s]; j < first[s + 1]; j++) {
            int64_t k = kids[j];
            if (k < 0 || k >= n_states || sizes[k] > limit - total)
                return "a child's number or size is out of range";
            if (offs)
                offs[j] = total;
            total += sizes[k];
        }
        if (total != sizes[s])
            return "a state's size is not 1 + its children's sizes";
    }
    return NULL;
}

struct Graph {
    Py_buffer fv, kv, sv, vv, pv, counter;
    const int64_t *first, *kids, *sizes, *pos; /* pos NULL: an entry's position is its number */
    const double *vals;
    int64_t *offs;          /* offs[j]: child slot j's node, counted from its parent's */
    int parity;             /* -1: the position as it is; 0 or 1: root_max (2 pos + 1 at MAX) */
    int64_t k;              /* the depth of the path's last node */
    int64_t *nodes, *ents;  /* the path: each depth's node and entry */
    int64_t visited, most;
    int open; /* opened: its visits are written back to the counter when it is freed */
};

static void release(Py_buffer *b) {
    if (b->obj)
        PyBuffer_Release(b);
}

void graph_free(Graph *g) {
    if (!g)
        return;
    virt_over = 0; /* the next search, of any tree, starts afresh */
    if (g->open)
        ((int64_t *)g->counter.buf)[0] = g->visited;
    release(&g->fv);
    release(&g->kv);
    release(&g->sv);
    release(&g->vv);
    release(&g->pv);
    release(&g->counter);
    gt_free(g->offs);
    gt_free(g->nodes);
    gt_free(g->ents);
    gt_free(g);
}

/* obj as an array of typecode fmt (borrow_array()), with the graph's own message */
static int borrow(PyObject *obj, Py_buffer *view, const char *fmt, int writable) {
    return borrow_array(obj, view, fmt, writable, "a game's graph: an array('%s') expected");
}

Graph *graph_open(PyObject *spec, node_t *size) {
    PyObject *tag, *first, *kids, *sizes, *values, *pos, *counter;
    long long root;
    int parity;
    if (!PyArg_ParseTuple(spec, "UOOOOOLiO", &tag, &first, &kids, &sizes, &values, &pos, &root,
                          &parity, &counter))
        return NULL;
    Graph *g = gt_calloc(1, sizeof *g);
    if (!g) {
        PyErr_NoMemory();
        return NULL;
    }
    if (borrow(first, &g->fv, "q", 0) < 0 || borrow(kids, &g->kv, "q", 0) < 0 ||
        borrow(sizes, &g->sv, "q", 0) < 0 || borrow(values, &g->vv, "d", 0) < 0 ||
        (pos != Py_None && borrow(pos, &g->pv, "q", 0) < 0) ||
        borrow(counter, &g->counter, "q", 1) < 0) {
        graph_free(g);
        return NULL;
    }
    const int64_t n_states = (int64_t)(g->sv.len / 8), n_kids = (int64_t)(g->kv.len / 8);
    g->first = g->fv.buf, g->kids = g->kv.buf, g->sizes = g->sv.buf, g->vals = g->vv.buf;
    g->pos = pos == Py_None ? NULL : g->pv.buf;
    g->parity = parity;
    const char *bad = NULL;
    if (g->fv.len / 8 != n_states + 1 || g->vv.len / 8 != n_states ||
        (g->pos && g->pv.len / 8 != n_states) || g->counter.len != 16 || root < 0 ||
        root >= n_states || parity < -1 || parity > 1)
        bad = "the arrays do not fit one another";
    else {
        g->offs = gt_malloc((size_t)(n_kids ? n_kids : 1) * sizeof *g->offs);
        if (!g->offs) {
            PyErr_NoMemory();
            graph_free(g);
            return NULL;
        }
        bad = graph_check(g->first, n_states, g->kids, n_kids, g->sizes, INT64_MAX / 2, g->offs);
    }
    if (bad) {
        PyErr_Format(PyExc_ValueError, "a game's graph: %s", bad);
        graph_free(g);
        return NULL;
    }
    const int64_t levels = g->sizes[root] < n_states ? g->sizes[root] : n_states;
    g->nodes = gt_malloc((size_t)levels * sizeof *g->nodes);
    g->ents = gt_malloc((size_t)levels * sizeof *g->ents);
    if (!g->nodes || !g->ents) {
        PyErr_NoMemory();
        graph_free(g);
        return NULL;
    }
    g->nodes[0] = 0;
    g->ents[0] = root;
    g->visited = ((int64_t *)g->counter.buf)[0];
    g->most = ((int64_t *)g->counter.buf)[1];
    virt_over = 0;
    g->open = 1;
    *size = g->sizes[root];
    return g;
}

/* the path moved to node n (a node of the tree), as GameTree.locate moves it; n's depth */
static inline int64_t locate(Graph *g, node_t n) {
    int64_t k = g->k;
    if (g->nodes[k] == n)
        return k;
    const int64_t *sizes = g->sizes;
    while (k && !(g->nodes[k] <= n && n < g->nodes[k] + sizes[g->ents[k]]))
        k--;
    while (g->nodes[k] != n) {
        const int64_t m = g->nodes[k], off = n - m, *offs = g->offs;
        /* the last child whose offset is at most off (the first child's is 1 <= off) */
        int64_t lo = g->first[g->ents[k]], hi = g->first[g->ents[k] + 1] - 1;
        while (lo < hi) {
            int64_t mid = lo + (hi - lo + 1) / 2;
            if (offs[mid] <= off)
                lo = mid;
            else
                hi = mid - 1;
        }
        if (++g->visited > g->most)
            virt_over = 1;
        k++;
        g->nodes[k] = m + offs[lo];
        g->ents[k] = g->kids[lo];
    }
    g->k = k;
    return k;
}

node_t graph_end(Graph *g, node_t n) { return n + g->sizes[g->ents[locate(g, n)]]; }

double graph_val(Graph *g, node_t n) { return g->vals[g->ents[locate(g, n)]]; }

int64_t graph_key(Graph *g, node_t n) {
    const int64_t k = locate(g, n), s = g->ents[k], p = g->pos ? g->pos[s] : s;
    return g->parity < 0 ? p : 2 * p + (g->parity == (k % 2 == 0));
}
