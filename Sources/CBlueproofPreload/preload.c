#include "CBlueproofPreload.h"
int blueproof_preload_placeholder(void) { return 0; }
