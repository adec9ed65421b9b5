/* The reference of the pairs-only study in benchmarks/bench_simulate.py: a plain C loop
 * that shuffles, burns, deals to the cut card and prices both pair bets from the rank
 * counts, with none of the library's machinery (no Python, no numpy, no exact tally).
 *
 * Each shoe: 8 decks shuffled by Fisher-Yates from a PCG64 stream (multiply-shift
 * bounded draws), the standard burn, rounds of the standard tableau to 14 cards from
 * the back plus one round; before each round both pairs priced exactly as numerators
 * over n (n - 1) (S = sum of N_r (N_r - 1)), the positive ones counted.
 *
 * Built and run by the benchmark at run time: cc -O3 plain_pairs_loop.c; ./a.out SHOES.
 * Prints: rounds, wall seconds, CPU seconds, checksum, positive prices.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef unsigned __int128 u128;

static u128 state, increment;

static uint64_t next64(void) {
    static const u128 multiplier =
        ((u128)0x2360ED051FC65DA4ULL << 64) | (u128)0x4385DF649FCCF645ULL;
    state = state * multiplier + increment;
    uint64_t word = (uint64_t)(state >> 64) ^ (uint64_t)state;
    unsigned rotation = (unsigned)(state >> 122);
    return (word >> rotation) | (word << ((64 - rotation) & 63));
}

static int value(int card) { return card / 4 < 9 ? card / 4 + 1 : 0; }

int main(int argc, char **argv) {
    long shoes = argc > 1 ? atol(argv[1]) : 10000;
    enum { DECKS = 8, SIZE = 52 * DECKS, CUT = 14 };
    static const int banker_draws[10][10] = {
        {1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
        {1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1, 1, 0, 1},
        {0, 0, 1, 1, 1, 1, 1, 1, 0, 0}, {0, 0, 0, 0, 1, 1, 1, 1, 0, 0},
        {0, 0, 0, 0, 0, 0, 1, 1, 0, 0}, {0}, {0}, {0}};
    int cards[SIZE];
    long rounds = 0, positive = 0;
    int64_t checksum = 0;
    state = 12345;
    increment = 67891;
    struct timespec start, end, cpu_start, cpu_end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu_start);
    for (long shoe = 0; shoe < shoes; shoe++) {
        for (int i = 0; i < SIZE; i++) cards[i] = i % 52;
        for (int i = SIZE - 1; i > 0; i--) {
            int j = (int)(((u128)next64() * (uint64_t)(i + 1)) >> 64);
            int swap = cards[i]; cards[i] = cards[j]; cards[j] = swap;
        }
        int64_t ranks[13];
        for (int r = 0; r < 13; r++) ranks[r] = 4 * DECKS;
        ranks[cards[0] / 4]--;
        int position = 1 + (value(cards[0]) ? value(cards[0]) : 10);
        int remaining = -1;
        while (position <= SIZE - 6 && remaining != 0) {
            int64_t n = 0, pairs = 0;
            for (int r = 0; r < 13; r++) { n += ranks[r]; pairs += ranks[r] * (ranks[r] - 1); }
            int64_t ordered = n * (n - 1);
            int64_t numerator = pairs * 11 - (ordered - pairs); /* both pairs pay 11 to 1 */
            positive += 2 * (numerator > 0);
            checksum += numerator;
            const int *c = cards + position;
            int p = (value(c[0]) + value(c[2])) % 10, b = (value(c[1]) + value(c[3])) % 10;
            int used = 4;
            if (p < 8 && b < 8) {
                if (p <= 5) {
                    used++;
                    if (banker_draws[b][value(c[4])]) used++;
                } else if (b <= 5) {
                    used++;
                }
            }
            for (int i = 0; i < used; i++) ranks[c[i] / 4]--;
            if (remaining < 0 && position + used > SIZE - CUT)
                remaining = (position >= SIZE - CUT ? 2 : 2) - 1;
            else if (remaining > 0)
                remaining--;
            position += used;
            rounds++;
        }
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu_end);
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (end.tv_sec - start.tv_sec) + 1e-9 * (end.tv_nsec - start.tv_nsec);
    double cpu = (cpu_end.tv_sec - cpu_start.tv_sec) +
                 1e-9 * (cpu_end.tv_nsec - cpu_start.tv_nsec);
    printf("%ld %.6f %.6f %lld %ld\n", rounds, seconds, cpu, (long long)checksum, positive);
    return 0;
}
