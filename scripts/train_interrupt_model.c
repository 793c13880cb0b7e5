/* The training loop of the interruption classifier's model (issue #45), compiled and run by
 * `python scripts/train_interrupt_model.py --fast`: the loop only.
 *
 * The Python script does everything else, for both ways of training: it reads the corpora,
 * computes each message's features (hashed into buckets) and scales them to length 1, weighs
 * each type, and draws every epoch's order of the messages from its seeded random.Random. Here
 * runs the loop of its train(): softmax regression by AdaGrad, with the same floating-point
 * operations in the same order (exp and sqrt are the C library's, which Python's math module
 * calls), so the weights written are the script's, bit for bit
 * (tests/test_train_interrupt_model_fast.py checks that they are the shipped model.bin).
 *
 * Build: cc -O2 -ffp-contract=off -o train train_interrupt_model.c -lm
 *   (-ffp-contract=off: on a machine with fused multiply-add, arm64 for one, the compiler would
 *   otherwise round a * b + c once where Python rounds it twice)
 * Run:   train INPUT OUTPUT
 *
 * INPUT, every number 8 bytes in the host's byte order (int64, or an IEEE 754 double):
 *   char[8]          "TPIMT001"
 *   int64            n (messages), epochs, buckets, types, nnz (features in all), compensated
 *   double           rate, l2, bias_rate, square0 (each square's start)
 *   int64[n]         labels, each in [0, types)
 *   double[types]    balance: how much a message of each type weighs
 *   int64[n + 1]     offsets: message i's features are entries offsets[i] to offsets[i + 1] - 1
 *   int64[nnz]       rows, each in [0, buckets)
 *   double[nnz]      values
 *   int64[epochs*n]  order: the messages of the first epoch in turn, then the second's, ...
 * compensated: 1 to add up the exponentials as Python 3.12's sum() does (Neumaier's compensated
 * sum), 0 as Python 3.11's (left to right).
 *
 * OUTPUT: double[types] bias, then double[buckets * types] weights, bucket by bucket.
 * Exit status 0; 2, with one line on stderr, when the input is short, long or out of range.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIMIT ((int64_t)1 << 36) /* no count near it: keeps count * 8 from overflowing */

static const char *input_path;
static FILE *input;

static void fail(const char *what) {
    fprintf(stderr, "train_interrupt_model: %s: %s\n", input_path, what);
    exit(2);
}

/* count items of size bytes, read from the input */
static void *take(int64_t count, size_t size) {
    void *data = malloc(count > 0 ? (size_t)count * size : 1);
    if (data == NULL) fail("out of memory");
    if (fread(data, size, (size_t)count, input) != (size_t)count) fail("input too short");
    return data;
}

static void check_range(const int64_t *values, int64_t count, int64_t end, const char *what) {
    for (int64_t i = 0; i < count; i++)
        if (values[i] < 0 || values[i] >= end) fail(what);
}

/* the sum of values[0 .. count - 1] as Python's built-in sum() makes it of a list of floats */
static double python_sum(const double *values, int64_t count, int compensated) {
    double total = count > 0 ? values[0] : 0.0;
    double c = 0.0;
    for (int64_t k = 1; k < count; k++) {
        double x = values[k];
        if (!compensated) {
            total += x;
            continue;
        }
        double t = total + x; /* Python 3.12's float sum: Neumaier's compensation */
        if (fabs(total) >= fabs(x))
            c += (total - t) + x;
        else
            c += (x - t) + total;
        total = t;
    }
    if (c != 0.0 && isfinite(c)) total += c;
    return total;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s INPUT OUTPUT\n", argv[0]);
        return 2;
    }
    input_path = argv[1];
    input = fopen(input_path, "rb");
    if (input == NULL) fail("cannot open");

    char magic[8];
    int64_t head[6];
    double rates[4];
    if (fread(magic, 1, 8, input) != 8 || memcmp(magic, "TPIMT001", 8) != 0)
        fail("not a training input (TPIMT001)");
    if (fread(head, 8, 6, input) != 6 || fread(rates, 8, 4, input) != 4) fail("input too short");
    int64_t n = head[0], epochs = head[1], buckets = head[2], types = head[3], nnz = head[4];
    int compensated = head[5] != 0;
    double rate = rates[0], l2 = rates[1], bias_rate = rates[2], square0 = rates[3];
    if (n < 0 || n >= LIMIT || epochs < 0 || epochs >= LIMIT / (n + 1) || buckets < 1 ||
        types < 1 || buckets >= LIMIT / types || nnz < 0 || nnz >= LIMIT)
        fail("sizes out of range");

    int64_t *labels = take(n, 8);
    double *balance = take(types, 8);
    int64_t *offsets = take(n + 1, 8);
    int64_t *rows = take(nnz, 8);
    double *values = take(nnz, 8);
    int64_t *order = take(epochs * n, 8);
    if (fgetc(input) != EOF) fail("input too long");
    fclose(input);
    check_range(labels, n, types, "a label out of range");
    check_range(rows, nnz, buckets, "a row out of range");
    check_range(order, epochs * n, n, "a message out of range in the order");
    if (offsets[0] != 0 || offsets[n] != nnz) fail("offsets do not span the features");
    for (int64_t i = 0; i < n; i++)
        if (offsets[i + 1] < offsets[i]) fail("offsets out of order");

    double *weights = calloc((size_t)(buckets * types), 8);
    double *squares = malloc((size_t)(buckets * types) * 8);
    double *bias = calloc((size_t)types, 8);
    double *scores = malloc((size_t)types * 8);
    double *exps = malloc((size_t)types * 8);
    if (!weights || !squares || !bias || !scores || !exps) fail("out of memory");
    for (int64_t r = 0; r < buckets * types; r++) squares[r] = square0;

    /* train()'s loop, step for step */
    for (int64_t e = 0; e < epochs; e++) {
        for (int64_t j = 0; j < n; j++) {
            int64_t i = order[e * n + j], label = labels[i];
            int64_t first = offsets[i], end = offsets[i + 1];
            for (int64_t k = 0; k < types; k++) scores[k] = bias[k];
            for (int64_t p = first; p < end; p++)
                for (int64_t k = 0; k < types; k++)
                    scores[k] += weights[rows[p] * types + k] * values[p];
            double top = scores[0];
            for (int64_t k = 1; k < types; k++)
                if (scores[k] > top) top = scores[k];
            for (int64_t k = 0; k < types; k++) exps[k] = exp(scores[k] - top);
            double total = python_sum(exps, types, compensated);
            for (int64_t k = 0; k < types; k++) {
                /* the script's (p - (k == label)): a bool taken from a float */
                double grad = (exps[k] / total - (double)(k == label)) * balance[label];
                bias[k] -= rate * grad * bias_rate;
                for (int64_t p = first; p < end; p++) {
                    int64_t r = rows[p] * types + k;
                    double g = grad * values[p] + l2 * weights[r];
                    squares[r] += g * g;
                    weights[r] -= rate * g / sqrt(squares[r]);
                }
            }
        }
    }

    FILE *output = fopen(argv[2], "wb");
    if (output == NULL) {
        fprintf(stderr, "train_interrupt_model: %s: cannot write\n", argv[2]);
        return 2;
    }
    size_t cells = (size_t)(buckets * types);
    if (fwrite(bias, 8, (size_t)types, output) != (size_t)types ||
        fwrite(weights, 8, cells, output) != cells || fclose(output) != 0) {
        fprintf(stderr, "train_interrupt_model: %s: cannot write\n", argv[2]);
        return 2;
    }
    return 0;
}
