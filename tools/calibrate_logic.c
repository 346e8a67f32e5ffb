/* SPDX-License-Identifier: Apache-2.0 */
/* calibrate_logic.c - see calibrate_logic.h. */
#define _POSIX_C_SOURCE 200809L

#include "calibrate_logic.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Ratios are quotients of two measured times: a figure printed as 1.05
 * (e.g. 105 ns against 100 ns) must meet a 1.05 threshold whatever the
 * last bit of the division, so the comparison forgives 1e-9. */
#define FC_CAL_EPS 1e-9

int fc_cal_series_add(fc_cal_series *s, double ours_ns, double default_ns)
{
    if (!(ours_ns > 0) || !(default_ns > 0) || !isfinite(ours_ns) ||
        !isfinite(default_ns))
        return 0;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        double *o = realloc(s->ours, cap * sizeof(double));

        if (o == NULL)
            return 0;
        s->ours = o;
        o = realloc(s->dflt, cap * sizeof(double));
        if (o == NULL)
            return 0;
        s->dflt = o;
        s->cap = cap;
    }
    s->ours[s->n] = ours_ns;
    s->dflt[s->n] = default_ns;
    s->n++;
    return 1;
}

void fc_cal_series_free(fc_cal_series *s)
{
    free(s->ours);
    free(s->dflt);
    s->ours = s->dflt = NULL;
    s->n = s->cap = 0;
}

static int fc_cal_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

double fc_cal_quantile(const double *v, size_t n, double q)
{
    double *c = malloc(n * sizeof(double)), pos, r;
    size_t i;

    if (c == NULL)
        return NAN;
    memcpy(c, v, n * sizeof(double));
    qsort(c, n, sizeof(double), fc_cal_cmp);
    pos = q * (double)(n - 1);
    i = (size_t)pos;
    r = i + 1 < n ? c[i] + (c[i + 1] - c[i]) * (pos - (double)i) : c[n - 1];
    free(c);
    return r;
}

int fc_cal_series_stats(const fc_cal_series *s, double *median, double *q1)
{
    double *r;

    if (s->n == 0 || (r = malloc(s->n * sizeof(double))) == NULL)
        return 0;
    for (size_t i = 0; i < s->n; i++)
        r[i] = s->dflt[i] / s->ours[i];
    *median = fc_cal_quantile(r, s->n, 0.5);
    *q1 = fc_cal_quantile(r, s->n, 0.25);
    free(r);
    return 1;
}

int fc_cal_offered(double median, double q1)
{
    return q1 >= FC_CAL_Q1_MIN - FC_CAL_EPS &&
           median >= FC_CAL_MEDIAN_MIN - FC_CAL_EPS;
}

int fc_cal_family(const fc_cal_series *w, size_t n, fc_cal_result *r)
{
    memset(r, 0, sizeof(*r));
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        double m, q;

        if (!fc_cal_series_stats(&w[i], &m, &q))
            return 0;
        if (i == 0 || m < r->median) {
            r->median = m;
            r->worst = (int)i;
        }
        if (i == 0 || q < r->q1)
            r->q1 = q;
        if (i == 0 || w[i].n < r->rounds)
            r->rounds = w[i].n;
    }
    r->offer = fc_cal_offered(r->median, r->q1);
    return 1;
}

int fc_cal_record(char *buf, size_t len, const char *family,
                  const fc_cal_result *r, const char *ours,
                  const char *default_version, unsigned long ms,
                  const char *pick)
{
    int n;

    if (strpbrk(family, " \t\n") != NULL || strpbrk(ours, " \t\n") != NULL ||
        strpbrk(default_version, " \t\n") != NULL ||
        (pick != NULL && (pick[0] == '\0' || strpbrk(pick, " \t\n") != NULL)))
        return 0;
    n = snprintf(buf, len,
                 "family %s %s median=%.3f q1=%.3f ours=%s "
                 "default=%s ms=%lu%s%s",
                 family, r->offer ? "offer" : "no", r->median, r->q1, ours,
                 default_version, ms, pick != NULL ? " pick=" : "",
                 pick != NULL ? pick : "");
    return n > 0 && (size_t)n < len;
}

int fc_cal_picked(const fc_cal_result *base, const fc_cal_result *alt)
{
    return alt->median >= FC_CAL_PICK_MIN * base->median &&
           alt->q1 > base->median;
}

/* Makes |path|'s directory (one level, 0755) if it is missing. */
static void fc_cal_make_dir(const char *path)
{
    char *dir = strdup(path), *slash;

    if (dir == NULL)
        return;
    slash = strrchr(dir, '/');
    if (slash != NULL && slash != dir) {
        *slash = '\0';
        if (mkdir(dir, 0755) != 0 && errno != EEXIST)
            (void)0; /* the open below reports it */
    }
    free(dir);
}

int fc_cal_write_atomic(const char *path, const char *text, size_t len,
                        char *err, size_t errlen)
{
    size_t plen = strlen(path), done = 0;
    char *tmp = malloc(plen + 16), *dir;
    const char *slash;
    int fd, dfd;

    if (tmp == NULL) {
        snprintf(err, errlen, "out of memory");
        return 0;
    }
    fc_cal_make_dir(path);
    snprintf(tmp, plen + 16, "%s.tmpXXXXXX", path);
    if ((fd = mkstemp(tmp)) < 0) {
        snprintf(err, errlen, "cannot create a file beside %s: %s", path,
                 strerror(errno));
        free(tmp);
        return 0;
    }
    if (fchmod(fd, 0644) != 0)
        goto fail;
    while (done < len) {
        ssize_t w = write(fd, text + done, len - done);

        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            goto fail;
        done += (size_t)w;
    }
    if (fsync(fd) != 0 || close(fd) != 0) {
        fd = -1;
        goto fail;
    }
    fd = -1;
    if (rename(tmp, path) != 0)
        goto fail;
    /* The rename itself reaches the disk with the directory. */
    slash = strrchr(path, '/');
    dir = slash == NULL   ? strdup(".")
          : slash == path ? strdup("/")
                          : strndup(path, (size_t)(slash - path));
    if (dir != NULL && (dfd = open(dir, O_RDONLY | O_DIRECTORY)) >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    free(dir);
    free(tmp);
    return 1;
fail:
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    if (fd >= 0)
        close(fd);
    unlink(tmp);
    free(tmp);
    return 0;
}
