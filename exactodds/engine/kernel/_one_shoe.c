/* One shoe's analysis, in C: `Analyzer.analyze`'s path for one shoe (exactodds.analysis.many).
 *
 *   evaluate_shoe   a program's outputs for one shoe, read straight from its Python counts
 *                   (no arrays to build for the call, none to read back);
 *   bet_analyses    every kernel-priced bet's analysis object, its EV reduced by one gcd.
 *
 * Their specification is the Python path they stand in for, which stays beside them (for
 * machines without a compiler, and for every shoe these functions hand back with None):
 * exactodds.engine.kernel.program.evaluate_one (the outputs) and
 * exactodds.analysis.many._Bets (each bet: BetAnalysis.from_source, its EV numerator over
 * total * pay denominator, the EV a Fraction in lowest terms as
 * exactodds.numbers.ratio_fraction builds it).  tests/test_one_shoe.py holds the two paths
 * equal, figure for figure.
 *
 * Nothing here decides a figure by a float: the counting is evaluate_many's (_native.c, whose
 * exactness argument covers it), and the gcd is exact integer arithmetic.
 * Anything outside plain 64-bit ranges (counts of 2**58 and more, outputs that need 128
 * bits, a denominator of 2**64 and more) is answered None, and Python takes it.
 */
#include "_kernel.h"

/* Counts of a tuple of `length` exact ints, each in [0, 2**58), into `out`; 0 if not. */
static int small_counts(PyObject *tuple, Py_ssize_t length, int64_t *out) {
    if (!PyTuple_CheckExact(tuple) || PyTuple_GET_SIZE(tuple) != length) return 0;
    for (Py_ssize_t i = 0; i < length; i++) {
        PyObject *item = PyTuple_GET_ITEM(tuple, i);
        if (!PyLong_CheckExact(item)) return 0;
        int overflow;
        long long value = PyLong_AsLongLongAndOverflow(item, &overflow);
        if (overflow || value < 0 || value >= (1LL << 58)) {
            if (value == -1 && PyErr_Occurred()) PyErr_Clear();
            return 0;
        }
        out[i] = (int64_t)value;
    }
    return 1;
}

/* evaluate_shoe(program, rank_counts: tuple, suit_counts: tuple | None, out: int64[J])
 *     -> int | None
 * Writes the program's J outputs for one shoe into `out` and returns ff(N, 6), when every
 * count is a plain int below 2**58 and the outputs fit 64 bits; None otherwise (and for
 * fewer than six cards), for the Python path to answer. */
PyObject *evaluate_shoe(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule, *rank_counts, *suit_counts, *out;
    if (!PyArg_ParseTuple(args, "OOOO", &capsule, &rank_counts, &suit_counts, &out)) return NULL;
    Program *p = get_program(capsule);
    if (!p) return NULL;
    int64_t ranks[RANKS], suits[CARDS];
    int8_t suited = suit_counts != Py_None;
    if (!small_counts(rank_counts, RANKS, ranks)) Py_RETURN_NONE;
    if (suited && !small_counts(suit_counts, CARDS, suits)) Py_RETURN_NONE;
    if (!suited) memset(suits, 0, sizeof suits);
    Py_buffer view;
    if (PyObject_GetBuffer(out, &view, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) return NULL;
    const Py_ssize_t J = p->outputs;
    PyObject *result = NULL;
    int64_t *high = view.len == J * 8 ? malloc(sizeof(int64_t) * (J + 1)) : NULL;
    if (view.len != J * 8) PyErr_SetString(PyExc_ValueError, "kernel output buffer of the wrong size");
    else if (!high) PyErr_NoMemory();
    else {
        int8_t width = 2;
        int ok;
        Py_BEGIN_ALLOW_THREADS
        ok = evaluate_many(p, 1, ranks, &suited, suits, view.buf, high, &width);
        Py_END_ALLOW_THREADS
        if (!ok) PyErr_NoMemory();
        else if (width != 0) result = Py_NewRef(Py_None);
        else {
            uint64_t cards = 0;
            for (int r = 0; r < RANKS; r++) cards += (uint64_t)ranks[r];
            int overflow;
            /* Below 2**63, since the outputs were narrow (bound * total < 2**63). */
            result = PyLong_FromUnsignedLongLong((uint64_t)sequences128(cards, &overflow));
        }
    }
    free(high);
    PyBuffer_Release(&view);
    return result;
}

static PyObject *name_numerator, *name_denominator, *name_bet, *name_total, *name_source,
    *name_value, *no_arguments;

static int names_ready(void) {
    if (no_arguments) return 1;
    name_numerator = PyUnicode_InternFromString("_numerator");
    name_denominator = PyUnicode_InternFromString("_denominator");
    name_bet = PyUnicode_InternFromString("bet");
    name_total = PyUnicode_InternFromString("total");
    name_source = PyUnicode_InternFromString("_source");
    name_value = PyUnicode_InternFromString("expected_value");
    no_arguments = PyTuple_New(0);
    return name_numerator && name_denominator && name_bet && name_total && name_source &&
           name_value && no_arguments;
}

/* object.__new__(type) with its attributes set as the instance's own (no __setattr__, which
 * a frozen dataclass refuses): what `object.__new__(cls)` and `__dict__[name] = value` do. */
static PyObject *new_with(PyTypeObject *type, int count, PyObject **names, PyObject **values) {
    PyObject *object = PyBaseObject_Type.tp_new(type, no_arguments, NULL);
    if (!object) return NULL;
    for (int i = 0; i < count; i++)
        if (!values[i] || PyObject_GenericSetAttr(object, names[i], values[i]) < 0) {
            Py_DECREF(object);
            return NULL;
        }
    return object;
}

/* Output `index` of the shoe: from an int64 buffer, or a list of ints; 0 if not an int64. */
static int output_at(PyObject *outputs, const Py_buffer *view, Py_ssize_t index,
                     long long *value) {
    if (view) {
        if (index < 0 || index >= view->len / 8) return 0;
        *value = ((const int64_t *)view->buf)[index];
        return 1;
    }
    if (index < 0 || index >= PyList_GET_SIZE(outputs)) return 0;
    int overflow;
    *value = PyLong_AsLongLongAndOverflow(PyList_GET_ITEM(outputs, index), &overflow);
    return !overflow && !(*value == -1 && PyErr_Occurred());
}

/* One bet's analysis, its EV numerator / (total * denominator) reduced; NULL with no error
 * set when a figure leaves 64 bits. */
static PyObject *one_bet(PyObject *maker, PyObject *outputs, const Py_buffer *view,
                         PyObject *total_object, uint64_t total, PyTypeObject *bet_type,
                         PyTypeObject *fraction_type, PyObject *source) {
    /* maker: (bet, ev output, pay denominator) */
    if (!PyTuple_CheckExact(maker) || PyTuple_GET_SIZE(maker) != 3) {
        PyErr_SetString(PyExc_TypeError, "a bet maker is a (bet, output, denominator) tuple");
        return NULL;
    }
    Py_ssize_t output = PyLong_AsSsize_t(PyTuple_GET_ITEM(maker, 1));
    long long pay_denominator = PyLong_AsLongLong(PyTuple_GET_ITEM(maker, 2));
    long long numerator;
    if (PyErr_Occurred() || pay_denominator < 1 || !output_at(outputs, view, output, &numerator))
        return NULL;
    u128 denominator = (u128)total * (u128)(uint64_t)pay_denominator;
    if (denominator >> 64) return NULL;
    u128 magnitude = numerator < 0 ? (u128)(-(i128)numerator) : (u128)numerator;
    /* Both below 2**64 here, so the divisions are 64-bit ones. */
    uint64_t common = (uint64_t)gcd128(magnitude, denominator);
    uint64_t reduced = (uint64_t)magnitude / common;
    if (reduced > (uint64_t)INT64_MAX) return NULL; /* -2**63 itself: Python takes it */
    PyObject *fraction_values[2] = {
        PyLong_FromLongLong(numerator < 0 ? -(long long)reduced : (long long)reduced),
        PyLong_FromUnsignedLongLong((uint64_t)denominator / common)};
    PyObject *fraction_names[2] = {name_numerator, name_denominator};
    PyObject *fraction = new_with(fraction_type, 2, fraction_names, fraction_values);
    Py_XDECREF(fraction_values[0]);
    Py_XDECREF(fraction_values[1]);
    PyObject *names[4] = {name_bet, name_total, name_source, name_value};
    PyObject *values[4] = {PyTuple_GET_ITEM(maker, 0), total_object, source, fraction};
    PyObject *result = fraction ? new_with(bet_type, 4, names, values) : NULL;
    Py_XDECREF(fraction);
    if (!result && !PyErr_Occurred()) PyErr_NoMemory();
    return result;
}

/* bet_analyses(outputs: int64 buffer | list, total: int, makers: tuple, bet_type,
 *              fraction_type, source) -> list | None
 * Each maker (bet, EV output, pay denominator) as BetAnalysis.from_source(bet, total,
 * source), its expected_value already the Fraction outputs[output] / (total * denominator)
 * in lowest terms.  None when a figure leaves 64 bits: Python then makes them. */
PyObject *bet_analyses(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *outputs, *total_object, *makers, *bet_type, *fraction_type, *source;
    if (!PyArg_ParseTuple(args, "OO!O!O!O!O", &outputs, &PyLong_Type, &total_object,
                          &PyTuple_Type, &makers, &PyType_Type, &bet_type, &PyType_Type,
                          &fraction_type, &source))
        return NULL;
    if (!names_ready()) return NULL;
    int overflow;
    long long total = PyLong_AsLongLongAndOverflow(total_object, &overflow);
    if (total == -1 && PyErr_Occurred()) return NULL;
    if (overflow || total < 1) Py_RETURN_NONE;
    Py_buffer buffer, *view = NULL;
    if (!PyList_CheckExact(outputs)) {
        if (PyObject_GetBuffer(outputs, &buffer, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
            return NULL;
        view = &buffer;
        if (buffer.itemsize != 8 || !buffer.format || strcmp(buffer.format, "q")) {
            PyBuffer_Release(view);
            PyErr_SetString(PyExc_ValueError, "kernel outputs are int64 ('q') items");
            return NULL;
        }
    }
    Py_ssize_t count = PyTuple_GET_SIZE(makers);
    PyObject *result = PyList_New(count);
    for (Py_ssize_t i = 0; result && i < count; i++) {
        PyObject *made = one_bet(PyTuple_GET_ITEM(makers, i), outputs, view, total_object,
                                 (uint64_t)total, (PyTypeObject *)bet_type,
                                 (PyTypeObject *)fraction_type, source);
        if (made) {
            PyList_SET_ITEM(result, i, made);
            continue;
        }
        Py_CLEAR(result);
        if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            result = Py_NewRef(Py_None);
            break;
        }
    }
    if (view) PyBuffer_Release(view);
    return result;
}
