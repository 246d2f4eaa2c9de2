/*
 * pixelmem's AppImage runtime: the ELF at the start of an AppImage (type 2), built from Debian
 * packages (libsquashfuse, libfuse3 and the decompressors, linked statically) because no
 * reachable package registry ships the upstream AppImage/type2-runtime. See README.md here.
 *
 * An AppImage is this executable followed by a squashfs image of the AppDir. Started, it
 *   - finds the end of its own ELF image (the squashfs starts there),
 *   - mounts the squashfs read-only with FUSE at $TMPDIR/.mount_<name>XXXXXX (a child process
 *     serves it, and unmounts when the application process ends),
 *   - runs AppRun from the mount with APPIMAGE, APPDIR, ARGV0 and OWD set, as the same process
 *     (exec), so the caller's process id, exit status and signals are the application's.
 * Where FUSE cannot be used (no /dev/fuse, no fusermount3, containers), it says so and
 *   --appimage-extract [PATTERN]  extracts the image (or the paths matching the fnmatch(3)
 *                                 PATTERN) into ./squashfs-root
 *   --appimage-extract-and-run    (or APPIMAGE_EXTRACT_AND_RUN=1) extracts into a temporary
 *                                 folder, runs AppRun there, forwards signals, removes the
 *                                 folder afterwards (kept with NO_CLEANUP=1) and exits with the
 *                                 application's status
 * work without it. Also: --appimage-mount (mount, print the mount point, serve until killed),
 * --appimage-offset, --appimage-help, --appimage-version. Other arguments go to the application.
 *
 * Format (as the upstream runtime): the magic 'A' 'I' 0x02 at offset 8 of the ELF header (set by
 * build.sh), and the sections .upd_info (update information, empty here), .sha256_sig and
 * .sig_key (no signature) and .digest_md5, which tools that read AppImages look for.
 */
#define _GNU_SOURCE
#define FUSE_USE_VERSION 31

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fuse3/fuse_lowlevel.h>
#include <squashfuse/ll.h>
#include <squashfuse/squashfuse.h>
#include <squashfuse/traverse.h>

#ifndef RUNTIME_VERSION
#define RUNTIME_VERSION "pixelmem-1"
#endif

/* Read by AppImage tools; same names and sizes as the upstream runtime. */
__attribute__((section(".upd_info"), used)) static const char update_information[1024] = "";
__attribute__((section(".sha256_sig"), used)) static const char signature[1024] = "";
__attribute__((section(".sig_key"), used)) static const char signature_key[8192] = "";
__attribute__((section(".digest_md5"), used)) static const char digest_md5[16] = "";

static const char *self_path;  /* this AppImage (absolute) */
static off_t fs_offset;        /* where the squashfs starts in it */

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("AppImage: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(127);
}

/* The size of the ELF image in `path`: the furthest end of its section header table, sections
   and segments. The squashfs is appended right after it. */
static off_t elf_size(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) die("cannot open %s: %s", path, strerror(errno));
    unsigned char ident[EI_NIDENT];
    if (pread(fd, ident, sizeof ident, 0) != (ssize_t)sizeof ident ||
        memcmp(ident, ELFMAG, SELFMAG) != 0 || ident[EI_CLASS] != ELFCLASS64 ||
        ident[EI_DATA] != ELFDATA2LSB)
        die("%s is not a 64-bit little-endian ELF file", path);
    Elf64_Ehdr eh;
    if (pread(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh) die("cannot read %s", path);
    off_t end = (off_t)(eh.e_shoff + (uint64_t)eh.e_shentsize * eh.e_shnum);
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        Elf64_Shdr sh;
        if (pread(fd, &sh, sizeof sh, (off_t)(eh.e_shoff + (uint64_t)i * eh.e_shentsize)) !=
            (ssize_t)sizeof sh)
            die("cannot read the section headers of %s", path);
        if (sh.sh_type != SHT_NOBITS && (off_t)(sh.sh_offset + sh.sh_size) > end)
            end = (off_t)(sh.sh_offset + sh.sh_size);
    }
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        if (pread(fd, &ph, sizeof ph, (off_t)(eh.e_phoff + (uint64_t)i * eh.e_phentsize)) !=
            (ssize_t)sizeof ph)
            die("cannot read the program headers of %s", path);
        if ((off_t)(ph.p_offset + ph.p_filesz) > end) end = (off_t)(ph.p_offset + ph.p_filesz);
    }
    close(fd);
    return end;
}

/* ---- extraction (no FUSE needed) ---------------------------------------------------------- */

static bool unsafe_path(const char *path) {
    /* Entries come from the image: never let one climb out of the target folder. */
    if (path[0] == '/') return true;
    for (const char *p = path; *p;) {
        const char *slash = strchr(p, '/');
        size_t len = slash ? (size_t)(slash - p) : strlen(p);
        if ((len == 2 && p[0] == '.' && p[1] == '.') || len == 0) return true;
        if (!slash) break;
        p = slash + 1;
    }
    return false;
}

static int write_file(sqfs *fs, sqfs_inode *inode, const char *dest, mode_t mode) {
    int fd = open(dest, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) return -1;
    static char buf[1 << 20];
    sqfs_off_t pos = 0, total = (sqfs_off_t)inode->xtra.reg.file_size;
    while (pos < total) {
        sqfs_off_t size = total - pos < (sqfs_off_t)sizeof buf ? total - pos : (sqfs_off_t)sizeof buf;
        if (sqfs_read_range(fs, inode, pos, &size, buf) != SQFS_OK || size <= 0) {
            close(fd);
            errno = EIO;
            return -1;
        }
        for (char *p = buf; p < buf + size;) {
            ssize_t n = write(fd, p, (size_t)(buf + size - p));
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) {
                close(fd);
                return -1;
            }
            p += n;
        }
        pos += size;
    }
    if (fchmod(fd, mode) != 0 || close(fd) != 0) return -1;
    return 0;
}

struct dir_mode {
    char *path;
    mode_t mode;
};

/* Extract the image into `target` (created if missing); with `pattern`, only matching paths.
   Returns 0, or -1 after printing what failed. */
static int extract(const char *target, const char *pattern, bool verbose) {
    sqfs fs;
    if (sqfs_open_image(&fs, self_path, (size_t)fs_offset) != SQFS_OK) {
        fprintf(stderr, "AppImage: %s holds no squashfs image at offset %lld\n", self_path,
                (long long)fs_offset);
        return -1;
    }
    if (mkdir(target, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "AppImage: cannot create %s: %s\n", target, strerror(errno));
        sqfs_destroy(&fs);
        return -1;
    }
    sqfs_traverse trv;
    if (sqfs_traverse_open(&trv, &fs, sqfs_inode_root(&fs)) != SQFS_OK) {
        fprintf(stderr, "AppImage: cannot read the image's root folder\n");
        sqfs_destroy(&fs);
        return -1;
    }
    struct dir_mode *dirs = NULL;
    size_t ndirs = 0;
    int rc = 0;
    sqfs_err err = SQFS_OK;
    char dest[PATH_MAX];
    while (rc == 0 && sqfs_traverse_next(&trv, &err)) {
        if (trv.dir_end) continue;
        if (unsafe_path(trv.path)) {
            fprintf(stderr, "AppImage: refusing the entry %s\n", trv.path);
            rc = -1;
            break;
        }
        if (pattern && fnmatch(pattern, trv.path, FNM_PATHNAME | FNM_LEADING_DIR) != 0) {
            /* a folder on the way to a match is still needed */
            if (!sqfs_dentry_is_dir(&trv.entry)) continue;
        }
        if (snprintf(dest, sizeof dest, "%s/%s", target, trv.path) >= (int)sizeof dest) {
            fprintf(stderr, "AppImage: path too long: %s\n", trv.path);
            rc = -1;
            break;
        }
        sqfs_inode inode;
        if (sqfs_inode_get(&fs, &inode, sqfs_dentry_inode(&trv.entry)) != SQFS_OK) {
            fprintf(stderr, "AppImage: cannot read the entry %s\n", trv.path);
            rc = -1;
            break;
        }
        mode_t mode = inode.base.mode & 07777;
        if (verbose) puts(dest);
        switch (inode.base.inode_type) {
        case SQUASHFS_DIR_TYPE:
        case SQUASHFS_LDIR_TYPE:
            if (mkdir(dest, 0700) != 0 && errno != EEXIST) rc = -1;
            else {
                struct dir_mode *grown = realloc(dirs, (ndirs + 1) * sizeof *dirs);
                if (!grown) die("out of memory");
                dirs = grown;
                dirs[ndirs].path = strdup(dest);
                dirs[ndirs++].mode = mode;
            }
            break;
        case SQUASHFS_REG_TYPE:
        case SQUASHFS_LREG_TYPE:
            unlink(dest);
            rc = write_file(&fs, &inode, dest, mode);
            break;
        case SQUASHFS_SYMLINK_TYPE:
        case SQUASHFS_LSYMLINK_TYPE: {
            size_t size = 0;
            char *link;
            if (sqfs_readlink(&fs, &inode, NULL, &size) != SQFS_OK || !(link = malloc(++size))) {
                rc = -1;
                break;
            }
            if (sqfs_readlink(&fs, &inode, link, &size) != SQFS_OK) rc = -1;
            else {
                unlink(dest);
                rc = symlink(link, dest);
            }
            free(link);
            break;
        }
        default:  /* devices, fifos, sockets: an AppDir has none */
            break;
        }
        if (rc != 0) fprintf(stderr, "AppImage: cannot write %s: %s\n", dest, strerror(errno));
    }
    if (rc == 0 && err != SQFS_OK) {
        fprintf(stderr, "AppImage: the image is damaged (reading its folders failed)\n");
        rc = -1;
    }
    /* Folder modes last (a read-only folder would have refused its own files), deepest first. */
    for (size_t i = ndirs; i-- > 0;) {
        if (rc == 0 && chmod(dirs[i].path, dirs[i].mode) != 0) rc = -1;
        free(dirs[i].path);
    }
    free(dirs);
    sqfs_traverse_close(&trv);
    sqfs_destroy(&fs);
    return rc;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st, (void)ftw;
    if (flag == FTW_DP) chmod(path, 0700);
    return remove(path) == 0 || errno == ENOENT ? 0 : -1;
}

static void remove_tree(const char *path) {
    /* make every folder writable first (a 0555 folder's files cannot be removed) */
    nftw(path, remove_entry, 32, FTW_DEPTH | FTW_PHYS);
}

/* ---- running AppRun --------------------------------------------------------------------- */

static void set_environment(const char *appdir, const char *argv0) {
    char cwd[PATH_MAX];
    setenv("APPIMAGE", self_path, 1);
    setenv("APPDIR", appdir, 1);
    setenv("ARGV0", argv0, 1);
    if (getcwd(cwd, sizeof cwd)) setenv("OWD", cwd, 1);
}

static void exec_apprun(const char *appdir, const char *argv0, int argc, char **argv) {
    char apprun[PATH_MAX];
    snprintf(apprun, sizeof apprun, "%s/AppRun", appdir);
    set_environment(appdir, argv0);
    char **args = calloc((size_t)argc + 1, sizeof *args);
    if (!args) die("out of memory");
    args[0] = apprun;
    for (int i = 1; i < argc; i++) args[i] = argv[i];
    execv(apprun, args);
    die("cannot run %s: %s", apprun, strerror(errno));
}

static pid_t app_pid;

static void forward_signal(int sig) {
    if (app_pid > 0) kill(app_pid, sig);
}

static int extract_and_run(const char *argv0, int argc, char **argv) {
    const char *tmp = getenv("TMPDIR");
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/appimage_extracted_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) die("cannot create a folder in %s: %s", tmp ? tmp : "/tmp", strerror(errno));
    if (extract(dir, NULL, false) != 0) {
        remove_tree(dir);
        return 127;
    }
    static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};
    struct sigaction sa = {.sa_handler = forward_signal};
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
        sigaction(forwarded[i], &sa, NULL);
    app_pid = fork();
    if (app_pid < 0) die("fork: %s", strerror(errno));
    if (app_pid == 0) {
        signal(SIGINT, SIG_DFL), signal(SIGTERM, SIG_DFL), signal(SIGHUP, SIG_DFL);
        signal(SIGQUIT, SIG_DFL), signal(SIGUSR1, SIG_DFL), signal(SIGUSR2, SIG_DFL);
        exec_apprun(dir, argv0, argc, argv);
    }
    int status = 0;
    while (waitpid(app_pid, &status, 0) < 0 && errno == EINTR) {
    }
    const char *keep = getenv("NO_CLEANUP");
    if (!(keep && *keep && strcmp(keep, "0") != 0)) remove_tree(dir);
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return 127;
}

/* ---- FUSE mount --------------------------------------------------------------------------- */

static struct fuse_lowlevel_ops squashfs_ops = {
    .getattr = sqfs_ll_op_getattr,
    .opendir = sqfs_ll_op_opendir,
    .releasedir = sqfs_ll_op_releasedir,
    .readdir = sqfs_ll_op_readdir,
    .lookup = sqfs_ll_op_lookup,
    .open = sqfs_ll_op_open,
    .create = sqfs_ll_op_create,
    .release = sqfs_ll_op_release,
    .read = sqfs_ll_op_read,
    .readlink = sqfs_ll_op_readlink,
    .listxattr = sqfs_ll_op_listxattr,
    .getxattr = sqfs_ll_op_getxattr,
    .forget = sqfs_ll_op_forget,
    .statfs = stfs_ll_op_statfs,
};

/* Serve the image at `mountpoint` until the FUSE session ends (unmounted, SIGTERM/SIGINT/SIGHUP,
   or the parent's death when `parent_dies` is set). Writes one byte to `ready_fd` once mounted.
   Returns the exit status for the serving process. */
static int serve(const char *mountpoint, int ready_fd) {
    sqfs_ll *ll = sqfs_ll_open(self_path, (size_t)fs_offset);
    if (!ll) return 1;
    char *fuse_argv[] = {(char *)"appimage", (char *)"-o", (char *)"ro,nodev,nosuid", NULL};
    struct fuse_args args = FUSE_ARGS_INIT(3, fuse_argv);
    sqfs_ll_chan ch;
    if (sqfs_ll_mount(&ch, mountpoint, &args, &squashfs_ops, sizeof squashfs_ops, ll) != SQFS_OK) {
        sqfs_ll_destroy(ll);
        free(ll);
        return 1;
    }
    int status = 0;
    if (fuse_set_signal_handlers(ch.session) == 0) {
        if (ready_fd >= 0) {
            (void)!write(ready_fd, "", 1);
            close(ready_fd);
        }
        status = fuse_session_loop(ch.session) < 0;
        fuse_remove_signal_handlers(ch.session);
    } else {
        status = 1;
    }
    sqfs_ll_unmount(&ch, mountpoint);
    sqfs_ll_destroy(ll);
    free(ll);
    return status;
}

/* Mount in a child process; returns once mounted (true) or failed (false). The child unmounts
   when this process (by then the application) ends. */
static bool mount_image(char *mountpoint, size_t size) {
    const char *tmp = getenv("TMPDIR");
    char name[NAME_MAX + 1];
    snprintf(name, sizeof name, "%s", self_path);
    snprintf(mountpoint, size, "%s/.mount_%.6sXXXXXX", tmp && *tmp ? tmp : "/tmp", basename(name));
    if (!mkdtemp(mountpoint)) return false;
    int ready[2];
    if (pipe2(ready, O_CLOEXEC) != 0) die("pipe: %s", strerror(errno));
    pid_t parent = getpid();
    pid_t child = fork();
    if (child < 0) die("fork: %s", strerror(errno));
    if (child == 0) {
        close(ready[0]);
        {
            prctl(PR_SET_PDEATHSIG, SIGTERM);
            if (getppid() != parent) _exit(0);
        }
        /* Not the application's output: a reader of its stdout must see EOF when it ends. */
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) dup2(null, 0), dup2(null, 1), close(null);
        int status = serve(mountpoint, ready[1]);
        rmdir(mountpoint);
        _exit(status);
    }
    close(ready[1]);
    char byte;
    ssize_t n;
    while ((n = read(ready[0], &byte, 1)) < 0 && errno == EINTR) {
    }
    close(ready[0]);
    if (n == 1) return true;
    waitpid(child, NULL, 0);
    rmdir(mountpoint);
    return false;
}

static void usage(const char *argv0) {
    printf("AppImage runtime %s (type 2)\n\n"
           "  %s [ARGS...]                     run the application\n"
           "  --appimage-extract [PATTERN]     extract (matching paths) into ./squashfs-root\n"
           "  --appimage-extract-and-run ...   extract to a temporary folder and run from there\n"
           "                                   (also APPIMAGE_EXTRACT_AND_RUN=1; NO_CLEANUP=1 keeps it)\n"
           "  --appimage-mount                 mount, print the mount point, serve until killed\n"
           "  --appimage-offset                print where the squashfs starts\n"
           "  --appimage-updateinformation     print the embedded update information\n"
           "  --appimage-version, --appimage-help\n",
           RUNTIME_VERSION, argv0);
}

int main(int argc, char **argv) {
    static char self[PATH_MAX];
    const char *target = getenv("TARGET_APPIMAGE");  /* as upstream: run another AppImage's payload */
    if (!realpath(target && *target ? target : "/proc/self/exe", self))
        die("cannot find this AppImage: %s", strerror(errno));
    self_path = self;
    fs_offset = elf_size(self_path);
    const char *argv0 = argv[0];
    const char *arg = argc > 1 ? argv[1] : "";

    if (strcmp(arg, "--appimage-offset") == 0) {
        printf("%lld\n", (long long)fs_offset);
        return 0;
    }
    if (strcmp(arg, "--appimage-help") == 0) {
        usage(argv0);
        return 0;
    }
    if (strcmp(arg, "--appimage-version") == 0) {
        printf("%s\n", RUNTIME_VERSION);
        return 0;
    }
    if (strcmp(arg, "--appimage-updateinformation") == 0) {
        printf("%s\n", update_information);
        return 0;
    }
    if (strcmp(arg, "--appimage-extract") == 0) {
        return extract("squashfs-root", argc > 2 ? argv[2] : NULL, true) == 0 ? 0 : 1;
    }
    const char *env_extract = getenv("APPIMAGE_EXTRACT_AND_RUN");
    if (strcmp(arg, "--appimage-extract-and-run") == 0) {
        argv[1] = argv[0];  /* drop the option: the application sees the other arguments */
        return extract_and_run(argv0, argc - 1, argv + 1);
    }
    if (strncmp(arg, "--appimage-", 11) == 0 && strcmp(arg, "--appimage-mount") != 0)
        die("unknown option %s (see --appimage-help)", arg);
    if (env_extract && strcmp(env_extract, "1") == 0) return extract_and_run(argv0, argc, argv);

    char mountpoint[PATH_MAX];
    bool mount_only = strcmp(arg, "--appimage-mount") == 0;
    if (!mount_image(mountpoint, sizeof mountpoint)) {
        fprintf(stderr,
                "AppImage: cannot mount the image with FUSE (see the message above).\n"
                "FUSE needs /dev/fuse and fusermount3 (Debian/Ubuntu: sudo apt-get install fuse3).\n"
                "Without FUSE, run it with --appimage-extract-and-run, or extract it with\n"
                "--appimage-extract and run squashfs-root/AppRun.\n");
        return 127;
    }
    if (mount_only) {
        printf("%s\n", mountpoint);
        fflush(stdout);
        int status = 0;
        while (wait(&status) < 0 && errno == EINTR) {
        }
        return 0;
    }
    exec_apprun(mountpoint, argv0, argc, argv);
}
