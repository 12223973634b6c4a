/* Umbrella header of CBlueproofSystem: one header per concern. */
#include "bp_spawn.h"
#include "bp_transport.h"
