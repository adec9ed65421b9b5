/* Shared by the kernel's two C files: _native.c (the arithmetic: programs, counts, EV
 * numerators) and _batch_codec.c (the batch command's JSON-line parser and writer).
 * See _native.c for the exactness argument.
 */
#ifndef EXACTODDS_KERNEL_H
#define EXACTODDS_KERNEL_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;
typedef __int128 i128;

#define RANKS 13
#define CARDS 52
#define PAIR_INPUTS 13 /* 9 suited pair states, then 4 rank-only ones */

/* A nonzero coefficient of the count polynomials: at most 720 (orderings of six
 * values), and fewer than 65536 keys: both fit 16 bits (checked when built). */
typedef struct {
    uint16_t key;
    uint16_t coefficient;
} Entry;

typedef struct {
    Py_ssize_t rows;        /* multisets, 8008 */
    int32_t *parents;       /* rows: parent row of each multiset */
    int16_t *factors;       /* rows: value * 7 + offset of the new card */
    Py_ssize_t size_start[8]; /* first row of each multiset size 0..6, [7] = rows */
    int32_t *entry_start;   /* rows + 1: CSR of nonzero (key, coefficient) per row */
    int16_t *entry_key;
    int64_t *entry_coefficient;
    Entry *entries;         /* the same pairs packed in 4 bytes, for the hot loops */
    int32_t *by_key_start;  /* keys + 1: the same pairs grouped by key ... */
    Entry *by_key;          /* ... with .key holding the row (rows < 65536, checked) */
    Py_ssize_t keys;
    Py_ssize_t inputs;      /* keys + 13 pair states + 1 total */
    Py_ssize_t outputs;
    int32_t *output_start;  /* inputs + 1: CSR of nonzero (output, weight) per input */
    int32_t *output_index;
    int64_t *output_weight;
    uint64_t bound;         /* |output| <= bound * total for every output */
    int needs_keys;         /* whether any output reads a key count (else skip the polynomials) */
    /* Batch text layout (optional): see set_layout. */
    int has_layout;
    Py_ssize_t bets;
    int32_t *bet_output;    /* output index of each bet's EV numerator, -1 if unavailable */
    int64_t *bet_denominator;
    char **bet_key;         /* '"name": ' */
    Py_ssize_t *bet_key_length;
    char **bet_unavailable; /* text of the whole '"name": {...}' entry on rank-only shoes */
    Py_ssize_t *bet_unavailable_length;
    int8_t *bet_needs_suits;
    int32_t player_output, tie_output;
    uint64_t max_denominator; /* the largest bet denominator of the layout */
} Program;

/* From _native.c, for the codec. */
Program *get_program(PyObject *capsule);
u128 sequences128(uint64_t n, int *overflow);
int evaluate_many(const Program *p, Py_ssize_t n, const int64_t *ranks, const int8_t *suited,
                  const int64_t *suits, int64_t *low, int64_t *high, int8_t *width);

/* From _batch_codec.c, for the module table. */
void parse_tables_init(void);
PyObject *set_layout(PyObject *self, PyObject *args);
PyObject *batch(PyObject *self, PyObject *args);
PyObject *format_one(PyObject *self, PyObject *args);
u128 gcd128(u128 a, u128 b);

/* From _dealing.c (a simulation's shuffling and dealing), for the module table. */
PyObject *shuffle(PyObject *self, PyObject *args);
PyObject *deal(PyObject *self, PyObject *args);
PyObject *pair_study(PyObject *self, PyObject *args);
PyObject *value_study(PyObject *self, PyObject *args);
PyObject *stream_states(PyObject *self, PyObject *args);

/* From _one_shoe.c (one shoe's analysis from its Python counts), for the module table. */
PyObject *evaluate_shoe(PyObject *self, PyObject *args);
PyObject *bet_analyses(PyObject *self, PyObject *args);

/* From _depth.c (a depth table's sums below one prefix), for the module table. */
PyObject *depth_sums(PyObject *self, PyObject *args);

#endif
