/* Block YAML tree files, accept-only: the subset gtsearch's writer and people write, read by
 * indentation into the shape events of load_mapping.c.
 *
 * Taken: block mappings and sequences (a sequence may sit at its key's indentation, and
 * "- - 1", "- name: x" open collections on the entry's line), plain scalars on one line,
 * quoted scalars on one line without escapes ('it''s' and "\n" are the Python reader's),
 * comments, a "---" line first, flow collections (load_mapping.c's tokenizer) as a value
 * or an entry, and the folded or literal text of a title or description (">", ">-", "|",
 * "|-", lines at one indentation).  A number is -?(0|[1-9][0-9]*)(\.[0-9]+([eE][-+][0-9]+)?)?
 * (YAML 1.1 reads these as PyYAML's SafeLoader does, its writer writes them); any other
 * scalar where a number goes is declined, and the Python reader says what it is.
 * Declined: tabs and carriage returns anywhere, anchors, aliases, tags, directives, "?"
 * keys, a second document, a scalar continued on the next line, any line that is not at an
 * open collection's indentation, an empty value (null), a flow collection nested 10,000
 * deep (yamlfmt's BLOCK_FLOW_DEPTH), and any error at all.  Nothing here recurses: the open collections are an array.
 */
#include "load_mapping.h"

typedef struct {
    Py_ssize_t indent;
    unsigned char seq, indentless; /* a sequence at its key's indentation */
} Block;

typedef struct {
    P *p;
    const char *t;
    Py_ssize_t n;
    Block *blocks;
    size_t nb, capb;
    /* a value is still to come (after "key:" or "-" at the end of a line): it must start on
     * a line indented deeper than `pind`, or (`pmap`, after a key) be a sequence at `pind` */
    int pending, pmap;
    Py_ssize_t pind;
} BK;

/* libyaml's refusal of a flow collection nested this deep in a block document (yamlfmt's
 * BLOCK_FLOW_DEPTH): the Python reader says so */
#define BLOCK_FLOW_DEPTH 10000

static inline int blank_or_end(const BK *k, Py_ssize_t i) {
    return i >= k->n || k->t[i] == ' ' || k->t[i] == '\n';
}

static inline Py_ssize_t line_end(const BK *k, Py_ssize_t i) {
    const char *e = memchr(k->t + i, '\n', (size_t)(k->n - i));
    return e ? e - k->t : k->n;
}

/* the start of the line after the one i is on (n at the last line) */
static inline Py_ssize_t next_line(const BK *k, Py_ssize_t i) {
    Py_ssize_t e = line_end(k, i);
    return e < k->n ? e + 1 : k->n;
}

/* After a token ending at i: blanks, then the end of the line or a comment after a blank.
 * The start of the next line, or -1. */
static Py_ssize_t line_rest(const BK *k, Py_ssize_t i) {
    Py_ssize_t j = i;
    while (j < k->n && k->t[j] == ' ')
        j++;
    if (j >= k->n)
        return k->n;
    if (k->t[j] == '\n' || (k->t[j] == '#' && j > i))
        return next_line(k, j);
    return -1;
}

static int open_block(BK *k, Py_ssize_t indent, int seq, int indentless) {
    if (ROOM(k->blocks, k->nb, k->capb) < 0)
        return -1;
    Block *b = &k->blocks[k->nb++];
    b->indent = indent;
    b->seq = (unsigned char)seq;
    b->indentless = (unsigned char)indentless;
    return seq ? ev_seq_start(k->p) : ev_map_start(k->p);
}

static int close_block(BK *k) {
    return k->blocks[--k->nb].seq ? ev_seq_end(k->p) : ev_map_end(k->p);
}

static inline int is_entry(const BK *k, Py_ssize_t c) {
    return k->t[c] == '-' && blank_or_end(k, c + 1);
}

/* A scalar on one line at c: quoted without escapes, or plain (not starting with an
 * indicator).  *after: where it ends (after the ':' of a key); *is_key: a ':' and a blank
 * (or the line's end) follow it.  A plain scalar of number syntax is a number. */
static int block_scalar(const BK *k, Py_ssize_t c, Scalar *s, Py_ssize_t *after, int *is_key) {
    const char *t = k->t;
    Py_ssize_t n = k->n, e = line_end(k, c), j;
    char ch = t[c];
    *is_key = 0;
    memset(s, 0, sizeof *s);
    if (ch == '"' || ch == '\'') {
        for (j = c + 1; j < e && t[j] != ch; j++)
            if (t[j] == '\\' && ch == '"')
                return DECLINE;
        if (j >= e || (j + 1 < n && t[j + 1] == ch))
            return DECLINE; /* not closed on the line, or 'it''s' */
        s->off = c + 1;
        s->len = j - (c + 1);
        j++;
        if (j < n && t[j] == ':' && blank_or_end(k, j + 1)) {
            *is_key = 1;
            j++;
        }
        *after = j;
        return 0;
    }
    if (strchr("-?:,[]{}#&*!|>'\"%@`", ch) && !(ch == '-' && !blank_or_end(k, c + 1)))
        return DECLINE;
    Py_ssize_t stop = e;
    for (j = c; j < e; j++) {
        if (t[j] == ':' && blank_or_end(k, j + 1)) {
            *is_key = 1;
            stop = j;
            break;
        }
        if (t[j] == '#' && t[j - 1] == ' ') {
            stop = j;
            break;
        }
    }
    Py_ssize_t colon = stop;
    while (stop > c && t[stop - 1] == ' ')
        stop--;
    *after = *is_key ? colon + 1 : stop;
    s->off = c;
    s->len = stop - c;
    int is_int;
    if (yaml_number_end(t, c, stop, &is_int) == stop) {
        s->is_num = 1;
        TRY(number_value(t + c, s->len, is_int, &s->v, &s->is_float));
    }
    return 0;
}

/* A flow collection at c, the rest of its last line blank; its other lines deeper than the
 * innermost block (a line at or left of it ends the block in libyaml's eyes). */
static int flow_value(BK *k, Py_ssize_t c, Py_ssize_t *next) {
    Py_ssize_t stop, floor = k->nb ? k->blocks[k->nb - 1].indent : -1;
    TRY(flow_collection(k->p, c, &stop));
    for (Py_ssize_t i = c; i < stop; i++) {
        if (k->t[i] != '\n')
            continue;
        Py_ssize_t j = i + 1;
        while (j < stop && k->t[j] == ' ')
            j++;
        if (j - (i + 1) <= floor && k->t[j] != '\n')
            return DECLINE;
    }
    *next = line_rest(k, stop);
    return *next < 0 ? DECLINE : 0;
}

/* The text of a title or description written ">", ">-", "|" or "|-" at c (the indicator),
 * its lines at one indentation deeper than the mapping's; *next: the line after it. */
static int text_block(BK *k, Py_ssize_t c, Py_ssize_t *next) {
    const char *t = k->t;
    Py_ssize_t n = k->n, i = c + 1;
    Ctx *ctx = top(k->p);
    int folded = t[c] == '>', strip = 0;
    if (ctx->key != K_TITLE && ctx->key != K_DESC)
        return DECLINE;
    if (i < n && t[i] == '-') {
        strip = 1;
        i++;
    }
    i = line_rest(k, i);
    if (i < 0 || i >= n)
        return DECLINE;
    Py_ssize_t first = i, d = 0, last = -1;
    while (first + d < n && t[first + d] == ' ')
        d++;
    if (d <= k->blocks[k->nb - 1].indent || first + d >= n || t[first + d] == '\n')
        return DECLINE;
    /* the lines: at indentation d, or empty; the first line left of d ends it */
    for (i = first; i < n;) {
        Py_ssize_t s = 0;
        while (i + s < n && t[i + s] == ' ')
            s++;
        if (i + s < n && t[i + s] == '\n' && s == 0) {
            i++;
            continue;
        }
        if (s < d && i + s < n && t[i + s] != '\n')
            break;
        Py_ssize_t e = line_end(k, i);
        if (s != d || t[e - 1] == ' ')
            return DECLINE; /* deeper, blanks only, or blanks at the end */
        last = e;
        i = e < n ? e + 1 : n;
    }
    char *buf = gt_malloc((size_t)(last - first) + 2);
    if (!buf) {
        PyErr_NoMemory();
        return -1;
    }
    size_t len = 0;
    Py_ssize_t breaks = -1; /* line breaks since the last line's text; -1 before the first */
    for (Py_ssize_t j = first; j < last;) {
        if (t[j] == '\n') {
            breaks++;
            j++;
            continue;
        }
        if (breaks >= 0) {
            /* folded: one break is a space, more are all but the first */
            if (folded && breaks == 0)
                buf[len++] = ' ';
            for (Py_ssize_t b = folded ? 1 : 0; b <= breaks; b++)
                buf[len++] = '\n';
        }
        Py_ssize_t e = line_end(k, j);
        memcpy(buf + len, t + j + d, (size_t)(e - j - d));
        len += (size_t)(e - j - d);
        breaks = 0;
        j = e;
        if (j < last)
            j++;
    }
    if (!strip && last < n)
        buf[len++] = '\n'; /* "clip": the last line's break */
    PyObject *u = PyUnicode_DecodeASCII(buf, (Py_ssize_t)len, NULL);
    gt_free(buf);
    if (!u)
        return -1;
    Builder *B = &k->p->B;
    if (ctx->key == K_TITLE) {
        B->title_obj = u;
        B->title_len = 0;
    } else {
        B->desc_obj = u;
        B->desc_len = 0;
    }
    ctx->key = K_NONE;
    *next = i;
    return 0;
}

/* After "key:" or "-", the blanks from *v skipped: at the line's end or a comment the value
 * is pending (1; *next: the next line), else 0 with *v at the value */
static int value_pending(BK *k, Py_ssize_t *v, int pmap, Py_ssize_t pind, Py_ssize_t *next) {
    Py_ssize_t i = *v;
    while (i < k->n && k->t[i] == ' ')
        i++;
    *v = i;
    if (i < k->n && k->t[i] != '\n' && k->t[i] != '#')
        return 0;
    k->pending = 1;
    k->pmap = pmap;
    k->pind = pind;
    *next = next_line(k, i);
    return 1;
}

static int key_entry(BK *k, Py_ssize_t c, Py_ssize_t *next);

/* A value at c: a flow collection or a scalar; on a node's own line `line` also a mapping's
 * first key, after a key (`line` -1) also a title's or description's text */
static int value_at(BK *k, Py_ssize_t line, Py_ssize_t c, Py_ssize_t *next) {
    char ch = k->t[c];
    if (ch == '[' || ch == '{')
        return flow_value(k, c, next);
    if (line < 0 && (ch == '|' || ch == '>'))
        return text_block(k, c, next);
    Scalar s;
    Py_ssize_t after;
    int is_key;
    TRY(block_scalar(k, c, &s, &after, &is_key));
    if (is_key) {
        if (line < 0)
            return DECLINE; /* "a: b: c" */
        TRY(open_block(k, c - line, 0, 0));
        return key_entry(k, c, next);
    }
    TRY(ev_scalar(k->p, &s));
    *next = line_rest(k, after);
    return *next < 0 ? DECLINE : 0;
}

/* A key at c in the mapping on top, and its value on the line or pending */
static int key_entry(BK *k, Py_ssize_t c, Py_ssize_t *next) {
    Scalar s;
    Py_ssize_t after;
    int is_key;
    TRY(block_scalar(k, c, &s, &after, &is_key));
    if (!is_key || k->t[c] == '\'')
        return DECLINE;
    TRY(ev_key(k->p, &s));
    if (value_pending(k, &after, 1, k->blocks[k->nb - 1].indent, next))
        return 0;
    return value_at(k, -1, after, next);
}

enum { N_NEW, N_INDENTLESS, N_ENTRY };

/* A node starting at c on line `line`; its entries open sequences ("- - 1"), then a flow
 * collection, a mapping's first key or a scalar follows, or the last entry's node is
 * pending.  N_INDENTLESS: an entry at its key's indentation opens the sequence; N_ENTRY: an
 * entry of the sequence on top. */
static int node_at(BK *k, Py_ssize_t line, Py_ssize_t c, int mode, Py_ssize_t *next) {
    if (mode != N_NEW && !is_entry(k, c))
        return DECLINE;
    while (is_entry(k, c)) {
        if (mode != N_ENTRY)
            TRY(open_block(k, c - line, 1, mode == N_INDENTLESS));
        mode = N_NEW;
        Py_ssize_t v = c + 1;
        if (value_pending(k, &v, 0, c - line, next))
            return 0;
        c = v;
    }
    return value_at(k, line, c, next);
}

/* the line at i: 0 and *c at its first character (its indentation c - i), or 1 when it is
 * blank or a comment */
static int content(const BK *k, Py_ssize_t i, Py_ssize_t *c) {
    Py_ssize_t j = i;
    while (j < k->n && k->t[j] == ' ')
        j++;
    *c = j;
    return j >= k->n || k->t[j] == '\n' || k->t[j] == '#';
}

static int marker(const BK *k, Py_ssize_t i, char ch) {
    return i + 3 <= k->n && k->t[i] == ch && k->t[i + 1] == ch && k->t[i + 2] == ch &&
           blank_or_end(k, i + 3);
}

/* the deepest nesting of brackets in the text, as yamlfmt's deep_flow() counts them */
static int too_deep_flow(const BK *k) {
    Py_ssize_t depth = 0;
    for (Py_ssize_t i = 0; i < k->n; i++) {
        char ch = k->t[i];
        if (ch == '[' || ch == '{') {
            if (++depth >= BLOCK_FLOW_DEPTH)
                return 1;
        } else if (ch == ']' || ch == '}') {
            depth--;
        }
    }
    return 0;
}

static int lines(BK *k) {
    const char *t = k->t;
    Py_ssize_t n = k->n, i = 0, c;
    if (memchr(t, '\t', (size_t)n) || memchr(t, '\r', (size_t)n) || too_deep_flow(k))
        return DECLINE;
    while (i < n && content(k, i, &c))
        i = next_line(k, i);
    if (i < n && marker(k, i, '-')) {
        i = line_rest(k, i + 3);
        if (i < 0)
            return DECLINE; /* "--- value" */
    }
    TRY(push_ctx(k->p, C_TOP));
    k->pending = 1;
    k->pind = -1;
    int root_done = 0;
    while (i < n) {
        if (content(k, i, &c)) {
            i = next_line(k, i);
            continue;
        }
        Py_ssize_t ind = c - i;
        if (root_done || (ind == 0 && (marker(k, i, '-') || marker(k, i, '.'))))
            return DECLINE;
        if (k->pending) {
            k->pending = 0;
            int mode = N_NEW;
            if (ind <= k->pind) {
                if (!(k->pmap && ind == k->pind))
                    return DECLINE; /* an empty value: null */
                mode = N_INDENTLESS;
            }
            TRY(node_at(k, i, c, mode, &i));
        } else {
            while (k->nb && k->blocks[k->nb - 1].indent > ind)
                TRY(close_block(k));
            if (k->nb && k->blocks[k->nb - 1].indentless && !is_entry(k, c))
                TRY(close_block(k));
            if (!k->nb || k->blocks[k->nb - 1].indent != ind)
                return DECLINE;
            if (k->blocks[k->nb - 1].seq)
                TRY(node_at(k, i, c, N_ENTRY, &i));
            else
                TRY(key_entry(k, c, &i));
        }
        root_done = !k->nb && !k->pending;
    }
    if (k->pending)
        return DECLINE;
    while (k->nb)
        TRY(close_block(k));
    return k->p->nctx == 1 && k->p->ctx[0].done ? 0 : DECLINE;
}

int run_block(P *p) {
    BK k;
    memset(&k, 0, sizeof k);
    k.p = p;
    k.t = p->B.text;
    k.n = p->B.len;
    int rc = lines(&k);
    gt_free(k.blocks);
    return rc;
}
