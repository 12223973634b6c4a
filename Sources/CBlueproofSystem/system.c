#include "CBlueproofSystem.h"
int blueproof_system_placeholder(void) { return 0; }
