/* Interposes socket(), bind(), unlink(), listen() and close() for btvirt and Rootcanal.
   See include/bp_preload.h for what each environment variable turns on. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "bp_preload.h"

#ifndef AF_ALG
#define AF_ALG 38
#endif

#define SERVER_PREFIX "/tmp/bt-server-"
#define MAX_FAKE_FD 4096

static int (*real_socket)(int, int, int);
static int (*real_bind)(int, const struct sockaddr *, socklen_t);
static int (*real_listen)(int, int);
static int (*real_unlink)(const char *);
static int (*real_close)(int);
static ssize_t (*real_send)(int, const void *, size_t, int);
static ssize_t (*real_sendmsg)(int, const struct msghdr *, int);

static int fake_af_alg;
static const char *socket_dir;
static int ready_fd = -1;
static int blocking_send;
/* Descriptors that stand in for AF_ALG sockets the kernel could not make. */
static atomic_bool fake_fds[MAX_FAKE_FD];

int bp_preload_is_loaded(void) { return 1; }

__attribute__((constructor)) static void bp_preload_init(void) {
    real_socket = dlsym(RTLD_NEXT, "socket");
    real_bind = dlsym(RTLD_NEXT, "bind");
    real_listen = dlsym(RTLD_NEXT, "listen");
    real_unlink = dlsym(RTLD_NEXT, "unlink");
    real_close = dlsym(RTLD_NEXT, "close");
    real_send = dlsym(RTLD_NEXT, "send");
    real_sendmsg = dlsym(RTLD_NEXT, "sendmsg");

    const char *fake = getenv("BLUEPROOF_FAKE_AF_ALG");
    fake_af_alg = fake && strcmp(fake, "1") == 0;
    const char *dir = getenv("BLUEPROOF_SOCKET_DIR");
    socket_dir = (dir && *dir) ? dir : NULL;
    const char *fd = getenv("BLUEPROOF_READY_FD");
    ready_fd = fd ? atoi(fd) : -1;
    const char *blocking = getenv("BLUEPROOF_BLOCKING_SEND");
    blocking_send = blocking && strcmp(blocking, "1") == 0;
}

/* btvirt writes every packet to its client with send() or sendmsg() and MSG_DONTWAIT, and
   ignores the result (BlueZ emulator/server.c), so a reader that falls behind silently loses
   packets, or gets half of one and a broken H4 stream. With BLUEPROOF_BLOCKING_SEND=1 such a
   send waits for room and writes the whole packet, as a controller's own buffers would hold
   it back. */
static ssize_t send_whole(int fd, const void *buf, size_t len, int flags) {
    flags = (flags & ~MSG_DONTWAIT) | MSG_NOSIGNAL;
    size_t done = 0;
    while (done < len) {
        ssize_t n = real_send(fd, (const char *)buf + done, len - done, flags);
        if (n >= 0) {
            done += (size_t)n;
        } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
            struct pollfd wait = { .fd = fd, .events = POLLOUT };
            poll(&wait, 1, -1);
        } else if (errno != EINTR) {
            return done > 0 ? (ssize_t)done : -1;
        }
    }
    return (ssize_t)done;
}

ssize_t send(int fd, const void *buf, size_t len, int flags) {
    if (!blocking_send || !(flags & MSG_DONTWAIT)) return real_send(fd, buf, len, flags);
    return send_whole(fd, buf, len, flags);
}

/* A packet in pieces (H4 indicator, header, data) is joined, then sent whole. */
ssize_t sendmsg(int fd, const struct msghdr *msg, int flags) {
    if (!blocking_send || !(flags & MSG_DONTWAIT) || msg->msg_control || msg->msg_name)
        return real_sendmsg(fd, msg, flags);
    size_t total = 0;
    for (size_t i = 0; i < msg->msg_iovlen; i++) total += msg->msg_iov[i].iov_len;
    char *joined = malloc(total ? total : 1);
    if (!joined) return real_sendmsg(fd, msg, flags);
    size_t at = 0;
    for (size_t i = 0; i < msg->msg_iovlen; i++) {
        memcpy(joined + at, msg->msg_iov[i].iov_base, msg->msg_iov[i].iov_len);
        at += msg->msg_iov[i].iov_len;
    }
    ssize_t sent = send_whole(fd, joined, total, flags);
    free(joined);
    return sent;
}

/* Rewrites /tmp/bt-server-NAME to SOCKET_DIR/bt-server-NAME; returns 0 when not rewritten. */
static int redirect_path(const char *path, char *out, size_t size) {
    if (!socket_dir || !path || strncmp(path, SERVER_PREFIX, strlen(SERVER_PREFIX)) != 0) return 0;
    int n = snprintf(out, size, "%s/%s", socket_dir, path + strlen("/tmp/"));
    return n > 0 && (size_t)n < size;
}

int socket(int domain, int type, int protocol) {
    int fd = real_socket(domain, type, protocol);
    if (fd >= 0 || domain != AF_ALG || !fake_af_alg || errno != EAFNOSUPPORT) return fd;
    /* Same flags (CLOEXEC, NONBLOCK) on a socket that exists everywhere. */
    int flags = type & (SOCK_CLOEXEC | SOCK_NONBLOCK);
    fd = real_socket(AF_UNIX, SOCK_SEQPACKET | flags, 0);
    if (fd >= 0 && fd < MAX_FAKE_FD) atomic_store(&fake_fds[fd], 1);
    return fd;
}

int bind(int fd, const struct sockaddr *addr, socklen_t len) {
    if (fd >= 0 && fd < MAX_FAKE_FD && atomic_load(&fake_fds[fd]) && addr && addr->sa_family == AF_ALG) return 0;
    if (addr && addr->sa_family == AF_UNIX && len > offsetof(struct sockaddr_un, sun_path)) {
        const struct sockaddr_un *un = (const struct sockaddr_un *)addr;
        struct sockaddr_un moved;
        memset(&moved, 0, sizeof(moved));
        moved.sun_family = AF_UNIX;
        if (redirect_path(un->sun_path, moved.sun_path, sizeof(moved.sun_path)))
            return real_bind(fd, (const struct sockaddr *)&moved, sizeof(moved));
    }
    return real_bind(fd, addr, len);
}

int unlink(const char *path) {
    char moved[sizeof(((struct sockaddr_un *)0)->sun_path)];
    if (redirect_path(path, moved, sizeof(moved))) return real_unlink(moved);
    return real_unlink(path);
}

int close(int fd) {
    if (fd >= 0 && fd < MAX_FAKE_FD) atomic_store(&fake_fds[fd], 0);
    return real_close(fd);
}

int listen(int fd, int backlog) {
    int result = real_listen(fd, backlog);
    if (result != 0 || ready_fd < 0) return result;
    int saved = errno;
    struct sockaddr_storage addr;
    socklen_t len = sizeof(addr);
    char line[256];
    int n = 0;
    if (getsockname(fd, (struct sockaddr *)&addr, &len) == 0) {
        if (addr.ss_family == AF_UNIX)
            n = snprintf(line, sizeof(line), "unix %s\n", ((struct sockaddr_un *)&addr)->sun_path);
        else if (addr.ss_family == AF_INET)
            n = snprintf(line, sizeof(line), "tcp %u\n", ntohs(((struct sockaddr_in *)&addr)->sin_port));
        else if (addr.ss_family == AF_INET6)
            n = snprintf(line, sizeof(line), "tcp %u\n", ntohs(((struct sockaddr_in6 *)&addr)->sin6_port));
    }
    if (n > 0 && (size_t)n < sizeof(line)) {
        ssize_t ignored = write(ready_fd, line, (size_t)n);
        (void)ignored;
    }
    errno = saved;
    return result;
}
