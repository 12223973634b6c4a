#ifndef BP_TRANSPORT_H
#define BP_TRANSPORT_H
/* Helpers for BlueproofTransport: calls Swift cannot make directly (variadic fcntl/ioctl,
   ioctl request macros, termios flag and speed macros). Each returns 0 on success or -1
   with errno set, like the system calls they wrap. */

/* pipe2(fds, O_CLOEXEC): the wake pipe of a transport's reader thread. */
int bp_transport_cloexec_pipe(int fds[2]);

/* Names the calling thread (at most 15 characters are kept), for debuggers and top -H. */
void bp_transport_name_thread(const char *name);

/* socket(family, SOCK_STREAM | SOCK_CLOEXEC, protocol) and
   socket(family, SOCK_RAW | SOCK_CLOEXEC, protocol). glibc declares the SOCK_* values in an
   enum of bits/socket_type.h, which Swift files of a module that also depends on the BlueZ
   headers were seen not to find ("cannot find 'SOCK_STREAM' in scope", depending on how the
   compiler batched the files); these keep Swift away from them. */
int bp_transport_stream_socket(int family, int protocol);
int bp_transport_raw_socket(int family, int protocol);

/* accept4(fd, NULL, NULL, SOCK_CLOEXEC): a listener's next connection, or -1 with errno set. */
int bp_transport_accept(int fd);

/* SOCK_STREAM, for getaddrinfo hints. */
int bp_transport_sock_stream(void);

/* Sets or clears O_NONBLOCK on fd. */
int bp_transport_set_nonblocking(int fd, int on);

/* HCIDEVDOWN on an AF_BLUETOOTH/BTPROTO_HCI socket: powers adapter hciN down so that the
   HCI user channel can be bound to it. */
int bp_transport_hci_dev_down(int fd, int dev);

/* The termios speed constant (B115200, ...) for a rate in bits per second, or 0 when the
   platform has none for that rate. */
unsigned int bp_transport_baud_constant(unsigned int rate);

/* Puts a terminal into raw 8N1 mode for H4: no echo, no line editing, no output processing,
   no software flow control, CLOCAL|CREAD, read returns as soon as one byte is there
   (VMIN 1, VTIME 0), the given speed constant in both directions, RTS/CTS hardware flow
   control when rtscts is non-zero. Flushes both queues afterwards. */
int bp_transport_make_raw(int fd, unsigned int speed, int rtscts);

/* What bp_transport_make_raw set, read back from the terminal: output speed constant,
   whether RTS/CTS is on, and whether the line is raw (no ICANON, ECHO, ISIG, OPOST, IXON;
   CS8, CLOCAL, CREAD, VMIN 1, VTIME 0). Returns 0 or -1 with errno set. */
int bp_transport_read_line_settings(int fd, unsigned int *speed, int *rtscts, int *raw);

/* Opens a pseudo-terminal master (posix_openpt O_RDWR|O_NOCTTY|O_CLOEXEC, grantpt, unlockpt)
   and writes the slave's path into name. Returns the master fd, or -1 with errno set.
   Serial tests play the UART's far end on the master. */
int bp_transport_open_pty(char *name, unsigned long name_size);

#endif
