/* JSON and flow YAML tree files, accept-only: gtsearch.formats.jsonfmt, .yaml_flow, .shape.
 *
 * Two tokenizers (JSON's and flow YAML's) feed one copy of the shape rules of
 * gtsearch.formats.shape.Shape: a number is a leaf, a list an internal node, a mapping a
 * node with name/value/children, a top-level mapping whose first key is tree, root,
 * title, description or expect the document wrapper.  They take the documents gtsearch's
 * writers and generators produce, and more, but anything doubtful (escapes in strings,
 * YAML anchors, tags, odd scalars, any error at all) is declined: the Python reader then
 * reads the document and words what is wrong.  So a document either gives the very tree
 * the Python reader gives, or goes to it.
 */
#include "load_mapping.h"

int push_ctx(P *p, unsigned char kind) {
    if (ROOM(p->ctx, p->nctx, p->capctx) < 0)
        return -1;
    Ctx *c = &p->ctx[p->nctx++];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->node = -1;
    c->name_len = -1;
    return 0;
}

static int key_id(const char *s, Py_ssize_t n) {
    static const char *names[] = {"", "name", "value", "children", "tree", "root", "title",
                                  "description", "expect"};
    for (int k = K_NAME; k <= K_EXPECT; k++)
        if ((Py_ssize_t)strlen(names[k]) == n && memcmp(names[k], s, (size_t)n) == 0)
            return k;
    return K_NONE;
}

static int text_is(const P *p, const Scalar *s, const char *word) {
    return s->len == (Py_ssize_t)strlen(word) &&
           memcmp(p->B.text + s->off, word, (size_t)s->len) == 0;
}

/* Shape._node_slot(): whether the next value is a node */
static int node_slot(const Ctx *c) {
    if (c->kind == C_SEQ)
        return 1;
    if (c->kind == C_TOP)
        return !c->done;
    return c->kind == C_WRAP && c->key == K_TREE;
}

static void node_done(P *p) {
    Ctx *c = top(p);
    if (c->kind == C_TOP)
        c->done = 1;
    else if (c->kind == C_WRAP)
        c->key = K_NONE;
}

/* -- Shape's events --------------------------------------------------------------------------- */
int ev_key(P *p, const Scalar *s) {
    Ctx *c = top(p);
    if (!p->yaml && s->is_num)
        return DECLINE;
    int k = key_id(p->B.text + s->off, s->len);
    if (k == K_NONE)
        return DECLINE;
    unsigned bit = 1u << k;
    if (c->kind == C_MAP && c->top && !c->seen && (bit & DOC_KEYS))
        c->kind = C_WRAP; /* the first key says it is the document wrapper */
    if (!(bit & (c->kind == C_MAP ? NODE_KEYS : DOC_KEYS)) || (c->seen & bit))
        return DECLINE;
    c->seen |= bit;
    c->key = (unsigned char)k;
    if (k == K_EXPECT) /* where the key starts: its opening quote when it has one */
        p->B.expect_off = s->off > 0 && p->B.text[s->off - 1] == '"' ? s->off - 1 : s->off;
    return 0;
}

int ev_scalar(P *p, const Scalar *s) {
    Ctx *c = top(p);
    Builder *B = &p->B;
    if (node_slot(c)) {
        if (!s->is_num)
            return DECLINE;
        TRY(b_leaf(B, s->v, s->is_float, 0, -1));
        node_done(p);
        return 0;
    }
    int key = c->key;
    c->key = K_NONE;
    int text_ok = p->yaml || !s->is_num; /* JSON wants strings for text */
    switch (key) {
    case K_NAME:
        if (!text_ok)
            return DECLINE;
        if (c->node >= 0)
            TRY(b_label(B, c->node, s->off, s->len, 0, 0.0, 0));
        c->name_off = s->off;
        c->name_len = s->len;
        return 0;
    case K_VALUE:
        if (!s->is_num)
            return DECLINE;
        if (c->node >= 0)
            TRY(b_label(B, c->node, 0, -1, 1, s->v, s->is_float));
        c->has_static = 1;
        c->static_v = s->v;
        c->static_float = (unsigned char)s->is_float;
        return 0;
    case K_ROOT:
        if (!text_ok || !(text_is(p, s, "max") || text_is(p, s, "min")))
            return DECLINE;
        B->root = text_is(p, s, "max");
        B->root_max = B->root;
        return 0;
    case K_EXPECT:
        if (!s->is_num)
            return DECLINE;
        B->has_expect = 1;
        B->expect = s->v;
        B->expect_float = s->is_float;
        return 0;
    case K_TITLE:
    case K_DESC:
        if (!text_ok)
            return DECLINE;
        if (key == K_TITLE) {
            B->title_off = s->off;
            B->title_len = s->len;
        } else {
            B->desc_off = s->off;
            B->desc_len = s->len;
        }
        return 0;
    default: /* children, or no key */
        return DECLINE;
    }
}

int ev_seq_start(P *p) {
    Ctx *c = top(p);
    node_t n = (node_t)p->B.size;
    if (node_slot(c)) {
        TRY(b_open(&p->B, 0, -1, 0, 0.0, 0));
        TRY(push_ctx(p, C_SEQ));
        top(p)->node = n;
        return 0;
    }
    if (c->kind == C_MAP && c->key == K_CHILDREN) {
        TRY(b_open(&p->B, c->name_off, c->name_len, c->has_static, c->static_v, c->static_float));
        c->node = n;
        TRY(push_ctx(p, C_SEQ));
        top(p)->node = n;
        top(p)->owned = 1;
        return 0;
    }
    return DECLINE;
}

int ev_seq_end(P *p) {
    if (top(p)->kind != C_SEQ)
        return DECLINE;
    TRY(b_close(&p->B));
    int owned = top(p)->owned;
    p->nctx--;
    if (!owned) {
        node_done(p);
    } else {
        Ctx *owner = top(p);
        owner->key = K_NONE;
        owner->has_children = 1;
    }
    return 0;
}

int ev_map_start(P *p) {
    Ctx *c = top(p);
    if (!node_slot(c))
        return DECLINE;
    int at_top = c->kind == C_TOP;
    TRY(push_ctx(p, C_MAP));
    top(p)->top = (unsigned char)at_top;
    return 0;
}

int ev_map_end(P *p) {
    Ctx c = *top(p);
    if (c.kind == C_WRAP) {
        if (!(c.seen & (1u << K_TREE)))
            return DECLINE;
    } else if (c.kind == C_MAP) {
        if (!c.has_children) {
            if (!(c.seen & (1u << K_VALUE)))
                return DECLINE;
            TRY(b_leaf(&p->B, c.static_v, c.static_float, c.name_off, c.name_len));
        }
    } else {
        return DECLINE;
    }
    p->nctx--;
    node_done(p);
    return 0;
}

/* A '[' or '{' (either tokenizer): Shape's start event, and its closing bracket to expect */
static int collection_start(P *p, char ch) {
    if (ROOM(p->closers, p->nclose, p->capclose) < 0)
        return -1;
    p->closers[p->nclose++] = ch == '[' ? ']' : '}';
    return ch == '[' ? ev_seq_start(p) : ev_map_start(p);
}

/* the closing bracket of the innermost collection, or 0 outside any */
static inline char closer(const P *p) { return p->nclose ? p->closers[p->nclose - 1] : 0; }

/* The closing bracket of the innermost collection: Shape's end event */
static int collection_end(P *p) {
    return p->closers[--p->nclose] == ']' ? ev_seq_end(p) : ev_map_end(p);
}

/* -- the tokens -------------------------------------------------------------------------------- */
static inline int json_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'; }

/* characters that may follow a JSON number (the tokenizer's _SEP) */
static const unsigned char JSON_SEP[256] = {
    [' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1, ['['] = 1, [']'] = 1,
    ['{'] = 1, ['}'] = 1, [','] = 1, [':'] = 1, ['"'] = 1,
};

/* may a JSON number end before position i? */
static inline int json_sep(const P *p, Py_ssize_t i) {
    return i >= p->B.len || JSON_SEP[(unsigned char)p->B.text[i]];
}

static inline int yspace(char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n'; }
static inline int yflow(char ch) { return ch == ',' || ch == '[' || ch == ']' || ch == '{' || ch == '}'; }
/* may a plain scalar or a number end before position i (end, blank or flow indicator)? */
static inline int yend(const P *p, Py_ssize_t i) {
    return i >= p->B.len || yspace(p->B.text[i]) || yflow(p->B.text[i]);
}

/* A number at *pos (scan_number), before a separator in JSON, before a blank or a flow
 * indicator in YAML; JSON's may have an exponent, YAML's only YAML 1.1's (1.0e+5; 1e5 and
 * the like: the Python reader decides).  `yaml` is p->yaml, a constant where it is called,
 * so that each tokenizer gets its own copy. */
static inline int number_token(P *p, Py_ssize_t *pos, Scalar *s, int yaml) {
    const char *t = p->B.text;
    Py_ssize_t start = *pos;
    int is_int;
    Py_ssize_t i = yaml ? yaml_number_end(t, start, p->B.len, &is_int)
                        : scan_number(t, start, p->B.len, 0, 1, &is_int);
    if (i < 0 || !(yaml ? yend(p, i) : json_sep(p, i)))
        return DECLINE;
    s->is_num = 1;
    s->off = start;
    s->len = i - start;
    TRY(number_value(t + start, i - start, is_int, &s->v, &s->is_float));
    *pos = i;
    return 0;
}

/* A double-quoted string at *pos without escapes (s->off/len: its contents), on one line;
 * JSON's without control characters either (YAML's control characters other than tabs are
 * declined with the text, by b_check_text()).  `yaml` as for number_token(). */
static inline int string_token(P *p, Py_ssize_t *pos, Scalar *s, int yaml) {
    const char *t = p->B.text;
    Py_ssize_t i = *pos + 1, n = p->B.len;
    while (i < n && t[i] != '"') {
        unsigned char ch = (unsigned char)t[i];
        if (ch == '\\' || ch == '\r' || ch == '\n' || (!yaml && ch < 0x20))
            return DECLINE;
        i++;
    }
    if (i >= n)
        return DECLINE;
    s->is_num = 0;
    s->off = *pos + 1;
    s->len = i - (*pos + 1);
    *pos = i + 1;
    return 0;
}

/* -- JSON --------------------------------------------------------------------------------------- */
enum { J_VALUE, J_FIRST, J_AFTER, J_KEY_FIRST, J_KEY, J_COLON };

static int run_json(P *p) {
    const char *t = p->B.text;
    Py_ssize_t n = p->B.len, pos = 0;
    int state = J_VALUE;
    TRY(push_ctx(p, C_TOP));
    for (;;) {
        while (pos < n && json_space(t[pos]))
            pos++;
        if (pos >= n)
            break;
        char ch = t[pos];
        /* the innermost collection's closing bracket, after a value or right after its
         * opening one */
        if ((state == J_AFTER || state == J_FIRST || state == J_KEY_FIRST) && ch &&
            ch == closer(p)) {
            TRY(collection_end(p));
            state = J_AFTER;
            pos++;
            continue;
        }
        if (state == J_AFTER) {
            if (ch != ',' || !p->nclose)
                return DECLINE;
            state = closer(p) == ']' ? J_VALUE : J_KEY;
            pos++;
            continue;
        }
        if (state == J_VALUE || state == J_FIRST) {
            Scalar s;
            if (ch == '-' || is_digit(ch)) {
                TRY(number_token(p, &pos, &s, 0));
                TRY(ev_scalar(p, &s));
                state = J_AFTER;
            } else if (ch == '"') {
                TRY(string_token(p, &pos, &s, 0));
                TRY(ev_scalar(p, &s));
                state = J_AFTER;
            } else if (ch == '[' || ch == '{') {
                TRY(collection_start(p, ch));
                state = ch == '[' ? J_FIRST : J_KEY_FIRST;
                pos++;
            } else {
                return DECLINE;
            }
            continue;
        }
        if (state == J_COLON) {
            if (ch != ':')
                return DECLINE;
            state = J_VALUE;
            pos++;
            continue;
        }
        /* J_KEY_FIRST or J_KEY */
        if (ch != '"')
            return DECLINE;
        Scalar s;
        TRY(string_token(p, &pos, &s, 0));
        TRY(ev_key(p, &s));
        state = J_COLON;
    }
    return (p->nclose || state != J_AFTER || !p->ctx[0].done) ? DECLINE : 0;
}

/* -- flow YAML ------------------------------------------------------------------------------------- */
/* yaml_flow.WS: blanks, and comments that start after a blank (or at the start) */
static Py_ssize_t yaml_ws(const P *p, Py_ssize_t i) {
    const char *t = p->B.text;
    Py_ssize_t n = p->B.len;
    for (;;) {
        while (i < n && yspace(t[i]))
            i++;
        if (i < n && t[i] == '#' && (i == 0 || yspace(t[i - 1]))) {
            while (i < n && t[i] != '\n' && t[i] != '\r')
                i++;
            continue;
        }
        return i;
    }
}

/* yaml_flow.FLOW_START: where the document's flow collection starts, or -1 */
static Py_ssize_t flow_start(const P *p) {
    const char *t = p->B.text;
    Py_ssize_t n = p->B.len, i = 0;
    for (;;) {
        while (i < n && (t[i] == ' ' || t[i] == '\r' || t[i] == '\n'))
            i++;
        if (i < n && t[i] == '#') {
            while (i < n && t[i] != '\n' && t[i] != '\r')
                i++;
            continue;
        }
        break;
    }
    if (i + 3 <= n && memcmp(t + i, "---", 3) == 0 && (i == 0 || t[i - 1] == '\n') &&
        (i + 3 == n || yspace(t[i + 3])))
        i = yaml_ws(p, i + 3);
    return (i < n && (t[i] == '[' || t[i] == '{')) ? i : -1;
}

static inline int yword(char ch) {
    return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || is_digit(ch) || ch == '_' ||
           ch == '.' || ch == '+' || ch == '/' || ch == '(' || ch == ')' || ch == '-';
}

/* a plain scalar of word characters and blanks, exactly as far as yaml_flow's _PLAIN takes it */
static int yaml_plain(P *p, Py_ssize_t *pos, Scalar *s) {
    const char *t = p->B.text;
    Py_ssize_t n = p->B.len, q = *pos + 1, end;
    for (;;) {
        while (q < n && yword(t[q]))
            q++;
        if (q >= n || t[q] == '\r' || t[q] == '\n' || yflow(t[q])) {
            end = q;
            break;
        }
        if (t[q] == ':') {
            if (!yend(p, q + 1))
                return DECLINE; /* "a:b" goes on as one scalar */
            end = q;
            break;
        }
        if (t[q] == ' ' || t[q] == '\t') {
            Py_ssize_t r = q;
            while (r < n && (t[r] == ' ' || t[r] == '\t'))
                r++;
            if (r >= n || t[r] == '\r' || t[r] == '\n' || yflow(t[r]) || t[r] == '#') {
                end = q;
                break;
            }
            if (t[r] == ':') {
                if (!yend(p, r + 1))
                    return DECLINE;
                end = q;
                break;
            }
            if (!yword(t[r]))
                return DECLINE;
            q = r;
            continue;
        }
        return DECLINE;
    }
    s->is_num = 0;
    s->off = *pos;
    s->len = end - *pos;
    *pos = end;
    return 0;
}

/* a scalar token: a number (-?(0|[1-9][0-9]*)(\.[0-9]+)? before a blank or flow indicator),
 * a double-quoted string on one line without escapes, or a plain word scalar */
static int yaml_scalar(P *p, Py_ssize_t *pos, Scalar *s, int *quoted) {
    char ch = p->B.text[*pos];
    *quoted = ch == '"';
    if (ch == '-' || is_digit(ch))
        return number_token(p, pos, s, 1);
    if (ch == '"')
        return string_token(p, pos, s, 1);
    if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == '_')
        return yaml_plain(p, pos, s);
    return DECLINE;
}

enum { Y_VALUE, Y_ITEM, Y_AFTER, Y_KEY, Y_COLON };

int flow_collection(P *p, Py_ssize_t pos, Py_ssize_t *stop) {
    const char *t = p->B.text;
    Py_ssize_t n = p->B.len, key_end = 0;
    int state = Y_VALUE, key_quoted = 0;
    for (;;) {
        pos = yaml_ws(p, pos);
        if (pos >= n)
            return DECLINE; /* a collection is not closed */
        char ch = t[pos];
        char bracket = closer(p); /* the innermost collection's closing one */
        if (state == Y_VALUE && bracket == '}' && (ch == ',' || ch == '}'))
            return DECLINE; /* "key:" with nothing after it: null */
        /* the innermost collection's closing bracket, after a value, right after its opening
         * one, or after a trailing comma */
        if (bracket && ch == bracket && (state == Y_AFTER || state == Y_ITEM || state == Y_KEY)) {
            TRY(collection_end(p));
            state = Y_AFTER;
            pos++;
            if (!p->nclose)
                break;
            continue;
        }
        if (state == Y_AFTER) {
            if (ch != ',')
                return DECLINE;
            state = bracket == ']' ? Y_ITEM : Y_KEY;
            pos++;
            continue;
        }
        if (state == Y_VALUE || state == Y_ITEM) {
            if (ch == '[' || ch == '{') {
                TRY(collection_start(p, ch));
                state = ch == '[' ? Y_ITEM : Y_KEY;
                pos++;
                continue;
            }
            Scalar s;
            int quoted;
            TRY(yaml_scalar(p, &pos, &s, &quoted));
            TRY(ev_scalar(p, &s));
            state = Y_AFTER;
            continue;
        }
        if (state == Y_KEY) {
            Scalar s;
            TRY(yaml_scalar(p, &pos, &s, &key_quoted));
            TRY(ev_key(p, &s));
            key_end = pos;
            state = Y_COLON;
            continue;
        }
        /* Y_COLON: on the key's line; after a plain key, followed by a blank */
        if (ch != ':' || memchr(t + key_end, '\n', (size_t)(pos - key_end)) ||
            memchr(t + key_end, '\r', (size_t)(pos - key_end)))
            return DECLINE;
        if (!key_quoted && !(pos + 1 >= n || yspace(t[pos + 1])))
            return DECLINE;
        state = Y_VALUE;
        pos++;
    }
    *stop = pos;
    return 0;
}

static int run_yaml(P *p) {
    const char *t = p->B.text;
    Py_ssize_t n = p->B.len, pos = flow_start(p);
    if (pos < 0)
        return run_block(p); /* a block document */
    TRY(push_ctx(p, C_TOP));
    TRY(flow_collection(p, pos, &pos));
    /* after the collection: comments, and "..." (the end of the document) */
    pos = yaml_ws(p, pos);
    if (pos + 3 <= n && memcmp(t + pos, "...", 3) == 0 && (pos == 0 || t[pos - 1] == '\n') &&
        (pos + 3 == n || yspace(t[pos + 3])))
        pos = yaml_ws(p, pos + 3);
    return (pos < n || !p->ctx[0].done) ? DECLINE : 0;
}

PyObject *gt_load_mapping(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *text;
    int yaml, wide;
    long long max_nodes;
    if (!PyArg_ParseTuple(args, "UpLp", &text, &yaml, &max_nodes, &wide))
        return NULL;
    P p;
    memset(&p, 0, sizeof p);
    p.yaml = yaml;
    int rc = b_init(&p.B, text, (node_t)max_nodes, wide);
    if (rc == 0)
        rc = yaml ? run_yaml(&p) : run_json(&p);
    PyObject *result = b_finish(&p.B, rc);
    gt_free(p.ctx);
    gt_free(p.closers);
    b_free(&p.B);
    return result;
}
