// CMosquitto: the Eclipse Mosquitto client library (libmosquitto-dev), the MQTT client
// of `vidrec serve --mqtt`. Its API is plain functions and enums: nothing needs a shim.
#ifndef CMOSQUITTO_SHIM_H
#define CMOSQUITTO_SHIM_H

#include <mosquitto.h>

#endif
