#ifndef BP_SOCKET_H
#define BP_SOCKET_H
/* SOCK_STREAM | SOCK_CLOEXEC. Glibc's socket type constants are not reliably visible to
   Swift when several C modules of the package include <sys/socket.h>; this one always is. */
int bp_socket_stream_cloexec(void);
#endif
