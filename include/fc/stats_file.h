/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc/stats_file.h - the layout of a live statistics file.
 *
 * With a stats directory configured (`stats_dir` in the provider's config
 * section, or FASTCRYPTO_STATS_DIR), each provider instance keeps its
 * operation counters in one page of a file it creates there at its first
 * counted operation, mapped MAP_SHARED: the provider updates the counters
 * in place with relaxed atomic adds, and `fastcrypto-stats` reads them at
 * any time, while the program runs and after it has gone. When a process
 * has ended, a later process of the same user folds its file into the
 * program's "ended" file (state FC_STATS_ENDED), which holds the sums of
 * every ended process of that program and user (provider/stats.c).
 *
 * The file is self-describing (counter names are stored in it), so a
 * fastcrypto-stats of one version reads the files of another. Fields are in
 * the writer's native byte order. The provider writes the whole page once
 * with write(2) when it creates the file (so the page is allocated and a
 * later store through the mapping can neither grow the file nor find a full
 * file system), then only stores into the mapping: counters, and at unload
 * |state| and |exited|. An ended file is rewritten whole with pwrite(2),
 * under flock(2), by the process folding a file into it.
 *
 * Readers must treat every field as untrusted: anyone who can write to the
 * directory can put any bytes in a file there.
 */
#ifndef FC_STATS_FILE_H
#define FC_STATS_FILE_H

#include <stdint.h>

#define FC_STATS_MAGIC     "FCSTATS" /* 7 characters and a NUL */
#define FC_STATS_VERSION   1
#define FC_STATS_FILE_SIZE 4096       /* one page: the whole file */
#define FC_STATS_MAX       32         /* counter slots */
#define FC_STATS_NAME_LEN  24         /* per counter name, NUL-padded */
#define FC_STATS_SUFFIX    ".fcstats" /* prog.pid.start.seq.fcstats */
#define FC_STATS_ENDED_TAG "ended"    /* prog.ended.uid.fcstats */

/* |state| */
enum {
    FC_STATS_RUNNING = 1, /* created; the process may still run */
    FC_STATS_EXITED = 2,  /* the provider was unloaded (a normal exit) */
    FC_STATS_ENDED = 3,   /* the sums of ended processes; pid is 0 */
};

typedef struct fc_stats_file {
    char magic[8];      /* FC_STATS_MAGIC */
    uint32_t version;   /* FC_STATS_VERSION */
    uint32_t size;      /* FC_STATS_FILE_SIZE */
    uint32_t ncounters; /* valid entries in names[] and counters[] */
    uint32_t state;     /* FC_STATS_RUNNING or FC_STATS_EXITED */
    int64_t pid;        /* the process counting here */
    int64_t ppid;
    uint64_t start_ticks; /* field 22 of /proc/<pid>/stat, 0 if unknown */
    int64_t created;      /* time(2) at creation */
    int64_t exited;       /* time(2) at unload, 0 before */
    /* Forked children that could not create a file of their own and count
     * here with their parent (atomic). */
    uint32_t inherited;
    uint32_t reserved;
    char comm[16];       /* program name (/proc/self/comm), NUL-terminated */
    char buildinfo[160]; /* the provider's buildinfo: kernels chosen */
    char names[FC_STATS_MAX][FC_STATS_NAME_LEN];
    /* One cache line per group of 8 counters; updated with atomics. */
    uint64_t counters[FC_STATS_MAX] __attribute__((aligned(64)));
    /* FC_STATS_ENDED only (zero elsewhere): how many processes' files were
     * folded in, and the name of the last one (a fold interrupted between
     * writing the sums and removing that file is not counted twice). In
     * an ended file |created| is when it was made, |exited| the last fold,
     * |inherited| the sum of the folded files' fields. */
    uint64_t merged;
    char last_folded[96];
} fc_stats_file;

_Static_assert(sizeof(fc_stats_file) <= FC_STATS_FILE_SIZE,
               "a stats file is one page");

/*
 * fc_stats_start_ticks returns the start time (field 22, in clock ticks)
 * from the text of a /proc/<pid>/stat file, or 0 if it has none. With the
 * pid it tells a process from a later one that reuses the pid.
 */
static inline uint64_t fc_stats_start_ticks(const char *stat)
{
    const char *p = stat, *q;
    uint64_t v = 0;
    int field = 2; /* the last ')' ends field 2, the command name */

    for (q = stat; *q != '\0'; q++)
        if (*q == ')')
            p = q;
    if (*p != ')')
        return 0;
    for (p++; *p != '\0' && field < 22; p++)
        if (*p == ' ')
            field++;
    for (; *p >= '0' && *p <= '9'; p++)
        v = v * 10 + (uint64_t)(*p - '0');
    return v;
}

#endif /* FC_STATS_FILE_H */
