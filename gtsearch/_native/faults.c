/* The test build's faults: allocations that fail and ticks that are interrupted, on demand.
 *
 * Compiled in only with -DGTSEARCH_FAULTS (tests/test_faults.py builds it so, with
 * AddressSanitizer and LeakSanitizer, into a copy of the tree; so does CI's step 3).  Every
 * allocation of the core goes through gt_malloc, gt_calloc and gt_realloc (core.h), which here
 * count the allocations and fail the n-th one a test asks for: NULL, a failed realloc keeping
 * its old block, as the C library does when memory runs out.  With `python` on, the
 * allocations CPython makes while a function of the module runs (its objects, its buffers:
 * PyMem_SetAllocator) are counted and failed too, so that every PyErr_NoMemory path after a
 * CPython call runs as well.  Every tick() is counted (not only the slow one in 8192 that
 * looks at signals), and the n-th can raise KeyboardInterrupt, as a Ctrl-C there would.
 *
 * The failure is the n-th only: what the core does after it (freeing, raising) may allocate
 * again and succeeds.  The blocks the core holds are counted, so that a test can see that a
 * function gives back all it took, whichever way it ended.
 */
#include "core.h"

#ifdef GTSEARCH_FAULTS

static unsigned long long allocations, fail_allocation, ticks, fail_tick;
static long long blocks; /* the blocks of gt_malloc & co. not freed yet */
static int python;       /* CPython's allocations are counted too */
static int inside;       /* a function of the module is running */

/* the places of the allocations failed so far */
#define MAX_SITES 512
static struct {
    const char *file;
    int line;
} sites[MAX_SITES];
static int nsites;

/* 1 when this allocation is the one to fail (file NULL: one of CPython's) */
static int fail_now(const char *file, int line) {
    if (++allocations != fail_allocation)
        return 0;
    if (!file)
        return 1;
    const char *slash = strrchr(file, '/');
    file = slash ? slash + 1 : file;
    for (int i = 0; i < nsites; i++)
        if (sites[i].line == line && strcmp(sites[i].file, file) == 0)
            return 1;
    if (nsites < MAX_SITES) {
        sites[nsites].file = file;
        sites[nsites++].line = line;
    }
    return 1;
}

void *gt_fault_malloc(size_t size, const char *file, int line) {
    if (fail_now(file, line))
        return NULL;
    void *p = malloc(size);
    blocks += p != NULL;
    return p;
}

void *gt_fault_calloc(size_t n, size_t size, const char *file, int line) {
    if (fail_now(file, line))
        return NULL;
    void *p = calloc(n, size);
    blocks += p != NULL;
    return p;
}

void *gt_fault_realloc(void *p, size_t size, const char *file, int line) {
    if (fail_now(file, line))
        return NULL; /* p is kept, as by a realloc that fails */
    void *q = realloc(p, size);
    blocks += q != NULL && p == NULL;
    return q;
}

void gt_fault_free(void *p) {
    if (p) {
        blocks--;
        free(p);
    }
}

int gt_fault_tick(void) { return ++ticks == fail_tick; }

/* -- CPython's allocations, while a function of the module runs ------------------------------ */
static PyMemAllocatorEx base_mem, base_obj; /* the allocators the hooks stand before */
static int hooked;

static int fail_python(void) { return python && inside && fail_now(NULL, 0); }

static void *hook_malloc(void *ctx, size_t size) {
    PyMemAllocatorEx *base = ctx;
    return fail_python() ? NULL : base->malloc(base->ctx, size);
}

static void *hook_calloc(void *ctx, size_t n, size_t size) {
    PyMemAllocatorEx *base = ctx;
    return fail_python() ? NULL : base->calloc(base->ctx, n, size);
}

static void *hook_realloc(void *ctx, void *p, size_t size) {
    PyMemAllocatorEx *base = ctx;
    return fail_python() ? NULL : base->realloc(base->ctx, p, size);
}

static void hook_free(void *ctx, void *p) {
    PyMemAllocatorEx *base = ctx;
    base->free(base->ctx, p);
}

static void hook(PyMemAllocatorDomain domain, PyMemAllocatorEx *base) {
    PyMem_GetAllocator(domain, base);
    PyMemAllocatorEx mine = {base, hook_malloc, hook_calloc, hook_realloc, hook_free};
    PyMem_SetAllocator(domain, &mine);
}

/* -- the functions of the module, each with `inside` set ------------------------------------- */
#define FAULTS_ENTRY(f)                                                                            \
    PyObject *faults_##f(PyObject *self, PyObject *args) {                                         \
        inside++;                                                                                  \
        PyObject *result = f(self, args);                                                          \
        inside--;                                                                                  \
        return result;                                                                             \
    }
GT_FUNCTIONS(FAULTS_ENTRY)

PyObject *faults_set(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"allocation", "tick", "python", NULL};
    unsigned long long allocation = 0, tick = 0;
    int with_python = 0;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|KKp", names, &allocation, &tick,
                                     &with_python))
        return NULL;
    if (with_python && !hooked) {
        hook(PYMEM_DOMAIN_MEM, &base_mem);
        hook(PYMEM_DOMAIN_OBJ, &base_obj);
        hooked = 1;
    }
    allocations = ticks = 0;
    fail_allocation = allocation;
    fail_tick = tick;
    python = with_python;
    Py_RETURN_NONE;
}

PyObject *faults_counts(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    return Py_BuildValue("KKL", allocations, ticks, blocks);
}

PyObject *faults_sites(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    PyObject *list = PyList_New(0);
    for (int i = 0; list && i < nsites; i++) {
        PyObject *site = PyUnicode_FromFormat("%s:%d", sites[i].file, sites[i].line);
        if (!site || PyList_Append(list, site) < 0)
            Py_CLEAR(list);
        Py_XDECREF(site);
    }
    return list;
}

#endif
