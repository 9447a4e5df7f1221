/* The skeleton every search of the module runs in (see "the skeleton" in core.h).
 *
 * negamax, sss, negascout, scout and mtd differ in their steps and their own parameters
 * only: each takes the tree's arrays (or a random: source's spec), root_max and a progress
 * array, evaluates leaves (which gtsearch.algorithms.compiled hands to Stats, in order),
 * and returns its value, maybe its line, the leaves and a count or two.  That part is here,
 * once.
 */
#include "core.h"

#define OWN_MAX (OWN_FLOATS + OWN_FLAGS) /* a search's own arguments, at the most */
/* read_args() hands PyArg_ParseTuple five places for them and progress */
typedef char five_places[OWN_MAX + 1 == 5 ? 1 : -1];

/* (end, values, root_max, <own>, progress) from args.  Where the own arguments stand, and so
 * where progress stands, depends on the search: they are all read as objects, then the own
 * ones converted as PyArg_ParseTuple's "d" and "p" convert them (the same calls, so the same
 * errors, in the same order). */
static int read_args(PyObject *args, const char *own, PyObject **end, PyObject **values,
                     int *root_max, PyObject **progress, SearchParams *p) {
    PyObject *obj[OWN_MAX + 1] = {NULL};
    char format[3 + OWN_MAX + 2] = "OOp";
    size_t k = strlen(own), floats = 0;
    for (size_t i = 0; i < k; i++)
        floats += own[i] == 'd';
    if (floats > OWN_FLOATS || k - floats > OWN_FLAGS) {
        PyErr_SetString(PyExc_SystemError, "bug: a search with too many arguments");
        return -1;
    }
    memset(format + 3, 'O', k + 1); /* the own arguments, and progress */
    format[3 + k + 1] = '\0';
    /* it fills as many places as the format names; the others stay NULL */
    if (!PyArg_ParseTuple(args, format, end, values, root_max, &obj[0], &obj[1], &obj[2],
                          &obj[3], &obj[4]))
        return -1;
    int nx = 0, nflag = 0;
    for (size_t i = 0; i < k; i++) {
        if (own[i] == 'd') {
            double v = PyFloat_AsDouble(obj[i]);
            if (v == -1.0 && PyErr_Occurred())
                return -1;
            p->x[nx++] = v;
        } else {
            int v = PyObject_IsTrue(obj[i]);
            if (v < 0)
                return -1;
            p->flag[nflag++] = v;
        }
    }
    *progress = obj[k];
    return 0;
}

/* (value[, line], leaves, counts...) from what the search left in s */
static PyObject *search_result(const Search *s, int with_line, int ncounts) {
    PyObject *items[5]; /* the value, the line, the leaves and two counts at the most */
    Py_ssize_t n = 0;
    if (!(items[n] = PyFloat_FromDouble(s->value)))
        goto fail;
    n++;
    if (with_line) {
        if (!(items[n] = line_to_list(s->line, s->line_len)))
            goto fail;
        n++;
    }
    if (!(items[n] = nl_to_array(&s->leaves)))
        goto fail;
    n++;
    for (int i = 0; i < ncounts; i++) {
        if (!(items[n] = PyLong_FromLongLong((long long)s->counts[i])))
            goto fail;
        n++;
    }
    PyObject *result = PyTuple_New(n);
    if (!result)
        goto fail;
    for (Py_ssize_t i = 0; i < n; i++)
        PyTuple_SET_ITEM(result, i, items[i]); /* the tuple takes the references */
    return result;
fail:
    while (n > 0)
        Py_DECREF(items[--n]);
    return NULL;
}

PyObject *search_entry(PyObject *args, const char *own, SearchFn fn, int with_line, int ncounts) {
    PyObject *end, *values, *progress;
    int root_max;
    SearchParams p = {{0.0, 0.0}, {0, 0}};
    if (read_args(args, own, &end, &values, &root_max, &progress, &p) < 0)
        return NULL;
    Search s;
    memset(&s, 0, sizeof s);
    if (tree_open(&s.t, end, values, root_max) < 0)
        return NULL;
    if (tick_open(&s.tk, progress) < 0) {
        tree_close(&s.t);
        return NULL;
    }
    nl_init(&s.leaves, s.t.size > INT32_MAX);
    PyObject *result = NULL;
    if (fn(&s, &p) == 0)
        result = search_result(&s, with_line, ncounts);
    gt_free(s.line);
    nl_free(&s.leaves);
    tick_close(&s.tk);
    tree_close(&s.t);
    return result;
}
