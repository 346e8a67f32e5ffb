/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fastcrypto-stats - list the live operation counters of every program
 * using fastcrypto, per program and process, and their sums.
 *
 * Each provider instance keeps its counters in a one-page file in the
 * stats directory (fc/stats_file.h); the counts of ended processes are
 * folded into one "ended" file per program and user. This tool reads those
 * files (read(2), never a mapping: a file someone truncates cannot hurt
 * it), decides for each whether its process still runs and whether the
 * file can be believed, and prints.
 *
 * Every file is hostile: in a shared directory any user who can write
 * there can put any bytes in one, under any name, claiming any program
 * and pid. So every field is checked before use (sizes, counts, pids,
 * times; strings are cut at their field's end), and every string from a
 * file or a file name is printed with each byte outside printable ASCII,
 * and the backslash, as \xHH (with -r also the space and '=', which
 * separate fields): no terminal escape reaches the reader's terminal.
 *
 * Process state:
 *   running  the process with that pid maps the file now (/proc/PID/maps),
 *            or, where maps cannot be read, a process with that pid and
 *            start time exists;
 *   exited   the provider was unloaded: a normal exit;
 *   gone     neither: the process left through _exit() or a signal, or
 *            exec'd another program. Its counts are what it had done;
 *   ended    the sums of ended processes of one program and user.
 *
 * Trust: a file is vouched for when its owner is root; or, for a running
 * process, one of that process's uids (/proc/PID/status); or, for anything
 * else (exited, gone, ended), the user running this tool or a user named
 * with -u. Any other file is listed with "[unverified: owner uid N]" and
 * summed only with the unverified files of the same program and owner,
 * never into the program's total: a user cannot add to another user's
 * program (a file claiming root's nginx), and a program name is only what
 * a process calls itself.
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
#include <pwd.h>
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
#define MAX_TRUST   16 /* -u USER options */

enum { ST_RUNNING, ST_EXITED, ST_GONE, ST_ENDED };
static const char *const state_names[] = {"running", "exited", "gone", "ended"};

typedef struct {
    char path[4096];
    fc_stats_file f;
    uid_t owner;
    int state;
    int trusted;
} entry;

static struct {
    int all, totals_only, zeros, raw, clean;
    long pid;
    const char *name;
    uid_t trust[MAX_TRUST];
    int ntrust;
} opt;

/*
 * esc writes the string |s| (at most |max| bytes, up to a NUL) to |out|
 * (room for 4 * |max| + 1) with every byte outside printable ASCII, the
 * backslash, and with -r the space and '=', as \xHH. Returns |out|.
 */
static const char *esc(const char *s, size_t max, char *out)
{
    static const char hex[] = "0123456789abcdef";
    char *o = out;

    for (size_t i = 0; i < max && s[i] != '\0'; i++) {
        unsigned char c = (unsigned char)s[i];

        if (c < 0x20 || c > 0x7e || c == '\\' ||
            (opt.raw && (c == ' ' || c == '='))) {
            *o++ = '\\';
            *o++ = 'x';
            *o++ = hex[c >> 4];
            *o++ = hex[c & 15];
        } else {
            *o++ = (char)c;
        }
    }
    *o = '\0';
    return out;
}

/* Prints the string |s| escaped (any length). */
static void put_esc(const char *s)
{
    char buf[4 * 64 + 1];

    for (size_t len = strlen(s); len > 0;) {
        size_t n = len < 64 ? len : 64;

        fputs(esc(s, n, buf), stdout);
        s += n;
        len -= n;
    }
}

/* A date for |t| (seconds since 1970), or "(time N)" if no calendar of
 * ours holds it. */
static const char *when(int64_t t, char *buf, size_t len)
{
    time_t tt = (time_t)t;
    struct tm tm;

    /* 1970 to 9999: localtime_r fails (NULL) or strftime overflows on
     * values far outside. */
    if (t < 0 || t > INT64_C(253402300799) || localtime_r(&tt, &tm) == NULL ||
        strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm) == 0)
        snprintf(buf, len, "(time %" PRId64 ")", t);
    return buf;
}

/* Reads the whole file into |f| twice until both reads agree, so that no
 * counter is torn by a concurrent update; 0 if it is not a stats file. */
static int read_entry(const char *path, fc_stats_file *f, struct stat *st)
{
    static union {
        fc_stats_file f;
        unsigned char b[FC_STATS_FILE_SIZE];
    } a, b;
    int fd, ok = 0, pid_ok;

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
        ok = memcmp(a.f.counters, b.f.counters, sizeof(a.f.counters)) == 0 &&
             a.f.merged == b.f.merged;
    }
    /* Live files name a pid the kernel could give; ended ones none. */
    pid_ok =
        b.f.state == FC_STATS_ENDED
            ? b.f.pid == 0
            : (b.f.state == FC_STATS_RUNNING || b.f.state == FC_STATS_EXITED) &&
                  b.f.pid > 0 && b.f.pid <= INT32_MAX;
    if (!ok || memcmp(b.f.magic, FC_STATS_MAGIC, sizeof(FC_STATS_MAGIC)) != 0 ||
        b.f.version != FC_STATS_VERSION || b.f.size != FC_STATS_FILE_SIZE ||
        b.f.ncounters > FC_STATS_MAX || !pid_ok) {
        ok = 0;
        goto done;
    }
    *f = b.f;
    f->comm[sizeof(f->comm) - 1] = '\0';
    f->buildinfo[sizeof(f->buildinfo) - 1] = '\0';
    f->last_folded[sizeof(f->last_folded) - 1] = '\0';
    for (uint32_t i = 0; i < FC_STATS_MAX; i++)
        f->names[i][FC_STATS_NAME_LEN - 1] = '\0';
    if (f->state != FC_STATS_ENDED)
        f->merged = 0;
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

    if (f->state == FC_STATS_ENDED)
        return ST_ENDED;
    if (f->state == FC_STATS_EXITED)
        return ST_EXITED;
    if ((s = maps_state((long)f->pid, st)) >= 0)
        return s;
    if (kill((pid_t)f->pid, 0) != 0 && errno != EPERM)
        return ST_GONE;
    if (f->start_ticks != 0 && start_ticks((long)f->pid) != f->start_ticks)
        return ST_GONE;
    return ST_RUNNING;
}

/* 1 if |uid| is one of process |pid|'s (real, effective, saved, fs). */
static int proc_has_uid(long pid, uid_t uid)
{
    char path[64], line[256];
    unsigned long u[4];
    int found = 0;
    FILE *fp;

    snprintf(path, sizeof(path), "/proc/%ld/status", pid);
    if ((fp = fopen(path, "re")) == NULL)
        return 0;
    while (fgets(line, sizeof(line), fp) != NULL) {
        if (sscanf(line, "Uid: %lu %lu %lu %lu", &u[0], &u[1], &u[2], &u[3]) !=
            4)
            continue;
        for (int i = 0; i < 4; i++)
            found |= u[i] == (unsigned long)uid;
        break;
    }
    fclose(fp);
    return found;
}

/* Whether |e|'s counts can be believed; see the top of this file. */
static int entry_trusted(const entry *e)
{
    if (e->owner == 0)
        return 1;
    if (e->state == ST_RUNNING)
        return proc_has_uid((long)e->f.pid, e->owner);
    if (e->owner == geteuid())
        return 1;
    for (int i = 0; i < opt.ntrust; i++)
        if (opt.trust[i] == e->owner)
            return 1;
    return 0;
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

/* Programs, then the vouched-for files before the others (by owner), then
 * processes in pid order. */
static int cmp_entry(const void *x, const void *y)
{
    const entry *a = x, *b = y;
    int c = strcmp(a->f.comm, b->f.comm);

    if (c != 0)
        return c;
    if (a->trusted != b->trusted)
        return b->trusted - a->trusted;
    if (!a->trusted && a->owner != b->owner)
        return a->owner < b->owner ? -1 : 1;
    if (a->f.pid != b->f.pid)
        return a->f.pid < b->f.pid ? -1 : 1;
    return a->f.created < b->f.created ? -1 : a->f.created > b->f.created;
}

/* Whether |a| and |b| are summed together. */
static int same_group(const entry *a, const entry *b)
{
    return strcmp(a->f.comm, b->f.comm) == 0 && a->trusted == b->trusted &&
           (a->trusted || a->owner == b->owner);
}

/* " name=value ..." for |n| counters (zeros only with -z or -r). */
static void print_counters(const char (*names)[FC_STATS_NAME_LEN],
                           const uint64_t *v, uint32_t n)
{
    char name[4 * FC_STATS_NAME_LEN + 1];
    int any = 0;

    for (uint32_t i = 0; i < n; i++) {
        if (v[i] == 0 && !opt.zeros && !opt.raw)
            continue;
        printf(" %s=%" PRIu64, esc(names[i], FC_STATS_NAME_LEN, name), v[i]);
        any = 1;
    }
    if (!any && !opt.raw)
        printf(" (no operations yet)");
}

static void print_entry(const entry *e)
{
    const fc_stats_file *f = &e->f;
    char comm[4 * sizeof(f->comm) + 1], t[48];

    esc(f->comm, sizeof(f->comm), comm);
    if (opt.raw) {
        printf("file=");
        put_esc(e->path);
        printf(" program=%s pid=%" PRId64 " ppid=%" PRId64
               " state=%s created=%" PRId64 " exited=%" PRId64
               " inherited=%u merged=%" PRIu64 " owner=%lu trusted=%s",
               comm, f->pid, f->ppid, state_names[e->state], f->created,
               f->exited, f->inherited, f->merged, (unsigned long)e->owner,
               e->trusted ? "yes" : "no");
        print_counters(f->names, f->counters, f->ncounters);
        printf("\n");
        return;
    }
    if (e->state == ST_ENDED)
        printf("%-15s %8s  %-7s  %" PRIu64 " processes, the last %s ", comm,
               "-", state_names[e->state], f->merged,
               when(f->exited, t, sizeof(t)));
    else
        printf("%-15s %8" PRId64 "  %-7s  since %s ", comm, f->pid,
               state_names[e->state], when(f->created, t, sizeof(t)));
    print_counters(f->names, f->counters, f->ncounters);
    if (f->inherited != 0)
        printf("  (and %u forked children without a file of their own)",
               f->inherited);
    if (!e->trusted)
        printf("  [unverified: owner uid %lu]", (unsigned long)e->owner);
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

/* --clean: removes the files of processes no longer running (and the
 * ended sums) that this user may remove (root: all); keeps the rest in
 * |ents|, whose new count it returns. */
static size_t clean(entry *ents, size_t n, int *rc)
{
    size_t kept = 0;
    char comm[4 * FC_STATS_NAME_LEN + 1];

    for (size_t i = 0; i < n; i++) {
        const entry *e = &ents[i];

        if (e->state == ST_RUNNING ||
            (geteuid() != 0 && e->owner != geteuid())) {
            ents[kept++] = *e;
            continue;
        }
        if (unlink(e->path) == 0) {
            printf("removed ");
            put_esc(e->path);
            printf(" (%s[%" PRId64 "], %s)\n",
                   esc(e->f.comm, sizeof(e->f.comm), comm), e->f.pid,
                   state_names[e->state]);
        } else if (errno != ENOENT) {
            fprintf(stderr, "fastcrypto-stats: cannot remove a file: %s\n",
                    strerror(errno));
            *rc = 1;
        }
    }
    return kept;
}

/* One program's (vouched-for or not) files: their lines, then their total;
 * returns how many were shown. */
static size_t print_group(const entry *g, size_t n)
{
    char names[FC_STATS_MAX][FC_STATS_NAME_LEN];
    char comm[4 * sizeof(g->f.comm) + 1];
    uint64_t sum[FC_STATS_MAX] = {0}, nproc = 0;
    uint32_t nn = 0;
    size_t shown = 0, nrun = 0;

    for (size_t j = 0; j < n; j++) {
        const fc_stats_file *f = &g[j].f;

        if (!selected(&g[j]))
            continue;
        /* Counter names come from each file; sum by name. */
        for (uint32_t k = 0; k < f->ncounters; k++) {
            uint32_t m;

            for (m = 0; m < nn; m++)
                if (strcmp(f->names[k], names[m]) == 0)
                    break;
            if (m == nn) {
                if (nn == FC_STATS_MAX)
                    continue;
                memcpy(names[nn++], f->names[k], FC_STATS_NAME_LEN);
            }
            sum[m] += f->counters[k];
        }
        nproc += g[j].state == ST_ENDED ? f->merged : 1;
        nrun += g[j].state == ST_RUNNING;
        shown++;
        if (!opt.totals_only)
            print_entry(&g[j]);
    }
    if (shown > 0 && !opt.raw && (opt.totals_only || shown > 1 || nproc > 1)) {
        esc(g->f.comm, sizeof(g->f.comm), comm);
        if (g->trusted)
            printf("%-15s %8s", comm, "total");
        else
            printf("%s [unverified: owner uid %lu] total", comm,
                   (unsigned long)g->owner);
        printf("  %" PRIu64 " process%s, %zu running ", nproc,
               nproc == 1 ? "" : "es", nrun);
        print_counters((const char(*)[FC_STATS_NAME_LEN])names, sum, nn);
        printf("\n");
    }
    return shown;
}

static void usage(FILE *to)
{
    fprintf(to,
            "usage: fastcrypto-stats [-d DIR] [-a] [-p PID] [-n PROGRAM] "
            "[-u USER] [-s] [-z] [-r] [--clean]\n"
            "  live fastcrypto counters of the programs using it, per "
            "process and summed per program\n"
            "  -d DIR      stats directory (default: $FASTCRYPTO_STATS_DIR, "
            "else stats_dir\n"
            "              in the OpenSSL config, else " DEFAULT_DIR ")\n"
            "  -a          also processes that ended: exited, gone (_exit, "
            "killed, exec'd)\n"
            "              and the sums of those already folded, if they "
            "did anything (-z: also those)\n"
            "  -p PID      this process only\n"
            "  -n PROGRAM  this program only (its name as in ps -o comm)\n"
            "  -u USER     vouch for USER's files of ended processes, as "
            "for your own\n"
            "  -s          per-program totals only\n"
            "  -z          show counters that are zero\n"
            "  -r          raw: one line per file, every field, for "
            "scripts\n"
            "  --clean     delete the files of processes no longer running "
            "and the sums\n"
            "              of ended ones (yours; root: all)\n");
}

/* -u USER: a name or a uid. */
static int add_trust(const char *user)
{
    struct passwd *pw = getpwnam(user);
    char *end;
    unsigned long v;

    if (opt.ntrust == MAX_TRUST)
        return 0;
    if (pw != NULL) {
        opt.trust[opt.ntrust++] = pw->pw_uid;
        return 1;
    }
    errno = 0;
    v = strtoul(user, &end, 10);
    if (*user == '\0' || *end != '\0' || errno != 0 || v > UINT32_MAX)
        return 0;
    opt.trust[opt.ntrust++] = (uid_t)v;
    return 1;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"clean", no_argument, NULL, 'C'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *dir = NULL;
    char *conf_dir = NULL, *end;
    entry *ents = NULL;
    size_t n = 0, cap = 0, shown = 0;
    struct dirent *de;
    DIR *dp;
    int c, rc = 0;

    while ((c = getopt_long(argc, argv, "d:ap:n:u:szrh", longopts, NULL)) !=
           -1) {
        switch (c) {
        case 'd':
            dir = optarg;
            break;
        case 'a':
            opt.all = 1;
            break;
        case 'p':
            errno = 0;
            opt.pid = strtol(optarg, &end, 10);
            if (*optarg == '\0' || *end != '\0' || errno != 0 || opt.pid <= 0) {
                usage(stderr);
                return 2;
            }
            break;
        case 'n':
            opt.name = optarg;
            break;
        case 'u':
            if (!add_trust(optarg)) {
                fprintf(stderr, "fastcrypto-stats: -u %s: no such user\n",
                        optarg);
                return 2;
            }
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
                closedir(dp);
                free(ents);
                free(conf_dir);
                return 1;
            }
            ents = ne;
        }
        if (snprintf(ents[n].path, sizeof(ents[n].path), "%s/%s", dir,
                     de->d_name) >= (int)sizeof(ents[n].path) ||
            !read_entry(ents[n].path, &ents[n].f, &st))
            continue;
        ents[n].owner = st.st_uid;
        ents[n].state = entry_state(&ents[n].f, &st);
        ents[n].trusted = entry_trusted(&ents[n]);
        n++;
    }
    closedir(dp);
    if (n > 0)
        qsort(ents, n, sizeof(*ents), cmp_entry);
    if (opt.clean)
        n = clean(ents, n, &rc);

    for (size_t i = 0; i < n;) {
        size_t j = i + 1;

        while (j < n && same_group(&ents[i], &ents[j]))
            j++;
        shown += print_group(&ents[i], j - i);
        i = j;
    }
    if (shown == 0 && !opt.raw) {
        printf("fastcrypto-stats: no %sprocesses with counters in ",
               opt.all ? "" : "running ");
        put_esc(dir);
        printf("%s\n", opt.all ? "" : " (-a shows ended ones)");
    }
    free(ents);
    free(conf_dir);
    return rc;
}
