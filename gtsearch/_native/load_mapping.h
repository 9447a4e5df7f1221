/* What load_mapping.c (JSON, flow YAML) shares with load_block.c (block YAML): the shape
 * rules of gtsearch.formats.shape.Shape as events, and the flow tokenizer. */
#ifndef GT_LOAD_MAPPING_H
#define GT_LOAD_MAPPING_H
#include "core.h"

enum { C_TOP, C_SEQ, C_MAP, C_WRAP };
enum { K_NONE, K_NAME, K_VALUE, K_CHILDREN, K_TREE, K_ROOT, K_TITLE, K_DESC, K_EXPECT };
#define NODE_KEYS ((1u << K_NAME) | (1u << K_VALUE) | (1u << K_CHILDREN))
#define DOC_KEYS ((1u << K_TREE) | (1u << K_ROOT) | (1u << K_TITLE) | (1u << K_DESC) | (1u << K_EXPECT))

typedef struct {
    unsigned char kind, top, key, done, has_children, has_static, static_float, owned;
    unsigned seen;
    node_t node; /* SEQ: the node it fills; MAP: the node once opened, else -1 */
    Py_ssize_t name_off, name_len;
    double static_v;
} Ctx;

typedef struct {
    Builder B;
    int yaml; /* YAML takes any scalar's text as a name or a key (Shape's text_names) */
    Ctx *ctx;
    size_t nctx, capctx;
    char *closers; /* the brackets that close the open collections, innermost last */
    size_t nclose, capclose;
} P;

/* a scalar token: a number (with its value) or text, and where its text is */
typedef struct {
    int is_num, is_float;
    double v;
    Py_ssize_t off, len;
} Scalar;

/* scan_number() as YAML 1.1 has it: no '+', and an exponent only after a fraction and with
 * its sign (1.0e+16; 1e16 and 1.0e16 are strings) */
static inline Py_ssize_t yaml_number_end(const char *t, Py_ssize_t i, Py_ssize_t n, int *is_int) {
    Py_ssize_t end = scan_number(t, i, n, 0, 0, is_int);
    if (end > 0 && !*is_int && end + 2 < n && (t[end] == 'e' || t[end] == 'E') &&
        (t[end + 1] == '+' || t[end + 1] == '-') && is_digit(t[end + 2])) {
        end += 2;
        while (end < n && is_digit(t[end]))
            end++;
    }
    return end;
}

static inline Ctx *top(P *p) { return &p->ctx[p->nctx - 1]; }

/* Shape's events: 0, DECLINE or -1 (an exception is set) */
int push_ctx(P *p, unsigned char kind);
int ev_key(P *p, const Scalar *s);
int ev_scalar(P *p, const Scalar *s);
int ev_seq_start(P *p);
int ev_seq_end(P *p);
int ev_map_start(P *p);
int ev_map_end(P *p);
/* the flow collection whose opening bracket is at pos, read to its closing one (*stop: the
 * index after it) */
int flow_collection(P *p, Py_ssize_t pos, Py_ssize_t *stop);
/* a block document (load_block.c): the whole text */
int run_block(P *p);

#endif
