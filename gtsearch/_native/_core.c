/* gtsearch._native._core: the module, and the helpers every family of functions shares.
 *
 * Only gtsearch/core.py imports this module; everything else asks that facade.  The
 * Python code under gtsearch/ is the reference this code mirrors (see core.h).
 */
#include "core.h"

#include <time.h>

static PyObject *array_type; /* array.array */

/* -- the tree -------------------------------------------------------------------------------- */
int tree_open(TreeView *t, PyObject *end, PyObject *values, int root_max) {
    memset(t, 0, sizeof *t);
    if (values == Py_None) { /* a spec: ("graph", ...) a game's graph, else a random: source */
        t->root_max = root_max;
        if (PyTuple_Check(end) && PyTuple_GET_SIZE(end) &&
            PyUnicode_Check(PyTuple_GET_ITEM(end, 0))) {
            t->graph = graph_open(end, &t->size);
            return t->graph ? 0 : -1;
        }
        t->virt = virt_open(end, &t->size);
        return t->virt ? 0 : -1;
    }
    if (PyObject_GetBuffer(end, &t->end_view, PyBUF_FORMAT | PyBUF_ND) < 0)
        return -1;
    if (PyObject_GetBuffer(values, &t->val_view, PyBUF_FORMAT | PyBUF_ND) < 0) {
        PyBuffer_Release(&t->end_view);
        return -1;
    }
    Py_ssize_t isz = t->end_view.itemsize;
    const char *ef = t->end_view.format ? t->end_view.format : "B";
    const char *vf = t->val_view.format ? t->val_view.format : "B";
    int int_format = ef[0] && strchr("ilq", ef[0]) && !ef[1];
    if (t->end_view.ndim != 1 || t->val_view.ndim != 1 || !int_format ||
        (isz != 4 && isz != 8) || strcmp(vf, "d") != 0 ||
        t->end_view.len / isz != t->val_view.len / (Py_ssize_t)sizeof(double)) {
        tree_close(t);
        PyErr_SetString(PyExc_TypeError,
                        "the tree's end and values must be flat int and float64 arrays of "
                        "the same length");
        return -1;
    }
    t->size = t->end_view.len / isz;
    if (isz == 4)
        t->e32 = (const int32_t *)t->end_view.buf;
    else
        t->e64 = (const int64_t *)t->end_view.buf;
    t->val = (const double *)t->val_view.buf;
    t->root_max = root_max;
    if (t->size == 0) {
        tree_close(t);
        PyErr_SetString(PyExc_ValueError, "the tree has no nodes");
        return -1;
    }
    return 0;
}

void tree_close(TreeView *t) {
    if (t->end_view.obj)
        PyBuffer_Release(&t->end_view);
    if (t->val_view.obj)
        PyBuffer_Release(&t->val_view);
    t->e32 = NULL;
    t->e64 = NULL;
    if (t->virt)
        virt_free(t->virt);
    t->virt = NULL;
    graph_free(t->graph);
    t->graph = NULL;
}

/* -- growable arrays -------------------------------------------------------------------------- */
int grow_array(void *arr, size_t *cap, size_t item) {
    size_t ncap = *cap ? *cap * 2 : 64;
    void *old, *p = NULL;
    /* the pointer is read and written as bytes: arr is the address of a pointer of any type */
    memcpy(&old, arr, sizeof old);
    if (ncap <= SIZE_MAX / item)
        p = gt_realloc(old, ncap * item);
    if (!p) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(arr, &p, sizeof p);
    *cap = ncap;
    return 0;
}

/* -- lists of nodes ----------------------------------------------------------------------------- */
void nl_init(NodeList *l, int wide) {
    memset(l, 0, sizeof *l);
    l->wide = wide;
}

int nl_grow(NodeList *l) {
    if (l->wide)
        return grow_array(&l->p64, &l->cap, sizeof *l->p64);
    return grow_array(&l->p32, &l->cap, sizeof *l->p32);
}

void nl_free(NodeList *l) {
    gt_free(l->p32);
    gt_free(l->p64);
    l->p32 = NULL;
    l->p64 = NULL;
    l->len = l->cap = 0;
}

PyObject *nl_to_array(const NodeList *l) {
    if (l->wide)
        return make_array("q", l->p64, l->len * sizeof(int64_t));
    return make_array("i", l->p32, l->len * sizeof(int32_t));
}

/* Sort non-negative numbers: insertion sort for a few, else an LSD radix sort, 11 bits a pass
 * (a count table that stays in cache), or 8 for fewer than 4096 numbers (whose 2,049-entry
 * table would cost more to clear than the numbers to count). */
static int radix_sort(int64_t *a, size_t n) {
    if (n <= 32) {
        for (size_t i = 1; i < n; i++) {
            int64_t x = a[i];
            size_t j = i;
            for (; j > 0 && a[j - 1] > x; j--)
                a[j] = a[j - 1];
            a[j] = x;
        }
        return 0;
    }
    int64_t top = 0;
    for (size_t i = 0; i < n; i++)
        if (a[i] > top)
            top = a[i];
    const int bits = n < 4096 ? 8 : 11;
    const size_t buckets = (size_t)1 << bits, mask = buckets - 1;
    int64_t *tmp = gt_malloc(n * sizeof *tmp);
    size_t *count = gt_malloc((buckets + 1) * sizeof *count);
    if (!tmp || !count) {
        gt_free(tmp);
        gt_free(count);
        PyErr_NoMemory();
        return -1;
    }
    int64_t *src = a, *dst = tmp;
    for (int shift = 0; shift < 63 && (top >> shift) > 0; shift += bits) {
        memset(count, 0, (buckets + 1) * sizeof *count);
        for (size_t i = 0; i < n; i++)
            count[((uint64_t)src[i] >> shift & mask) + 1]++;
        for (size_t d = 0; d < buckets; d++)
            count[d + 1] += count[d];
        for (size_t i = 0; i < n; i++)
            dst[count[(uint64_t)src[i] >> shift & mask]++] = src[i];
        int64_t *swap = src;
        src = dst;
        dst = swap;
    }
    if (src != a)
        memcpy(a, src, n * sizeof *a);
    gt_free(tmp);
    gt_free(count);
    return 0;
}

int nl_sorted_unique(const NodeList *l, int64_t **out, size_t *count) {
    size_t n = l->len;
    int64_t *a = gt_malloc((n ? n : 1) * sizeof *a);
    if (!a) {
        PyErr_NoMemory();
        return -1;
    }
    int sorted = 1;
    int64_t top = 0;
    for (size_t i = 0; i < n; i++) {
        a[i] = nl_get(l, i);
        if (i && a[i] < a[i - 1])
            sorted = 0;
        if (a[i] > top)
            top = a[i];
    }
    size_t words = (size_t)top / 64 + 1;
    if (!sorted && n > 32 && words <= 2 * n) {
        /* the nodes are dense enough for a bit set, which sorts and drops repeats at once */
        uint64_t *bits = gt_calloc(words, sizeof *bits);
        if (!bits) {
            gt_free(a);
            PyErr_NoMemory();
            return -1;
        }
        for (size_t i = 0; i < n; i++)
            bits[(uint64_t)a[i] >> 6] |= (uint64_t)1 << (a[i] & 63);
        size_t k = 0;
        for (size_t w = 0; w < words; w++)
            for (uint64_t m = bits[w]; m; m &= m - 1)
                a[k++] = (int64_t)(w * 64 + (size_t)ctz64(m));
        gt_free(bits);
        *out = a;
        *count = k;
        return 0;
    }
    if (!sorted && radix_sort(a, n) < 0) {
        gt_free(a);
        return -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (k == 0 || a[i] != a[k - 1])
            a[k++] = a[i];
    *out = a;
    *count = k;
    return 0;
}

int nl_distinct(const NodeList *l, size_t *count) {
    size_t i = 1;
    while (i < l->len && nl_get(l, i - 1) < nl_get(l, i))
        i++;
    if (i >= l->len) {
        *count = l->len;
        return 0;
    }
    int64_t *u;
    if (nl_sorted_unique(l, &u, count) < 0)
        return -1;
    gt_free(u);
    return 0;
}

/* -- the hash map ---------------------------------------------------------------------------------- */
static int map_alloc(Map *m, int bits) {
    size_t cap = (size_t)1 << bits;
    unsigned char *slots = gt_calloc(cap, m->ssize); /* every key 0: empty */
    if (!slots) {
        PyErr_NoMemory();
        return -1;
    }
    m->slots = slots;
    m->cap = cap;
    m->bits = bits;
    m->len = 0;
    return 0;
}

int map_init(Map *m, size_t vsize) {
    memset(m, 0, sizeof *m);
    m->vsize = vsize;
    /* keep the keys 8-byte aligned */
    m->ssize = sizeof(int64_t) + (vsize + 7) / 8 * 8;
    return map_alloc(m, 6); /* small: most searches are of small trees; it doubles as it fills */
}

void map_free(Map *m) {
    gt_free(m->slots);
    m->slots = NULL;
}

int map_grow(Map *m) {
    Map old = *m;
    if (map_alloc(m, old.bits + 1) < 0) {
        *m = old;
        return -1;
    }
    size_t mask = m->cap - 1;
    for (size_t j = 0; j < old.cap; j++) {
        int64_t key = map_key(&old, j);
        if (key < 0)
            continue;
        size_t i = map_slot(m, key);
        while (map_key(m, i) >= 0)
            i = (i + 1) & mask;
        memcpy(m->slots + i * m->ssize, old.slots + j * old.ssize, m->ssize);
    }
    m->len = old.len;
    map_free(&old);
    return 0;
}

void *map_put(Map *m, int64_t key, int *fresh) {
    if (2 * (m->len + 1) > m->cap && map_grow(m) < 0)
        return NULL;
    size_t mask = m->cap - 1, i = map_slot(m, key);
    for (;;) {
        unsigned char *slot = m->slots + i * m->ssize;
        int64_t k = map_key(m, i);
        if (k == key) {
            if (fresh)
                *fresh = 0;
            return slot + sizeof(int64_t);
        }
        if (k < 0) {
            int64_t stored = key + 1;
            memcpy(slot, &stored, sizeof stored);
            m->len++;
            if (fresh)
                *fresh = 1;
            return slot + sizeof(int64_t);
        }
        i = (i + 1) & mask;
    }
}

/* -- ticks ------------------------------------------------------------------------------------------ */
int tick_open(Ticker *tk, PyObject *progress) {
    memset(tk, 0, sizeof *tk);
    if (PyTuple_Check(progress) && PyTuple_GET_SIZE(progress) == 2) {
        /* (progress, seconds): the search's own time left (play --time's deepening) */
        const double seconds = PyFloat_AsDouble(PyTuple_GET_ITEM(progress, 1));
        if (seconds == -1.0 && PyErr_Occurred())
            return -1;
        if (!(seconds > 0)) { /* no time left: the search does not start */
            PyErr_SetString(PyExc_TimeoutError, "the search's time ran out");
            return -1;
        }
        tk->deadline = monotonic_seconds() + seconds;
        progress = PyTuple_GET_ITEM(progress, 0);
    }
    if (progress == Py_None)
        return 0;
    if (PyObject_GetBuffer(progress, &tk->view, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_ND) < 0)
        return -1;
    if (tk->view.itemsize != 8 || tk->view.len < 8 || !tk->view.format ||
        strcmp(tk->view.format, "q") != 0) {
        PyBuffer_Release(&tk->view);
        PyErr_SetString(PyExc_TypeError, "progress must be an array('q') of one item");
        return -1;
    }
    tk->progress = (int64_t *)tk->view.buf;
    return 0;
}

void tick_close(Ticker *tk) {
    if (tk->progress) {
        PyBuffer_Release(&tk->view);
        tk->progress = NULL;
    }
}

double monotonic_seconds(void) {
#if defined(CLOCK_MONOTONIC)
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#else
    return (double)clock() / CLOCKS_PER_SEC;
#endif
}

int tick_slow(Ticker *tk, int64_t count) {
    if (tk->progress)
        *tk->progress = count;
    if (PyErr_CheckSignals() < 0)
        return -1;
    if (virt_over) {
        virt_over = 0;
        PyErr_SetString(VisitLimit, "the search visited more nodes than allowed");
        return -1;
    }
    if (tk->deadline > 0 && monotonic_seconds() >= tk->deadline) {
        tk->late = 1;
        PyErr_SetString(PyExc_TimeoutError, "the search's time ran out");
        return -1;
    }
    /* let another thread (the progress display) have the interpreter for a moment */
    Py_BEGIN_ALLOW_THREADS Py_END_ALLOW_THREADS return 0;
}

/* -- arrays handed in -------------------------------------------------------------------------------- */
int borrow_array(PyObject *obj, Py_buffer *view, const char *fmt, int writable,
                 const char *message) {
    if (PyObject_GetBuffer(obj, view,
                           PyBUF_FORMAT | PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    if (view->itemsize != 8 || !view->format || strcmp(view->format, fmt) != 0) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_TypeError, message, fmt);
        return -1;
    }
    return 0;
}

/* -- results ----------------------------------------------------------------------------------------- */
PyObject *make_array(const char *typecode, const void *data, size_t nbytes) {
    PyObject *arr = PyObject_CallFunction(array_type, "s", typecode);
    if (!arr || nbytes == 0)
        return arr;
    PyObject *view = PyMemoryView_FromMemory((char *)data, (Py_ssize_t)nbytes, PyBUF_READ);
    if (!view) {
        Py_DECREF(arr);
        return NULL;
    }
    PyObject *r = PyObject_CallMethod(arr, "frombytes", "O", view);
    Py_DECREF(view);
    if (!r) {
        Py_DECREF(arr);
        return NULL;
    }
    Py_DECREF(r);
    return arr;
}

PyObject *take_array(const char *typecode, void *buf, size_t nbytes) {
    void *data;
    memcpy(&data, buf, sizeof data); /* buf is the address of a pointer of any type */
    PyObject *arr = make_array(typecode, data, nbytes);
    if (arr) {
        gt_free(data);
        data = NULL;
        memcpy(buf, &data, sizeof data);
    }
    return arr;
}

PyObject *flat_arrays(void **end, double **vals, size_t size, int wide) {
    PyObject *end_arr = take_array(wide ? "q" : "i", end, size * (wide ? 8 : 4));
    if (!end_arr)
        return NULL;
    PyObject *val_arr = take_array("d", vals, size * sizeof **vals);
    if (!val_arr) {
        Py_DECREF(end_arr);
        return NULL;
    }
    PyObject *result = PyTuple_Pack(2, end_arr, val_arr);
    Py_DECREF(end_arr);
    Py_DECREF(val_arr);
    return result;
}

PyObject *line_to_list(const int64_t *line, size_t len) {
    PyObject *list = PyList_New((Py_ssize_t)len);
    if (!list)
        return NULL;
    for (size_t i = 0; i < len; i++) {
        PyObject *x = PyLong_FromLongLong(line[i]);
        if (!x) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, x);
    }
    return list;
}

/* -- the module --------------------------------------------------------------------------------------- */
static PyMethodDef methods[] = {
    {"negamax", GT_ENTRY(gt_negamax), METH_VARARGS,
     "negamax(end, values, root_max, alpha, beta, deep, prune, progress) -> "
     "(m, line, leaves, nodes): gtsearch.algorithms.depthfirst._negamax"},
    {"game_negamax", GT_ENTRY(gt_game_negamax), METH_VARARGS,
     "game_negamax(name, params, words, root_max, limit, max_nodes, first, alpha, beta, deep, "
     "prune, hard, progress) -> (m, line, leaves, nodes, first, up, depth), or None: "
     "depthfirst._negamax_on_demand over a game's C rules (game_tree.c)"},
    {"game_negascout", GT_ENTRY(gt_game_negascout), METH_VARARGS,
     "game_negascout(name, params, words, root_max, limit, max_nodes, first, line, progress) "
     "-> (value, line, leaves, nodes, distinct, first, up, depth), or None: scout._met's "
     "NegaScout over a game's C rules, and its PV from the leaves read (game_tree.c)"},
    {"game_scout", GT_ENTRY(gt_game_scout), METH_VARARGS,
     "game_scout(name, params, words, root_max, limit, max_nodes, first, line, progress) "
     "-> (value, line, leaves, nodes, distinct, first, up, depth), or None: scout._met's "
     "SCOUT over a game's C rules, and its PV from the leaves read (game_tree.c)"},
    {"game_mtd", GT_ENTRY(gt_game_mtd), METH_VARARGS,
     "game_mtd(name, params, words, root_max, limit, max_nodes, first, guess, line, progress) "
     "-> (lower, line, leaves, nodes, passes, first, up, depth), or None: mt.mtd with MT's own "
     "table over a game's C rules, and its PV from the leaves read (game_tree.c)"},
    {"game_sss", GT_ENTRY(gt_game_sss), METH_VARARGS,
     "game_sss(name, params, words, root_max, limit, max_nodes, first, up, depth, h0, mirror, "
     "progress) -> (h, line, leaves, nodes, open_max, first, up, depth), or None: "
     "sss._met_sss_core and _met_solution_line over a game's C rules (search_sss_ondemand.c)"},
    {"objects_negamax", GT_ENTRY(gt_objects_negamax), METH_VARARGS,
     "objects_negamax(state, tag, chance_player, by_string, with_turns, root_max, max_nodes, "
     "prior, alpha, beta, deep, prune, progress) -> (m, line, leaves, inner, (first, up, depth, "
     "turns)) or None: depthfirst._negamax_on_demand over OpenSpiel's states (fail-soft)"},
    {"objects_expectiminimax", GT_ENTRY(gt_objects_expectiminimax), METH_VARARGS,
     "objects_expectiminimax(state, tag, chance_player, by_string, with_turns, root_max, "
     "max_nodes, prior, weigh, progress) -> (num, den, best, leaves, entered, (first, up, depth, "
     "turns)) or None: chance.ListedRun.full over OpenSpiel's states"},
    {"game_chance", GT_ENTRY(gt_game_chance), METH_VARARGS,
     "game_chance(name, params, words, root_max, limit, max_nodes, first, which, lo_n, lo_d, "
     "hi_n, hi_d, bits, tags, buckets, progress) -> (numerator, denominator, line, leaves, "
     "entered, probes, counts, positions, turns, first, up, depth), or None: chance.ListedRun's "
     "expectiminimax (0), Star1 (1) and Star2 (2) over a game's C rules in exact rationals, "
     "Star1 and Star2 with a table of `buckets` (0: none; search_chance_ondemand.c)"},
    {"sss", GT_ENTRY(gt_sss), METH_VARARGS,
     "sss(end, values, root_max, h0, mirror, progress) -> (h, line, leaves, nodes, open_max): "
     "gtsearch.algorithms.sss._sss_core and _solution_line"},
    {"negascout", GT_ENTRY(gt_negascout), METH_VARARGS,
     "negascout(end, values, root_max, progress) -> (value, leaves, nodes, distinct)"},
    {"scout", GT_ENTRY(gt_scout), METH_VARARGS,
     "scout(end, values, root_max, progress) -> (value, leaves, nodes, distinct)"},
    {"mtd", GT_ENTRY(gt_mtd), METH_VARARGS,
     "mtd(end, values, root_max, first, progress) -> (lower, leaves, table_size, passes)"},
    {"tabled", GT_ENTRY(gt_tabled), METH_VARARGS,
     "tabled(end, values, root_max, keys, buckets, kind, x, y, line, progress) -> (value, line, "
     "leaves, distinct, entered, expanded, nodes, passes, counts): gtsearch.algorithms.tabled's "
     "alphabeta (kind 0, window (x, y)), negascout (1) and MTD(x) (2) with a table"},
    {"game_tabled", GT_ENTRY(gt_game_tabled), METH_VARARGS,
     "game_tabled(name, params, words, root_max, limit, max_nodes, first, general, buckets, "
     "pv_buckets, kind, alpha, beta, progress) -> (value, line, leaves, distinct, entered, expanded, "
     "counts, positions, first, up, depth), or None: tabled.py's alphabeta (kind 0) or "
     "negascout (1) with a table over a game's C rules on demand (search_tabled_ondemand.c)"},
    {"game_tabled_iterate", GT_ENTRY(gt_game_tabled_iterate), METH_VARARGS,
     "game_tabled_iterate(name, params, words, root_max, limit, max_nodes, first, general, "
     "buckets, pv_buckets, solve, last, seconds, progress) -> (iterations, positions_seen, "
     "stopped, positions, first, up, depth), or None: iterative.iterate (solve 0) or "
     "solve.solve's iterations (1) over a game's C rules on demand (search_tabled_ondemand.c)"},
    {"tabled_iterate", GT_ENTRY(gt_tabled_iterate), METH_VARARGS,
     "tabled_iterate(end, values, root_max, keys, buckets, solve, last, seconds, progress) -> "
     "(iterations, positions, bad): gtsearch.algorithms.iterative.iterate and solve.solve"},
    {"release_tables", GT_ENTRY(gt_release_tables), METH_NOARGS,
     "release_tables(): give back the memory kept for the next transposition tables"},
    {"keep_tables", GT_ENTRY(gt_keep_tables), METH_VARARGS,
     "keep_tables(n) -> the former n: keep the memory of n tables (0 to 3) for the next "
     "searches, and give back what is kept now"},
    {"mcts", GT_ENTRY(gt_mcts), METH_VARARGS,
     "mcts(end, values, root_max, chance, wnodes, woff, wval, lo, span, iterations, seconds, "
     "seed, exploration, playout_depth, progress) -> (nodes, visits, sums, squares, leaves, "
     "iterations, playouts, node_visits, cut, distinct, line, rows): "
     "gtsearch.algorithms.mcts.iterate, and the PV by visits with its rows"},
    {"mcts_game", GT_ENTRY(gt_mcts_game), METH_VARARGS,
     "mcts_game(name, params, words, root_max, cut, max_nodes, lo, span, iterations, seconds, "
     "seed, exploration, playout_depth, progress) -> (mcts's result, (parent, first, depth, "
     "loose_paths, deepest)) or None: mcts on a game's C rules, numbered as an OnDemandTree"},
    {"principal_variation", GT_ENTRY(gt_principal_variation), METH_VARARGS,
     "principal_variation(end, values, root_max, leaves, value, bound) -> line or None"},
    {"random_tree", GT_ENTRY(gt_random_tree), METH_VARARGS,
     "random_tree(b, d, model, seed, lo, hi, p, wide, k=1) -> (end, values)"},
    {"sss_dense_limit", GT_ENTRY(gt_sss_dense_limit), METH_VARARGS,
     "sss_dense_limit(n) -> the former n: trees of more nodes keep SSS*'s bit set sparse "
     "(for the tests)"},
    {"expand_states", GT_ENTRY(gt_expand_states), METH_VARARGS,
     "expand_states(first, kids, sizes, values, root, wide) -> (end, values): a game's "
     "distinct states written out as its tree, in preorder"},
    {"count_game", GT_ENTRY(gt_count_game), METH_VARARGS,
     "count_game(kernel, root, most, room=0) -> (states, first, kids, sizes, leaves, heights, "
     "values), or None beyond most entries: a built-in game's entries counted as GameTree "
     "counts them"},
    {"game_initial", GT_ENTRY(gt_game_initial), METH_VARARGS,
     "game_initial(name, params) -> the words of the game's initial state, or None: a "
     "built-in game's rules in C (game.h)"},
    {"game_step", GT_ENTRY(gt_game_step), METH_VARARGS,
     "game_step(name, params, words) -> (kind, moves, kids, weights, value), or None: a "
     "built-in game's state as its rules in C (game.h) answer for it"},
    {"game_perft", GT_ENTRY(gt_game_perft), METH_VARARGS,
     "game_perft(name, params, words, depth) -> the leaves at that depth below the state "
     "(or where the game ends above it), or None: the rules in C walked depth-first"},
    {"solve_c4", GT_ENTRY(gt_solve_c4), METH_VARARGS,
     "solve_c4(rows, columns, k, cur, mask, entries, most) -> (score, pv, nodes, expanded, "
     "leaves, line_nodes, probes, tt), or None past most positions: "
     "gtsearch.algorithms.connect4.solve_connect4"},
    {"load_mapping", GT_ENTRY(gt_load_mapping), METH_VARARGS,
     "load_mapping(text, yaml, max_nodes, wide) -> tree parts, or None"},
    {"load_sexp", GT_ENTRY(gt_load_sexp), METH_VARARGS,
     "load_sexp(text, max_nodes, wide) -> tree parts, or None"},
    {"load_efg", GT_ENTRY(gt_load_efg), METH_VARARGS,
     "load_efg(text, max_nodes, wide) -> tree parts, or None"},
#ifdef GTSEARCH_FAULTS
    {"_faults", (PyCFunction)(void (*)(void))faults_set, METH_VARARGS | METH_KEYWORDS,
     "_faults(allocation=0, tick=0, python=False): from now on, fail the allocation-th "
     "allocation (counting CPython's made while a function of the module runs when python "
     "is true) and raise KeyboardInterrupt at the tick-th tick; 0: none.  The test build only."},
    {"_counts", faults_counts, METH_NOARGS,
     "_counts() -> (allocations, ticks, blocks): the allocations and ticks since _faults(), "
     "and the blocks the core holds now"},
    {"_sites", faults_sites, METH_NOARGS,
     "_sites() -> the places (file:line) of the allocations failed so far"},
#endif
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "gtsearch._native._core",
    "gtsearch's compiled core: the searches, loaders and generator of the pure-Python "
    "reference in C (use it through gtsearch.core).",
    -1,
    methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (!array_type) {
        PyObject *mod = PyImport_ImportModule("array");
        if (!mod)
            return NULL;
        array_type = PyObject_GetAttrString(mod, "array");
        Py_DECREF(mod);
        if (!array_type)
            return NULL;
    }
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    if (!VisitLimit) {
        VisitLimit = PyErr_NewException("gtsearch._native._core.VisitLimit", NULL, NULL);
        if (!VisitLimit) {
            Py_DECREF(m);
            return NULL;
        }
    }
    Py_INCREF(VisitLimit);
    if (PyModule_AddObject(m, "VisitLimit", VisitLimit) < 0) {
        Py_DECREF(VisitLimit);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
