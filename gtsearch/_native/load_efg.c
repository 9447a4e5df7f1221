/* Gambit .efg files, accept-only: gtsearch.formats.efg_reader's reader, node for node.
 *
 * The header, decision nodes ('p'), terminals ('t') and their outcomes, read token by token
 * as the Python reader reads them: players 1 (MAX) and 2 (MIN), one node per information
 * set, zero-sum outcomes, payoffs added down the tree, a forced move of the other player
 * put in where a player moves twice (named by the node's label, else "pass"), names from the
 * action labels as written.  Declined, for the Python reader to read or to refuse: chance
 * nodes, strings with escapes, labels repeated among one node's actions (Gambit's suffixes),
 * payoffs written as ratios, a terminal whose value is the sum of a decimal and other payoffs
 * (the Python reader adds them exactly before it rounds), and anything the Python reader
 * refuses.  Its stacks grow by the shared ROOM(), its maps are core.h's.
 */
#include "core.h"

#define MAX_EXACT_INT ((int64_t)1 << 53)
#define MAX_LABEL 1000
/* what the Python reader calls the forced move's node when it has no label of its own */
#define FORCED_MOVE "pass"

enum { T_END, T_STRING, T_OPEN, T_CLOSE, T_COMMA, T_WORD };
enum { PAY_INT, PAY_FLOAT };

typedef struct {
    int kind;             /* T_* */
    Py_ssize_t off, len; /* a word's text, a string's contents */
} Tok;

typedef struct { /* player 1's payoff */
    int kind;    /* PAY_INT, PAY_FLOAT */
    int64_t i;
    double d;
} Pay;

typedef struct { /* an outcome as first given: its label and payoffs as written */
    Py_ssize_t label_off, label_len, t1_off, t1_len, t2_off, t2_len;
    Pay p1;
} Outcome;

typedef struct { /* an open node: its children still to read, the payoffs above them */
    int64_t left, acc; /* acc: the integer payoffs added, exactly */
    int mover;         /* who moves at the next decision node below */
    int floats;        /* decimal payoffs above (their value: fval) */
    double fval;
    size_t acts, next; /* its action labels: acts[acts + next ...] in R.acts */
} Frame;

typedef struct {
    Py_ssize_t off, len;
} Label;

typedef struct {
    Builder B;
    const char *t;
    Py_ssize_t n, pos;
    Map outcomes;  /* number -> Outcome */
    Map infosets;  /* number * 2 + player - 1 -> nothing (seen) */
    Frame *frames;
    size_t nframes, capframes;
    Label *acts; /* the action labels of the open nodes, a stack */
    size_t nacts, capacts;
} R;

/* -- tokens: the Python reader's _TOKEN ----------------------------------------------------- */
static inline int blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'; }
static inline int word_char(char ch) {
    return !blank(ch) && ch != '{' && ch != '}' && ch != ',' && ch != '"';
}

/* the next token (T_END at the end), or DECLINE: a string that does not end, or has an
 * escape (the Python reader unescapes it) */
static int next(R *r, Tok *k) {
    const char *t = r->t;
    Py_ssize_t n = r->n, i = r->pos;
    while (i < n && blank(t[i]))
        i++;
    if (i >= n) {
        r->pos = i;
        k->kind = T_END;
        return 0;
    }
    char ch = t[i];
    if (ch == '"') {
        Py_ssize_t j = plain_string_end(t, n, i);
        if (j < 0)
            return DECLINE;
        k->kind = T_STRING;
        k->off = i + 1;
        k->len = j - i - 1;
        r->pos = j + 1;
        return 0;
    }
    if (ch == '{' || ch == '}' || ch == ',') {
        k->kind = ch == '{' ? T_OPEN : ch == '}' ? T_CLOSE : T_COMMA;
        k->off = i;
        k->len = 1;
        r->pos = i + 1;
        return 0;
    }
    Py_ssize_t j = i;
    while (j < n && word_char(t[j]))
        j++;
    k->kind = T_WORD;
    k->off = i;
    k->len = j - i;
    r->pos = j;
    return 0;
}

/* the next token, which must be of `kind` */
static int expect(R *r, Tok *k, int kind) {
    TRY(next(r, k));
    return k->kind == kind ? 0 : DECLINE;
}

/* whether the next token is a string, the token left to be read */
static int string_follows(R *r) {
    Py_ssize_t i = r->pos;
    while (i < r->n && blank(r->t[i]))
        i++;
    return i < r->n && r->t[i] == '"';
}

static int is_word(const R *r, const Tok *k, const char *w) {
    return k->kind == T_WORD && k->len == (Py_ssize_t)strlen(w) &&
           memcmp(r->t + k->off, w, (size_t)k->len) == 0;
}

/* _INDEX: 1 to 18 digits (players, information sets, outcomes) */
static int index_of(R *r, int64_t *v) {
    Tok k;
    TRY(expect(r, &k, T_WORD));
    if (k.len > 18)
        return DECLINE;
    int64_t x = 0;
    for (Py_ssize_t i = 0; i < k.len; i++) {
        char ch = r->t[k.off + i];
        if (!is_digit(ch))
            return DECLINE;
        x = x * 10 + (ch - '0');
    }
    *v = x;
    return 0;
}

/* whether a payoff as written is exactly zero: no digit but 0 before its exponent */
static int zero_text(const R *r, const Tok *k) {
    for (Py_ssize_t i = 0; i < k->len; i++) {
        char ch = r->t[k->off + i];
        if (ch == 'e' || ch == 'E')
            break;
        if (ch >= '1' && ch <= '9')
            return 0;
    }
    return 1;
}

/* _payoff(): an integer within +-2**53 or a decimal (a finite float; a zero, -0.0 included,
 * is 0.0, as the Python reader's exact fractions have it, and a decimal so small that it
 * rounds to zero is declined); ratios are declined */
static int payoff(R *r, const Tok *k, Pay *p) {
    const char *s = r->t + k->off;
    Py_ssize_t n = k->len, i = 0;
    if (n > 400)
        return DECLINE;
    if (s[0] == '+' || s[0] == '-')
        i++;
    Py_ssize_t digits = i;
    while (i < n && is_digit(s[i]))
        i++;
    int whole = i > digits;
    if (i == n && whole) { /* [+-]?[0-9]+ */
        if (n - digits > 16)
            return DECLINE;
        int64_t x = 0;
        for (Py_ssize_t j = digits; j < n; j++)
            x = x * 10 + (s[j] - '0');
        if (x > MAX_EXACT_INT)
            return DECLINE;
        p->kind = PAY_INT;
        p->i = s[0] == '-' ? -x : x;
        return 0;
    }
    int frac = 0;
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && is_digit(s[i])) {
            i++;
            frac = 1;
        }
    }
    if (!whole && !frac)
        return DECLINE; /* no digits: not a number (or a ratio's syntax) */
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        Py_ssize_t e = i;
        while (i < n && is_digit(s[i]))
            i++;
        if (i == e)
            return DECLINE;
    }
    if (i != n)
        return DECLINE;
    char buf[512];
    memcpy(buf, s, (size_t)n);
    buf[n] = '\0';
    char *stop = NULL;
    double x = PyOS_string_to_double(buf, &stop, NULL);
    if (x == -1.0 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_MemoryError))
            return -1;
        PyErr_Clear();
        return DECLINE;
    }
    if (stop != buf + n || !isfinite(x))
        return DECLINE;
    if (x == 0.0) {
        if (!zero_text(r, k))
            return DECLINE;
        x = 0.0;
    }
    p->kind = PAY_FLOAT;
    p->d = x;
    return 0;
}

static int same_text(const R *r, Py_ssize_t a, Py_ssize_t alen, Py_ssize_t b, Py_ssize_t blen) {
    return alen == blen && memcmp(r->t + a, r->t + b, (size_t)alen) == 0;
}

/* whether the payoffs written t1, t2 add up to 0, as far as this reader can tell exactly:
 * two integers, two zeros, or one the other with a sign put before it ("2.5" and "-2.5") */
static int zero_sum(const R *r, const Tok *t1, const Pay *p1, const Tok *t2, const Pay *p2) {
    if (p1->kind == PAY_INT && p2->kind == PAY_INT)
        return p1->i + p2->i == 0;
    if (zero_text(r, t1) && zero_text(r, t2))
        return 1;
    const char *a = r->t + t1->off, *b = r->t + t2->off;
    int neg_a = a[0] == '-', neg_b = b[0] == '-';
    Py_ssize_t skip_a = (a[0] == '-' || a[0] == '+'), skip_b = (b[0] == '-' || b[0] == '+');
    return neg_a != neg_b &&
           same_text(r, t1->off + skip_a, t1->len - skip_a, t2->off + skip_b, t2->len - skip_b);
}

/* outcome(): a node's outcome, player 1's payoff in *p, or *has 0 for none */
static int outcome(R *r, Pay *p, int *has) {
    int64_t number;
    TRY(index_of(r, &number));
    if (!string_follows(r)) {
        *has = number != 0;
        if (!number)
            return 0;
        const Outcome *o = map_get(&r->outcomes, number);
        if (!o)
            return DECLINE; /* used before its payoffs are given */
        *p = o->p1;
        return 0;
    }
    if (!number)
        return DECLINE;
    Tok label, k, texts[2];
    Pay pays[2];
    int count = 0, comma = 1;
    TRY(expect(r, &label, T_STRING));
    TRY(expect(r, &k, T_OPEN));
    for (;;) {
        TRY(next(r, &k));
        if (k.kind == T_CLOSE)
            break;
        if (k.kind == T_COMMA) {
            if (comma)
                return DECLINE;
            comma = 1;
            continue;
        }
        if (k.kind != T_WORD || count == 2)
            return DECLINE;
        TRY(payoff(r, &k, &pays[count]));
        texts[count++] = k;
        comma = 0;
    }
    if (count != 2)
        return DECLINE;
    int fresh;
    Outcome *o = map_put(&r->outcomes, number, &fresh);
    if (!o)
        return -1;
    if (!fresh) { /* given again: the same label and payoffs, as written */
        if (!same_text(r, o->label_off, o->label_len, label.off, label.len) ||
            !same_text(r, o->t1_off, o->t1_len, texts[0].off, texts[0].len) ||
            !same_text(r, o->t2_off, o->t2_len, texts[1].off, texts[1].len))
            return DECLINE;
    } else {
        if (!zero_sum(r, &texts[0], &pays[0], &texts[1], &pays[1]))
            return DECLINE;
        o->label_off = label.off;
        o->label_len = label.len;
        o->t1_off = texts[0].off;
        o->t1_len = texts[0].len;
        o->t2_off = texts[1].off;
        o->t2_len = texts[1].len;
        o->p1 = pays[0];
    }
    *p = o->p1;
    *has = 1;
    return 0;
}

/* -- names: _Frame.take() and sibling_names() ------------------------------------------------ */
/* fits(): 1 to 1000 printable characters */
static int fits(const R *r, Py_ssize_t off, Py_ssize_t len) {
    if (len < 1 || len > MAX_LABEL)
        return 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)r->t[off + i];
        if (ch < 0x20 || ch > 0x7E)
            return 0;
    }
    return 1;
}

/* Name node n, just added: by its action's label (a), else its own label (l), when either can
 * be a name.  A sibling with the same name declines: the Python reader then tells repeated
 * labels apart, or leaves the node label out. */
static int name_node(R *r, node_t n, const Label *a, const Tok *l) {
    if (a && fits(r, a->off, a->len))
        return b_name(&r->B, n, r->t + a->off, a->len);
    if (l && fits(r, l->off, l->len))
        return b_name(&r->B, n, r->t + l->off, l->len);
    return 0;
}

/* -- the tree --------------------------------------------------------------------------------- */
/* a list of strings in braces (the players, a node's actions): their number in *count, and
 * with `keep` the strings pushed on R.acts */
static int strings(R *r, size_t *count, int keep) {
    Tok k;
    TRY(expect(r, &k, T_OPEN));
    for (*count = 0;; ++*count) {
        TRY(next(r, &k));
        if (k.kind == T_CLOSE)
            return 0;
        if (k.kind != T_STRING)
            return DECLINE;
        if (!keep)
            continue;
        if (ROOM(r->acts, r->nacts, r->capacts) < 0)
            return -1;
        r->acts[r->nacts].off = k.off;
        r->acts[r->nacts++].len = k.len;
    }
}

static int header(R *r) {
    Tok k;
    TRY(next(r, &k));
    if (!is_word(r, &k, "EFG"))
        return DECLINE;
    TRY(next(r, &k));
    if (!is_word(r, &k, "2"))
        return DECLINE;
    TRY(next(r, &k));
    if (!is_word(r, &k, "R") && !is_word(r, &k, "D"))
        return DECLINE;
    TRY(expect(r, &k, T_STRING));
    if (k.len) {
        r->B.title_off = k.off;
        r->B.title_len = k.len;
    }
    size_t players;
    TRY(strings(r, &players, 0));
    if (players != 2)
        return DECLINE;
    if (string_follows(r)) {
        TRY(expect(r, &k, T_STRING));
        if (k.len) {
            r->B.desc_off = k.off;
            r->B.desc_len = k.len;
        }
    }
    return 0;
}

/* a decision node's player, information set (new: perfect information) and actions */
static int decision(R *r, int64_t *player) {
    int64_t number;
    TRY(index_of(r, player));
    if (*player != 1 && *player != 2)
        return DECLINE;
    TRY(index_of(r, &number));
    int fresh;
    if (!map_put(&r->infosets, number * 2 + (*player - 1), &fresh))
        return -1;
    if (!fresh)
        return DECLINE; /* imperfect information */
    Tok k;
    TRY(expect(r, &k, T_STRING));
    size_t actions;
    TRY(strings(r, &actions, 1));
    return actions ? 0 : DECLINE;
}

static int push(R *r, int64_t left, int mover, int64_t acc, int floats, double fval,
                size_t acts) {
    if (ROOM(r->frames, r->nframes, r->capframes) < 0)
        return -1;
    Frame *f = &r->frames[r->nframes++];
    f->left = left;
    f->mover = mover;
    f->acc = acc;
    f->floats = floats;
    f->fval = fval;
    f->acts = acts;
    f->next = 0;
    return 0;
}

static int add_payoff(const Pay *p, int64_t *acc, int *floats, double *fval) {
    if (p->kind == PAY_INT) {
        *acc += p->i;
        if (*acc > ((int64_t)1 << 62) || *acc < -((int64_t)1 << 62))
            return DECLINE;
    } else {
        ++*floats;
        *fval = p->d;
    }
    return 0;
}

static int run(R *r) {
    Builder *B = &r->B;
    TRY(header(r));
    for (;;) {
        Tok k, label;
        TRY(next(r, &k));
        if (!is_word(r, &k, "p") && !is_word(r, &k, "t"))
            return DECLINE; /* a chance node, or not a node */
        int terminal = r->t[k.off] == 't';
        TRY(expect(r, &label, T_STRING));
        int64_t player = 0;
        size_t acts = r->nacts;
        if (!terminal)
            TRY(decision(r, &player));
        Pay pay = {PAY_INT, 0, 0.0};
        int has;
        TRY(outcome(r, &pay, &has));
        Frame *parent = r->nframes ? &r->frames[r->nframes - 1] : NULL;
        int64_t acc = parent ? parent->acc : 0;
        int floats = parent ? parent->floats : 0;
        double fval = parent ? parent->fval : 0.0;
        int mover = parent ? parent->mover : 0;
        const Label *action = parent ? &r->acts[parent->acts + parent->next++] : NULL;
        if (has)
            TRY(add_payoff(&pay, &acc, &floats, &fval));
        node_t n = (node_t)B->size;
        if (!terminal) {
            if (!parent) {
                B->root_max = player == 1;
                mover = (int)player;
            }
            if (mover != player) {
                /* the same player moves twice: the other player's forced move between */
                TRY(b_open(B, 0, -1, 0, 0.0, 0));
                TRY(name_node(r, n, action, NULL));
                TRY(push(r, 1, (int)player, parent->acc, parent->floats, parent->fval, acts));
                n = (node_t)B->size;
                TRY(b_open(B, 0, -1, 0, 0.0, 0));
                if (fits(r, label.off, label.len))
                    TRY(b_name(B, n, r->t + label.off, label.len));
                else
                    TRY(b_name(B, n, FORCED_MOVE, (Py_ssize_t)strlen(FORCED_MOVE)));
            } else {
                TRY(b_open(B, 0, -1, 0, 0.0, 0));
                TRY(name_node(r, n, action, &label));
            }
            TRY(push(r, (int64_t)(r->nacts - acts), 3 - (int)player, acc, floats, fval, acts));
            continue;
        }
        /* a terminal: the exact sum of the payoffs above it */
        double v;
        int is_float = floats > 0;
        if (!floats) {
            if (acc > MAX_EXACT_INT || acc < -MAX_EXACT_INT)
                return DECLINE;
            v = (double)acc;
        } else if (floats == 1 && acc == 0) {
            v = fval;
        } else {
            return DECLINE; /* the Python reader adds the fractions before it rounds */
        }
        TRY(b_leaf(B, v, is_float, 0, -1));
        TRY(name_node(r, n, action, &label));
        /* a leaf is done: close the nodes whose children are all read */
        while (r->nframes) {
            Frame *top = &r->frames[r->nframes - 1];
            if (--top->left)
                break;
            r->nacts = top->acts;
            r->nframes--;
            TRY(b_close(B));
        }
        if (!r->nframes)
            break;
    }
    Tok rest;
    TRY(next(r, &rest));
    return rest.kind == T_END ? 0 : DECLINE;
}

PyObject *gt_load_efg(PyObject *self, PyObject *args) {
    (void)self;
    R r;
    memset(&r, 0, sizeof r);
    int rc = b_init_args(&r.B, args);
    if (rc == 0) {
        r.t = r.B.text;
        r.n = r.B.len;
        if (map_init(&r.outcomes, sizeof(Outcome)) < 0 || map_init(&r.infosets, 0) < 0)
            rc = -1;
    }
    if (rc == 0)
        rc = run(&r);
    PyObject *result = b_finish(&r.B, rc);
    map_free(&r.outcomes);
    map_free(&r.infosets);
    gt_free(r.frames);
    gt_free(r.acts);
    b_free(&r.B);
    return result;
}
