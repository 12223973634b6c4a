/* preload library: see preload.c */
