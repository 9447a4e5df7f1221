/* game: sources built whole: the tree of a game's distinct states, written out in preorder.
 *
 * gtsearch.sources.games counts every distinct state's subtree once (a memo over the
 * states) and hands over the graph of the states: for state s, its children's state
 * numbers kids[first[s]:first[s+1]] in the order of its moves, its subtree's size sizes[s]
 * and its value values[s] (the utility at the end of the game, the estimate or NaN
 * elsewhere).  This writes the game tree those states stand for, in preorder, into the
 * flat arrays (end, values): the same tree the lazy GameTree computes node by node.  The
 * graph is checked first (every number in range, every size 1 + its children's sizes, so
 * the walk ends and stays inside the arrays); a graph that fails raises ValueError.
 * Given `positions` (a number per state: GameTree.position_keys), it also writes each node's
 * position, the transposition tables' key: the state's number, or, with `root_max` 0 or 1 (a
 * game whose state does not say who moves), twice it plus 1 where MAX moves. */
#include "core.h"

typedef struct {
    int64_t state, node, depth;
} Todo;

static int view_of(PyObject *obj, Py_buffer *view, const char *fmt) {
    return borrow_array(obj, view, fmt, 0,
                        "expand_states: arrays of typecodes q, q, q and d expected");
}

/* expand_states(first, kids, sizes, values, root, wide) -> (end, values); with values None,
 * expand_states(first, kids, sizes, None, root, wide, positions, root_max) -> keys */
PyObject *gt_expand_states(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *first_obj, *kids_obj, *sizes_obj, *values_obj;
    long long root;
    PyObject *pos_obj = Py_None;
    int wide, root_max = -1;
    if (!PyArg_ParseTuple(args, "OOOOLp|Oi", &first_obj, &kids_obj, &sizes_obj, &values_obj, &root,
                          &wide, &pos_obj, &root_max))
        return NULL;
    Py_buffer fv, kv, sv, vv;
    if (view_of(first_obj, &fv, "q") < 0)
        return NULL;
    if (view_of(kids_obj, &kv, "q") < 0) {
        PyBuffer_Release(&fv);
        return NULL;
    }
    if (view_of(sizes_obj, &sv, "q") < 0) {
        PyBuffer_Release(&fv);
        PyBuffer_Release(&kv);
        return NULL;
    }
    /* the values, or (values None) the positions */
    const int keys_only = values_obj == Py_None;
    if (keys_only ? view_of(pos_obj, &vv, "q") : view_of(values_obj, &vv, "d")) {
        PyBuffer_Release(&fv);
        PyBuffer_Release(&kv);
        PyBuffer_Release(&sv);
        return NULL;
    }
    const int64_t *first = fv.buf, *kids = kv.buf, *sizes = sv.buf;
    const int64_t *pos = keys_only ? vv.buf : NULL;
    const double *vals = keys_only ? NULL : vv.buf;
    const int64_t n_states = (int64_t)(sv.len / 8), n_kids = (int64_t)(kv.len / 8);
    const int64_t limit = wide ? INT64_MAX / 2 : INT32_MAX;
    PyObject *result = NULL;
    void *end = NULL;
    double *out = NULL;
    int64_t *keys = NULL;
    Todo *stack = NULL;
    const char *bad = NULL;
    Ticker tk;
    memset(&tk, 0, sizeof tk);

    /* the graph, checked: then every walk below stays inside the arrays and ends */
    if (fv.len / 8 != n_states + 1 || vv.len / 8 != n_states || root < 0 || root >= n_states)
        bad = "the arrays do not fit one another";
    else
        bad = graph_check(first, n_states, kids, n_kids, sizes, limit, NULL);
    if (bad) {
        PyErr_Format(PyExc_ValueError, "expand_states: %s", bad);
        goto done;
    }

    const int64_t size = sizes[root];
    if (keys_only)
        keys = gt_malloc((size_t)size * sizeof *keys);
    else {
        end = gt_malloc((size_t)size * (wide ? 8 : 4));
        out = gt_malloc((size_t)size * sizeof *out);
    }
    size_t cap = 64, top = 0;
    stack = gt_malloc(cap * sizeof *stack);
    if (!(keys || (end && out)) || !stack) {
        PyErr_NoMemory();
        goto done;
    }
    stack[top++] = (Todo){root, 0, 0};
    while (top) {
        Todo t = stack[--top];
        int64_t s = t.state, n = t.node, depth = t.depth;
        /* a run of first children needs no stack: go down it, the later children pushed */
        for (;;) {
            if (keys)
                keys[n] = root_max < 0 ? pos[s] : 2 * pos[s] + (root_max == (depth % 2 == 0));
            else if (wide)
                ((int64_t *)end)[n] = n + sizes[s];
            else
                ((int32_t *)end)[n] = (int32_t)(n + sizes[s]);
            if (out)
                out[n] = vals[s];
            if (tick(&tk, 0) < 0)
                goto done;
            int64_t lo = first[s], hi = first[s + 1];
            if (lo == hi)
                break;
            size_t more = (size_t)(hi - lo - 1);
            if (top + more > cap) {
                while (top + more > cap)
                    cap *= 2;
                Todo *grown = gt_realloc(stack, cap * sizeof *stack);
                if (!grown) {
                    PyErr_NoMemory();
                    goto done;
                }
                stack = grown;
            }
            /* the children's nodes: n + 1, then each after the one before's subtree */
            int64_t at = n + 1 + sizes[kids[lo]];
            size_t base = top + more;
            for (int64_t j = lo + 1; j < hi; j++) {
                stack[--base] = (Todo){kids[j], at, depth + 1};
                at += sizes[kids[j]];
            }
            top += more;
            s = kids[lo];
            n = n + 1;
            depth++;
        }
    }
    result = keys ? take_array("q", &keys, (size_t)size * sizeof *keys)
                  : flat_arrays(&end, &out, (size_t)size, wide);
done:
    gt_free(end);
    gt_free(out);
    gt_free(keys);
    gt_free(stack);
    PyBuffer_Release(&fv);
    PyBuffer_Release(&kv);
    PyBuffer_Release(&sv);
    PyBuffer_Release(&vv);
    return result;
}
