/* version.h - the one place the version is written. */
#ifndef MG_VERSION_H
#define MG_VERSION_H
#define MG_VERSION "0.1.0"
#endif
