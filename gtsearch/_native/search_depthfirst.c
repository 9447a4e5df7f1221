/* minimax, F1 and alpha-beta: gtsearch.algorithms.depthfirst._negamax, step for step.
 *
 * Knuth & Moore (1975), procedures F, F1 and F2 (fail-soft), as one negamax routine over
 * the flat tree on an explicit stack.  The line of best moves is the Python version's:
 * each finished inner node's first child that set its value (its `best` dict).  Here the
 * pairs (node, best child) go to a log in the order the nodes finish, which is postorder,
 * so one backward scan from the root's entry finds the line: a node's entry comes after
 * those of its descendants.  The log holds one entry per inner node visited, as the dict.
 */
#include "core.h"

typedef struct {
    node_t n, c, stop, bc;
    double m, a, b, s;
} Frame;

typedef struct {
    Frame *p;
    size_t len, cap;
} Stack;

static int push(Stack *st, const Frame *f) {
    if (st->len == st->cap) {
        size_t cap = st->cap ? st->cap * 2 : 64;
        Frame *p = realloc(st->p, cap * sizeof *p);
        if (!p) {
            PyErr_NoMemory();
            return -1;
        }
        st->p = p;
        st->cap = cap;
    }
    st->p[st->len++] = *f;
    return 0;
}

typedef struct {
    node_t *p; /* pairs: node, best child */
    size_t len, cap;
} Log;

/* best[n] = bc */
static inline int remember(Log *best, node_t n, node_t bc) {
    if (best->len + 2 > best->cap) {
        size_t cap = best->cap ? best->cap * 2 : 256;
        node_t *p = realloc(best->p, cap * sizeof *p);
        if (!p) {
            PyErr_NoMemory();
            return -1;
        }
        best->p = p;
        best->cap = cap;
    }
    best->p[best->len++] = n;
    best->p[best->len++] = bc;
    return 0;
}

/* The search; *m, *nodes and the line (from best) as the Python version computes them. */
static int negamax(const TreeView *t, NodeList *leaves, Ticker *tk, double alpha, double beta,
                   int deep, int prune, double *out_m, int64_t *out_nodes, int64_t **line,
                   size_t *line_len) {
    const double *vals = t->val;
    const int32_t *e32 = t->e32;
    double sign = t->root_max ? 1.0 : -1.0;
    if (END(t, 0) == 1) {
        if (nl_push(leaves, 0) < 0)
            return -1;
        *out_m = sign * VAL(t, 0);
        *out_nodes = 1;
        *line = malloc(sizeof **line);
        if (!*line) {
            PyErr_NoMemory();
            return -1;
        }
        (*line)[0] = 0;
        *line_len = 1;
        return 0;
    }
    int64_t nodes = 1;
    Log best = {NULL, 0, 0};
    Stack st = {NULL, 0, 0};
    node_t n = 0, c = 1, stop = END(t, 0), bc = -1;
    double m = -INF, a = alpha, b = beta, s = sign;
    for (;;) {
        while (c < stop) {
            if (tick(tk, (int64_t)leaves->len) < 0)
                goto fail;
            node_t e = ENDS(e32, t, c);
            if (e == c + 1) {
                if (nl_push(leaves, c) < 0)
                    goto fail;
                double v = s * VALS(vals, t, c);
                if (v > m) {
                    m = v;
                    bc = c;
                    if (m >= b)
                        break;
                }
                c = e;
                continue;
            }
            nodes++;
            double child_a, child_b;
            if (prune) {
                child_b = -(a > m ? a : m);
                child_a = deep ? -b : -INF;
            } else {
                child_a = -INF;
                child_b = INF;
            }
            /* search c in place while its children are leaves */
            node_t k = c + 1, cbc = -1;
            double cm = -INF, cs = -s;
            while (k < e) {
                node_t ek = ENDS(e32, t, k);
                if (ek != k + 1)
                    break;
                if (nl_push(leaves, k) < 0)
                    goto fail;
                double u = cs * VALS(vals, t, k);
                if (u > cm) {
                    cm = u;
                    cbc = k;
                    if (cm >= child_b) {
                        k = e;
                        break;
                    }
                }
                k = ek;
            }
            if (k >= e) { /* c is finished without a frame */
                if (remember(&best, c, cbc) < 0)
                    goto fail;
                double v = -cm;
                if (v > m) {
                    m = v;
                    bc = c;
                    if (m >= b)
                        break;
                }
                c = e;
                continue;
            }
            Frame f = {n, c, stop, bc, m, a, b, s};
            if (push(&st, &f) < 0)
                goto fail;
            n = c;
            c = k;
            stop = e;
            m = cm;
            a = child_a;
            b = child_b;
            s = cs;
            bc = cbc;
        }
        /* node n is finished with value m: hand it to the parent */
        if (remember(&best, n, bc) < 0)
            goto fail;
        int resumed = 0;
        while (st.len) {
            double v = -m;
            node_t child = n;
            Frame *f = &st.p[--st.len];
            n = f->n;
            c = f->c;
            stop = f->stop;
            bc = f->bc;
            m = f->m;
            a = f->a;
            b = f->b;
            s = f->s;
            if (v > m) {
                m = v;
                bc = child;
                if (m >= b) {
                    if (remember(&best, n, bc) < 0)
                        goto fail;
                    continue;
                }
            }
            c = END(t, c);
            resumed = 1;
            break;
        }
        if (!resumed)
            break;
    }
    /* the line: from the root (the last entry), each node's best child, scanning back */
    size_t cap = 16, len = 1;
    int64_t *out = malloc(cap * sizeof *out);
    if (!out) {
        PyErr_NoMemory();
        goto fail;
    }
    out[0] = 0;
    node_t want = 0;
    for (size_t i = best.len; i > 0; i -= 2) {
        if (best.p[i - 2] != want)
            continue;
        node_t k = best.p[i - 1];
        if (len == cap) {
            int64_t *more = realloc(out, 2 * cap * sizeof *out);
            if (!more) {
                free(out);
                PyErr_NoMemory();
                goto fail;
            }
            out = more;
            cap *= 2;
        }
        out[len++] = k;
        want = k;
    }
    free(st.p);
    free(best.p);
    *out_m = m;
    *out_nodes = nodes + (int64_t)leaves->len; /* inner nodes entered, and every leaf read */
    *line = out;
    *line_len = len;
    return 0;
fail:
    free(st.p);
    free(best.p);
    return -1;
}

PyObject *gt_negamax(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *end, *values, *progress;
    int root_max, deep, prune;
    double alpha, beta;
    if (!PyArg_ParseTuple(args, "OOpddppO", &end, &values, &root_max, &alpha, &beta, &deep,
                          &prune, &progress))
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
    double m;
    int64_t nodes;
    int64_t *line = NULL;
    size_t line_len = 0;
    PyObject *result = NULL;
    if (negamax(&t, &leaves, &tk, alpha, beta, deep, prune, &m, &nodes, &line, &line_len) == 0) {
        PyObject *pv = line_to_list(line, line_len);
        PyObject *arr = pv ? nl_to_array(&leaves) : NULL;
        if (arr)
            result = Py_BuildValue("dNNL", m, pv, arr, (long long)nodes);
        else
            Py_XDECREF(pv);
    }
    free(line);
    nl_free(&leaves);
    tick_close(&tk);
    tree_close(&t);
    return result;
}
