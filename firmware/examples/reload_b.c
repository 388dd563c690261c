/* reload_b: reload_a.c with a different version (see there). */
#define RELOAD_VERSION 0xBu
#define RELOAD_NAME "reload_b version B"
#include "reload_a.c"
