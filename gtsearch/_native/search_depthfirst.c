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

/* The step of every node: a child c of value v (in the node's terms) raises the node's value
 * m and becomes its best child bc; 1 when that cuts the node off (m >= b). */
static inline int raises(double v, node_t c, double *m, node_t *bc, double b) {
    if (!(v > *m))
        return 0;
    *m = v;
    *bc = c;
    return *m >= b;
}

/* The search of a root that is not a leaf: S's value, and the nodes it entered in counts[0]
 * (inner nodes entered, and every leaf read); each finished inner node's best child goes to
 * `best`. */
static int negamax(Search *S, const SearchParams *P, PairLog *best) {
    const TreeView *t = &S->t;
    NodeList *leaves = &S->leaves;
    const double *vals = t->val;
    const int32_t *e32 = t->e32;
    /* the arguments (alpha, beta, deep, prune) */
    const double alpha = P->x[0], beta = P->x[1];
    const int deep = P->flag[0], prune = P->flag[1];
    int64_t nodes = 1;
    struct {
        Frame *p;
        size_t len, cap;
    } st = {NULL, 0, 0};
    node_t n = 0, c = 1, stop = END(t, 0), bc = -1;
    double m = -INF, a = alpha, b = beta, s = t->root_max ? 1.0 : -1.0;
    for (;;) {
        while (c < stop) {
            if (search_tick(S) < 0)
                goto fail;
            node_t e = ENDS(e32, t, c);
            if (e == c + 1) {
                if (nl_push(leaves, c) < 0)
                    goto fail;
                if (raises(s * VALS(vals, t, c), c, &m, &bc, b))
                    break;
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
                if (raises(cs * VALS(vals, t, k), k, &cm, &cbc, child_b)) {
                    k = e;
                    break;
                }
                k = ek;
            }
            if (k >= e) { /* c is finished without a frame */
                if (log_pair(best, c, cbc) < 0)
                    goto fail;
                if (raises(-cm, c, &m, &bc, b))
                    break;
                c = e;
                continue;
            }
            if (ROOM(st.p, st.len, st.cap) < 0)
                goto fail;
            /* search_tabled.c pushes and descends alike on a frame of its own (the table's
             * key and the move's index beside these): docs/development.md, "Repeated code" */
            st.p[st.len++] = (Frame){n, c, stop, bc, m, a, b, s};
            n = c;
            c = k;
            stop = e;
            m = cm;
            a = child_a;
            b = child_b;
            s = cs;
            bc = cbc;
        }
        /* node n is finished with value m: its parent takes it, and is finished too when it
         * cuts the parent off; else the parent goes on with its next child */
        for (;;) {
            if (log_pair(best, n, bc) < 0)
                goto fail;
            if (!st.len)
                goto done; /* the root */
            double v = -m;
            node_t child = n;
            const Frame *f = &st.p[--st.len];
            n = f->n;
            c = f->c;
            stop = f->stop;
            bc = f->bc;
            m = f->m;
            a = f->a;
            b = f->b;
            s = f->s;
            if (!raises(v, child, &m, &bc, b))
                break;
        }
        c = END(t, c);
    }
done:
    gt_free(st.p);
    S->value = m;
    S->counts[0] = nodes + (int64_t)leaves->len;
    return 0;
fail:
    gt_free(st.p);
    return -1;
}

/* the line's rule: each node's best child, scanning the log back */
typedef struct {
    const PairLog *best;
    size_t at;
} BestScan;

static node_t best_child(void *ctx, node_t n, int is_max) {
    (void)is_max;
    BestScan *scan = ctx;
    node_t c = log_last(scan->best, &scan->at, n);
    return c >= 0 ? c : PV_END; /* a leaf has no entry */
}

static int negamax_search(Search *S, const SearchParams *P) {
    const TreeView *t = &S->t;
    PairLog best = {NULL, 0, 0};
    if (END(t, 0) == 1) { /* the root is a leaf: one node */
        if (nl_push(&S->leaves, 0) < 0)
            return -1;
        S->value = (t->root_max ? 1.0 : -1.0) * VAL(t, 0);
        S->counts[0] = 1;
    } else if (negamax(S, P, &best) < 0) {
        gt_free(best.p);
        return -1;
    }
    BestScan scan = {&best, best.len};
    int rc = pv_walk(best_child, &scan, t->root_max, &S->line, &S->line_len);
    gt_free(best.p);
    return rc;
}

PyObject *gt_negamax(PyObject *self, PyObject *args) {
    (void)self;
    return search_entry(args, "ddpp", negamax_search, WITH_LINE, 1);
}
