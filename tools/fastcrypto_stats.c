/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fastcrypto-stats - list the live operation counters of every program
 * using fastcrypto, per program and process, and their sums.
 *
 * Each provider instance keeps its counters in a one-page file in the
 * stats directory (fc/stats_file.h). This tool reads those files (read(2),
 * never a mapping: a file someone truncates cannot hurt it), decides for
 * each whether its process still runs, and prints. Files are taken from
 * other users too (as root): every field is checked before use.
 *
 * Process state:
 *   running  the process with that pid maps the file now (/proc/PID/maps),
 *            or, where maps cannot be read, a process with that pid and
 *            start time exists;
 *   exited   the provider was unloaded: a normal exit;
 *   gone     neither: the process left through _exit() or a signal, or
 *            exec'd another program. Its counts are what it had done.
 *
 * The stats directory: -d DIR, else FASTCRYPTO_STATS_DIR, else `stats_dir`
 * in the fastcrypto section of the OpenSSL config (OPENSSL_CONF or the
 * system's openssl.cnf, includes followed), else /run/fastcrypto.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <openssl/conf.h>
#include <openssl/err.h>

#include "fc/stats_file.h"

#define DEFAULT_DIR "/run/fastcrypto"

enum { ST_RUNNING, ST_EXITED, ST_GONE };
static const char *const state_names[] = {"running", "exited", "gone"};

typedef struct {
    char path[4096];
    fc_stats_file f;
    int state;
} entry;

static struct {
    int all, totals_only, zeros, raw, clean;
    long pid;
    const char *name;
} opt;

/* Reads the whole file into |f| twice until both reads agree, so that no
 * counter is torn by a concurrent update; 0 if it is not a stats file. */
static int read_entry(const char *path, fc_stats_file *f, struct stat *st)
{
    static union {
        fc_stats_file f;
        unsigned char b[FC_STATS_FILE_SIZE];
    } a, b;
    int fd, ok = 0;

    fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return 0;
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode) ||
        st->st_size != FC_STATS_FILE_SIZE)
        goto done;
    for (int tries = 0; tries < 5 && !ok; tries++) {
        if (pread(fd, a.b, sizeof(a.b), 0) != (ssize_t)sizeof(a.b) ||
            pread(fd, b.b, sizeof(b.b), 0) != (ssize_t)sizeof(b.b))
            goto done;
        ok = memcmp(a.f.counters, b.f.counters, sizeof(a.f.counters)) == 0;
    }
    if (!ok || memcmp(b.f.magic, FC_STATS_MAGIC, sizeof(FC_STATS_MAGIC)) != 0 ||
        b.f.version != FC_STATS_VERSION || b.f.size != FC_STATS_FILE_SIZE ||
        b.f.ncounters > FC_STATS_MAX || b.f.pid <= 0) {
        ok = 0;
        goto done;
    }
    *f = b.f;
    f->comm[sizeof(f->comm) - 1] = '\0';
    f->buildinfo[sizeof(f->buildinfo) - 1] = '\0';
    for (uint32_t i = 0; i < f->ncounters; i++)
        f->names[i][FC_STATS_NAME_LEN - 1] = '\0';
done:
    close(fd);
    return ok;
}

/* Field 22 of /proc/PID/stat, 0 if unreadable. */
static uint64_t start_ticks(long pid)
{
    char path[64], buf[1024];
    FILE *fp;
    size_t n;

    snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
    if ((fp = fopen(path, "re")) == NULL)
        return 0;
    n = fread(buf, 1, sizeof(buf) - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    return fc_stats_start_ticks(buf);
}

/* ST_RUNNING, ST_GONE, or -1 if /proc/PID/maps cannot tell. */
static int maps_state(long pid, const struct stat *st)
{
    char path[64], line[4096];
    unsigned int maj, mnr;
    unsigned long long ino;
    int found = 0;
    FILE *fp;

    snprintf(path, sizeof(path), "/proc/%ld/maps", pid);
    if ((fp = fopen(path, "re")) == NULL)
        return errno == ENOENT || errno == ESRCH ? ST_GONE : -1;
    while (!found && fgets(line, sizeof(line), fp) != NULL) {
        /* start-end perms offset MAJ:MIN inode path */
        if (sscanf(line, "%*s %*s %*s %x:%x %llu", &maj, &mnr, &ino) == 3)
            found = ino == (unsigned long long)st->st_ino &&
                    maj == major(st->st_dev) && mnr == minor(st->st_dev);
    }
    /* An empty read: a kernel thread or a process being reaped. */
    fclose(fp);
    return found ? ST_RUNNING : ST_GONE;
}

static int entry_state(const fc_stats_file *f, const struct stat *st)
{
    int s;

    if (__atomic_load_n(&f->state, __ATOMIC_RELAXED) == FC_STATS_EXITED)
        return ST_EXITED;
    if ((s = maps_state((long)f->pid, st)) >= 0)
        return s;
    if (kill((pid_t)f->pid, 0) != 0 && errno != EPERM)
        return ST_GONE;
    if (f->start_ticks != 0 && start_ticks((long)f->pid) != f->start_ticks)
        return ST_GONE;
    return ST_RUNNING;
}

/* stats_dir from the fastcrypto section of the OpenSSL config, or NULL. */
static char *dir_from_openssl_conf(void)
{
    char *file = CONF_get1_default_config_file(), *dir = NULL;
    const char *init, *provs;
    STACK_OF(CONF_VALUE) * sk;
    CONF *conf = NCONF_new(NULL);
    long eline;

    if (conf == NULL || file == NULL || NCONF_load(conf, file, &eline) <= 0)
        goto done;
    if ((init = NCONF_get_string(conf, NULL, "openssl_conf")) == NULL ||
        (provs = NCONF_get_string(conf, init, "providers")) == NULL ||
        (sk = NCONF_get_section(conf, provs)) == NULL)
        goto done;
    for (int i = 0; i < sk_CONF_VALUE_num(sk) && dir == NULL; i++) {
        const CONF_VALUE *v = sk_CONF_VALUE_value(sk, i);
        const char *mod = NCONF_get_string(conf, v->value, "module");
        const char *d;

        if (strcmp(v->name, "fastcrypto") != 0 &&
            (mod == NULL || strstr(mod, "fastcrypto") == NULL))
            continue;
        if ((d = NCONF_get_string(conf, v->value, "stats_dir")) != NULL)
            dir = strdup(d);
    }
done:
    ERR_clear_error();
    NCONF_free(conf);
    OPENSSL_free(file);
    return dir;
}

static int cmp_entry(const void *x, const void *y)
{
    const entry *a = x, *b = y;
    int c = strcmp(a->f.comm, b->f.comm);

    if (c != 0)
        return c;
    if (a->f.pid != b->f.pid)
        return a->f.pid < b->f.pid ? -1 : 1;
    return a->f.created < b->f.created ? -1 : a->f.created > b->f.created;
}

/* "name=value ..." of the counters in |f| (|sum| if not NULL instead). */
static void print_counters(const fc_stats_file *f, const uint64_t *sum)
{
    int any = 0;

    for (uint32_t i = 0; i < f->ncounters; i++) {
        uint64_t v = sum != NULL ? sum[i] : f->counters[i];
        if (v == 0 && !opt.zeros && !opt.raw)
            continue;
        printf(" %s=%" PRIu64, f->names[i], v);
        any = 1;
    }
    if (!any)
        printf(" (no operations yet)");
}

static void print_entry(const entry *e)
{
    const fc_stats_file *f = &e->f;
    char when[32];
    time_t t = (time_t)f->created;

    if (opt.raw) {
        printf("file=%s program=%s pid=%" PRId64 " ppid=%" PRId64
               " state=%s created=%" PRId64 " exited=%" PRId64 " inherited=%u",
               e->path, f->comm, f->pid, f->ppid, state_names[e->state],
               f->created, f->exited, f->inherited);
        print_counters(f, NULL);
        printf("\n");
        return;
    }
    strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", localtime(&t));
    printf("%-15s %8" PRId64 "  %-7s  since %s ", f->comm, f->pid,
           state_names[e->state], when);
    print_counters(f, NULL);
    if (f->inherited != 0)
        printf("  (and %u forked children without a file of their own)",
               f->inherited);
    printf("\n");
}

static int all_zero(const fc_stats_file *f)
{
    for (uint32_t i = 0; i < f->ncounters; i++)
        if (f->counters[i] != 0)
            return 0;
    return 1;
}

static int selected(const entry *e)
{
    if (opt.pid != 0 && e->f.pid != opt.pid)
        return 0;
    if (opt.name != NULL && strcmp(e->f.comm, opt.name) != 0)
        return 0;
    if (e->state == ST_RUNNING)
        return 1;
    /* A process that ended having done nothing is not worth a line (a
     * forked child that exec'd another program leaves such a file);
     * -z or -p shows it anyway. */
    return opt.all && (opt.zeros || opt.pid != 0 || !all_zero(&e->f));
}

static void usage(FILE *to)
{
    fprintf(to,
            "usage: fastcrypto-stats [-d DIR] [-a] [-p PID] [-n PROGRAM] "
            "[-s] [-z] [-r] [--clean]\n"
            "  live fastcrypto counters of the programs using it, per "
            "process and summed per program\n"
            "  -d DIR      stats directory (default: $FASTCRYPTO_STATS_DIR, "
            "else stats_dir\n"
            "              in the OpenSSL config, else " DEFAULT_DIR ")\n"
            "  -a          also processes that exited or are gone (_exit, "
            "killed, exec'd),\n"
            "              if they did anything (-z: also those)\n"
            "  -p PID      this process only\n"
            "  -n PROGRAM  this program only (its name as in ps -o comm)\n"
            "  -s          per-program totals only\n"
            "  -z          show counters that are zero\n"
            "  -r          raw: one line per file, every field, for "
            "scripts\n"
            "  --clean     delete the files of processes no longer running\n");
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"clean", no_argument, NULL, 'C'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *dir = NULL;
    char *conf_dir = NULL;
    entry *ents = NULL;
    size_t n = 0, cap = 0, shown = 0;
    struct dirent *de;
    DIR *dp;
    int c, rc = 0;

    while ((c = getopt_long(argc, argv, "d:ap:n:szrh", longopts, NULL)) != -1) {
        switch (c) {
        case 'd':
            dir = optarg;
            break;
        case 'a':
            opt.all = 1;
            break;
        case 'p':
            opt.pid = strtol(optarg, NULL, 10);
            break;
        case 'n':
            opt.name = optarg;
            break;
        case 's':
            opt.totals_only = 1;
            break;
        case 'z':
            opt.zeros = 1;
            break;
        case 'r':
            opt.raw = 1;
            break;
        case 'C':
            opt.clean = 1;
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
    }
    if (optind != argc) {
        usage(stderr);
        return 2;
    }
    if (dir == NULL && (dir = getenv("FASTCRYPTO_STATS_DIR")) != NULL &&
        *dir == '\0')
        dir = NULL;
    if (dir == NULL)
        dir = conf_dir = dir_from_openssl_conf();
    if (dir == NULL)
        dir = DEFAULT_DIR;
    if ((dp = opendir(dir)) == NULL) {
        fprintf(stderr,
                "fastcrypto-stats: %s: %s\n"
                "  (live counters need a stats directory: stats_dir = DIR "
                "in the fastcrypto section\n"
                "  of the OpenSSL config, or FASTCRYPTO_STATS_DIR=DIR in "
                "the program's environment)\n",
                dir, strerror(errno));
        free(conf_dir);
        return 1;
    }
    while ((de = readdir(dp)) != NULL) {
        size_t len = strlen(de->d_name), sl = strlen(FC_STATS_SUFFIX);
        struct stat st;

        if (len <= sl || strcmp(de->d_name + len - sl, FC_STATS_SUFFIX) != 0)
            continue;
        if (n == cap) {
            entry *ne = realloc(ents, (cap = cap ? 2 * cap : 16) * sizeof(*ne));
            if (ne == NULL) {
                fprintf(stderr, "fastcrypto-stats: out of memory\n");
                return 1;
            }
            ents = ne;
        }
        if (snprintf(ents[n].path, sizeof(ents[n].path), "%s/%s", dir,
                     de->d_name) >= (int)sizeof(ents[n].path) ||
            !read_entry(ents[n].path, &ents[n].f, &st))
            continue;
        ents[n].state = entry_state(&ents[n].f, &st);
        n++;
    }
    closedir(dp);
    if (n > 0)
        qsort(ents, n, sizeof(*ents), cmp_entry);

    if (opt.clean) {
        size_t kept = 0;
        for (size_t i = 0; i < n; i++) {
            if (ents[i].state == ST_RUNNING) {
                ents[kept++] = ents[i];
                continue;
            }
            if (unlink(ents[i].path) == 0) {
                printf("removed %s (%s[%" PRId64 "], %s)\n", ents[i].path,
                       ents[i].f.comm, ents[i].f.pid,
                       state_names[ents[i].state]);
            } else {
                fprintf(stderr, "fastcrypto-stats: cannot remove %s: %s\n",
                        ents[i].path, strerror(errno));
                rc = 1;
            }
        }
        n = kept;
    }

    for (size_t i = 0; i < n;) {
        /* One program: its processes, then their total. */
        size_t j = i, nproc = 0, nrun = 0;
        uint64_t sum[FC_STATS_MAX] = {0};
        const fc_stats_file *first = NULL;

        for (; j < n && strcmp(ents[j].f.comm, ents[i].f.comm) == 0; j++) {
            if (!selected(&ents[j]))
                continue;
            if (first == NULL)
                first = &ents[j].f;
            /* Counter names come from each file; sum by name. */
            for (uint32_t k = 0; k < ents[j].f.ncounters; k++)
                for (uint32_t m = 0; m < first->ncounters; m++)
                    if (strcmp(ents[j].f.names[k], first->names[m]) == 0)
                        sum[m] += ents[j].f.counters[k];
            nproc++;
            nrun += ents[j].state == ST_RUNNING;
            if (!opt.totals_only)
                print_entry(&ents[j]);
        }
        if (first != NULL && !opt.raw && (opt.totals_only || nproc > 1)) {
            printf("%-15s %8s  %zu process%s, %zu running ", first->comm,
                   "total", nproc, nproc == 1 ? "" : "es", nrun);
            print_counters(first, sum);
            printf("\n");
        }
        shown += nproc;
        i = j;
    }
    if (shown == 0 && !opt.raw)
        printf("fastcrypto-stats: no %sprocesses with counters in %s%s\n",
               opt.all ? "" : "running ", dir,
               opt.all ? "" : " (-a shows exited ones)");
    free(ents);
    free(conf_dir);
    return rc;
}
