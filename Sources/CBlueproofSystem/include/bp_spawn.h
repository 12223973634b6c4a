#ifndef BP_SPAWN_H
#define BP_SPAWN_H
#include <sys/types.h>

/* Starts a controller process that can never outlive the harness.

   The child gets its own process group (so a terminal's Ctrl-C reaches only the harness, which
   then tears the group down), SIGKILL as its parent-death signal (so SIGKILL of the harness
   still ends it), default signal handlers and an empty signal mask, except SIGPIPE, which is
   ignored when `ignore_sigpipe` is set (btvirt 5.66 otherwise dies when a client leaves).
   stdin is /dev/null; stdout and stderr go to `output_fd`; `pass_fd`, when >= 0, becomes
   descriptor 3; every other descriptor is closed on exec.

   Returns the child's pid, or -errno when fork or exec failed (exec errors are reported
   through a close-on-exec pipe, so a missing binary is an error here, not a dead child). */
pid_t bp_spawn(const char *path, char *const argv[], char *const envp[],
               int output_fd, int pass_fd, int ignore_sigpipe);

/* pipe2(fds, O_CLOEXEC): both ends close-on-exec from the start; 0 or -errno. */
int bp_pipe_cloexec(int fds[2]);

/* waitpid() for one child, blocking; returns the raw status, or -errno. */
int bp_wait_child(pid_t pid);
/* Decodes a raw wait status: exit code (>= 0) or -signal (< 0). */
int bp_wait_status_code(int status);

#endif
