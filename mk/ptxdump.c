/* mk/ptxdump.c - the PTX NVIDIA's OpenCL compiler makes of OpenCL C files
 * (configs/measured/h100/ptx/).  NVIDIA returns PTX as the program
 * "binary".  Not part of the build (it links OpenCL, like mgprobe):
 *     cc -O1 -o .devcarry/ptxdump mk/ptxdump.c -lOpenCL
 * then on the H100 machine (ICD registered as in mk/device_run.sh):
 *     .devcarry/ptxdump FILE.cl...   -> FILE.cl.ptx, build logs on stdout */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
    cl_platform_id ps[8]; cl_uint np = 0;
    clGetPlatformIDs(8, ps, &np);
    cl_device_id dev = NULL;
    for (cl_uint i = 0; i < np && !dev; i++) {
        char name[256]; clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (strstr(name, "NVIDIA")) clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL);
    }
    if (!dev) { fprintf(stderr, "no NVIDIA device\n"); return 1; }
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    for (int a = 1; a < argc; a++) {
        FILE *f = fopen(argv[a], "rb"); if (!f) { perror(argv[a]); continue; }
        static char src[1 << 20]; size_t n = fread(src, 1, sizeof src - 1, f); src[n] = 0; fclose(f);
        const char *s = src;
        cl_program p = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
        err = clBuildProgram(p, 1, &dev, "-cl-nv-verbose", NULL, NULL);
        static char log[1 << 16]; log[0] = 0;
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        printf("== %s: build %d\n%s\n", argv[a], err, log);
        size_t bs = 0; clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof bs, &bs, NULL);
        unsigned char *b = malloc(bs + 1); unsigned char *bp[1] = {b};
        clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bp, bp, NULL);
        char out[4096]; snprintf(out, sizeof out, "%s.ptx", argv[a]);
        FILE *o = fopen(out, "wb"); if (o) { fwrite(b, 1, bs, o); fclose(o); }
        free(b); clReleaseProgram(p);
    }
    return 0;
}
