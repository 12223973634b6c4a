#include <sys/socket.h>
#include "bp_socket.h"
int bp_socket_stream_cloexec(void) { return SOCK_STREAM | SOCK_CLOEXEC; }
