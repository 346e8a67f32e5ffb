/* SPDX-License-Identifier: Apache-2.0 */
/*
 * calibrate_logic.h - the part of fastcrypto-calibrate that does not time
 * anything: the statistics of the paired rounds, the offer decision, the
 * wisdom file's records (fc/wisdom.h) and its atomic write. No OpenSSL
 * here, so test/test_calibrate.c checks it with exact, injected figures.
 */
#ifndef FC_CALIBRATE_LOGIC_H
#define FC_CALIBRATE_LOGIC_H

#include <stddef.h>

/* The decision rule (see tools/fastcrypto_calibrate.c's header): a family
 * is offered iff the lower quartile of its paired ratios is at least
 * FC_CAL_Q1_MIN and their median at least FC_CAL_MEDIAN_MIN. */
#define FC_CAL_Q1_MIN     1.02
#define FC_CAL_MEDIAN_MIN 1.05
#define FC_CAL_MIN_ROUNDS 5    /* rounds per workload, whatever the budget */
#define FC_CAL_PICK_MIN   1.05 /* fc_cal_picked */

/* One workload's rounds: the nanoseconds each side took, round by round. */
typedef struct fc_cal_series {
    char name[48]; /* "seal-1350", ... */
    double *ours;
    double *dflt;
    size_t n, cap;
} fc_cal_series;

/* What a family's workloads add up to. */
typedef struct fc_cal_result {
    double median; /* min over the workloads of their median ratio */
    double q1;     /* min over the workloads of their lower quartile */
    size_t rounds; /* the fewest rounds any workload got */
    int worst;     /* index of the workload with the lowest median */
    int offer;     /* fc_cal_offered(median, q1) */
} fc_cal_result;

/* Appends one round; returns 1, or 0 if out of memory or a time is not a
 * positive finite number. */
int fc_cal_series_add(fc_cal_series *s, double ours_ns, double default_ns);
void fc_cal_series_free(fc_cal_series *s);

/* The |q| quantile (0..1) of |n| values, linear between the two nearest
 * order statistics (the values are copied, not reordered). n > 0. */
double fc_cal_quantile(const double *v, size_t n, double q);

/* Median and lower quartile of the paired ratios default/ours of |s|
 * (> 1: ours faster). Returns 0 if |s| has no round. */
int fc_cal_series_stats(const fc_cal_series *s, double *median, double *q1);

/* 1 iff a family with these figures is offered. */
int fc_cal_offered(double median, double q1);

/* A family's figures from its |n| workloads; returns 0 if any has no
 * round (nothing is decided then). */
int fc_cal_family(const fc_cal_series *w, size_t n, fc_cal_result *r);

/* The wisdom record of one family (no newline), as fc/wisdom.h spells it:
 * "family NAME offer|no median=M q1=Q ours=K default=V ms=T", then
 * " pick=P" if |pick| is not NULL. Returns 1, or 0 if it did not fit or a
 * field holds a space (or |pick| is empty). */
int fc_cal_record(char *buf, size_t len, const char *family,
                  const fc_cal_result *r, const char *ours,
                  const char *default_version, unsigned long ms,
                  const char *pick);

/* The tier rule: another of our kernels (engines) of a family, measured
 * with figures |alt|, runs instead of the provider's own choice, measured
 * |base|, iff its median ratio is at least FC_CAL_PICK_MIN times base's
 * and its lower quartile above base's median (three rounds in four ahead
 * of base's typical round). Returns 1 iff so. */
int fc_cal_picked(const fc_cal_result *base, const fc_cal_result *alt);

/* Writes |len| bytes of |text| to |path| atomically: a temporary file in
 * the same directory (mode 0644), fsync, rename over |path|, fsync of the
 * directory. The directory is made (0755) if it is missing and its parent
 * exists. Returns 1, or 0 with |err| saying why. */
int fc_cal_write_atomic(const char *path, const char *text, size_t len,
                        char *err, size_t errlen);

#endif /* FC_CALIBRATE_LOGIC_H */
