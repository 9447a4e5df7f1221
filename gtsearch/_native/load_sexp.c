/* S-expression tree files, accept-only: gtsearch.formats.sexp's reader, phase for phase.
 *
 * Bare lists of numbers, names (a symbol or a string first in a list), ":value N" static
 * values, named leaves "(name . N)" and "(name :value N)", the "(tree :root ... node)"
 * wrapper and ';' comments.  Strings with escapes, and anything the Python reader would
 * refuse, are declined: the Python reader then reads the file and words the problem.
 */
#include "core.h"

enum { S_START, S_NAMED, S_VALUE_KW, S_HAS_VALUE, S_DOT_NEXT, S_DOTTED, S_KIDS, S_WRAP, S_WRAP_KW };
enum { A_INT, A_FLOAT, A_STRING, A_SYMBOL, A_KEYWORD, A_DOT };
enum { KW_VALUE, KW_ROOT, KW_TITLE, KW_DESC, KW_EXPECT, KW_OTHER };

typedef struct {
    int phase, top, has_name, has_static, static_float, has_tree, kw;
    unsigned seen; /* wrapper keywords given */
    Py_ssize_t name_off, name_len;
    double static_v;
} Frame;

typedef struct {
    int kind, is_float;
    double v;
    Py_ssize_t off, len; /* the atom's text; a string's contents */
} Atom;

static inline int sspace(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'; }
static inline int sdelim(char ch) {
    return sspace(ch) || ch == '(' || ch == ')' || ch == '"' || ch == ';';
}

static int is_word(const char *s, Py_ssize_t n, const char *word) {
    return n == (Py_ssize_t)strlen(word) && memcmp(s, word, (size_t)n) == 0;
}

static int lower_is(const char *s, Py_ssize_t n, const char *word) {
    if (n != (Py_ssize_t)strlen(word))
        return 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        char ch = s[i];
        if (ch >= 'A' && ch <= 'Z')
            ch = (char)(ch - 'A' + 'a');
        if (ch != word[i])
            return 0;
    }
    return 1;
}

/* _classify(): the kind (and value) of the atom text[off..off+len); DECLINE for the atoms the
 * Python reader refuses wherever they stand (bad numbers, nan/inf, #t, nil ...) */
static int classify(const Builder *B, Atom *a) {
    const char *s = B->text + a->off;
    Py_ssize_t n = a->len;
    int is_int;
    if (scan_number(s, 0, n, 1, 1, &is_int) == n) { /* the whole atom is a number */
        a->kind = is_int ? A_INT : A_FLOAT;
        return number_value(s, n, is_int, &a->v, &a->is_float);
    }
    if (n == 1 && s[0] == '.') {
        a->kind = A_DOT;
        return 0;
    }
    if (s[0] == ':') {
        a->kind = A_KEYWORD;
        return 0;
    }
    Py_ssize_t i = (s[0] == '+' || s[0] == '-') ? 1 : 0;
    if (lower_is(s + i, n - i, "nan") || lower_is(s + i, n - i, "inf") ||
        lower_is(s + i, n - i, "infinity"))
        return DECLINE; /* not finite */
    if (i < n && (is_digit(s[i]) || (s[i] == '.' && i + 1 < n && is_digit(s[i + 1]))))
        return DECLINE; /* an invalid number */
    if (s[0] == '#' || is_word(s, n, "nil"))
        return DECLINE;
    a->kind = A_SYMBOL;
    return 0;
}

static int keyword(const Builder *B, const Atom *a) {
    const char *s = B->text + a->off;
    if (is_word(s, a->len, ":value"))
        return KW_VALUE;
    if (is_word(s, a->len, ":root"))
        return KW_ROOT;
    if (is_word(s, a->len, ":title"))
        return KW_TITLE;
    if (is_word(s, a->len, ":description"))
        return KW_DESC;
    if (is_word(s, a->len, ":expect"))
        return KW_EXPECT;
    return KW_OTHER;
}

static int push(Frame **fs, size_t *len, size_t *cap, int top) {
    if (ROOM(*fs, *len, *cap) < 0)
        return -1;
    Frame *f = &(*fs)[(*len)++];
    memset(f, 0, sizeof *f);
    f->phase = S_START;
    f->top = top;
    f->name_len = -1;
    return 0;
}

static inline int is_number(const Atom *a) { return a->kind == A_INT || a->kind == A_FLOAT; }

static int run(Builder *B, Frame **fsp, size_t *cap) {
    const char *t = B->text;
    Py_ssize_t n = B->len, pos = 0;
    size_t len = 0;
    int done = 0;
    for (;;) {
        for (;;) { /* blanks and comments */
            while (pos < n && sspace(t[pos]))
                pos++;
            if (pos < n && t[pos] == ';') {
                while (pos < n && t[pos] != '\n')
                    pos++;
                continue;
            }
            break;
        }
        if (pos >= n)
            break;
        if (done)
            return DECLINE; /* more after the tree */
        char ch = t[pos];
        Frame *f = len ? &(*fsp)[len - 1] : NULL;
        if (ch == '(') {
            pos++;
            if (f) {
                int phase = f->phase;
                if (phase == S_START || phase == S_NAMED || phase == S_HAS_VALUE) {
                    TRY(b_open(B, f->name_off, f->has_name ? f->name_len : -1, f->has_static,
                               f->static_v, f->static_float));
                    f->phase = S_KIDS;
                } else if (phase == S_WRAP) {
                    if (f->has_tree)
                        return DECLINE;
                    f->has_tree = 1;
                } else if (phase != S_KIDS) {
                    return DECLINE;
                }
            }
            TRY(push(fsp, &len, cap, f == NULL));
            continue;
        }
        if (ch == ')') {
            pos++;
            if (!f)
                return DECLINE;
            switch (f->phase) {
            case S_KIDS:
                TRY(b_close(B));
                break;
            case S_HAS_VALUE:
                TRY(b_leaf(B, f->static_v, f->static_float, f->name_off,
                           f->has_name ? f->name_len : -1));
                break;
            case S_DOTTED:
                break;
            case S_WRAP:
                if (!f->has_tree)
                    return DECLINE;
                B->root_max = B->root != 0;
                break;
            default: /* an empty list, or a keyword or '.' without its value */
                return DECLINE;
            }
            len--;
            if (!len)
                done = 1;
            continue;
        }
        Atom a;
        if (ch == '"') {
            Py_ssize_t i = plain_string_end(t, n, pos);
            if (i < 0)
                return DECLINE;
            a.kind = A_STRING;
            a.off = pos + 1;
            a.len = i - (pos + 1);
            pos = i + 1;
        } else {
            Py_ssize_t i = pos;
            while (i < n && !sdelim(t[i]))
                i++;
            a.off = pos;
            a.len = i - pos;
            pos = i;
            TRY(classify(B, &a));
        }
        if (!f) { /* a whole document that is one number */
            if (!is_number(&a))
                return DECLINE;
            TRY(b_leaf(B, a.v, a.is_float, 0, -1));
            done = 1;
            continue;
        }
        int phase = f->phase;
        if (phase == S_KIDS) {
            if (!is_number(&a))
                return DECLINE;
            TRY(b_leaf(B, a.v, a.is_float, 0, -1));
            continue;
        }
        if (phase == S_START && (a.kind == A_SYMBOL || a.kind == A_STRING)) {
            if (f->top && a.kind == A_SYMBOL && is_word(t + a.off, a.len, "tree")) {
                f->phase = S_WRAP;
                continue;
            }
            f->has_name = 1;
            f->name_off = a.off;
            f->name_len = a.len;
            f->phase = S_NAMED;
            continue;
        }
        if (phase == S_START || phase == S_NAMED || phase == S_HAS_VALUE) {
            if (a.kind == A_KEYWORD) {
                if (keyword(B, &a) != KW_VALUE || phase == S_HAS_VALUE)
                    return DECLINE;
                f->phase = S_VALUE_KW;
                continue;
            }
            if (a.kind == A_DOT) {
                if (phase != S_NAMED)
                    return DECLINE;
                f->phase = S_DOT_NEXT;
                continue;
            }
            if (!is_number(&a))
                return DECLINE;
            TRY(b_open(B, f->name_off, f->has_name ? f->name_len : -1, f->has_static, f->static_v,
                       f->static_float));
            TRY(b_leaf(B, a.v, a.is_float, 0, -1));
            f->phase = S_KIDS;
            continue;
        }
        if (phase == S_VALUE_KW) {
            if (!is_number(&a))
                return DECLINE;
            f->has_static = 1;
            f->static_v = a.v;
            f->static_float = a.is_float;
            f->phase = S_HAS_VALUE;
            continue;
        }
        if (phase == S_DOT_NEXT) {
            if (!is_number(&a))
                return DECLINE;
            TRY(b_leaf(B, a.v, a.is_float, f->name_off, f->has_name ? f->name_len : -1));
            f->phase = S_DOTTED;
            continue;
        }
        if (phase == S_WRAP) {
            if (a.kind == A_KEYWORD) {
                int kw = keyword(B, &a);
                if (kw == KW_VALUE || kw == KW_OTHER || (f->seen & (1u << kw)))
                    return DECLINE;
                f->seen |= 1u << kw;
                f->kw = kw;
                f->phase = S_WRAP_KW;
                if (kw == KW_EXPECT)
                    B->expect_off = a.off;
                continue;
            }
            if (!is_number(&a) || f->has_tree)
                return DECLINE;
            f->has_tree = 1;
            TRY(b_leaf(B, a.v, a.is_float, 0, -1));
            continue;
        }
        if (phase == S_WRAP_KW) {
            int text = a.kind == A_SYMBOL || a.kind == A_STRING;
            if (f->kw == KW_EXPECT) {
                if (!is_number(&a))
                    return DECLINE;
                B->has_expect = 1;
                B->expect = a.v;
                B->expect_float = a.is_float;
            } else if (f->kw == KW_ROOT) {
                if (!text)
                    return DECLINE;
                if (is_word(t + a.off, a.len, "max"))
                    B->root = 1;
                else if (is_word(t + a.off, a.len, "min"))
                    B->root = 0;
                else
                    return DECLINE;
            } else {
                if (!text)
                    return DECLINE;
                if (f->kw == KW_TITLE) {
                    B->title_off = a.off;
                    B->title_len = a.len;
                } else {
                    B->desc_off = a.off;
                    B->desc_len = a.len;
                }
            }
            f->phase = S_WRAP;
            continue;
        }
        return DECLINE; /* S_DOTTED: only ')' may follow */
    }
    return (len || !done) ? DECLINE : 0;
}

PyObject *gt_load_sexp(PyObject *self, PyObject *args) {
    (void)self;
    Builder B;
    Frame *frames = NULL;
    size_t cap = 0;
    int rc = b_init_args(&B, args);
    if (rc == 0)
        rc = run(&B, &frames, &cap);
    PyObject *result = b_finish(&B, rc);
    gt_free(frames);
    b_free(&B);
    return result;
}
