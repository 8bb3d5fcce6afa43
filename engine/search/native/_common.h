/* What every C core of the engine needs, knowing no game: 128-bit masks and their bits, the monotonic
 * clock Python's deadlines are on, splitmix64, and reading numbers from Python with a clear error.
 *
 * Included first by engine/games/_board.h (the board the games share) and by the techniques'
 * headers here (_flat_mc.h, _tree.h).
 */
#ifndef NATIVE_COMMON_H
#define NATIVE_COMMON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef unsigned __int128 u128;

#define BIT(c) (((u128)1) << (c))

static inline int popc(u128 x) {
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}

static inline int lowbit(u128 x) {
    uint64_t lo = (uint64_t)x;
    if (lo) return __builtin_ctzll(lo);
    return 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

/* The index of the k-th (0-based) set bit of x, lowest first. */
static inline int nth_bit(u128 x, int k) {
    for (int i = 0; i < k; i++) x &= x - 1;
    return lowbit(x);
}

/* Seconds on time.monotonic()'s clock (CLOCK_MONOTONIC on Linux): the deadlines Python hands the cores. With
 * ISAAC_ENGINE_CLOCK=cpu in the environment, the process's CPU time instead, as engine/cpu_clock.py makes the
 * engine's Python clock: a benchmark's "100 ms a move" then means 100 ms of this process's CPU, whatever the
 * load of the machine. */
static double monotonic_seconds(void) {
    static clockid_t clock = (clockid_t)-1;
    if (clock == (clockid_t)-1) {
        const char *chosen = getenv("ISAAC_ENGINE_CLOCK");
        clock = chosen && strcmp(chosen, "cpu") == 0 ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC;
    }
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* At most `max` ints of a Python sequence into `out`: the count, or -1 with an error naming `what`. */
static int read_ints(PyObject *seq, int *out, int max, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) { Py_DECREF(fast); PyErr_Format(PyExc_ValueError, "%s: too many items", what); return -1; }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        if (v < INT_MIN || v > INT_MAX) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%s: %ld is out of range", what, v);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

/* Exactly n numbers of a Python sequence into `out`. 0, or -1 with an error naming `what`. */
static inline int read_floats(PyObject *seq, double *out, int n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: %d numbers expected", what, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        out[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1.0 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
    }
    Py_DECREF(fast);
    return 0;
}

/* PyArg_ParseTuple wants a tuple: anything else is the caller's TypeError, not a SystemError. */
static inline int require_tuple(PyObject *obj, const char *what) {
    if (PyTuple_Check(obj)) return 0;
    PyErr_Format(PyExc_TypeError, "%s: a tuple, not %.100s", what, Py_TYPE(obj)->tp_name);
    return -1;
}

/* -- a core's module -------------------------------------------------------------------------------- */

static inline int no_types(PyObject *module) { (void)module; return 0; }

/* A core's Python module NAME (a bare word: the extension's last name) with its docstring and method
 * table; at import it builds its tables (BUILD(), once) and FINISH(module) adds what else it holds (a
 * type; no_types for none), 0 or -1 with an error set. */
#define CORE_MODULE(NAME, DOC, METHODS, BUILD, FINISH)                                                       \
    static struct PyModuleDef core_module = {PyModuleDef_HEAD_INIT, #NAME, DOC, -1, METHODS,                 \
                                             NULL, NULL, NULL, NULL};                                         \
    PyMODINIT_FUNC PyInit_##NAME(void) {                                                                      \
        BUILD();                                                                                              \
        PyObject *m = PyModule_Create(&core_module);                                                          \
        if (m && FINISH(m) < 0) Py_CLEAR(m);                                                                  \
        return m;                                                                                             \
    }

#endif
