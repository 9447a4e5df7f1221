/* A libFuzzer harness for the C readers of gtsearch._native._core, with Python embedded.
 *
 * Built by scripts/fuzz_native.py with clang -fsanitize=fuzzer,address,undefined together with
 * every source of gtsearch/_native, so the C core inside this binary is the instrumented one:
 * libFuzzer's coverage is the C readers' (the interpreter is not instrumented).  The core is
 * registered as the built-in module gtsearch._native._core before Python starts, so the
 * package imports it instead of the extension on disk.
 *
 * Each input goes to oracle.check(format, bytes) (fuzz/oracle.py): the C reader's tree, when it
 * takes the text, must be the Python reader's tree; when it declines, the Python reader has the
 * last word (the C readers never report errors themselves).  A Python exception there (a
 * disagreement, an exception out of the C reader) aborts, and libFuzzer keeps the input.
 *
 * GTSEARCH_FUZZ_FORMAT names the reader: json, yaml (flow and block YAML), sexp or efg (Gambit).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

PyMODINIT_FUNC PyInit__core(void);

static PyObject *check;
static PyObject *format;
static const char *format_name;
/* what check() said of the inputs: the C reader took it, or declined it */
static unsigned long long verdicts[2];

static void report(void) {
    fprintf(stderr,
            "gtsearch-fuzz: %s: %llu inputs taken by the C reader (each the Python reader's tree), "
            "%llu declined\n",
            format_name, verdicts[0], verdicts[1]);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    format_name = getenv("GTSEARCH_FUZZ_FORMAT");
    if (!format_name || (strcmp(format_name, "json") && strcmp(format_name, "yaml") &&
                         strcmp(format_name, "sexp") && strcmp(format_name, "efg"))) {
        fprintf(stderr, "gtsearch-fuzz: set GTSEARCH_FUZZ_FORMAT to json, yaml, sexp or efg\n");
        exit(2);
    }
    /* every Python object in malloc'd memory, so that AddressSanitizer sees past its ends */
    setenv("PYTHONMALLOC", "malloc", 1);
    if (PyImport_AppendInittab("gtsearch._native._core", PyInit__core) < 0) {
        fprintf(stderr, "gtsearch-fuzz: cannot register the C core\n");
        exit(2);
    }
    Py_InitializeEx(0);
    PyObject *oracle = PyImport_ImportModule("oracle");
    PyObject *ours = oracle ? PyObject_CallMethod(oracle, "instrumented", NULL) : NULL;
    if (ours)
        check = PyObject_GetAttrString(oracle, "check");
    Py_XDECREF(oracle);
    format = PyUnicode_FromString(format_name);
    if (!check || !format) {
        PyErr_Print();
        exit(2);
    }
    if (ours != Py_True) {
        fprintf(stderr, "gtsearch-fuzz: the C core imported is not the one built in\n");
        exit(2);
    }
    Py_DECREF(ours);
    atexit(report);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    PyObject *verdict = PyObject_CallFunction(check, "Oy#", format, (const char *)data,
                                              (Py_ssize_t)size);
    if (!verdict) {
        PyErr_Print();
        abort();
    }
    long v = PyLong_AsLong(verdict);
    Py_DECREF(verdict);
    if (v < 0 || v > 1) {
        PyErr_Print();
        abort();
    }
    verdicts[v]++;
    return 0;
}
