/* Interposes socket(), bind(), unlink(), listen() and close() for btvirt and Rootcanal.
   See include/bp_preload.h for what each environment variable turns on. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
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
static ssize_t (*real_recv)(int, void *, size_t, int);

static int fake_af_alg;
static const char *socket_dir;
static int ready_fd = -1;
static int blocking_send;
static int translate_handles;
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
    real_recv = dlsym(RTLD_NEXT, "recv");

    const char *fake = getenv("BLUEPROOF_FAKE_AF_ALG");
    fake_af_alg = fake && strcmp(fake, "1") == 0;
    const char *dir = getenv("BLUEPROOF_SOCKET_DIR");
    socket_dir = (dir && *dir) ? dir : NULL;
    const char *fd = getenv("BLUEPROOF_READY_FD");
    ready_fd = fd ? atoi(fd) : -1;
    const char *blocking = getenv("BLUEPROOF_BLOCKING_SEND");
    blocking_send = blocking && strcmp(blocking, "1") == 0;
    const char *handles = getenv("BLUEPROOF_BTVIRT_HANDLES");
    translate_handles = handles && strcmp(handles, "1") == 0;
}

/* btvirt 5.66 (emulator/btdev.c) gives the two ends of a link their own handle, each the
   first free one from 42 on its controller (conn_new), but tells both hosts the initiator's
   (le_conn_complete, le_ext_conn_complete) and forwards ACL data with the sender's handle
   unchanged (send_acl). Once the two differ (a controller's second link: 43 on one side, 42
   on a fresh peer), the peripheral's data is dropped or goes down another link. With
   BLUEPROOF_BTVIRT_HANDLES=1 every host is told its own controller's handle, and whatever
   btvirt writes to one client while it handles another client's packet (ACL data, the
   peripheral's connection complete, events about the link) carries the receiver's handle.
   btvirt is single-threaded: the client last read is the one whose packet is handled. */
#define FIRST_HANDLE 42
#define MAX_LINKS 512

struct link_end { int fd; uint16_t handle; };
struct link { struct link_end a, b; int used; };
static struct link links[MAX_LINKS];
static int current_source = -1;

static int handle_in_use(int fd, uint16_t handle) {
    for (int i = 0; i < MAX_LINKS; i++) {
        if (!links[i].used) continue;
        if ((links[i].a.fd == fd && links[i].a.handle == handle) || (links[i].b.fd == fd && links[i].b.handle == handle))
            return 1;
    }
    return 0;
}

/* btdev.c conn_new: the first handle from 42 not in use on that controller. */
static uint16_t first_free_handle(int fd) {
    uint16_t handle = FIRST_HANDLE;
    while (handle_in_use(fd, handle)) handle++;
    return handle;
}

static void add_link(int fd_a, uint16_t handle_a, int fd_b, uint16_t handle_b) {
    for (int i = 0; i < MAX_LINKS; i++) {
        if (links[i].used) continue;
        links[i] = (struct link){ { fd_a, handle_a }, { fd_b, handle_b }, 1 };
        return;
    }
}

static struct link *find_link(int fd, uint16_t handle, struct link_end **other) {
    for (int i = 0; i < MAX_LINKS; i++) {
        if (!links[i].used) continue;
        if (links[i].a.fd == fd && links[i].a.handle == handle) { *other = &links[i].b; return &links[i]; }
        if (links[i].b.fd == fd && links[i].b.handle == handle) { *other = &links[i].a; return &links[i]; }
    }
    return NULL;
}

static void forget_fd(int fd) {
    for (int i = 0; i < MAX_LINKS; i++)
        if (links[i].used && (links[i].a.fd == fd || links[i].b.fd == fd)) links[i].used = 0;
}

static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }

/* The handle at p (low 12 bits), written by the current source about one of its links,
   becomes the handle of the same link on `to`. */
static void translate_at(int to, uint8_t *p) {
    int from = current_source;
    if (from < 0 || from == to) return;
    uint16_t raw = get16(p);
    struct link_end *other;
    if (find_link(from, raw & 0x0FFF, &other) && other->fd == to)
        put16(p, (uint16_t)((raw & 0xF000) | other->handle));
}

/* Rewrites one whole H4 packet that btvirt is about to write to `to`. */
static void translate_packet(int to, uint8_t *pkt, size_t len) {
    if (len >= 5 && pkt[0] == 0x02) { /* ACL data */
        translate_at(to, pkt + 1);
        return;
    }
    if (len < 3 || pkt[0] != 0x04 || (size_t)pkt[2] + 3 > len) return;
    uint8_t event = pkt[1], plen = pkt[2];
    uint8_t *p = pkt + 3;
    if (event == 0x05 && plen >= 3) { /* Disconnection Complete: both ends carry their own handle. */
        struct link_end *other;
        struct link *link = p[0] == 0 ? find_link(to, get16(p + 1), &other) : NULL;
        if (link) link->used = 0;
        return;
    }
    if ((event == 0x08 || event == 0x30) && plen >= 3) { translate_at(to, p + 1); return; } /* Encryption Change, Key Refresh */
    if (event != 0x3E || plen < 1) return;
    switch (p[0]) {
    case 0x01: case 0x0A: /* LE (Enhanced) Connection Complete */
        if (plen < 5 || p[1] != 0) return;
        if (p[4] == 0x01 && current_source >= 0 && current_source != to) {
            /* To the peripheral, during the initiator's create connection: btvirt gave the
               peripheral's end its own first free handle, but reports the initiator's. */
            uint16_t initiator = get16(p + 2) & 0x0FFF;
            uint16_t own = first_free_handle(to);
            add_link(current_source, initiator, to, own);
            put16(p + 2, own);
        }
        return;
    case 0x03: case 0x0C: if (plen >= 4) translate_at(to, p + 2); return; /* Connection Update, PHY Update */
    case 0x05: case 0x06: case 0x07: if (plen >= 3) translate_at(to, p + 1); return; /* LTK, Param Request, Data Length */
    case 0x12: if (plen >= 5) translate_at(to, p + 3); return; /* Advertising Set Terminated */
    default: return;
    }
}

ssize_t recv(int fd, void *buf, size_t len, int flags) {
    if (translate_handles) current_source = fd;
    return real_recv(fd, buf, len, flags);
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
    int blocking = blocking_send && (flags & MSG_DONTWAIT);
    if (!blocking && !translate_handles) return real_send(fd, buf, len, flags);
    uint8_t *copy = translate_handles ? malloc(len ? len : 1) : NULL;
    if (copy) {
        memcpy(copy, buf, len);
        translate_packet(fd, copy, len);
        buf = copy;
    }
    ssize_t sent = blocking ? send_whole(fd, buf, len, flags) : real_send(fd, buf, len, flags);
    free(copy);
    return sent;
}

/* A packet in pieces (H4 indicator, header, data) is joined, then sent whole. */
ssize_t sendmsg(int fd, const struct msghdr *msg, int flags) {
    int blocking = blocking_send && (flags & MSG_DONTWAIT);
    if ((!blocking && !translate_handles) || msg->msg_control || msg->msg_name)
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
    if (translate_handles) translate_packet(fd, (uint8_t *)joined, total);
    ssize_t sent = blocking ? send_whole(fd, joined, total, flags) : real_send(fd, joined, total, flags);
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
    if (translate_handles) {
        forget_fd(fd);
        if (current_source == fd) current_source = -1;
    }
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
