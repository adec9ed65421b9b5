/* The batch command's text, in C: the JSON-line parser and writer of `exactodds batch`.
 *
 * Its specification is the Python reader and writer it must match byte for byte:
 * exactodds.cli.batch_lines (read_shoes: which lines are shoes, and the Python path for every
 * line this parser does not take) and exactodds.report.odds.batch_line (the result line).
 * A line this parser cannot read simply (anything but a flat object of canonical rank or
 * card symbols and plain counts) is handed back with status 2, for the Python reader to
 * give its exact result or its exact error.  The counting itself is _native.c's
 * (evaluate_many); the text layout of a program's bets is set by set_layout, from
 * exactodds.cli.batch_lines.batch_program.
 */
#include "_kernel.h"

/* ------------------------------------------------------------------------ */
/* Batch text.                                                               */

typedef struct {
    char *data;
    size_t length, capacity;
} Text;

static int text_reserve(Text *t, size_t more) {
    if (t->length + more <= t->capacity) return 1;
    size_t capacity = t->capacity ? t->capacity : 65536;
    while (capacity < t->length + more) capacity *= 2;
    char *data = realloc(t->data, capacity);
    if (!data) return 0;
    t->data = data;
    t->capacity = capacity;
    return 1;
}

static inline void text_put(Text *t, const char *s, size_t n) {
    memcpy(t->data + t->length, s, n);
    t->length += n;
}
#define PUT_LITERAL(t, s) text_put((t), (s), sizeof(s) - 1)

static size_t u128_digits(u128 value, char *buffer) {
    /* decimal digits of value into buffer (no terminator), returns length */
    char reversed[48];
    size_t n = 0;
    if (value == 0) { buffer[0] = '0'; return 1; }
    while (value >> 64) {
        /* divide by 10**19 to reduce the number of 128-bit divisions */
        const uint64_t chunk = 10000000000000000000ULL;
        uint64_t rest = (uint64_t)(value % chunk);
        value /= chunk;
        for (int i = 0; i < 19; i++) { reversed[n++] = (char)('0' + rest % 10); rest /= 10; }
    }
    uint64_t small = (uint64_t)value;
    while (small) { reversed[n++] = (char)('0' + small % 10); small /= 10; }
    for (size_t i = 0; i < n; i++) buffer[i] = reversed[n - 1 - i];
    return n;
}

static inline void put_u128(Text *t, u128 value) {
    t->length += u128_digits(value, t->data + t->length);
}

u128 gcd128(u128 a, u128 b) {
    if (!a) return b;
    if (!b) return a;
    if (!((a | b) >> 64)) {
        uint64_t x = (uint64_t)a, y = (uint64_t)b;
        int shift = __builtin_ctzll(x | y);
        x >>= __builtin_ctzll(x);
        do {
            y >>= __builtin_ctzll(y);
            if (x > y) { uint64_t swap = x; x = y; y = swap; }
            y -= x;
        } while (y);
        return (u128)x << shift;
    }
    while (b) { u128 r = a % b; a = b; b = r; }
    return a;
}

/* 2 * r compared with d, and r -> 10 * r mod d with the digit, for r < d < 2**128. */
static int next_digit(u128 *remainder, u128 denominator) {
    u128 r = *remainder;
    if (denominator >> 124) {
        /* 10 r may overflow: add r ten times modulo d, counting the wraps. */
        u128 accumulator = 0;
        int digit = 0;
        for (int i = 0; i < 10; i++) {
            if (accumulator >= denominator - r) { accumulator -= denominator - r; digit++; }
            else accumulator += r;
        }
        *remainder = accumulator;
        return digit;
    }
    u128 ten = r * 10;
    int digit = (int)(ten / denominator);
    *remainder = ten - (u128)digit * denominator;
    return digit;
}

/* The exact "n/d" (or "n") and the half-even decimal with `digits` places of
 * magnitude / denominator; writes the two texts (without sign) into their buffers. */
static void ratio_texts(u128 magnitude, u128 denominator, int digits, char *exact,
                        size_t *exact_length, char *rounded, size_t *rounded_length,
                        int *rounded_zero) {
    u128 common = gcd128(magnitude, denominator);
    magnitude /= common;
    denominator /= common;
    size_t n = u128_digits(magnitude, exact);
    if (denominator != 1) {
        exact[n++] = '/';
        n += u128_digits(denominator, exact + n);
    }
    *exact_length = n;
    u128 whole = magnitude / denominator, remainder = magnitude % denominator;
    char fraction[128];
    for (int i = 0; i < digits; i++) fraction[i] = (char)('0' + next_digit(&remainder, denominator));
    /* half even: compare 2 * remainder with denominator */
    int up;
    if (remainder > denominator - remainder) up = 1;
    else if (remainder == denominator - remainder && remainder) {
        int last = digits ? fraction[digits - 1] - '0' : (int)(whole & 1);
        up = last & 1;
    } else up = 0;
    if (up) {
        int i = digits - 1;
        for (; i >= 0; i--) {
            if (fraction[i] == '9') fraction[i] = '0';
            else { fraction[i]++; break; }
        }
        if (i < 0) whole += 1;
    }
    size_t m = u128_digits(whole, rounded);
    int zero = whole == 0;
    if (digits) {
        rounded[m++] = '.';
        memcpy(rounded + m, fraction, digits);
        m += digits;
        for (int i = 0; i < digits && zero; i++) zero = fraction[i] == '0';
    }
    *rounded_length = m;
    *rounded_zero = zero;
}

/* Rank and suit of a key's characters, -1 for any other; filled once at import, before
 * any thread can read them. */
static signed char rank_of[256];
static signed char suit_of[256];

void parse_tables_init(void) {
    memset(rank_of, -1, sizeof rank_of);
    memset(suit_of, -1, sizeof suit_of);
    const char *symbols = "A23456789TJQK";
    for (int i = 0; i < 13; i++) rank_of[(unsigned char)symbols[i]] = (signed char)i;
    suit_of['S'] = 0; suit_of['H'] = 1; suit_of['D'] = 2; suit_of['C'] = 3;
}

/* Parse one line: returns 0 (a shoe: ranks[13], and suits[52] when *suited), 1 (blank),
 * 2 (anything else: the Python reader decides). */
static int parse_line(const char *s, Py_ssize_t length, int64_t *ranks, int64_t *suits,
                      int *suited) {
    const char *end = s + length;
#define SKIP_SPACE while (s < end && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')) s++
    SKIP_SPACE;
    if (s == end) return 1;
    if (*s++ != '{') return 2;
    uint64_t seen_ranks = 0, seen_cards = 0;
    int kind = 0; /* 1 ranks, 2 cards */
    for (int r = 0; r < RANKS; r++) ranks[r] = 0;
    for (int c = 0; c < CARDS; c++) suits[c] = 0;
    uint64_t total = 0;
    for (;;) {
        SKIP_SPACE;
        if (s >= end || *s++ != '"') return 2;
        const char *key = s;
        while (s < end && *s != '"' && *s != '\\') s++;
        if (s >= end || *s != '"') return 2;
        Py_ssize_t key_length = s - key;
        s++;
        int rank, card = -1;
        if (key_length == 1 && (rank = rank_of[(unsigned char)key[0]]) >= 0) {
            if (kind == 2) return 2;
            kind = 1;
            if (seen_ranks >> rank & 1) return 2;
            seen_ranks |= 1ULL << rank;
        } else if (key_length == 2 && (rank = rank_of[(unsigned char)key[0]]) >= 0 &&
                   suit_of[(unsigned char)key[1]] >= 0) {
            if (kind == 1) return 2;
            kind = 2;
            card = rank * 4 + suit_of[(unsigned char)key[1]];
            if (seen_cards >> card & 1) return 2;
            seen_cards |= 1ULL << card;
        } else return 2;
        SKIP_SPACE;
        if (s >= end || *s++ != ':') return 2;
        SKIP_SPACE;
        const char *digits = s;
        uint64_t value = 0;
        while (s < end && *s >= '0' && *s <= '9') value = value * 10 + (uint64_t)(*s++ - '0');
        Py_ssize_t count = s - digits;
        /* Plain JSON integers of at most 17 digits: larger shoes take the Python path. */
        if (count == 0 || count > 17 || (count > 1 && digits[0] == '0')) return 2;
        if (s < end && (*s == '.' || *s == 'e' || *s == 'E')) return 2;
        total += value;
        if (card >= 0) { suits[card] = (int64_t)value; ranks[rank] += (int64_t)value; }
        else ranks[rank] = (int64_t)value;
        SKIP_SPACE;
        if (s >= end) return 2;
        if (*s == ',') { s++; continue; }
        if (*s == '}') { s++; break; }
        return 2;
    }
    SKIP_SPACE;
    if (s != end) return 2;
    if (total < 6) return 2;
#undef SKIP_SPACE
    *suited = kind == 2;
    return 0;
}

/* Write one result line (without the newline). */
static int format_line(Text *t, const Program *p, const int64_t *ranks, int suited,
                       int code, const uint64_t *out64, const u128 *out128, int digits) {
    static const char *symbols[13] = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"};
    u128 cards = 0;
    for (int r = 0; r < RANKS; r++) cards += (uint64_t)ranks[r];
    int overflow;
    u128 total = sequences128((uint64_t)cards, &overflow);
    u128 player = code == 0 ? out64[p->player_output] : out128[p->player_output];
    u128 tie = code == 0 ? out64[p->tie_output] : out128[p->tie_output];
    /* Head: 13 ranks and 5 numbers of at most 39 digits, and the keys; 400 + 4 * digits
     * bounds a bet's two exact ratios (79 characters each), two decimals and the keys. */
    size_t need = 1500 + (size_t)p->bets * (size_t)(400 + 4 * digits);
    for (Py_ssize_t b = 0; b < p->bets; b++)
        need += (size_t)p->bet_key_length[b] + (size_t)p->bet_unavailable_length[b];
    if (!text_reserve(t, need)) return 0;
    PUT_LITERAL(t, "{\"shoe\": {\"cards\": ");
    put_u128(t, cards);
    PUT_LITERAL(t, ", \"ranks\": {");
    for (int r = 0; r < RANKS; r++) {
        if (r) PUT_LITERAL(t, ", ");
        t->data[t->length++] = '"';
        t->data[t->length++] = symbols[r][0];
        PUT_LITERAL(t, "\": ");
        put_u128(t, (uint64_t)ranks[r]);
    }
    PUT_LITERAL(t, "}}, \"total\": ");
    put_u128(t, total);
    PUT_LITERAL(t, ", \"outcomes\": {\"banker\": ");
    put_u128(t, total - player - tie);
    PUT_LITERAL(t, ", \"player\": ");
    put_u128(t, player);
    PUT_LITERAL(t, ", \"tie\": ");
    put_u128(t, tie);
    PUT_LITERAL(t, "}, \"bets\": {");
    char exact[96], rounded[200];
    size_t exact_length, rounded_length;
    int rounded_zero;
    for (Py_ssize_t b = 0; b < p->bets; b++) {
        if (b) PUT_LITERAL(t, ", ");
        if (!suited && p->bet_needs_suits[b]) {
            text_put(t, p->bet_unavailable[b], p->bet_unavailable_length[b]);
            continue;
        }
        text_put(t, p->bet_key[b], p->bet_key_length[b]);
        int32_t j = p->bet_output[b];
        i128 numerator = code == 0 ? (i128)(int64_t)out64[j] : (i128)out128[j];
        int negative = numerator < 0;
        u128 magnitude = negative ? (u128)(-numerator) : (u128)numerator;
        u128 denominator = total * (u128)(uint64_t)p->bet_denominator[b];
        ratio_texts(magnitude, denominator, digits, exact, &exact_length, rounded,
                    &rounded_length, &rounded_zero);
        int exact_zero = magnitude == 0;
        /* ev then house edge = -ev; the signs follow fraction_string / ratio_strings */
        for (int side = 0; side < 2; side++) {
            int minus = side == 0 ? negative : !negative;
            if (side == 0) PUT_LITERAL(t, "{\"computable\": true, \"ev\": \"");
            else PUT_LITERAL(t, "\", \"house_edge\": \"");
            if (minus && !exact_zero) t->data[t->length++] = '-';
            text_put(t, exact, exact_length);
            if (side == 0) PUT_LITERAL(t, "\", \"ev_decimal\": \"");
            else PUT_LITERAL(t, "\", \"house_edge_decimal\": \"");
            if (minus && !rounded_zero) t->data[t->length++] = '-';
            text_put(t, rounded, rounded_length);
        }
        PUT_LITERAL(t, "\"}");
    }
    PUT_LITERAL(t, "}}");
    return 1;
}

/* set_layout(program, player_output, tie_output, [(key_text: bytes, unavailable_text: bytes,
 *            needs_suits: bool, ev_output: int, denominator: int)...]) */
PyObject *set_layout(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule, *bets;
    int player, tie;
    if (!PyArg_ParseTuple(args, "OiiO!", &capsule, &player, &tie, &PyList_Type, &bets))
        return NULL;
    Program *p = get_program(capsule);
    if (!p) return NULL;
    if (p->has_layout) {
        PyErr_SetString(PyExc_ValueError, "the kernel program already has a layout");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(bets);
    if (player < 0 || player >= p->outputs || tie < 0 || tie >= p->outputs) goto bad_index;
    p->bets = n;
    p->bet_output = calloc(n + 1, sizeof(int32_t));
    p->bet_denominator = calloc(n + 1, sizeof(int64_t));
    p->bet_key = calloc(n + 1, sizeof(char *));
    p->bet_key_length = calloc(n + 1, sizeof(Py_ssize_t));
    p->bet_unavailable = calloc(n + 1, sizeof(char *));
    p->bet_unavailable_length = calloc(n + 1, sizeof(Py_ssize_t));
    p->bet_needs_suits = calloc(n + 1, 1);
    if (!p->bet_output || !p->bet_denominator || !p->bet_key || !p->bet_key_length ||
        !p->bet_unavailable || !p->bet_unavailable_length || !p->bet_needs_suits)
        return PyErr_NoMemory();
    for (Py_ssize_t b = 0; b < n; b++) {
        const char *key, *unavailable;
        Py_ssize_t key_length, unavailable_length;
        int needs_suits, output;
        long long denominator;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(bets, b), "y#y#piL", &key, &key_length,
                              &unavailable, &unavailable_length, &needs_suits, &output,
                              &denominator))
            return NULL;
        if (output < 0 || output >= p->outputs || denominator < 1) goto bad_index;
        p->bet_key[b] = malloc(key_length + 1);
        p->bet_unavailable[b] = malloc(unavailable_length + 1);
        if (!p->bet_key[b] || !p->bet_unavailable[b]) return PyErr_NoMemory();
        memcpy(p->bet_key[b], key, key_length);
        memcpy(p->bet_unavailable[b], unavailable, unavailable_length);
        p->bet_key_length[b] = key_length;
        p->bet_unavailable_length[b] = unavailable_length;
        p->bet_needs_suits[b] = (int8_t)needs_suits;
        p->bet_output[b] = output;
        p->bet_denominator[b] = denominator;
        if ((uint64_t)denominator > p->max_denominator) p->max_denominator = (uint64_t)denominator;
    }
    p->player_output = player;
    p->tie_output = tie;
    p->has_layout = 1;
    Py_RETURN_NONE;
bad_index:
    PyErr_SetString(PyExc_ValueError, "kernel layout index out of range");
    return NULL;
}

/* batch(program, lines: list[str], digits) -> (text: str, ends: bytes, status: bytes)
 * For each line, status 0 (its result line, newline included, ends at ends[i] in text),
 * 1 (blank: nothing written) or 2 (left to the Python reader: nothing written). */
PyObject *batch(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule, *lines;
    int digits;
    if (!PyArg_ParseTuple(args, "OO!i", &capsule, &PyList_Type, &lines, &digits)) return NULL;
    Program *p = get_program(capsule);
    if (!p) return NULL;
    if (!p->has_layout) {
        PyErr_SetString(PyExc_ValueError, "the kernel program has no batch layout");
        return NULL;
    }
    if (digits < 0 || digits > 100) {
        PyErr_SetString(PyExc_ValueError, "digits must be from 0 to 100");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(lines);
    const Py_ssize_t J = p->outputs;
    const char **texts = malloc(sizeof(char *) * (n + 1));
    Py_ssize_t *lengths = malloc(sizeof(Py_ssize_t) * (n + 1));
    int64_t *ends = malloc(sizeof(int64_t) * (n + 1));
    char *status = malloc(n + 1);
    int64_t *ranks = malloc(sizeof(int64_t) * RANKS * (n + 1));
    int64_t *suits = malloc(sizeof(int64_t) * CARDS * (n + 1));
    int8_t *suited = malloc(n + 1);
    int8_t *width = malloc(n + 1);
    int64_t *low = malloc(sizeof(int64_t) * J * (n + 1));
    int64_t *high = malloc(sizeof(int64_t) * J * (n + 1));
    u128 *out128 = malloc(sizeof(u128) * (J + 1));
    Text text = {NULL, 0, 0};
    PyObject *result = NULL;
    if (!texts || !lengths || !ends || !status || !ranks || !suits || !suited || !width ||
        !low || !high || !out128) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *line = PyList_GET_ITEM(lines, i);
        texts[i] = NULL;
        /* Only ASCII text is parsed here: anything else is the Python reader's. */
        if (PyUnicode_Check(line) && PyUnicode_IS_READY(line) && PyUnicode_IS_ASCII(line)) {
            texts[i] = (const char *)PyUnicode_DATA(line);
            lengths[i] = PyUnicode_GET_LENGTH(line);
        } else if (PyBytes_Check(line)) {
            texts[i] = PyBytes_AS_STRING(line);
            lengths[i] = PyBytes_GET_SIZE(line);
            for (Py_ssize_t k = 0; k < lengths[i]; k++)
                if ((unsigned char)texts[i][k] >= 128) { texts[i] = NULL; break; }
        }
    }
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    /* Parse every line, count every shoe parsed, then write the lines in order. */
    for (Py_ssize_t i = 0; i < n; i++) {
        int is_suited = 0;
        int kind = texts[i] ? parse_line(texts[i], lengths[i], ranks + i * RANKS,
                                         suits + i * CARDS, &is_suited)
                            : 2;
        status[i] = (char)kind;
        suited[i] = (int8_t)is_suited;
        if (kind != 0) {
            /* Not a shoe to count: give the evaluator a harmless row it will skip. */
            memset(ranks + i * RANKS, 0, sizeof(int64_t) * RANKS);
            suited[i] = 0;
        }
    }
    if (!evaluate_many(p, n, ranks, suited, suits, low, high, width)) failed = 1;
    for (Py_ssize_t i = 0; i < n && !failed; i++) {
        if (status[i] == 0) {
            int code = width[i];
            /* The EV denominators total * d must fit 128 bits to be written here. */
            uint64_t cards = 0;
            for (int r = 0; r < RANKS; r++) cards += (uint64_t)ranks[i * RANKS + r];
            int overflow;
            u128 total = sequences128(cards, &overflow);
            if (overflow || (p->max_denominator && total > ((u128)-1) / p->max_denominator))
                code = 2;
            if (code == 0 || code == 1) {
                for (Py_ssize_t j = 0; j < J; j++)
                    out128[j] = ((u128)(uint64_t)high[i * J + j] << 64) | (uint64_t)low[i * J + j];
                if (!format_line(&text, p, ranks + i * RANKS, suited[i], code,
                                 (const uint64_t *)(low + i * J), out128, digits) ||
                    !text_reserve(&text, 1)) {
                    failed = 1;
                    break;
                }
                text.data[text.length++] = '\n';
            } else status[i] = 2;
        }
        ends[i] = (int64_t)text.length;
    }
    Py_END_ALLOW_THREADS
    if (failed) { PyErr_NoMemory(); goto done; }
    {
        PyObject *string = PyUnicode_New((Py_ssize_t)text.length, 127);
        if (!string) goto done;
        if (text.length) memcpy(PyUnicode_DATA(string), text.data, text.length);
        PyObject *ends_bytes = PyBytes_FromStringAndSize((const char *)ends, n * 8);
        PyObject *status_bytes = PyBytes_FromStringAndSize(status, n);
        if (ends_bytes && status_bytes)
            result = PyTuple_Pack(3, string, ends_bytes, status_bytes);
        Py_DECREF(string);
        Py_XDECREF(ends_bytes);
        Py_XDECREF(status_bytes);
    }
done:
    free(texts); free(lengths); free(ends); free(status); free(ranks); free(suits);
    free(suited); free(width); free(low); free(high); free(out128);
    free(text.data);
    return result;
}

/* format(program, ranks: int64[13], suited: bool, code, low: int64[J], high: int64[J], digits)
 * -> str: the result line of one shoe already evaluated (for lines the Python reader read). */
PyObject *format_one(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule, *ranks_object, *low_object, *high_object;
    int suited, code, digits;
    if (!PyArg_ParseTuple(args, "OOpiOOi", &capsule, &ranks_object, &suited, &code, &low_object,
                          &high_object, &digits))
        return NULL;
    Program *p = get_program(capsule);
    if (!p) return NULL;
    if (!p->has_layout || (code != 0 && code != 1) || digits < 0 || digits > 100) {
        PyErr_SetString(PyExc_ValueError, "cannot format this result in the kernel");
        return NULL;
    }
    Py_buffer views[3];
    PyObject *objects[3] = {ranks_object, low_object, high_object};
    int got = 0;
    PyObject *result = NULL;
    for (; got < 3; got++)
        if (PyObject_GetBuffer(objects[got], &views[got], PyBUF_C_CONTIGUOUS) < 0) goto done;
    if (views[0].len != RANKS * 8 || views[1].len != p->outputs * 8 ||
        views[2].len != p->outputs * 8) {
        PyErr_SetString(PyExc_ValueError, "kernel arrays have the wrong length");
        goto done;
    }
    {
        const int64_t *low = views[1].buf, *high = views[2].buf;
        u128 *wide = malloc(sizeof(u128) * (p->outputs + 1));
        Text text = {NULL, 0, 0};
        if (!wide) { PyErr_NoMemory(); goto done; }
        for (Py_ssize_t j = 0; j < p->outputs; j++)
            wide[j] = ((u128)(uint64_t)high[j] << 64) | (uint64_t)low[j];
        if (format_line(&text, p, views[0].buf, suited, code, (const uint64_t *)low, wide,
                        digits)) {
            result = PyUnicode_New((Py_ssize_t)text.length, 127);
            if (result) memcpy(PyUnicode_DATA(result), text.data, text.length);
        } else PyErr_NoMemory();
        free(text.data);
        free(wide);
    }
done:
    for (int i = 0; i < got; i++) PyBuffer_Release(&views[i]);
    return result;
}

