/* The tree builder the C tokenizers feed: gtsearch.builder.TreeBuilder's rules, accept-only.
 *
 * Nodes arrive in preorder; a name must be 1 to 1000 printable characters and differ from
 * its siblings' names, a
 * value finite (integers within +-2**53), an internal node must get children, and the
 * node limit (--max-nodes) is counted as nodes arrive.  Where TreeBuilder raises an error,
 * this builder declines, and the Python reader runs to word it.
 */
#include "core.h"

#define MAX_EXACT ((uint64_t)1 << 53)
#define MAX_NAME 1000

int b_init(Builder *B, PyObject *text, node_t max_nodes, int wide) {
    memset(B, 0, sizeof *B);
    B->root = -1;
    B->root_max = 1;
    B->title_len = B->desc_len = -1;
    B->expect_off = -1;
    /* text is a str: the callers' PyArg_ParseTuple() ("U") sees to it */
    if (!PyUnicode_IS_ASCII(text))
        return DECLINE; /* the Python readers take every other text */
    B->text = (const char *)PyUnicode_1BYTE_DATA(text);
    B->len = PyUnicode_GET_LENGTH(text);
    B->max_nodes = max_nodes;
    B->wide = wide;
    return 0;
}

int b_init_args(Builder *B, PyObject *args) {
    PyObject *text;
    int wide;
    long long max_nodes;
    memset(B, 0, sizeof *B);
    if (!PyArg_ParseTuple(args, "ULp", &text, &max_nodes, &wide))
        return -1;
    return b_init(B, text, (node_t)max_nodes, wide);
}

int b_check_text(const Builder *B) {
    for (Py_ssize_t i = 0; i < B->len; i++) {
        unsigned char ch = (unsigned char)B->text[i];
        if ((ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') || ch == 0x7F)
            return DECLINE;
    }
    return 0;
}

void b_free(Builder *B) {
    gt_free(B->end);
    gt_free(B->val);
    gt_free(B->fl);
    gt_free(B->depth);
    gt_free(B->open);
    gt_free(B->names);
    gt_free(B->set);
    Py_XDECREF(B->title_obj);
    Py_XDECREF(B->desc_obj);
    memset(B, 0, sizeof *B);
}

/* Room for every node the text can hold, taken at the first node (only the memory written is
 * ever touched), so that the arrays never grow.  A leaf takes one character at the least (its
 * number), an internal node two (its brackets), and two leaves side by side one more between
 * them; so L leaves and I internal nodes take at least L + 2I characters and at least 2L + 1
 * (a node's leaves between its internal children: "(1(2)3(4)5)"), three times the text at
 * least 4(L + I) + 1: a text of len characters holds fewer than 3 len / 4 + 1 nodes. */
static int reserve(Builder *B) {
    size_t cap = (size_t)B->len / 4 * 3 + 3;
    if ((node_t)cap > B->max_nodes)
        cap = (size_t)B->max_nodes + 1;
    size_t item = B->wide ? sizeof(int64_t) : sizeof(int32_t);
    B->end = gt_malloc(cap * item);
    B->val = gt_malloc(cap * sizeof *B->val);
    B->depth = gt_malloc(cap * sizeof *B->depth);
    if (!B->end || !B->val || !B->depth) {
        PyErr_NoMemory();
        return -1;
    }
    B->cap = cap;
    return 0;
}

/* a new node's number, or DECLINE past the node limit */
static int new_node(Builder *B, node_t *n) {
    if ((node_t)B->size >= B->max_nodes)
        return DECLINE;
    if (B->size == B->cap) {
        if (B->cap)
            return DECLINE; /* more nodes than the text can hold: never */
        if (reserve(B) < 0)
            return -1;
    }
    if (tick(&B->tk, 0) < 0)
        return -1;
    *n = (node_t)B->size;
    return 0;
}

static void set_end(Builder *B, node_t n, node_t e) {
    if (B->wide)
        ((int64_t *)B->end)[n] = e;
    else
        ((int32_t *)B->end)[n] = (int32_t)e;
}

static int set_value(Builder *B, node_t n, double v, int is_float) {
    B->val[n] = v;
    if (is_float && !B->fl) {
        B->fl = gt_calloc(B->cap, 1);
        if (!B->fl) {
            PyErr_NoMemory();
            return -1;
        }
    }
    if (B->fl)
        B->fl[n] = (unsigned char)is_float;
    return 0;
}

static uint64_t hash_name(node_t parent, const char *s, Py_ssize_t n) {
    uint64_t h = 1469598103934665603ull ^ (uint64_t)parent;
    h *= 1099511628211ull;
    for (Py_ssize_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ull;
    }
    return h;
}

static int set_insert(Builder *B, size_t index) {
    const NameRef *r = &B->names[index];
    size_t mask = B->setcap - 1, i = (size_t)hash_name(r->parent, r->s, r->len) & mask;
    while (B->set[i] >= 0) {
        const NameRef *o = &B->names[B->set[i]];
        if (o->parent == r->parent && o->len == r->len && memcmp(o->s, r->s, (size_t)r->len) == 0)
            return DECLINE; /* a sibling has the name */
        i = (i + 1) & mask;
    }
    B->set[i] = (int64_t)index;
    return 0;
}

/* the parent of node n: n is the innermost open node, or its next child */
static node_t parent_of(const Builder *B, node_t n) {
    size_t k = B->nopen;
    if (k && B->open[k - 1] == n)
        k--;
    return k ? B->open[k - 1] : -1;
}

/* TreeBuilder._name(): printable, 1 to 1000 characters, not a sibling's name */
int b_name(Builder *B, node_t n, const char *s, Py_ssize_t len) {
    if (len < 1 || len > MAX_NAME)
        return DECLINE;
    for (Py_ssize_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch < 0x20 || ch > 0x7E)
            return DECLINE;
    }
    if (ROOM(B->names, B->nnames, B->capnames) < 0)
        return -1;
    if (2 * (B->nnames + 1) > B->setcap) {
        size_t cap = B->setcap ? B->setcap * 2 : 1024;
        int64_t *set = gt_malloc(cap * sizeof *set);
        if (!set) {
            PyErr_NoMemory();
            return -1;
        }
        memset(set, 0xFF, cap * sizeof *set);
        gt_free(B->set);
        B->set = set;
        B->setcap = cap;
        for (size_t k = 0; k < B->nnames; k++)
            set_insert(B, k); /* the names so far differ from their siblings' */
    }
    NameRef *r = &B->names[B->nnames];
    r->node = n;
    r->parent = parent_of(B, n);
    r->s = s;
    r->len = len;
    TRY(set_insert(B, B->nnames));
    B->nnames++;
    return 0;
}

static int add_name(Builder *B, node_t n, Py_ssize_t off, Py_ssize_t len) {
    return len < 0 ? 0 : b_name(B, n, B->text + off, len);
}

int b_open(Builder *B, Py_ssize_t name_off, Py_ssize_t name_len, int has_static, double v,
           int is_float) {
    node_t n;
    TRY(new_node(B, &n));
    TRY(add_name(B, n, name_off, name_len));
    if (ROOM(B->open, B->nopen, B->capopen) < 0)
        return -1;
    set_end(B, n, 0);
    TRY(set_value(B, n, has_static ? v : NAN, has_static && is_float));
    B->depth[n] = (int32_t)B->nopen;
    B->open[B->nopen++] = n;
    B->size++;
    return 0;
}

int b_leaf(Builder *B, double v, int is_float, Py_ssize_t name_off, Py_ssize_t name_len) {
    node_t n;
    TRY(new_node(B, &n));
    TRY(add_name(B, n, name_off, name_len));
    set_end(B, n, n + 1);
    TRY(set_value(B, n, v, is_float));
    B->depth[n] = (int32_t)B->nopen;
    B->size++;
    B->n_leaves++;
    return 0;
}

int b_close(Builder *B) {
    node_t n = B->open[--B->nopen];
    if ((node_t)B->size == n + 1)
        return DECLINE; /* an empty list */
    set_end(B, n, (node_t)B->size);
    return 0;
}

int b_label(Builder *B, node_t n, Py_ssize_t name_off, Py_ssize_t name_len, int has_static,
            double v, int is_float) {
    if (has_static)
        TRY(set_value(B, n, v, is_float));
    return add_name(B, n, name_off, name_len);
}

int number_value(const char *tok, Py_ssize_t len, int is_int_syntax, double *v, int *is_float) {
    int neg = tok[0] == '-';
    Py_ssize_t i = (tok[0] == '-' || tok[0] == '+') ? 1 : 0;
    if (is_int_syntax) {
        uint64_t mag = 0;
        if (len - i > 16)
            return DECLINE; /* beyond +-2**53: the Python reader says so */
        for (; i < len; i++)
            mag = mag * 10 + (uint64_t)(tok[i] - '0');
        if (mag > MAX_EXACT)
            return DECLINE;
        int64_t x = neg ? -(int64_t)mag : (int64_t)mag; /* -0 is the integer 0 */
        *v = (double)x;
        *is_float = 0;
        return 0;
    }
    char buf[512];
    if (len - i >= (Py_ssize_t)sizeof buf)
        return DECLINE;
    memcpy(buf, tok + i, (size_t)(len - i));
    buf[len - i] = '\0';
    char *stop = NULL;
    double x = PyOS_string_to_double(buf, &stop, NULL); /* what float() does */
    if (x == -1.0 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_MemoryError))
            return -1;
        PyErr_Clear();
        return DECLINE;
    }
    if (stop != buf + (len - i) || !isfinite(x))
        return DECLINE;
    *v = neg ? -x : x;
    *is_float = 1;
    return 0;
}

/* -- the result ----------------------------------------------------------------------------------- */
static PyObject *ascii_str(const char *s, Py_ssize_t len) {
    PyObject *u = PyUnicode_New(len, 127);
    if (u)
        memcpy(PyUnicode_1BYTE_DATA(u), s, (size_t)len);
    return u;
}

/* title or description: its own string, a slice of the text, or None (len -1) */
static PyObject *text_field(const Builder *B, PyObject *own, Py_ssize_t off, Py_ssize_t len) {
    if (own)
        return Py_NewRef(own);
    return len >= 0 ? ascii_str(B->text + off, len) : Py_NewRef(Py_None);
}

static PyObject *names_dict(Builder *B) {
    PyObject *d = PyDict_New();
    if (!d)
        return NULL;
    for (size_t k = 0; k < B->nnames; k++) {
        if (tick(&B->tk, 0) < 0)
            goto fail;
        const NameRef *r = &B->names[k];
        PyObject *key = PyLong_FromLongLong(r->node);
        PyObject *name = key ? ascii_str(r->s, r->len) : NULL;
        int rc = name ? PyDict_SetItem(d, key, name) : -1;
        Py_XDECREF(key);
        Py_XDECREF(name);
        if (rc < 0)
            goto fail;
    }
    return d;
fail:
    Py_DECREF(d);
    return NULL;
}

PyObject *b_result(Builder *B) {
    size_t size = B->size;
    PyObject *end = NULL, *val = NULL, *fl = NULL, *depth = NULL, *names = NULL;
    PyObject *title = NULL, *desc = NULL, *expect = NULL, *result = NULL;
    /* each array is copied, then its buffer freed, before the next: a lower peak */
    end = take_array(B->wide ? "q" : "i", &B->end, size * (B->wide ? 8 : 4));
    if (!end)
        goto done;
    val = take_array("d", &B->val, size * sizeof(double));
    if (!val)
        goto done;
    if (B->fl && memchr(B->fl, 1, size)) {
        fl = PyByteArray_FromStringAndSize((const char *)B->fl, (Py_ssize_t)size);
        if (!fl)
            goto done;
    } else {
        fl = Py_NewRef(Py_None);
    }
    gt_free(B->fl);
    B->fl = NULL;
    depth = take_array("i", &B->depth, size * sizeof(int32_t));
    if (!depth)
        goto done;
    names = names_dict(B);
    if (!names)
        goto done;
    title = text_field(B, B->title_obj, B->title_off, B->title_len);
    desc = text_field(B, B->desc_obj, B->desc_off, B->desc_len);
    if (!title || !desc)
        goto done;
    if (!B->has_expect)
        expect = Py_NewRef(Py_None);
    else if (B->expect_float)
        expect = PyFloat_FromDouble(B->expect);
    else
        expect = PyLong_FromLongLong((long long)B->expect);
    if (!expect)
        goto done;
    result = Py_BuildValue("OOOOOLOOOOsn", end, val, fl, depth, names, (long long)B->n_leaves,
                           B->root_max ? Py_True : Py_False, title, desc, expect,
                           B->root < 0 ? NULL : (B->root ? "max" : "min"), B->expect_off);
done:
    Py_XDECREF(end);
    Py_XDECREF(val);
    Py_XDECREF(fl);
    Py_XDECREF(depth);
    Py_XDECREF(names);
    Py_XDECREF(title);
    Py_XDECREF(desc);
    Py_XDECREF(expect);
    return result;
}

PyObject *b_finish(Builder *B, int rc) {
    if (rc == 0)
        rc = b_check_text(B);
    if (rc == 0 && B->size > 0 && B->nopen == 0)
        return b_result(B);
    return rc >= 0 ? Py_NewRef(Py_None) : NULL;
}
