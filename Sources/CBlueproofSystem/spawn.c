/* fork/exec for controller processes; the child only calls async-signal-safe functions. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bp_spawn.h"

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

static void child_fail(int error_fd) {
    int error = errno;
    ssize_t ignored = write(error_fd, &error, sizeof(error));
    (void)ignored;
    _exit(127);
}

static void child_setup(pid_t parent, int output_fd, int pass_fd, int ignore_sigpipe, int error_fd) {
    if (setpgid(0, 0) != 0) child_fail(error_fd);
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) child_fail(error_fd);
    if (getppid() != parent) _exit(127); /* the harness died before prctl */

    struct sigaction action;
    memset(&action, 0, sizeof(action));
    for (int sig = 1; sig < NSIG; sig++) {
        if (sig == SIGKILL || sig == SIGSTOP) continue;
        action.sa_handler = (sig == SIGPIPE && ignore_sigpipe) ? SIG_IGN : SIG_DFL;
        sigaction(sig, &action, NULL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);

    int null_fd = open("/dev/null", O_RDONLY);
    if (null_fd < 0 || dup2(null_fd, 0) < 0) child_fail(error_fd);
    if (dup2(output_fd, 1) < 0 || dup2(output_fd, 2) < 0) child_fail(error_fd);
    if (pass_fd >= 0) {
        if (pass_fd == 3) {
            if (fcntl(3, F_SETFD, 0) != 0) child_fail(error_fd);
        } else if (dup2(pass_fd, 3) < 0) {
            child_fail(error_fd);
        }
    }
    int first = pass_fd >= 0 ? 4 : 3;
    if (syscall(SYS_close_range, (unsigned)first, ~0U, CLOSE_RANGE_CLOEXEC) != 0) {
        for (int fd = first; fd < 4096; fd++) fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
    /* error_fd is close-on-exec too, so the parent reads end-of-file on success. */
    fcntl(error_fd, F_SETFD, FD_CLOEXEC);
}

pid_t bp_spawn(const char *path, char *const argv[], char *const envp[],
               int output_fd, int pass_fd, int ignore_sigpipe) {
    int error_pipe[2];
    if (pipe2(error_pipe, O_CLOEXEC) != 0) return -errno;
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int error = errno;
        close(error_pipe[0]);
        close(error_pipe[1]);
        return -error;
    }
    if (pid == 0) {
        close(error_pipe[0]);
        child_setup(parent, output_fd, pass_fd, ignore_sigpipe, error_pipe[1]);
        execve(path, argv, envp);
        child_fail(error_pipe[1]);
    }
    close(error_pipe[1]);
    int child_error = 0;
    ssize_t got;
    do {
        got = read(error_pipe[0], &child_error, sizeof(child_error));
    } while (got < 0 && errno == EINTR);
    close(error_pipe[0]);
    if (got == (ssize_t)sizeof(child_error)) {
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        return -child_error;
    }
    return pid;
}

int bp_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC) == 0 ? 0 : -errno;
}

int bp_wait_child(pid_t pid) {
    int status;
    for (;;) {
        if (waitpid(pid, &status, 0) >= 0) return status;
        if (errno != EINTR) return -errno;
    }
}

int bp_wait_status_code(int status) {
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return -WTERMSIG(status);
    return 0;
}
