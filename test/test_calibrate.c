/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_calibrate.c - fastcrypto-calibrate's decision logic with injected
 * timings, so that it runs the same under an emulator and on a busy CI
 * machine: the statistics (tools/calibrate_logic.c) on exact figures, the
 * decision rule at and around its thresholds, a family that wins on all
 * workloads but one, and the tool itself (FC_TEST_CALIBRATE_TOOL, run by
 * popen) reading a --test-timings file and writing a wisdom file that
 * parses as fc/wisdom.h says (checked here: the provider's parser is
 * another file).
 */
#define _GNU_SOURCE

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calibrate_logic.h"
#include "fc/wisdom.h"
#include "runner.h"

/* A series of |n| rounds whose paired ratios default/ours are |ratio|:
 * ours takes |base| ns (varied round to round, as real rounds are), default
 * base * ratio. */
static void series_of(fc_cal_series *s, const double *ratio, size_t n)
{
    memset(s, 0, sizeof(*s));
    for (size_t i = 0; i < n; i++) {
        double base = 1000.0 + 37.0 * (double)(i % 5);

        assert_true(fc_cal_series_add(s, base, base * ratio[i]));
    }
}

/* The family's figures and decision from one workload's ratios. */
static fc_cal_result decide(const double *ratio, size_t n)
{
    fc_cal_series s;
    fc_cal_result r;

    series_of(&s, ratio, n);
    assert_true(fc_cal_family(&s, 1, &r));
    fc_cal_series_free(&s);
    return r;
}

FC_TEST("calibrate", test_quantiles)
{
    const double v[8] = {8, 1, 7, 2, 6, 3, 5, 4};
    fc_cal_series s;
    double m, q;

    (void)state;
    /* Sorted 1..8: median between 4 and 5, q1 at 2.75. */
    assert_float_equal(fc_cal_quantile(v, 8, 0.5), 4.5, 1e-12);
    assert_float_equal(fc_cal_quantile(v, 8, 0.25), 2.75, 1e-12);
    assert_float_equal(fc_cal_quantile(v, 8, 0.0), 1.0, 1e-12);
    assert_float_equal(fc_cal_quantile(v, 8, 1.0), 8.0, 1e-12);
    assert_float_equal(fc_cal_quantile(v, 1, 0.25), 8.0, 1e-12);
    /* The input is left as it was. */
    assert_float_equal(v[0], 8.0, 0);
    /* Ratios are default / ours. */
    memset(&s, 0, sizeof(s));
    assert_true(fc_cal_series_add(&s, 100, 200));
    assert_true(fc_cal_series_add(&s, 200, 100));
    assert_true(fc_cal_series_add(&s, 100, 100));
    assert_true(fc_cal_series_stats(&s, &m, &q));
    assert_float_equal(m, 1.0, 1e-12);
    assert_float_equal(q, 0.75, 1e-12);
    /* Times that are not positive finite numbers are refused. */
    assert_false(fc_cal_series_add(&s, 0, 100));
    assert_false(fc_cal_series_add(&s, 100, -1));
    assert_int_equal(s.n, 3);
    fc_cal_series_free(&s);
    memset(&s, 0, sizeof(s));
    assert_false(fc_cal_series_stats(&s, &m, &q));
}

FC_TEST("calibrate", test_clear_win_loss_tie)
{
    const double win[9] = {1.48, 1.52, 1.50, 1.47, 1.55, 1.51, 1.49, 1.53, 1.5};
    const double loss[9] = {0.79, 0.81, 0.80, 0.78, 0.83, 0.80, 0.82, 0.8, 0.8};
    const double tie[9] = {0.99, 1.01, 1.00, 1.02, 0.98, 1.00, 1.01, 0.99, 1.0};
    fc_cal_result r;

    (void)state;
    r = decide(win, 9);
    assert_float_equal(r.median, 1.50, 1e-9);
    assert_float_equal(r.q1, 1.49, 1e-9);
    assert_int_equal(r.rounds, 9);
    assert_int_equal(r.offer, 1);
    r = decide(loss, 9);
    assert_float_equal(r.median, 0.80, 1e-9);
    assert_int_equal(r.offer, 0);
    r = decide(tie, 9);
    assert_float_equal(r.median, 1.00, 1e-9);
    assert_int_equal(r.offer, 0);
}

/* A win on the median with wide quartiles: a quarter of the rounds or more
 * had ours slower, which a real 8% win does not produce. */
FC_TEST("calibrate", test_noisy_win)
{
    const double noisy[8] = {0.90, 0.95, 0.95, 1.08, 1.08, 1.10, 1.12, 1.15};
    fc_cal_result r;

    (void)state;
    r = decide(noisy, 8);
    assert_float_equal(r.median, 1.08, 1e-9);
    assert_float_equal(r.q1, 0.95, 1e-9);
    assert_int_equal(r.offer, 0);
}

FC_TEST("calibrate", test_thresholds)
{
    const double at[5] = {1.02, 1.02, 1.05, 1.05, 1.05};
    const double q1_below[5] = {1.019, 1.019, 1.05, 1.05, 1.05};
    const double med_below[5] = {1.02, 1.02, 1.049, 1.06, 1.06};
    fc_cal_result r;

    (void)state;
    assert_int_equal(fc_cal_offered(FC_CAL_MEDIAN_MIN, FC_CAL_Q1_MIN), 1);
    assert_int_equal(fc_cal_offered(1.0499, 1.5), 0);
    assert_int_equal(fc_cal_offered(1.5, 1.0199), 0);
    /* Exactly at both thresholds, as timed: 102 and 105 ns against 100. */
    r = decide(at, 5);
    assert_float_equal(r.q1, 1.02, 1e-9);
    assert_float_equal(r.median, 1.05, 1e-9);
    assert_int_equal(r.offer, 1);
    r = decide(q1_below, 5);
    assert_int_equal(r.offer, 0);
    r = decide(med_below, 5);
    assert_float_equal(r.median, 1.049, 1e-9);
    assert_int_equal(r.offer, 0);
}

/* A family is offered only if it wins on every workload: its figures are
 * the minimum over them. */
FC_TEST("calibrate", test_min_over_workloads)
{
    const double big[5] = {2.0, 2.1, 1.9, 2.0, 2.05};
    const double small[7] = {1.03, 1.04, 1.03, 1.02, 1.04, 1.03, 1.03};
    const double wide_q1[5] = {1.01, 1.3, 1.4, 1.5, 1.6};
    fc_cal_series s[3];
    fc_cal_result r;

    (void)state;
    series_of(&s[0], big, 5);
    series_of(&s[1], small, 7);
    series_of(&s[2], wide_q1, 5);
    assert_true(fc_cal_family(s, 2, &r));
    assert_float_equal(r.median, 1.03, 1e-9);
    assert_int_equal(r.worst, 1);
    assert_int_equal(r.rounds, 5);
    assert_int_equal(r.offer, 0);
    /* big and wide_q1: the medians are 2.0 and 1.4, the q1s 1.95, 1.3. */
    fc_cal_series_free(&s[1]);
    s[1] = s[2];
    assert_true(fc_cal_family(s, 2, &r));
    assert_float_equal(r.median, 1.4, 1e-9);
    assert_float_equal(r.q1, 1.3, 1e-9);
    assert_int_equal(r.worst, 1);
    assert_int_equal(r.offer, 1);
    fc_cal_series_free(&s[0]);
    fc_cal_series_free(&s[2]);
    /* No round, no decision. */
    memset(s, 0, sizeof(s));
    assert_false(fc_cal_family(s, 1, &r));
    assert_false(fc_cal_family(s, 0, &r));
}

FC_TEST("calibrate", test_record)
{
    fc_cal_result r = {.median = 2.6123, .q1 = 2.5399, .offer = 1};
    char buf[FC_WISDOM_MAX_LINE];

    (void)state;
    assert_true(fc_cal_record(buf, sizeof(buf), "gcm", &r, "vaes-avx512",
                              "3.0.19", 2210, NULL));
    assert_string_equal(buf, "family gcm offer median=2.612 q1=2.540 "
                             "ours=vaes-avx512 default=3.0.19 ms=2210");
    r.offer = 0;
    assert_true(fc_cal_record(buf, sizeof(buf), "rsa3072", &r, "ifma", "3.6.3",
                              0, NULL));
    assert_string_equal(buf, "family rsa3072 no median=2.612 q1=2.540 "
                             "ours=ifma default=3.6.3 ms=0");
    /* A pick: the kernel the record's figures are for. */
    assert_true(fc_cal_record(buf, sizeof(buf), "gcm", &r, "vaes-avx2", "3.6.3",
                              7, "vaes-avx2"));
    assert_string_equal(buf, "family gcm no median=2.612 q1=2.540 "
                             "ours=vaes-avx2 default=3.6.3 ms=7 "
                             "pick=vaes-avx2");
    /* A space would split a field; a short buffer truncates. */
    assert_false(
        fc_cal_record(buf, sizeof(buf), "gcm", &r, "a b", "3", 0, NULL));
    assert_false(fc_cal_record(buf, 20, "gcm", &r, "ifma", "3.0.19", 0, NULL));
    assert_false(
        fc_cal_record(buf, sizeof(buf), "gcm", &r, "ifma", "3", 0, "a b"));
    assert_false(
        fc_cal_record(buf, sizeof(buf), "gcm", &r, "ifma", "3", 0, ""));
}

/* The tier rule: 5% ahead of the provider's own choice, three rounds in
 * four above its median. */
FC_TEST("calibrate", test_picked)
{
    const fc_cal_result base = {.median = 2.00, .q1 = 1.95};
    fc_cal_result alt = {.median = 2.20, .q1 = 2.10};

    (void)state;
    assert_true(fc_cal_picked(&base, &alt)); /* clear win */
    alt.median = 2.09;                       /* 4.5% ahead: not enough */
    assert_false(fc_cal_picked(&base, &alt));
    alt.median = 2.10;
    assert_true(fc_cal_picked(&base, &alt)); /* exactly 5% */
    alt.q1 = 2.00;                           /* noisy: q1 at base's median */
    assert_false(fc_cal_picked(&base, &alt));
    alt = base; /* a tie */
    assert_false(fc_cal_picked(&base, &alt));
    alt.median = 1.50; /* slower */
    alt.q1 = 1.40;
    assert_false(fc_cal_picked(&base, &alt));
    /* Both slower than default: the ratios still order them. */
    const fc_cal_result slow = {.median = 0.50, .q1 = 0.48};
    alt.median = 0.60;
    alt.q1 = 0.55;
    assert_true(fc_cal_picked(&slow, &alt));
}

/* A scratch directory under TMPDIR, removed by the caller
 * (fc_test_remove_tree). */
static void scratch(char *dir, size_t len)
{
    const char *t = getenv("TMPDIR");

    snprintf(dir, len, "%s/fc_calXXXXXX", t != NULL ? t : "/tmp");
    assert_non_null(mkdtemp(dir));
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "r");
    char *buf = calloc(1, FC_WISDOM_MAX_BYTES + 1);

    assert_non_null(f);
    assert_non_null(buf);
    *len = fread(buf, 1, FC_WISDOM_MAX_BYTES + 1, f);
    fclose(f);
    assert_true(*len <= FC_WISDOM_MAX_BYTES);
    return buf;
}

FC_TEST("calibrate", test_write_atomic)
{
    char dir[256], path[300], err[256], *text;
    struct stat st;
    size_t len;

    (void)state;
    scratch(dir, sizeof(dir));
    /* The file's directory is made if missing, 0755; the file is 0644
     * whatever the umask, and replaced whole. */
    snprintf(path, sizeof(path), "%s/sub/wisdom", dir);
    umask(077);
    assert_true(fc_cal_write_atomic(path, "one\n", 4, err, sizeof(err)));
    umask(022);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0644);
    assert_true(S_ISREG(st.st_mode));
    assert_true(fc_cal_write_atomic(path, "second\n", 7, err, sizeof(err)));
    text = slurp(path, &len);
    assert_int_equal(len, 7);
    assert_memory_equal(text, "second\n", 7);
    free(text);
    snprintf(path, sizeof(path), "%s/sub", dir);
    assert_int_equal(stat(path, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    /* No temporary file left beside it. */
    {
        char cmd[400];

        snprintf(cmd, sizeof(cmd), "test \"$(ls -A '%s/sub')\" = wisdom", dir);
        assert_int_equal(system(cmd), 0);
    }
    /* A directory that cannot be made: an error, nothing written. */
    snprintf(path, sizeof(path), "%s/no/such/wisdom", dir);
    assert_false(fc_cal_write_atomic(path, "x", 1, err, sizeof(err)));
    assert_non_null(strstr(err, "cannot"));
    assert_true(fc_test_remove_tree(dir));
}

/* ------------------------------------------------------------------------ */
/* The tool with injected timings, and its file checked against
 * fc/wisdom.h. */

static const char *const fam_names[] = {"gcm",     "cbc",      "ctr",
                                        "drbg",    "cbc-hmac", "rsa2048",
                                        "rsa3072", "rsa4096",  "rsa-other"};

/* Checks |text| as fc/wisdom.h's grammar; stores each family's decision in
 * |dec| (1 offer, 0 no, -1 absent) and returns the number of families, or
 * -1 with a message if the file does not parse. */
static int wisdom_check(char *text, size_t len, const char *key, int dec[9])
{
    int line_no = 0, nfam = 0, saw_key = 0, saw_magic = 0;
    char *save = NULL;

    for (int i = 0; i < 9; i++)
        dec[i] = -1;
    if (len == 0 || text[len - 1] != '\n')
        return -1;
    text[len] = '\0';
    for (char *l = strtok_r(text, "\n", &save); l != NULL;
         l = strtok_r(NULL, "\n", &save)) {
        char name[32], what[8];
        int f, n = 0;

        line_no++;
        if (strlen(l) >= FC_WISDOM_MAX_LINE)
            return -1;
        if (!saw_magic) {
            if (strcmp(l, FC_WISDOM_MAGIC) != 0)
                return -1;
            saw_magic = 1;
            continue;
        }
        if (l[0] == '#')
            continue;
        if (strncmp(l, "key ", 4) == 0) {
            if (saw_key || nfam > 0 || strcmp(l + 4, key) != 0 ||
                strlen(l + 4) >= FC_WISDOM_KEY_MAX)
                return -1;
            saw_key = 1;
            continue;
        }
        if (!saw_key || sscanf(l, "family %31s %7s%n", name, what, &n) != 2)
            return -1;
        for (f = 0; f < 9 && strcmp(fam_names[f], name) != 0; f++)
            ;
        if (f == 9 || dec[f] != -1 ||
            (strcmp(what, "offer") != 0 && strcmp(what, "no") != 0))
            return -1;
        dec[f] = strcmp(what, "offer") == 0;
        nfam++;
        /* name=value fields, no spaces inside, these five present. */
        for (size_t k = 0; k < 5; k++) {
            static const char *const fields[5] = {
                " median=", " q1=", " ours=", " default=", " ms="};
            const char *p = strstr(l + n, fields[k]);

            if (p == NULL || p[strlen(fields[k])] == ' ' ||
                p[strlen(fields[k])] == '\0')
                return -1;
        }
    }
    return saw_key ? nfam : -1;
}

FC_TEST("calibrate", test_wisdom_checker)
{
    const char *key = "cpu=x86:GenuineIntel:6:167:1 caps=0x0007fbff "
                      "ossl=0x30000130 fc=0.1.0";
    char good[] = "fastcrypto-wisdom 1\n"
                  "key cpu=x86:GenuineIntel:6:167:1 caps=0x0007fbff "
                  "ossl=0x30000130 fc=0.1.0\n"
                  "family gcm offer median=2.612 q1=2.540 ours=vaes-avx512 "
                  "default=3.0.19 ms=2210\n"
                  "family rsa3072 no median=1.011 q1=0.985 ours=ifma "
                  "default=3.0.19 ms=3100\n";
    char twice[] = "fastcrypto-wisdom 1\nkey k\n"
                   "family gcm offer median=1 q1=1 ours=a default=b ms=1\n"
                   "family gcm no median=1 q1=1 ours=a default=b ms=1\n";
    char nokey[] = "fastcrypto-wisdom 1\n"
                   "family gcm offer median=1 q1=1 ours=a default=b ms=1\n";
    int dec[9];

    (void)state;
    /* The checker accepts fc/wisdom.h's own example and refuses what the
     * header says makes a file ignored. */
    assert_int_equal(wisdom_check(good, strlen(good), key, dec), 2);
    assert_int_equal(dec[0], 1);
    assert_int_equal(dec[6], 0);
    assert_int_equal(dec[1], -1);
    assert_int_equal(wisdom_check(twice, strlen(twice), "k", dec), -1);
    assert_int_equal(wisdom_check(nokey, strlen(nokey), "k", dec), -1);
}

/* Runs the tool (through the emulator when cross-built); returns its exit
 * status and its stdout in |out|. */
static int run_tool(const char *args, char *out, size_t outlen)
{
    const char *tool = getenv("FC_TEST_CALIBRATE_TOOL");
    char cmd[1200];
    size_t n = 0;
    FILE *p;
    int st;

    assert_non_null(tool);
    snprintf(cmd, sizeof(cmd), "%s %s 2>&1", tool, args);
    p = popen(cmd, "r");
    assert_non_null(p);
    n = fread(out, 1, outlen - 1, p);
    out[n] = '\0';
    st = pclose(p);
    print_message("$ %s\n%s", cmd, out);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

FC_TEST("calibrate", test_tool_injected)
{
    static const char key[] = "cpu=x86:GenuineIntel:6:167:1 caps=0x0007fbff "
                              "ossl=0x30000130 fc=0.1.0";
    char dir[256], timings[300], path[300], args[1000], *out, *text;
    size_t len;
    int dec[9];
    FILE *f;
    struct stat st;

    (void)state;
    out = malloc(65536);
    assert_non_null(out);
    scratch(dir, sizeof(dir));
    snprintf(timings, sizeof(timings), "%s/timings", dir);
    snprintf(path, sizeof(path), "%s/var/wisdom", dir);
    f = fopen(timings, "w");
    assert_non_null(f);
    fprintf(f, "# family[:workload] ours_ns default_ns, a round a line\n");
    for (int i = 0; i < 9; i++) {
        double o = 1000 + 10 * (i % 3);

        fprintf(f, "gcm:seal %.1f %.1f\n", o, o * 1.5);  /* clear win */
        fprintf(f, "gcm:open %.1f %.1f\n", o, o * 1.45); /* clear win */
        fprintf(f, "cbc %.1f %.1f\n", o, o * 0.8);       /* clear loss */
        fprintf(f, "ctr %.1f %.1f\n", o, o * (i & 1 ? 0.99 : 1.01)); /* tie */
        fprintf(f, "rsa2048 %.1f %.1f\n", o, o * 1.05); /* at 1.05 */
        /* a win on one workload, a tie on the other */
        fprintf(f, "cbc-hmac:seal %.1f %.1f\n", o, o * 1.3);
        fprintf(f, "cbc-hmac:open %.1f %.1f\n", o, o * 1.0);
    }
    /* noisy: median 1.08, q1 0.95 */
    {
        const double r[8] = {0.90, 0.95, 0.95, 1.08, 1.08, 1.10, 1.12, 1.15};

        for (int i = 0; i < 8; i++)
            fprintf(f, "drbg 1000 %.1f\n", 1000 * r[i]);
    }
    fclose(f);

    snprintf(args, sizeof(args), "--test-timings '%s' --key '%s' --out '%s'",
             timings, key, path);
    assert_int_equal(run_tool(args, out, 65536), 0);
    text = slurp(path, &len);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0644);
    assert_int_equal(wisdom_check(text, len, key, dec), 6);
    assert_int_equal(dec[0], 1); /* gcm */
    assert_int_equal(dec[1], 0); /* cbc */
    assert_int_equal(dec[2], 0); /* ctr */
    assert_int_equal(dec[3], 0); /* drbg, noisy */
    assert_int_equal(dec[4], 0); /* cbc-hmac, one workload ties */
    assert_int_equal(dec[5], 1); /* rsa2048 */
    assert_int_equal(dec[6], -1);
    assert_int_equal(dec[7], -1);
    free(text);
    text = slurp(path, &len);
    assert_non_null(strstr(text, "family gcm offer median=1.450 q1=1.450 "
                                 "ours=injected"));
    assert_non_null(strstr(text, "family drbg no median=1.080 q1=0.950 "));
    free(text);
    /* The table says the same, with the worst workload. */
    assert_non_null(strstr(out, "cbc-hmac"));
    assert_non_null(strstr(out, "open"));

    /* --dry-run writes nothing; --only keeps the named families. */
    assert_int_equal(unlink(path), 0);
    snprintf(args, sizeof(args),
             "--test-timings '%s' --key k --out '%s' --dry-run --only gcm",
             timings, path);
    assert_int_equal(run_tool(args, out, 65536), 0);
    assert_int_not_equal(access(path, F_OK), 0);
    assert_non_null(strstr(out, "family gcm offer"));
    assert_null(strstr(out, "family cbc "));

    /* A malformed line: an error, and nothing written. */
    f = fopen(timings, "a");
    assert_non_null(f);
    fprintf(f, "gcm 1000\n");
    fclose(f);
    snprintf(args, sizeof(args), "--test-timings '%s' --key k --out '%s'",
             timings, path);
    assert_int_not_equal(run_tool(args, out, 65536), 0);
    assert_int_not_equal(access(path, F_OK), 0);
    f = fopen(timings, "w");
    assert_non_null(f);
    fprintf(f, "sha512 1000 2000\n");
    fclose(f);
    assert_int_not_equal(run_tool(args, out, 65536), 0);
    assert_true(fc_test_remove_tree(dir));
    free(out);
}

int main(void)
{
    return fc_test_main(NULL, 0);
}
