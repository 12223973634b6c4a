#include <unistd.h>
#include "bp_system.h"
int bp_system_page_size(void) { return (int)sysconf(_SC_PAGESIZE); }
