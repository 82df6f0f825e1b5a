/* main.c - the mgprobe command (placeholder until probe/ lands). */
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>

#include "version.h"

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--version")) {
        printf("mgprobe %s\n", MG_VERSION);
        return 0;
    }
    cl_uint n = 0;
    clGetPlatformIDs(0, NULL, &n);
    printf("%u OpenCL platforms\n", n);
    return 0;
}
