#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <termios.h>
#include "bp_transport.h"

/* The value of HCIDEVDOWN from <bluetooth/hci.h>, spelled out so this target does not need
   the BlueZ headers; checked against them when they are present. */
#define BP_HCIDEVDOWN _IOW('H', 202, int)
#if __has_include(<bluetooth/bluetooth.h>) && __has_include(<bluetooth/hci.h>)
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
_Static_assert(BP_HCIDEVDOWN == HCIDEVDOWN, "HCIDEVDOWN differs from BlueZ's");
#endif

int bp_transport_cloexec_pipe(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

void bp_transport_name_thread(const char *name) {
    char shortened[16];
    snprintf(shortened, sizeof shortened, "%s", name);
    pthread_setname_np(pthread_self(), shortened);
}

int bp_transport_stream_socket(int family, int protocol) {
    return socket(family, SOCK_STREAM | SOCK_CLOEXEC, protocol);
}

int bp_transport_raw_socket(int family, int protocol) {
    return socket(family, SOCK_RAW | SOCK_CLOEXEC, protocol);
}

int bp_transport_sock_stream(void) { return SOCK_STREAM; }

int bp_transport_accept(int fd) { return accept4(fd, NULL, NULL, SOCK_CLOEXEC); }

int bp_transport_set_nonblocking(int fd, int on) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -1;
    flags = on ? (flags | O_NONBLOCK) : (flags & ~O_NONBLOCK);
    return fcntl(fd, F_SETFL, flags);
}

int bp_transport_hci_dev_down(int fd, int dev) {
    return ioctl(fd, BP_HCIDEVDOWN, dev);
}

unsigned int bp_transport_baud_constant(unsigned int rate) {
    switch (rate) {
    case 9600: return B9600;
    case 19200: return B19200;
    case 38400: return B38400;
    case 57600: return B57600;
    case 115200: return B115200;
    case 230400: return B230400;
#ifdef B460800
    case 460800: return B460800;
#endif
#ifdef B500000
    case 500000: return B500000;
#endif
#ifdef B921600
    case 921600: return B921600;
#endif
#ifdef B1000000
    case 1000000: return B1000000;
#endif
#ifdef B1500000
    case 1500000: return B1500000;
#endif
#ifdef B2000000
    case 2000000: return B2000000;
#endif
#ifdef B3000000
    case 3000000: return B3000000;
#endif
#ifdef B4000000
    case 4000000: return B4000000;
#endif
    default: return 0;
    }
}

int bp_transport_make_raw(int fd, unsigned int speed, int rtscts) {
    struct termios tio;
    if (tcgetattr(fd, &tio) != 0) return -1;
    cfmakeraw(&tio);
    tio.c_cflag |= CLOCAL | CREAD;
    tio.c_iflag &= ~(IXON | IXOFF | IXANY);
    if (rtscts) tio.c_cflag |= CRTSCTS; else tio.c_cflag &= ~CRTSCTS;
    tio.c_cc[VMIN] = 1;
    tio.c_cc[VTIME] = 0;
    if (cfsetispeed(&tio, (speed_t)speed) != 0) return -1;
    if (cfsetospeed(&tio, (speed_t)speed) != 0) return -1;
    if (tcsetattr(fd, TCSANOW, &tio) != 0) return -1;
    return tcflush(fd, TCIOFLUSH);
}

int bp_transport_read_line_settings(int fd, unsigned int *speed, int *rtscts, int *raw) {
    struct termios tio;
    if (tcgetattr(fd, &tio) != 0) return -1;
    *speed = (unsigned int)cfgetospeed(&tio);
    *rtscts = (tio.c_cflag & CRTSCTS) != 0;
    *raw = (tio.c_lflag & (ICANON | ECHO | ISIG | IEXTEN)) == 0
        && (tio.c_oflag & OPOST) == 0
        && (tio.c_iflag & (IXON | IXOFF | ICRNL | INLCR | IGNCR | ISTRIP)) == 0
        && (tio.c_cflag & CSIZE) == CS8
        && (tio.c_cflag & (CLOCAL | CREAD)) == (CLOCAL | CREAD)
        && tio.c_cc[VMIN] == 1 && tio.c_cc[VTIME] == 0;
    return 0;
}

int bp_transport_open_pty(char *name, unsigned long name_size) {
    int fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return -1;
    int code = 0;
    if (grantpt(fd) != 0 || unlockpt(fd) != 0) {
        code = errno;
    } else {
        code = ptsname_r(fd, name, name_size);
    }
    if (code != 0) {
        close(fd);
        errno = code;
        return -1;
    }
    return fd;
}
