#ifndef BP_SYSTEM_H
#define BP_SYSTEM_H
/* Small POSIX helpers Swift cannot call directly (variadic or macro-only APIs).
   Each header in this folder belongs to one concern. */
int bp_system_page_size(void);
#endif
